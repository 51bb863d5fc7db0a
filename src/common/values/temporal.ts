import { assert } from '../assert.js';
import {
  civilFromDays,
  dayOfWeek,
  floorDiv,
  floorMod,
  NANOS_PER_DAY,
  NANOS_PER_SECOND,
  YEAR_MAX,
  YEAR_MIN,
} from './calendar.js';
import { formatOffset, OFFSET_SECONDS_MAX, pad2 } from './time-zone.js';

/**
 * The temporal values of Cypher as small immutable classes. Every field is a JavaScript number and
 * every count stays below 2^53: a date is an epoch day, a time of day is nanoseconds since midnight
 * (< 8.64e13), and a date-time keeps the two apart instead of one nanosecond count, which would not fit.
 * `toString()` is the ISO 8601 text Cypher shows (java.time `toString` style); the TCK compares it.
 */

export class DateValue {
  readonly kind = 'date' as const;
  readonly year: number;
  readonly month: number;
  readonly day: number;
  /** Invariant: an integer whose year lies in [YEAR_MIN, YEAR_MAX]. */
  constructor(readonly epochDay: number) {
    assert(Number.isInteger(epochDay), 'epoch day must be an integer');
    const c = civilFromDays(epochDay);
    assert(c.year >= YEAR_MIN && c.year <= YEAR_MAX, 'date out of range');
    this.year = c.year;
    this.month = c.month;
    this.day = c.day;
  }
  get dayOfWeek(): number {
    return dayOfWeek(this.epochDay);
  }
  toString(): string {
    return formatDate(this.year, this.month, this.day);
  }
}

export class LocalTimeValue {
  readonly kind = 'localtime' as const;
  /** Invariant: integer in [0, NANOS_PER_DAY). */
  constructor(readonly nanoOfDay: number) {
    assert(Number.isInteger(nanoOfDay) && nanoOfDay >= 0 && nanoOfDay < NANOS_PER_DAY, 'time of day out of range');
  }
  toString(): string {
    return formatTimeOfDay(this.nanoOfDay);
  }
}

export class TimeValue {
  readonly kind = 'time' as const;
  /** Invariant: nanoOfDay integer in [0, NANOS_PER_DAY); |offsetSeconds| <= 18h. */
  constructor(
    readonly nanoOfDay: number,
    readonly offsetSeconds: number,
  ) {
    assert(Number.isInteger(nanoOfDay) && nanoOfDay >= 0 && nanoOfDay < NANOS_PER_DAY, 'time of day out of range');
    assert(Number.isInteger(offsetSeconds) && Math.abs(offsetSeconds) <= OFFSET_SECONDS_MAX, 'offset out of range');
  }
  /** The time of day in UTC, used to compare times with different offsets; may leave [0, day). */
  get utcNanoOfDay(): number {
    return this.nanoOfDay - this.offsetSeconds * NANOS_PER_SECOND;
  }
  toString(): string {
    return formatTimeOfDay(this.nanoOfDay) + formatOffset(this.offsetSeconds);
  }
}

export class LocalDateTimeValue {
  readonly kind = 'localdatetime' as const;
  constructor(
    readonly epochDay: number,
    readonly nanoOfDay: number,
  ) {
    assert(Number.isInteger(nanoOfDay) && nanoOfDay >= 0 && nanoOfDay < NANOS_PER_DAY, 'time of day out of range');
  }
  get date(): DateValue {
    return new DateValue(this.epochDay);
  }
  toString(): string {
    const c = civilFromDays(this.epochDay);
    return `${formatDate(c.year, c.month, c.day)}T${formatTimeOfDay(this.nanoOfDay)}`;
  }
}

/**
 * A date-time at an offset, optionally in a named IANA zone. The local fields are what the clock on the
 * wall showed; the instant is derived. When `zone` is set, `offsetSeconds` is that zone's offset at the
 * instant (the constructor's caller resolves it, see time-zone.ts).
 */
export class DateTimeValue {
  readonly kind = 'datetime' as const;
  /** The instant as a UTC epoch day and nanosecond of that day. */
  readonly utcEpochDay: number;
  readonly utcNanoOfDay: number;
  constructor(
    readonly epochDay: number,
    readonly nanoOfDay: number,
    readonly offsetSeconds: number,
    readonly zone: string | null,
  ) {
    assert(Number.isInteger(nanoOfDay) && nanoOfDay >= 0 && nanoOfDay < NANOS_PER_DAY, 'time of day out of range');
    assert(Number.isInteger(offsetSeconds) && Math.abs(offsetSeconds) <= OFFSET_SECONDS_MAX, 'offset out of range');
    const utc = nanoOfDay - offsetSeconds * NANOS_PER_SECOND;
    const carry = floorDiv(utc, NANOS_PER_DAY);
    this.utcEpochDay = epochDay + carry;
    this.utcNanoOfDay = utc - carry * NANOS_PER_DAY;
  }
  /** Seconds since the epoch (may pass 2^53 only for years beyond +-285 million). */
  get epochSecond(): number {
    return this.utcEpochDay * 86_400 + Math.floor(this.utcNanoOfDay / NANOS_PER_SECOND);
  }
  get nanoOfSecond(): number {
    return this.nanoOfDay % NANOS_PER_SECOND;
  }
  toString(): string {
    const c = civilFromDays(this.epochDay);
    const base = `${formatDate(c.year, c.month, c.day)}T${formatTimeOfDay(this.nanoOfDay)}${formatOffset(this.offsetSeconds)}`;
    return this.zone === null ? base : `${base}[${this.zone}]`;
  }
}

