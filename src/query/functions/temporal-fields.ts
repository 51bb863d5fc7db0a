import {
  civilFromDays,
  dayOfWeek,
  daysFromCivil,
  isValidCivil,
  lengthOfMonth,
  lengthOfYear,
  NANOS_PER_SECOND,
  weekOfWeekYear,
  weekYearOf,
  weekYearStart,
  weeksInWeekYear,
  YEAR_MAX,
  YEAR_MIN,
} from '../../common/values/calendar.js';
import { canonicalZone, isKnownZone, parseOffset, zoneNameOf } from '../../common/values/time-zone.js';
import type { Value } from '../../common/values/value.js';
import type { ZoneSpec } from '../../common/values/zoned.js';
import { badValue, wrongType } from './args.js';

/**
 * Reading the component maps of the temporal constructors (`date({year: 1984, week: 10})`): which keys
 * are set, their integer values, and how date and time fields combine with a base value taken from
 * another temporal (`{date: other, day: 28}`), in the ways Cypher defines.
 */

export const DATE_FIELDS = ['year', 'month', 'day', 'week', 'dayofweek', 'ordinalday', 'quarter', 'dayofquarter'] as const;
export const TIME_FIELDS = ['hour', 'minute', 'second', 'millisecond', 'microsecond', 'nanosecond'] as const;
const BASE_KEYS = ['date', 'time', 'datetime', 'timezone', 'epochseconds', 'epochmillis'] as const;
const KNOWN = new Set<string>([...DATE_FIELDS, ...TIME_FIELDS, ...BASE_KEYS]);
/** Other names Cypher accepts for two date components (`{year: 2021, week: 3, weekDay: 2}`). */
const ALIASES: ReadonlyMap<string, string> = new Map([
  ['weekday', 'dayofweek'],
  ['quarterday', 'dayofquarter'],
]);

/** A component map with keys folded to lower case and aliases resolved. Unknown keys are an error. */
export class Fields {
  private readonly values = new Map<string, Value>();
  constructor(
    readonly fn: string,
    map: ReadonlyMap<string, Value>,
  ) {
    for (const [k, v] of map) {
      const lower = k.toLowerCase();
      const key = ALIASES.get(lower) ?? lower;
      if (!KNOWN.has(key)) badValue(fn, `unknown component '${k}'`);
      if (this.values.has(key)) badValue(fn, `component '${k}' is given twice`);
      this.values.set(key, v);
    }
  }
  has(key: string): boolean {
    return this.values.has(key);
  }
  any(keys: readonly string[]): boolean {
    return keys.some((k) => this.values.has(k));
  }
  raw(key: string): Value | undefined {
    return this.values.get(key);
  }
  /** An integer component as a number, or undefined when absent. Null counts as absent. */
  int(key: string): number | undefined {
    const v = this.values.get(key);
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'bigint') return wrongType(this.fn, `an INTEGER for '${key}'`, v);
    if (v > 10n ** 15n || v < -(10n ** 15n)) badValue(this.fn, `'${key}' out of range`);
    return Number(v);
  }
  get size(): number {
    return this.values.size;
  }
}

function check(fn: string, ok: boolean, message: string): void {
  if (!ok) badValue(fn, message);
}

/**
 * The epoch day the date fields describe, on top of `base` (an epoch day) when given. Week fields take
 * `year` as the week-based year; a quarter replaces the quarter keeping the month within it and the day.
 */
