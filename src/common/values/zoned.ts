import { floorDiv, NANOS_PER_DAY, NANOS_PER_SECOND, SECONDS_PER_DAY } from './calendar.js';
import { DateTimeValue, DurationValue } from './temporal.js';
import { resolveLocal, zoneOffsetAt } from './time-zone.js';

/** Where a zoned value lives: a fixed offset, or a named IANA zone whose offset depends on the instant. */
export type ZoneSpec = { readonly offsetSeconds: number } | { readonly zone: string };

/**
 * A datetime from local fields in a zone. With a named zone the offset is the zone's at that local time,
 * resolved as java.time does (earlier offset in an overlap; a local time in a gap moves later).
 */
export function dateTimeFromLocal(epochDay: number, nanoOfDay: number, spec: ZoneSpec): DateTimeValue {
  if ('offsetSeconds' in spec) return new DateTimeValue(epochDay, nanoOfDay, spec.offsetSeconds, null);
  const localSecond = epochDay * SECONDS_PER_DAY + Math.floor(nanoOfDay / NANOS_PER_SECOND);
  const { offset, shift } = resolveLocal(spec.zone, localSecond);
  if (shift === 0) return new DateTimeValue(epochDay, nanoOfDay, offset, spec.zone);
  const shifted = normalizeLocal(epochDay, nanoOfDay + shift * NANOS_PER_SECOND);
  return new DateTimeValue(shifted.epochDay, shifted.nanoOfDay, offset, spec.zone);
}

/** A datetime for an instant (UTC epoch day and nano of day) shown in a zone. */
export function dateTimeFromInstant(utcEpochDay: number, utcNanoOfDay: number, spec: ZoneSpec): DateTimeValue {
  const offset =
    'offsetSeconds' in spec
      ? spec.offsetSeconds
      : zoneOffsetAt(spec.zone, utcEpochDay * SECONDS_PER_DAY + Math.floor(utcNanoOfDay / NANOS_PER_SECOND));
  const local = normalizeLocal(utcEpochDay, utcNanoOfDay + offset * NANOS_PER_SECOND);
  return new DateTimeValue(local.epochDay, local.nanoOfDay, offset, 'zone' in spec ? spec.zone : null);
}

/** The same instant in another zone. */
export function withZoneSameInstant(dt: DateTimeValue, spec: ZoneSpec): DateTimeValue {
  return dateTimeFromInstant(dt.utcEpochDay, dt.utcNanoOfDay, spec);
}

export function zoneOf(dt: DateTimeValue): ZoneSpec {
  return dt.zone === null ? { offsetSeconds: dt.offsetSeconds } : { zone: dt.zone };
}

/** Offset a zone has at a local date-time (for `time({timezone: 'Europe/Stockholm'})`, which has no instant of its own). */
export function offsetForLocal(epochDay: number, nanoOfDay: number, spec: ZoneSpec): number {
  return dateTimeFromLocal(epochDay, nanoOfDay, spec).offsetSeconds;
}

/** Carries nanoseconds outside [0, day) into the day count. Both inputs may be any safe integers. */
export function normalizeLocal(epochDay: number, nanoOfDay: number): { epochDay: number; nanoOfDay: number } {
  const carry = floorDiv(nanoOfDay, NANOS_PER_DAY);
  return { epochDay: epochDay + carry, nanoOfDay: nanoOfDay - carry * NANOS_PER_DAY };
}

/** Average month of the Gregorian cycle: 365.2425 / 12 days, the length Cypher gives a fractional month. */
export const AVG_SECONDS_PER_MONTH = 2_629_746;

/**
 * A duration from possibly fractional unit totals. Integral totals are taken exactly; a fraction of a
 * month is carried into days as an average month, a fraction of a day into seconds, a fraction of a
 * second into nanoseconds (the rules Cypher implementations share, e.g. 0.75 months = 22 days and
 * 19:51:49.5). Returns undefined when a component leaves the safe integer range.
 */
export function durationFromTotals(months: number, days: number, seconds: number, nanos: number): DurationValue | undefined {
  if (![months, days, seconds, nanos].every(Number.isFinite)) return undefined;
  const m = Math.trunc(months);
  days += ((months - m) * AVG_SECONDS_PER_MONTH) / SECONDS_PER_DAY;
  const d = Math.trunc(days);
  seconds += (days - d) * SECONDS_PER_DAY;
  const s = Math.trunc(seconds);
  nanos += (seconds - s) * NANOS_PER_SECOND;
  // Nanoseconds are the unit: a leftover fraction of one is dropped (toward zero), except for the
  // binary noise of decimal inputs (0.1 s carried down as 99999999.99999999 ns), which is rounded away.
  const nearest = Math.round(nanos);
  const n = Math.abs(nanos - nearest) < 1e-6 ? nearest : Math.trunc(nanos);
  if (![m, d, s, n].every(Number.isSafeInteger)) return undefined;
  const total = s + Math.floor(n / NANOS_PER_SECOND);
  if (!Number.isSafeInteger(total)) return undefined;
  return new DurationValue(m, d, s, n);
}
