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
 * other and with numbers, and the distance between two temporal values (`duration.between`).
 *
 * A duration is applied unit by unit, months first, then days, then seconds and nanoseconds, as
 * java.time does: months move the calendar date (clamping the day to the month's end), days move it
 * further, and the time part moves the clock. A value without a date ignores months and days; a value
 * without a time (DATE) takes only the whole days contained in the seconds. A DATETIME in a named zone
 * applies months and days to its local date-time and the time part to its instant.
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

/** What `duration.between` and its `inMonths` / `inDays` / `inSeconds` variants keep. */
export type BetweenUnit = 'all' | 'months' | 'days' | 'seconds';

interface Parts {
  /** Local epoch day; undefined for values without a date. */
  readonly day: number | undefined;
  /** Local nanosecond of day; undefined for a DATE. */
  readonly nano: number | undefined;
  /** Offset in seconds; undefined for local values. */
  readonly offset: number | undefined;
}

function partsOf(t: TemporalPoint): Parts {
  if (t instanceof DateValue) return { day: t.epochDay, nano: undefined, offset: undefined };
  if (t instanceof LocalTimeValue) return { day: undefined, nano: t.nanoOfDay, offset: undefined };
  if (t instanceof TimeValue) return { day: undefined, nano: t.nanoOfDay, offset: t.offsetSeconds };
  if (t instanceof LocalDateTimeValue) return { day: t.epochDay, nano: t.nanoOfDay, offset: undefined };
  return { day: t.epochDay, nano: t.nanoOfDay, offset: t.offsetSeconds };
}

/**
 * The duration from `from` to `to`. When both have a date, whole months are counted first (a month
 * counts only once the day and time of day are reached), then whole days, then the time left; when
 * either lacks a date only the time of day differs. When both carry an offset, `to` is first moved
 * to `from`'s offset so that the result measures elapsed time.
 */
export function durationBetween(from: TemporalPoint, to: TemporalPoint, unit: BetweenUnit): DurationValue {
  const a = partsOf(from);
  let b = partsOf(to);
  if (a.offset !== undefined && b.offset !== undefined && a.offset !== b.offset && b.nano !== undefined) {
    const shifted = normalizeLocal(b.day ?? 0, b.nano + (a.offset - b.offset) * NANOS_PER_SECOND);
    b = { day: b.day === undefined ? undefined : shifted.epochDay, nano: b.day === undefined ? wrapDay(shifted.nanoOfDay) : shifted.nanoOfDay, offset: a.offset };
  }
  const nanoA = a.nano ?? 0;
  const nanoB = b.nano ?? 0;
  if (a.day === undefined || b.day === undefined) {
    return splitNanos(0, 0, BigInt(nanoB - nanoA), unit === 'months' ? 'none' : 'time');
  }
  let dayA = a.day;
  let months = 0;
  if (unit === 'all' || unit === 'months') {
    months = monthsUntil(dayA, nanoA, b.day, nanoB);
    const c = civilFromDays(dayA);
    const p = plusMonths(c.year, c.month, c.day, months);
    dayA = daysFromCivil(p.year, p.month, p.day);
    if (unit === 'months') return new DurationValue(months, 0, 0, 0);
  }
  let days = 0;
  if (unit === 'all' || unit === 'days') {
    days = b.day - dayA;
    if (days > 0 && nanoB < nanoA) days -= 1;
    else if (days < 0 && nanoB > nanoA) days += 1;
    dayA += days;
  }
  const rest = BigInt(b.day - dayA) * BigInt(NANOS_PER_DAY) + BigInt(nanoB - nanoA);
  return splitNanos(months, days, rest, 'time');
}

/** Whole months from (dayA, nanoA) to (dayB, nanoB), java.time LocalDateTime.until(MONTHS) style. */
function monthsUntil(dayA: number, nanoA: number, dayB: number, nanoB: number): number {
  let endDay = dayB;
  if (dayB > dayA && nanoB < nanoA) endDay -= 1;
  else if (dayB < dayA && nanoB > nanoA) endDay += 1;
  const s = civilFromDays(dayA);
  const e = civilFromDays(endDay);
  const packedS = (s.year * 12 + s.month - 1) * 32 + s.day;
  const packedE = (e.year * 12 + e.month - 1) * 32 + e.day;
  return Math.trunc((packedE - packedS) / 32);
}

function splitNanos(months: number, days: number, nanos: bigint, keep: 'time' | 'none'): DurationValue {
  if (keep === 'none') return new DurationValue(months, days, 0, 0);
  const ns = BigInt(NANOS_PER_SECOND);
  const seconds = nanos / ns;
  const rest = nanos % ns;
  return new DurationValue(months, days, safe(Number(seconds), 'seconds'), Number(rest));
}