export function resolveDate(f: Fields, base: number | undefined): number {
  const fn = f.fn;
  const year = f.int('year');
  if (base === undefined && year === undefined) badValue(fn, 'year must be given');
  if (year !== undefined) check(fn, year >= YEAR_MIN && year <= YEAR_MAX, `year ${year} out of range`);
  const b = base === undefined ? undefined : civilFromDays(base);
  const week = f.int('week');
  const dow = f.int('dayofweek');
  const ordinal = f.int('ordinalday');
  const quarter = f.int('quarter');
  const doq = f.int('dayofquarter');
  const month = f.int('month');
  const day = f.int('day');
  const groups =
    (week !== undefined || dow !== undefined ? 1 : 0) +
    (ordinal !== undefined ? 1 : 0) +
    (quarter !== undefined || doq !== undefined ? 1 : 0) +
    (month !== undefined ? 1 : 0);
  check(fn, groups <= 1, 'calendar, week, ordinal and quarter components cannot be mixed');
  // Without a base value, a component needs the larger one it counts within (Cypher defines them in order).
  if (base === undefined) {
    check(fn, dow === undefined || week !== undefined, 'dayOfWeek cannot be given without week');
    check(fn, doq === undefined || quarter !== undefined, 'dayOfQuarter cannot be given without quarter');
    check(fn, day === undefined || month !== undefined || week !== undefined || ordinal !== undefined || quarter !== undefined, 'day cannot be given without month');
  }

  if (week !== undefined || dow !== undefined) {
    check(fn, day === undefined, 'day cannot be combined with week components');
    const wy = year ?? weekYearOf(base as number, (b as { year: number }).year);
    const w = week ?? (base === undefined ? 1 : weekOfWeekYear(base, wy));
    const d = dow ?? (base === undefined ? 1 : dayOfWeek(base));
    check(fn, w >= 1 && w <= weeksInWeekYear(wy), `week ${w} out of range for ${wy}`);
    check(fn, d >= 1 && d <= 7, `dayOfWeek ${d} out of range`);
    return weekYearStart(wy) + (w - 1) * 7 + (d - 1);
  }
  const y = year ?? (b as { year: number }).year;
  if (ordinal !== undefined) {
    check(fn, day === undefined, 'day cannot be combined with ordinalDay');
    check(fn, ordinal >= 1 && ordinal <= lengthOfYear(y), `ordinalDay ${ordinal} out of range`);
    return daysFromCivil(y, 1, 1) + ordinal - 1;
  }
  if (quarter !== undefined || doq !== undefined) {
    check(fn, day === undefined, 'day cannot be combined with quarter components');
    if (b !== undefined && doq === undefined) {
      const q = quarter as number;
      check(fn, q >= 1 && q <= 4, `quarter ${q} out of range`);
      const m = (q - 1) * 3 + ((b.month - 1) % 3) + 1;
      return daysFromCivil(y, m, Math.min(b.day, lengthOfMonth(y, m)));
    }
    const q = quarter ?? (b === undefined ? 1 : Math.floor((b.month - 1) / 3) + 1);
    check(fn, q >= 1 && q <= 4, `quarter ${q} out of range`);
    const start = daysFromCivil(y, (q - 1) * 3 + 1, 1);
    const end = q === 4 ? daysFromCivil(y + 1, 1, 1) : daysFromCivil(y, q * 3 + 1, 1);
    const dq = doq ?? 1;
    check(fn, dq >= 1 && start + dq - 1 < end, `dayOfQuarter ${dq} out of range`);
    return start + dq - 1;
  }
  const m = month ?? (b === undefined ? 1 : b.month);
  check(fn, m >= 1 && m <= 12, `month ${m} out of range`);
  // An inherited day is clamped to the new month; an explicit one must exist.
  const d = day ?? (b === undefined ? 1 : Math.min(b.day, lengthOfMonth(y, m)));
  check(fn, isValidCivil(y, m, d), `day ${d} out of range for ${y}-${m}`);
  return daysFromCivil(y, m, d);
}

/**
 * A date that a time of day follows must name its day in full: a calendar date its year, month and day,
 * a week date its week and day of week, a quarter date its quarter and day of quarter, an ordinal date
 * its ordinal day (`datetime({year: 1984, hour: 12})` is refused: which day is it?).
 */