/** The seconds of a duration are a signed 64-bit integer, as in java.time. */
export const DURATION_SECONDS_MAX = (1n << 63n) - 1n;
export const DURATION_SECONDS_MIN = -(1n << 63n);

export function durationSecondsFit(seconds: bigint): boolean {
  return seconds >= DURATION_SECONDS_MIN && seconds <= DURATION_SECONDS_MAX;
}

/**
 * A duration in the four independent units Cypher keeps: months, days, seconds and nanoseconds. Months
 * and days are not folded into seconds (a month has no fixed length). Seconds are a BigInt because
 * Cypher durations hold 64-bit seconds: the distance between the first and the last representable
 * instants is about 6.3e16 s, past 2^53. Invariants: nanos in [0, 1e9); seconds in
 * [DURATION_SECONDS_MIN, DURATION_SECONDS_MAX]; the sign of a fractional negative second is carried by
 * `seconds` (-0.5s = -1s + 5e8ns).
 */
export class DurationValue {
  readonly kind = 'duration' as const;
  readonly months: number;
  readonly days: number;
  readonly seconds: bigint;
  readonly nanos: number;
  /** `seconds` may be given as a safe-integer number; callers check the 64-bit range first (`durationSecondsFit`). */
  constructor(months: number, days: number, seconds: number | bigint, nanos: number) {
    assert(
      Number.isSafeInteger(months) && Number.isSafeInteger(days) && (typeof seconds === 'bigint' || Number.isSafeInteger(seconds)) && Number.isSafeInteger(nanos),
      'duration components must be safe integers',
    );
    const carry = floorDiv(nanos, NANOS_PER_SECOND);
    this.months = months + 0;
    this.days = days + 0;
    this.seconds = BigInt(seconds) + BigInt(carry);
    this.nanos = floorMod(nanos, NANOS_PER_SECOND);
    assert(durationSecondsFit(this.seconds), 'duration seconds out of range');
  }
  static readonly ZERO = new DurationValue(0, 0, 0, 0);

  toString(): string {
    return formatDuration(this);
  }
}

export type TemporalValue = DateValue | LocalTimeValue | TimeValue | LocalDateTimeValue | DateTimeValue | DurationValue;

export function formatYear(year: number): string {
  if (year > 9999) return `+${year}`;
  if (year < 0) return `-${String(-year).padStart(4, '0')}`;
  return String(year).padStart(4, '0');
}

export function formatDate(year: number, month: number, day: number): string {
  return `${formatYear(year)}-${pad2(month)}-${pad2(day)}`;
}

/** `HH:MM`, then `:SS` when seconds or nanos are set, then 3, 6 or 9 fraction digits (java.time LocalTime). */
export function formatTimeOfDay(nanoOfDay: number): string {
  const totalSeconds = Math.floor(nanoOfDay / NANOS_PER_SECOND);
  const nano = nanoOfDay - totalSeconds * NANOS_PER_SECOND;
  const h = Math.floor(totalSeconds / 3600);
  const m = Math.floor((totalSeconds % 3600) / 60);
  const s = totalSeconds % 60;
  let out = `${pad2(h)}:${pad2(m)}`;
  if (s === 0 && nano === 0) return out;
  out += `:${pad2(s)}`;
  if (nano === 0) return out;
  if (nano % 1_000_000 === 0) return `${out}.${String(nano / 1_000_000).padStart(3, '0')}`;
  if (nano % 1000 === 0) return `${out}.${String(nano / 1000).padStart(6, '0')}`;
  return `${out}.${String(nano).padStart(9, '0')}`;
}

/** ISO 8601 duration as Cypher prints it: `P1Y2M3DT4H5M6.7S`, zero units left out, `PT0S` for zero. */
export function formatDuration(d: DurationValue): string {
  let out = 'P';
  const years = Math.trunc(d.months / 12);
  const months = d.months % 12;
  if (years !== 0) out += `${years}Y`;
  if (months !== 0) out += `${months}M`;
  if (d.days !== 0) out += `${d.days}D`;
  if (d.seconds !== 0n || d.nanos !== 0) {
    // Present the time part with one sign: -0.5s is stored as -1s + 5e8ns but printed as -0.5S.
    let s = d.seconds;
    let n = d.nanos;
    if (s < 0n && n !== 0) {
      s += 1n;
      n -= NANOS_PER_SECOND;
    }
    out += 'T';
    // BigInt division truncates toward zero, as the units of a negative duration must.
    const h = s / 3600n;
    if (h !== 0n) out += `${h}H`;
    s -= h * 3600n;
    const m = s / 60n;
    if (m !== 0n) out += `${m}M`;
    s -= m * 60n;
    if (s !== 0n || n !== 0) {
      const negative = s < 0n || n < 0;
      const absS = s < 0n ? -s : s;
      const absN = Math.abs(n);
      out += negative ? '-' : '';
      out += String(absS);
      if (absN !== 0) out += `.${String(absN).padStart(9, '0').replace(/0+$/, '')}`;
      out += 'S';
    }
  }
  return out === 'P' ? 'PT0S' : out;
}
