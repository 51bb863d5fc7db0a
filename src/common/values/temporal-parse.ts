import {
  daysFromCivil,
  isValidCivil,
  lengthOfYear,
  NANOS_PER_SECOND,
  weekYearStart,
  weeksInWeekYear,
  YEAR_MAX,
  YEAR_MIN,
} from './calendar.js';
import {
  DateTimeValue,
  DateValue,
  DurationValue,
  LocalDateTimeValue,
  LocalTimeValue,
  TimeValue,
} from './temporal.js';
import { canonicalZone, isKnownZone, parseOffset, zoneNameOf } from './time-zone.js';
import { dateTimeFromInstant, dateTimeFromLocal, durationFromTotals, offsetForLocal, type ZoneSpec } from './zoned.js';

/**
 * Parsers of the ISO 8601 text forms the temporal constructors accept (`date('2015-07-21')`,
 * `duration('P1DT2H')`...). Each returns undefined for malformed or out-of-range text; the query layer
 * turns that into a Cypher error. Accepted:
 *
 * - dates: `2015-07-21` `20150721` `2015-07` `201507` `2015-W30-2` `2015W302` `2015-W30` `2015-Q3-15`
 *   `2015-Q3` `2015-202` `2015202` `2015`; years beyond four digits need a sign (`+12345-01-01`).
 * - times: `21:40:32.142` `214032.142` `21:40` `2140` `21` (fraction with `.` or `,`, up to 9 digits).
 * - offsets and zones: `Z` `+01:00` `+0100` `+01` `+01:00:30` and/or `[Europe/Stockholm]`.
 * - datetimes: a date, `T`, a time.
 * - durations: `P1Y2M3W4DT5H6M7.8S` (any unit may be signed or fractional, `-P...` negates all) and
 *   `P0001-02-03T04:05:06.7`.
 */

const DATE_RE =
  /^([+-]\d{4,9}|\d{4})(?:-?(?:W(\d{2})(?:-?(\d))?|Q(\d)(?:-?(\d{2}))?|(\d{2})(?:-?(\d{2}))?|(\d{3})))?$/;

export function parseDate(text: string): DateValue | undefined {
  const epochDay = parseDateDays(text.trim());
  return epochDay === undefined ? undefined : new DateValue(epochDay);
}

function parseDateDays(text: string): number | undefined {
  const m = DATE_RE.exec(text);
  if (m === null) return undefined;
  const year = Number(m[1]);
  if (year < YEAR_MIN || year > YEAR_MAX) return undefined;
  if (m[2] !== undefined) {
    const week = Number(m[2]);
    const dow = m[3] === undefined ? 1 : Number(m[3]);
    if (week < 1 || week > weeksInWeekYear(year) || dow < 1 || dow > 7) return undefined;
    return weekYearStart(year) + (week - 1) * 7 + (dow - 1);
  }
  if (m[4] !== undefined) {
    const quarter = Number(m[4]);
    const dayOfQuarter = m[5] === undefined ? 1 : Number(m[5]);
    if (quarter < 1 || quarter > 4 || dayOfQuarter < 1) return undefined;
    const start = daysFromCivil(year, (quarter - 1) * 3 + 1, 1);
    const end = quarter === 4 ? daysFromCivil(year + 1, 1, 1) : daysFromCivil(year, quarter * 3 + 1, 1);
    if (start + dayOfQuarter - 1 >= end) return undefined;
    return start + dayOfQuarter - 1;
  }
  if (m[6] !== undefined) {
    const month = Number(m[6]);
    const day = m[7] === undefined ? 1 : Number(m[7]);
    return isValidCivil(year, month, day) ? daysFromCivil(year, month, day) : undefined;
  }
  if (m[8] !== undefined) {
    const ordinal = Number(m[8]);
    if (ordinal < 1 || ordinal > lengthOfYear(year)) return undefined;
    return daysFromCivil(year, 1, 1) + ordinal - 1;
  }
  return daysFromCivil(year, 1, 1);
}