export function assertDateComplete(f: Fields): void {
  const fn = f.fn;
  const given = (k: string): boolean => f.raw(k) !== undefined && f.raw(k) !== null;
  let missing: string | undefined;
  if (given('week') || given('dayofweek')) missing = !given('week') ? 'week' : !given('dayofweek') ? 'dayOfWeek' : undefined;
  else if (given('quarter') || given('dayofquarter')) missing = !given('quarter') ? 'quarter' : !given('dayofquarter') ? 'dayOfQuarter' : undefined;
  else if (!given('ordinalday')) missing = !given('month') ? 'month' : !given('day') ? 'day' : undefined;
  if (!given('year')) missing = 'year';
  if (missing !== undefined) badValue(fn, `${missing} must be given when a time of day is`);
}

/**
 * The nanosecond of day the time fields describe on top of `base`. The sub-second fields combine as
 * millisecond * 1e6 + microsecond * 1e3 + nanosecond; a field left out keeps the base's digits at
 * that position, unless a larger-range value given alone already covers them (`{microsecond: 645876}`).
 */
export function resolveTime(f: Fields, base: number | undefined): number {
  const fn = f.fn;
  const hour = f.int('hour');
  const minute = f.int('minute');
  const second = f.int('second');
  const ms = f.int('millisecond');
  const us = f.int('microsecond');
  const ns = f.int('nanosecond');
  if (base === undefined) {
    check(fn, minute === undefined || hour !== undefined, 'minute cannot be given without hour');
    check(fn, second === undefined || minute !== undefined, 'second cannot be given without minute');
    check(fn, (ms === undefined && us === undefined && ns === undefined) || second !== undefined, 'sub-second components need second');
  }
  const bSec = base === undefined ? 0 : Math.floor(base / NANOS_PER_SECOND);
  const bNano = base === undefined ? 0 : base - bSec * NANOS_PER_SECOND;
  const h = hour ?? Math.floor(bSec / 3600);
  const m = minute ?? Math.floor((bSec % 3600) / 60);
  const s = second ?? bSec % 60;
  check(fn, h >= 0 && h <= 23, `hour ${h} out of range`);
  check(fn, m >= 0 && m <= 59, `minute ${m} out of range`);
  check(fn, s >= 0 && s <= 59, `second ${s} out of range`);
  let nano = bNano;
  if (ms !== undefined || us !== undefined || ns !== undefined) {
    check(fn, ms === undefined || (ms >= 0 && ms <= 999), `millisecond ${ms} out of range`);
    check(fn, us === undefined || (us >= 0 && us <= (ms === undefined ? 999_999 : 999)), `microsecond ${us} out of range`);
    const nsMax = us !== undefined ? 999 : ms !== undefined ? 999_999 : 999_999_999;
    check(fn, ns === undefined || (ns >= 0 && ns <= nsMax), `nanosecond ${ns} out of range`);
    let msPart = ms ?? Math.floor(bNano / 1_000_000);
    let usPart = us ?? Math.floor(bNano / 1000) % 1000;
    if (us !== undefined && us > 999) msPart = 0;
    if (ns !== undefined && ns > 999) {
      if (us === undefined) usPart = 0;
      if (ms === undefined && ns > 999_999) msPart = 0;
    }
    const nsPart = ns ?? bNano % 1000;
    nano = msPart * 1_000_000 + usPart * 1000 + nsPart;
  }
  return ((h * 60 + m) * 60 + s) * NANOS_PER_SECOND + nano;
}

/** A `timezone` value (an offset such as `+01:00` or an IANA name) as a zone. */
export function zoneSpecOf(fn: string, v: Value): ZoneSpec {
  if (typeof v !== 'string') return wrongType(fn, 'a STRING time zone', v);
  const off = parseOffset(v);
  if (off !== undefined) return { offsetSeconds: off };
  const name = zoneNameOf(v);
  if (!isKnownZone(name)) badValue(fn, `unknown time zone '${v}'`);
  return { zone: canonicalZone(name) };
}
