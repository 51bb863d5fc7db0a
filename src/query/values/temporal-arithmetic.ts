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
  // The time part as one signed nanosecond count, split so that no product leaves 2^53.
  const seconds = sign * d.seconds;
  const nanos = sign * d.nanos;
  if (t instanceof DateValue) {
    return new DateValue(shiftDate(t.epochDay, months, days + Math.trunc(seconds / SECONDS_PER_DAY)));
  }
  const dayNanos = (seconds % SECONDS_PER_DAY) * NANOS_PER_SECOND + nanos;
  const wholeDays = Math.trunc(seconds / SECONDS_PER_DAY);
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

function safe(n: number, what: string): number {
  if (!Number.isSafeInteger(n)) throw arithmeticError('IntegerOverflow', `duration ${what} out of range`);
  return n;
}

export function durationPlus(a: DurationValue, b: DurationValue): DurationValue {
  return new DurationValue(
    safe(a.months + b.months, 'months'),
    safe(a.days + b.days, 'days'),
    safe(a.seconds + b.seconds, 'seconds'),
    a.nanos + b.nanos,
  );
}

export function durationNegate(a: DurationValue): DurationValue {
  return new DurationValue(-a.months, -a.days, -a.seconds, -a.nanos);
}

export function durationMinus(a: DurationValue, b: DurationValue): DurationValue {
  return durationPlus(a, durationNegate(b));
}

/** Duration times a number: exact per unit for an INTEGER, fractional parts carried down for a FLOAT. */
export function durationMultiply(d: DurationValue, factor: bigint | number): DurationValue {
  if (typeof factor === 'bigint') {
    const f = Number(factor);
    const parts = [d.months * f, d.days * f, d.seconds * f, d.nanos * f];
    if (parts.every(Number.isSafeInteger)) {
      return new DurationValue(parts[0] as number, parts[1] as number, parts[2] as number, parts[3] as number);
    }
    throw arithmeticError('IntegerOverflow', 'duration multiplication overflows');
  }
  return approximate(d.months * factor, d.days * factor, d.seconds * factor, d.nanos * factor);
}

export function durationDivide(d: DurationValue, divisor: bigint | number): DurationValue {
  const f = Number(divisor);
  if (f === 0) throw arithmeticError('DivisionByZero', 'duration divided by zero');
  return approximate(d.months / f, d.days / f, d.seconds / f, d.nanos / f);
}

function approximate(months: number, days: number, seconds: number, nanos: number): DurationValue {
  const r = durationFromTotals(months, days, seconds, nanos);
  if (r === undefined) throw arithmeticError('IntegerOverflow', 'duration out of range');
  return r;
}