const TIME_RE = /^(\d{2})(?::?(\d{2})(?::?(\d{2})(?:[.,](\d{1,9}))?)?)?$/;

function parseNanoOfDay(text: string): number | undefined {
  const m = TIME_RE.exec(text);
  if (m === null) return undefined;
  const h = Number(m[1]);
  const min = m[2] === undefined ? 0 : Number(m[2]);
  const s = m[3] === undefined ? 0 : Number(m[3]);
  const frac = m[4] === undefined ? 0 : Number(m[4].padEnd(9, '0'));
  if (h > 23 || min > 59 || s > 59) return undefined;
  return ((h * 60 + min) * 60 + s) * NANOS_PER_SECOND + frac;
}

const ZONE_SUFFIX_RE = /(Z|z|[+-]\d{2}(?::?\d{2}(?::?\d{2})?)?)?(?:\[([^\]]+)\])?$/;

interface SplitZone {
  readonly local: string;
  readonly offset: number | undefined;
  readonly zone: string | undefined;
  readonly valid: boolean;
}

function splitZone(text: string): SplitZone {
  const m = ZONE_SUFFIX_RE.exec(text);
  if (m === null || m[0] === '') return { local: text, offset: undefined, zone: undefined, valid: true };
  const local = text.slice(0, text.length - m[0].length);
  const offset = m[1] === undefined ? undefined : parseOffset(m[1]);
  if (m[1] !== undefined && offset === undefined) return { local, offset, zone: undefined, valid: false };
  let zone: string | undefined;
  if (m[2] !== undefined) {
    const asOffset = parseOffset(m[2]);
    if (asOffset !== undefined) return { local, offset: offset ?? asOffset, zone: undefined, valid: true };
    const name = zoneNameOf(m[2]);
    if (!isKnownZone(name)) return { local, offset, zone: undefined, valid: false };
    zone = canonicalZone(name);
  }
  return { local, offset, zone, valid: true };
}

/** A time alone may be written after the `T` that separates it from a date (`T21:40`). */
function withoutTimeDesignator(text: string): string {
  const t = text.trim();
  return /^[Tt]\d/.test(t) ? t.slice(1) : t;
}

export function parseLocalTime(text: string): LocalTimeValue | undefined {
  const n = parseNanoOfDay(withoutTimeDesignator(text));
  return n === undefined ? undefined : new LocalTimeValue(n);
}

/**
 * A time; without an offset in the text it takes `defaultZone`'s offset (today's, for a named zone).
 * A zone name is no part of a time's text: a time of day has no date to find the name's offset at.
 */
export function parseTime(text: string, defaultZone: ZoneSpec, today: number): TimeValue | undefined {
  const body = withoutTimeDesignator(text);
  if (body.endsWith(']')) return undefined;
  const z = splitZone(body);
  if (!z.valid) return undefined;
  const n = parseNanoOfDay(z.local);
  if (n === undefined) return undefined;
  if (z.offset !== undefined) return new TimeValue(n, z.offset);
  return new TimeValue(n, offsetForLocal(today, n, defaultZone));
}

function splitDateTime(text: string): { date: number; time: number } | undefined {
  const t = text.search(/[Tt]/);
  const datePart = t < 0 ? text : text.slice(0, t);
  const timePart = t < 0 ? '' : text.slice(t + 1);
  const date = parseDateDays(datePart);
  if (date === undefined) return undefined;
  if (t < 0) return { date, time: 0 };
  const time = parseNanoOfDay(timePart);
  return time === undefined ? undefined : { date, time };
}

export function parseLocalDateTime(text: string): LocalDateTimeValue | undefined {
  const p = splitDateTime(text.trim());
  return p === undefined ? undefined : new LocalDateTimeValue(p.date, p.time);
}

/**
 * A datetime. With both an offset and a zone name, the offset must be the zone's at that local time
 * (either of the two in a daylight-saving overlap); with neither, the local time is taken in `defaultZone`.
 */
