import { civilFromDays, daysFromCivil, NANOS_PER_DAY, NANOS_PER_SECOND, plusMonths } from '../../common/values/calendar.js';
import { DateTimeValue, DateValue, DurationValue, durationSecondsFit, LocalDateTimeValue, LocalTimeValue, TimeValue } from '../../common/values/temporal.js';
import { dateTimeFromLocal, withZoneSameInstant, zoneOf, type ZoneSpec } from '../../common/values/zoned.js';
import { arithmeticError } from '../errors.js';
import type { TemporalPoint } from './temporal-arithmetic.js';

/**
 * The distance between two temporal values: `duration.between` and its `inMonths` / `inDays` /
 * `inSeconds` forms.
 *
 * Two values of different kinds are first given what the other has, in this order (the rules of the
 * reference implementation, java.time `until` behind a Cypher adapter):
 *  1. a time of day: midnight, for the seconds form always, otherwise when only the other has one;
 *  2. a date: the other's date, when only the other has one;
 *  3. a zone: the other's zone or offset, when only the other has one; a local date-time then lives in
 *     that zone, so a distance across a daylight-saving change counts the hour gained or lost.
 * With both in a zone, calendar units (months, days) are counted on `to` seen in `from`'s zone and
 * the time left is elapsed time between the two instants. Times of day with offsets are compared as
 * instants of one day, without wrapping around midnight.
 */

/** What `duration.between` and its `inMonths` / `inDays` / `inSeconds` variants keep. */
export type BetweenUnit = 'all' | 'months' | 'days' | 'seconds';

/** One operand after alignment: a local date (or none), a time of day (or none) and a zone (or none). */
interface Parts {
  readonly day: number | undefined;
  readonly nano: number | undefined;
  readonly zone: ZoneSpec | undefined;
  /** The operand itself when it was a DATETIME, so its offset in an overlap is kept as given. */
  readonly given: DateTimeValue | undefined;
}

function partsOf(t: TemporalPoint): Parts {
  if (t instanceof DateValue) return { day: t.epochDay, nano: undefined, zone: undefined, given: undefined };
  if (t instanceof LocalTimeValue) return { day: undefined, nano: t.nanoOfDay, zone: undefined, given: undefined };
  if (t instanceof TimeValue) return { day: undefined, nano: t.nanoOfDay, zone: { offsetSeconds: t.offsetSeconds }, given: undefined };
  if (t instanceof LocalDateTimeValue) return { day: t.epochDay, nano: t.nanoOfDay, zone: undefined, given: undefined };
  return { day: t.epochDay, nano: t.nanoOfDay, zone: zoneOf(t), given: t };
}

function align(from: TemporalPoint, to: TemporalPoint, timeBased: boolean): [Parts, Parts] {
  let a = partsOf(from);
  let b = partsOf(to);
  if (timeBased) {
    a = { ...a, nano: a.nano ?? 0 };
    b = { ...b, nano: b.nano ?? 0 };
  } else if (a.nano !== undefined && b.nano === undefined) b = { ...b, nano: 0 };
  else if (b.nano !== undefined && a.nano === undefined) a = { ...a, nano: 0 };
  if (a.day !== undefined && b.day === undefined) b = { ...b, day: a.day };
  else if (b.day !== undefined && a.day === undefined) a = { ...a, day: b.day };
  if (a.zone !== undefined && b.zone === undefined) b = { ...b, zone: a.zone };
  else if (b.zone !== undefined && a.zone === undefined) a = { ...a, zone: b.zone };
  return [a, b];
}

/** A dated operand as local fields plus, when zoned, the instant they stand for. */
interface Dated {
  readonly day: number;
  readonly nano: number;
  readonly at: DateTimeValue | undefined;
}

function dated(p: Parts, day: number): Dated {
  const nano = p.nano ?? 0;
  if (p.zone === undefined) return { day, nano, at: undefined };
  const at = p.given !== undefined && p.given.epochDay === day ? p.given : dateTimeFromLocal(day, nano, p.zone);
  return { day: at.epochDay, nano: at.nanoOfDay, at };
}

/** `d` moved by whole days or months on its calendar, keeping its time of day (and zone). */
function plusCalendar(d: Dated, months: number, days: number): Dated {
  const c = civilFromDays(d.day);
  const p = plusMonths(c.year, c.month, c.day, months);
  const day = daysFromCivil(p.year, p.month, p.day) + days;
  if (d.at === undefined) return { day, nano: d.nano, at: undefined };
  const at = dateTimeFromLocal(day, d.nano, zoneOf(d.at));
  return { day: at.epochDay, nano: at.nanoOfDay, at };
}

