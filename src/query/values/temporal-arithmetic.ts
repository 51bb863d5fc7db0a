import {
  civilFromDays,
  daysFromCivil,
  NANOS_PER_DAY,
  NANOS_PER_SECOND,
  plusMonths,
  SECONDS_PER_DAY,
  YEAR_MAX,
  YEAR_MIN,
} from '../../common/values/calendar.js';
import {
  DateTimeValue,
  DateValue,
  DurationValue,
  durationSecondsFit,
  LocalDateTimeValue,
  LocalTimeValue,
  TimeValue,
} from '../../common/values/temporal.js';
import type { Value } from '../../common/values/value.js';
import { dateTimeFromInstant, dateTimeFromLocal, durationFromTotals, normalizeLocal, zoneOf } from '../../common/values/zoned.js';
import { arithmeticError } from '../errors.js';

/**
 * Temporal arithmetic: a duration added to or taken from an instant-like value, durations with each
 * other and with numbers.
 *
 * A duration is applied unit by unit, months first, then days, then seconds and nanoseconds, as
 * java.time does: months move the calendar date (clamping the day to the month's end), days move it
 * further, and the time part moves the clock. A value without a date ignores months and days; a value
 * without a time (DATE) takes only the whole days contained in the seconds. A DATETIME in a named zone
 * applies months and days to its local date-time and the time part to its instant. The distance between
 * two values is in temporal-between.ts.
 */

export type TemporalPoint = DateValue | LocalTimeValue | TimeValue | LocalDateTimeValue | DateTimeValue;

export function isTemporalPoint(v: Value): v is TemporalPoint {
  return (
    v instanceof DateValue ||
    v instanceof LocalTimeValue ||
    v instanceof TimeValue ||
    v instanceof LocalDateTimeValue ||
    v instanceof DateTimeValue
  );
}

function checkDay(epochDay: number): number {
  const { year } = civilFromDays(epochDay);
  if (!Number.isSafeInteger(epochDay) || year < YEAR_MIN || year > YEAR_MAX) {
    throw arithmeticError('InvalidArgumentValue', 'temporal arithmetic left the supported range of years');
  }
  return epochDay;
}

function shiftDate(epochDay: number, months: number, days: number): number {
  let day = epochDay;
  if (months !== 0) {
    const c = civilFromDays(day);
    const p = plusMonths(c.year, c.month, c.day, months);
    if (p.year < YEAR_MIN || p.year > YEAR_MAX) throw arithmeticError('InvalidArgumentValue', 'date out of range');
    day = daysFromCivil(p.year, p.month, p.day);
  }
  return checkDay(day + days);
}

/** `point + sign * duration`, sign being 1 or -1. */
export function temporalPlusDuration(t: TemporalPoint, d: DurationValue, sign: 1 | -1): TemporalPoint {
  const months = sign * d.months;
  const days = sign * d.days;
  // The time part as whole days and the nanoseconds of a part day, so that no product leaves 2^53 (whole
  // days of 64-bit seconds stay below 2^47).
  const seconds = BigInt(sign) * d.seconds;
  const nanos = sign * d.nanos;
  const wholeDays = Number(seconds / SECONDS_PER_DAY_BIG);
  if (t instanceof DateValue) {
    return new DateValue(shiftDate(t.epochDay, months, days + wholeDays));
  }
  const dayNanos = Number(seconds % SECONDS_PER_DAY_BIG) * NANOS_PER_SECOND + nanos;
  if (t instanceof LocalTimeValue) return new LocalTimeValue(wrapDay(t.nanoOfDay + dayNanos));
  if (t instanceof TimeValue) return new TimeValue(wrapDay(t.nanoOfDay + dayNanos), t.offsetSeconds);
  if (t instanceof LocalDateTimeValue) {
    const date = shiftDate(t.epochDay, months, days);
    const n = normalizeLocal(date + wholeDays, t.nanoOfDay + dayNanos);
    return new LocalDateTimeValue(checkDay(n.epochDay), n.nanoOfDay);
  }
  const date = shiftDate(t.epochDay, months, days);
  const local = months === 0 && days === 0 ? t : dateTimeFromLocal(date, t.nanoOfDay, zoneOf(t));
  const n = normalizeLocal(local.utcEpochDay + wholeDays, local.utcNanoOfDay + dayNanos);
  return dateTimeFromInstant(checkDay(n.epochDay), n.nanoOfDay, zoneOf(t));
}

function wrapDay(nanos: number): number {
  const r = nanos % NANOS_PER_DAY;
  return r < 0 ? r + NANOS_PER_DAY : r + 0;
}

const SECONDS_PER_DAY_BIG = BigInt(SECONDS_PER_DAY);
const NANOS_PER_SECOND_BIG = BigInt(NANOS_PER_SECOND);

function safe(n: number, what: string): number {
  if (!Number.isSafeInteger(n)) throw arithmeticError('IntegerOverflow', `duration ${what} out of range`);
  return n;
}

/** A duration from exact seconds and nanoseconds (any magnitude): nanoseconds carried, then the 64-bit range checked. */
function exactDuration(months: number, days: number, seconds: bigint, nanos: bigint): DurationValue {
  let s = seconds + nanos / NANOS_PER_SECOND_BIG;
  let n = nanos % NANOS_PER_SECOND_BIG;
  if (n < 0n) {
    s -= 1n;
    n += NANOS_PER_SECOND_BIG;
  }
  if (!durationSecondsFit(s)) throw arithmeticError('IntegerOverflow', 'duration seconds out of range');
  return new DurationValue(months, days, s, Number(n));
}

export function durationPlus(a: DurationValue, b: DurationValue): DurationValue {
  return exactDuration(safe(a.months + b.months, 'months'), safe(a.days + b.days, 'days'), a.seconds + b.seconds, BigInt(a.nanos + b.nanos));
}

export function durationNegate(a: DurationValue): DurationValue {
  return exactDuration(-a.months, -a.days, -a.seconds, BigInt(-a.nanos));
}

export function durationMinus(a: DurationValue, b: DurationValue): DurationValue {
  return durationPlus(a, durationNegate(b));
}

/** Duration times a number: exact per unit for an INTEGER, fractional parts carried down for a FLOAT. */
export function durationMultiply(d: DurationValue, factor: bigint | number): DurationValue {
  if (typeof factor === 'bigint') {
    const f = Number(factor);
    const months = d.months * f;
    const days = d.days * f;
    if (!Number.isSafeInteger(months) || !Number.isSafeInteger(days)) throw arithmeticError('IntegerOverflow', 'duration multiplication overflows');
    return exactDuration(months, days, d.seconds * factor, BigInt(d.nanos) * factor);
  }
  return approximate(d.months * factor, d.days * factor, Number(d.seconds) * factor, d.nanos * factor);
}

export function durationDivide(d: DurationValue, divisor: bigint | number): DurationValue {
  const f = Number(divisor);
  if (f === 0) throw arithmeticError('DivisionByZero', 'duration divided by zero');
  return approximate(d.months / f, d.days / f, Number(d.seconds) / f, d.nanos / f);
}

function approximate(months: number, days: number, seconds: number, nanos: number): DurationValue {
  const r = durationFromTotals(months, days, seconds, nanos);
  if (r === undefined) throw arithmeticError('IntegerOverflow', 'duration out of range');
  return r;
}