export function parseDateTime(text: string, defaultZone: ZoneSpec): DateTimeValue | undefined {
  const trimmed = text.trim();
  // An offset can only follow a time; without `T` a trailing `-12` is the day of month.
  const t = trimmed.search(/[Tt]/);
  const z: SplitZone =
    t < 0
      ? { local: trimmed, offset: undefined, zone: undefined, valid: true }
      : (() => {
          const inner = splitZone(trimmed.slice(t + 1));
          return { ...inner, local: trimmed.slice(0, t + 1) + inner.local };
        })();
  if (!z.valid) return undefined;
  const p = splitDateTime(z.local);
  if (p === undefined) return undefined;
  if (z.offset !== undefined) {
    const fixed = new DateTimeValue(p.date, p.time, z.offset, null);
    if (z.zone === undefined) return fixed;
    // The offset must be one the zone has at that local time; in an overlap it picks which of the two.
    const zoned = dateTimeFromInstant(fixed.utcEpochDay, fixed.utcNanoOfDay, { zone: z.zone });
    return zoned.epochDay === p.date && zoned.nanoOfDay === p.time ? zoned : undefined;
  }
  return dateTimeFromLocal(p.date, p.time, z.zone !== undefined ? { zone: z.zone } : defaultZone);
}

const NUM = '([+-]?\\d+(?:[.,]\\d+)?)';
const DURATION_RE = new RegExp(
  `^([+-])?P(?:${NUM}Y)?(?:${NUM}M)?(?:${NUM}W)?(?:${NUM}D)?(?:T(?:${NUM}H)?(?:${NUM}M)?(?:${NUM}S)?)?$`,
  'i',
);
const DURATION_DATE_TIME_RE = /^([+-])?P(\d{4})-?(\d{2})-?(\d{2})T(\d{2}):?(\d{2}):?(\d{2})(?:[.,](\d{1,9}))?$/i;

export function parseDuration(text: string): DurationValue | undefined {
  const s = text.trim();
  const alt = DURATION_DATE_TIME_RE.exec(s);
  if (alt !== null) {
    const sign = alt[1] === '-' ? -1 : 1;
    const months = Number(alt[2]) * 12 + Number(alt[3]);
    const days = Number(alt[4]);
    const seconds = Number(alt[5]) * 3600 + Number(alt[6]) * 60 + Number(alt[7]);
    const nanos = alt[8] === undefined ? 0 : Number(alt[8].padEnd(9, '0'));
    return durationFromTotals(sign * months, sign * days, sign * seconds, sign * nanos);
  }
  const m = DURATION_RE.exec(s);
  if (m === null) return undefined;
  if (m.slice(2).every((x) => x === undefined)) return undefined;
  if (/T$/i.test(s)) return undefined;
  const sign = m[1] === '-' ? -1 : 1;
  const num = (x: string | undefined): number => (x === undefined ? 0 : Number(x.replace(',', '.')));
  const months = num(m[2]) * 12 + num(m[3]);
  const days = num(m[4]) * 7 + num(m[5]);
  const secondsText = m[8];
  let seconds = num(m[6]) * 3600 + num(m[7]) * 60;
  let nanos = 0;
  if (secondsText !== undefined) {
    // Seconds keep their fraction exactly: read the digits instead of going through a double. As in
    // the time forms, nine digits (nanoseconds) is the most a fraction may have.
    const sm = /^([+-]?)(\d+)(?:[.,](\d{1,9}))?$/.exec(secondsText);
    if (sm === null) return undefined;
    const sgn = sm[1] === '-' ? -1 : 1;
    seconds += sgn * Number(sm[2]);
    nanos = sgn * (sm[3] === undefined ? 0 : Number(sm[3].padEnd(9, '0')));
  }
  return durationFromTotals(sign * months, sign * days, sign * seconds, sign * nanos);
}