/** Whole months from a to b, java.time LocalDateTime.until(MONTHS) style: a month counts once its day and time are reached. */
function monthsUntil(a: Dated, b: Dated): number {
  let endDay = b.day;
  if (b.day > a.day && b.nano < a.nano) endDay -= 1;
  else if (b.day < a.day && b.nano > a.nano) endDay += 1;
  const s = civilFromDays(a.day);
  const e = civilFromDays(endDay);
  const packedS = (s.year * 12 + s.month - 1) * 32 + s.day;
  const packedE = (e.year * 12 + e.month - 1) * 32 + e.day;
  return Math.trunc((packedE - packedS) / 32);
}

/** Whole days from a to b: a day counts once its time of day is reached. */
function daysUntil(a: Dated, b: Dated): number {
  const days = b.day - a.day;
  if (days > 0 && b.nano < a.nano) return days - 1;
  if (days < 0 && b.nano > a.nano) return days + 1;
  return days;
}

/** Nanoseconds from a to b: elapsed between instants when zoned, between wall clocks otherwise. */
function nanosUntil(a: Dated, b: Dated): bigint {
  if (a.at !== undefined && b.at !== undefined) {
    return BigInt(b.at.utcEpochDay - a.at.utcEpochDay) * BigInt(NANOS_PER_DAY) + BigInt(b.at.utcNanoOfDay - a.at.utcNanoOfDay);
  }
  return BigInt(b.day - a.day) * BigInt(NANOS_PER_DAY) + BigInt(b.nano - a.nano);
}

export function durationBetween(from: TemporalPoint, to: TemporalPoint, unit: BetweenUnit): DurationValue {
  const [a, b] = align(from, to, unit === 'seconds');
  if (a.day === undefined || b.day === undefined) return betweenTimes(a, b, unit);
  let start = dated(a, a.day);
  let end = dated(b, b.day);
  // Calendar units are counted with both ends on the start's clock.
  if (start.at !== undefined && end.at !== undefined) {
    const seen = withZoneSameInstant(end.at, zoneOf(start.at));
    end = { day: seen.epochDay, nano: seen.nanoOfDay, at: seen };
  }
  switch (unit) {
    case 'months':
      return new DurationValue(monthsUntil(start, end), 0, 0, 0);
    case 'days':
      return new DurationValue(0, daysUntil(start, end), 0, 0);
    case 'seconds':
      return fromNanos(0, 0, nanosUntil(start, end));
    case 'all': {
      // Only two dated values are measured in months and days; a time of day given a date by
      // alignment measures the hours between, never a calendar distance.
      if (from instanceof LocalTimeValue || from instanceof TimeValue || to instanceof LocalTimeValue || to instanceof TimeValue) {
        return fromNanos(0, 0, nanosUntil(start, end));
      }
      const months = monthsUntil(start, end);
      start = plusCalendar(start, months, 0);
      const days = daysUntil(start, end);
      start = plusCalendar(start, 0, days);
      return fromNanos(months, days, nanosUntil(start, end));
    }
  }
}

/** Two times of day (neither has a date): only the seconds between them, as instants when both carry an offset. */
function betweenTimes(a: Parts, b: Parts, unit: BetweenUnit): DurationValue {
  if (unit === 'months' || unit === 'days') return DurationValue.ZERO;
  const offsetA = a.zone !== undefined && 'offsetSeconds' in a.zone ? a.zone.offsetSeconds : 0;
  const offsetB = b.zone !== undefined && 'offsetSeconds' in b.zone ? b.zone.offsetSeconds : 0;
  const nanos = BigInt(b.nano ?? 0) - BigInt(a.nano ?? 0) - BigInt(offsetB - offsetA) * BigInt(NANOS_PER_SECOND);
  return fromNanos(0, 0, nanos);
}

function fromNanos(months: number, days: number, nanos: bigint): DurationValue {
  const ns = BigInt(NANOS_PER_SECOND);
  // Floored, so the nanoseconds are in [0, 1e9) before the range check.
  let seconds = nanos / ns;
  let rest = nanos % ns;
  if (rest < 0n) {
    seconds -= 1n;
    rest += ns;
  }
  if (!durationSecondsFit(seconds)) throw arithmeticError('IntegerOverflow', 'duration seconds out of range');
  return new DurationValue(months, days, seconds, Number(rest));
}
