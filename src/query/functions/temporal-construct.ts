import { floorDiv, NANOS_PER_DAY, NANOS_PER_SECOND, SECONDS_PER_DAY } from '../../common/values/calendar.js';
import {
  DateTimeValue,
  DateValue,
  DurationValue,
  durationSecondsFit,
  LocalDateTimeValue,
  LocalTimeValue,
  TimeValue,
} from '../../common/values/temporal.js';
import {
  parseDate,
  parseDateTime,
  parseDuration,
  parseLocalDateTime,
  parseLocalTime,
  parseTime,
} from '../../common/values/temporal-parse.js';
import type { Value } from '../../common/values/value.js';
import {
  dateTimeFromInstant,
  dateTimeFromLocal,
  durationFromTotals,
  offsetForLocal,
  withZoneSameInstant,
  zoneOf,
  type ZoneSpec,
} from '../../common/values/zoned.js';
import { badValue, wrongType } from './args.js';
import type { EpochInstant, FunctionContext } from './context.js';
import { assertDateComplete, DATE_FIELDS, Fields, resolveDate, resolveTime, TIME_FIELDS, zoneSpecOf } from './temporal-fields.js';

/**
 * The temporal constructors: `date(...)`, `localtime(...)`, `time(...)`, `localdatetime(...)`,
 * `datetime(...)` and `duration(...)` from a component map, a string, another temporal value, or
 * nothing (now), plus the `.statement`/`.transaction`/`.realtime` variants (`.truncate` is in
 * temporal-truncate.ts).
 */

export type PointKind = 'date' | 'localtime' | 'time' | 'localdatetime' | 'datetime';
export type Point = DateValue | LocalTimeValue | TimeValue | LocalDateTimeValue | DateTimeValue;

/** The local parts of a value and, when it has one, its zone. */
export interface Parts {
  readonly day: number | undefined;
  readonly nano: number | undefined;
  readonly zone: ZoneSpec | undefined;
}

export function partsOf(v: Point): Parts {
  if (v instanceof DateValue) return { day: v.epochDay, nano: undefined, zone: undefined };
  if (v instanceof LocalTimeValue) return { day: undefined, nano: v.nanoOfDay, zone: undefined };
  if (v instanceof TimeValue) return { day: undefined, nano: v.nanoOfDay, zone: { offsetSeconds: v.offsetSeconds } };
  if (v instanceof LocalDateTimeValue) return { day: v.epochDay, nano: v.nanoOfDay, zone: undefined };
  return { day: v.epochDay, nano: v.nanoOfDay, zone: zoneOf(v) };
}

export function isPoint(v: Value): v is Point {
  return (
    v instanceof DateValue ||
    v instanceof LocalTimeValue ||
    v instanceof TimeValue ||
    v instanceof LocalDateTimeValue ||
    v instanceof DateTimeValue
  );
}

/** The session zone; `UTC` (the default) is the zero offset `Z`, not a named zone. */
export function defaultZone(ctx: FunctionContext): ZoneSpec {
  const z = ctx.defaultTimeZone;
  if (z === '' || z === 'UTC' || z === 'Z') return { offsetSeconds: 0 };
  return zoneSpecOf('timezone', z);
}

function instantToDateTime(i: EpochInstant, zone: ZoneSpec): DateTimeValue {
  const day = floorDiv(i.epochSecond, SECONDS_PER_DAY);
  const nano = (i.epochSecond - day * SECONDS_PER_DAY) * NANOS_PER_SECOND + i.nano;
  return dateTimeFromInstant(day, nano, zone);
}

function today(ctx: FunctionContext): number {
  return instantToDateTime(ctx.clock.statement(), defaultZone(ctx)).epochDay;
}

/** Builds a value of `kind` from local parts; `zone` applies to the zoned kinds. */
export function build(kind: PointKind, fn: string, day: number | undefined, nano: number | undefined, zone: ZoneSpec, ctx: FunctionContext): Point {
  switch (kind) {
    case 'date':
      if (day === undefined) return badValue(fn, 'a value without a date cannot become a DATE');
      return new DateValue(day);
    case 'localtime':
      if (nano === undefined) return badValue(fn, 'a DATE has no time of day');
      return new LocalTimeValue(nano);
    case 'time':
      if (nano === undefined) return badValue(fn, 'a DATE has no time of day');
      return new TimeValue(nano, offsetForLocal(day ?? today(ctx), nano, zone));
    case 'localdatetime':
      if (day === undefined) return badValue(fn, 'a value without a date cannot become a LOCAL DATETIME');
      return new LocalDateTimeValue(day, nano ?? 0);
    case 'datetime':
      if (day === undefined) return badValue(fn, 'a value without a date cannot become a DATETIME');
      return dateTimeFromLocal(day, nano ?? 0, zone);
  }
}

/** The value at the clock's instant, in `zone`, as `kind`. */
export function now(kind: PointKind, instant: EpochInstant, zone: ZoneSpec, ctx: FunctionContext): Point {
  const dt = instantToDateTime(instant, zone);
  switch (kind) {
    case 'date':
      return new DateValue(dt.epochDay);
    case 'localtime':
      return new LocalTimeValue(dt.nanoOfDay);
    case 'time':
      return new TimeValue(dt.nanoOfDay, dt.offsetSeconds);
    case 'localdatetime':
      return new LocalDateTimeValue(dt.epochDay, dt.nanoOfDay);
    case 'datetime':
      return build('datetime', kind, dt.epochDay, dt.nanoOfDay, zone, ctx);
  }
}

/** `date(x)`, `time(x)`, ...: x is null, a string, a map, or another temporal value. */
export function construct(kind: PointKind, arg: Value, ctx: FunctionContext): Value {
  const fn = kind;
  if (arg === null) return null;
  if (typeof arg === 'string') return parseText(kind, arg, ctx);
  if (isPoint(arg)) return project(kind, arg, ctx);
  if (arg instanceof Map) return fromMap(kind, new Fields(fn, arg), ctx);
  return wrongType(fn, 'a STRING, a MAP or a temporal value', arg);
}

function parseText(kind: PointKind, text: string, ctx: FunctionContext): Point {
  let v: Point | undefined;
  switch (kind) {
    case 'date':
      v = parseDate(text);
      break;
    case 'localtime':
      v = parseLocalTime(text);
      break;
    case 'time':
      v = parseTime(text, defaultZone(ctx), today(ctx));
      break;
    case 'localdatetime':
      v = parseLocalDateTime(text);
      break;
    case 'datetime':
      v = parseDateTime(text, defaultZone(ctx));
      break;
  }
  return v ?? badValue(kind, `'${text}' is not a valid ${kind} text`);
}

/** Another temporal value seen as `kind`: its parts, keeping its zone or taking the default. */
function project(kind: PointKind, v: Point, ctx: FunctionContext): Point {
  const p = partsOf(v);
  return build(kind, kind, p.day, p.nano, p.zone ?? defaultZone(ctx), ctx);
}

/**
 * Gives a zoned value the zone of a `timezone` component: the same instant when the value already had a
 * zone of its own, the same local time when it took the default.
 */
function moveZone(v: Point, zone: ZoneSpec, hadZone: boolean, ctx: FunctionContext): Point {
  if (v instanceof DateTimeValue) {
    return hadZone ? withZoneSameInstant(v, zone) : dateTimeFromLocal(v.epochDay, v.nanoOfDay, zone);
  }
  if (v instanceof TimeValue) {
    const offset = 'offsetSeconds' in zone ? zone.offsetSeconds : offsetForLocal(today(ctx), v.nanoOfDay, zone);
    if (!hadZone) return new TimeValue(v.nanoOfDay, offset);
    const shifted = v.nanoOfDay + (offset - v.offsetSeconds) * NANOS_PER_SECOND;
    return new TimeValue(((shifted % NANOS_PER_DAY) + NANOS_PER_DAY) % NANOS_PER_DAY, offset);
  }
  return v;
}

export function basePoint(f: Fields, key: string): Point | undefined {
  const v = f.raw(key);
  if (v === undefined || v === null) return undefined;
  if (!isPoint(v)) return wrongType(f.fn, `a temporal value for '${key}'`, v);
  return v;
}

/**
 * The zone a base lends with its time of day. A TIME keeps the offset a datetime had at its own date:
 * a named zone alone would give the offset of today's date instead.
 */
export function timeZoneOfBase(kind: PointKind, base: Point, p: Parts): ZoneSpec | undefined {
  if (kind === 'time' && base instanceof DateTimeValue) return { offsetSeconds: base.offsetSeconds };
  return p.zone;
}

function fromMap(kind: PointKind, f: Fields, ctx: FunctionContext): Point {
  const fn = f.fn;
  const tz = f.raw('timezone');
  const zoneArg = tz === undefined || tz === null ? undefined : zoneSpecOf(fn, tz);
  if (f.size === 0) badValue(fn, 'at least one component must be given');
  // A map holding only a time zone means "now, in that zone"; beside other components, a zone is only
  // for the types that keep one.
  if (zoneArg !== undefined && f.size > 1 && (kind === 'date' || kind === 'localtime' || kind === 'localdatetime')) {
    badValue(fn, `${kind} has no time zone to set`);
  }
  if (f.size === 1 && tz !== undefined) return now(kind, ctx.clock.statement(), zoneArg ?? defaultZone(ctx), ctx);
  if (f.has('epochseconds') || f.has('epochmillis')) return fromEpochFields(kind, f, zoneArg, ctx);

  const dateBase = basePoint(f, 'date');
  const timeBase = basePoint(f, 'time');
  const dtBase = basePoint(f, 'datetime');
  const wantsDate = kind === 'date' || kind === 'localdatetime' || kind === 'datetime';
  const wantsTime = kind !== 'date';
  // A selector must hand over what the result is built from: a time of day has no date to select.
  if (!wantsDate && dateBase !== undefined) badValue(fn, `${kind} has no date to select`);
  if (!wantsTime && timeBase !== undefined) badValue(fn, 'date has no time of day to select');
  let day: number | undefined;
  let nano: number | undefined;
  let zone: ZoneSpec | undefined;
  if (dtBase !== undefined) {
    const p = partsOf(dtBase);
    if (wantsDate && p.day === undefined) badValue(fn, "'datetime' must be a value with a date");
    if (wantsTime && p.nano === undefined) badValue(fn, "'datetime' must be a value with a time of day");
    day = p.day;
    nano = p.nano;
    zone = timeZoneOfBase(kind, dtBase, p);
  }
  if (dateBase !== undefined) {
    const p = partsOf(dateBase);
    if (p.day === undefined) badValue(fn, "'date' must be a value with a date");
    // Only a time or datetime base lends its zone; a date base lends its date alone.
    day = p.day;
  }
  if (timeBase !== undefined) {
    const p = partsOf(timeBase);
    if (p.nano === undefined) badValue(fn, "'time' must be a value with a time of day");
    nano = p.nano;
    zone = timeZoneOfBase(kind, timeBase, p);
  }
  if (wantsDate && wantsTime && day === undefined && (timeBase !== undefined || f.any(TIME_FIELDS))) assertDateComplete(f);
  if (wantsDate && (day === undefined || f.any(DATE_FIELDS))) day = resolveDate(f, day);
  else if (!wantsDate && f.any(DATE_FIELDS)) badValue(fn, `${kind} has no date components`);
  if (wantsTime && (f.any(TIME_FIELDS) || nano === undefined)) nano = resolveTime(f, nano);
  else if (!wantsTime && f.any(TIME_FIELDS)) badValue(fn, 'date has no time components');
  const local = build(kind, fn, day, nano, zone ?? zoneArg ?? defaultZone(ctx), ctx);
  return zoneArg === undefined ? local : moveZone(local, zoneArg, zone !== undefined, ctx);
}

/**
 * `datetime({epochSeconds: ...})` or `{epochMillis: ...}`: the instant, shown in the map's zone. The map's
 * other components then set the local date and time on top of it, as they do on a `datetime` base
 * (`{epochSeconds: s, nanosecond: 23}` adds the nanoseconds).
 */
function fromEpochFields(kind: PointKind, f: Fields, zone: ZoneSpec | undefined, ctx: FunctionContext): Point {
  if (kind !== 'datetime') return badValue(f.fn, 'epochSeconds and epochMillis build a DATETIME only');
  if (f.has('date') || f.has('time') || f.has('datetime')) badValue(f.fn, 'an epoch cannot be combined with date, time or datetime');
  const seconds = f.int('epochseconds');
  const millis = f.int('epochmillis');
  if (seconds !== undefined && millis !== undefined) badValue(f.fn, 'epochSeconds and epochMillis cannot both be given');
  let epochSecond = 0;
  let nano = 0;
  if (seconds !== undefined) epochSecond = seconds;
  if (millis !== undefined) {
    epochSecond = floorDiv(millis, 1000);
    nano = (millis - epochSecond * 1000) * 1_000_000;
  }
  const spec = zone ?? defaultZone(ctx);
  const base = instantToDateTime({ epochSecond, nano }, spec);
  if (!f.any(DATE_FIELDS) && !f.any(TIME_FIELDS)) return base;
  const day = f.any(DATE_FIELDS) ? resolveDate(f, base.epochDay) : base.epochDay;
  const time = f.any(TIME_FIELDS) ? resolveTime(f, base.nanoOfDay) : base.nanoOfDay;
  return dateTimeFromLocal(day, time, spec);
}

/** `datetime.fromepoch(seconds, nanos)` and `datetime.fromepochmillis(millis)`. */
export function fromEpoch(seconds: number, nanos: number, ctx: FunctionContext): DateTimeValue {
  const s = seconds + floorDiv(nanos, NANOS_PER_SECOND);
  return instantToDateTime({ epochSecond: s, nano: nanos - floorDiv(nanos, NANOS_PER_SECOND) * NANOS_PER_SECOND }, defaultZone(ctx));
}

const DURATION_KEYS = new Set([
  'years',
  'quarters',
  'months',
  'weeks',
  'days',
  'hours',
  'minutes',
  'seconds',
  'milliseconds',
  'microseconds',
  'nanoseconds',
]);

/** `duration(x)`: from a map of (possibly fractional) units, an ISO 8601 string, or a duration. */
export function constructDuration(arg: Value): Value {
  const fn = 'duration';
  if (arg === null) return null;
  if (arg instanceof DurationValue) return arg;
  if (typeof arg === 'string') return parseDuration(arg) ?? badValue(fn, `'${arg}' is not a valid duration text`);
  if (!(arg instanceof Map)) return wrongType(fn, 'a STRING or a MAP', arg);
  const units = new Map<string, bigint | number>();
  const seen = new Set<string>();
  for (const [k, v] of arg as ReadonlyMap<string, Value>) {
    const key = k.toLowerCase();
    if (!DURATION_KEYS.has(key)) badValue(fn, `unknown unit '${k}'`);
    if (seen.has(key)) badValue(fn, `unit '${k}' is given twice`);
    seen.add(key);
    if (v === null) continue;
    if (typeof v !== 'bigint' && typeof v !== 'number') return wrongType(fn, `a number for '${k}'`, v);
    units.set(key, v);
  }
  // `duration({})` names no unit at all; a unit given as null counts as given (the result is then zero).
  if ((arg as ReadonlyMap<string, Value>).size === 0) badValue(fn, 'at least one unit must be given');
  const u = (key: string): bigint | number => units.get(key) ?? 0n;
  const allIntegers = [...units.values()].every((x) => typeof x === 'bigint');
  if (allIntegers) {
    const I = (key: string): bigint => u(key) as bigint;
    const months = I('years') * 12n + I('quarters') * 3n + I('months');
    const days = I('weeks') * 7n + I('days');
    const seconds = I('hours') * 3600n + I('minutes') * 60n + I('seconds');
    const nanos = I('milliseconds') * 1_000_000n + I('microseconds') * 1000n + I('nanoseconds');
    let whole = seconds + nanos / 1_000_000_000n;
    let rest = nanos % 1_000_000_000n;
    if (rest < 0n) {
      whole -= 1n;
      rest += 1_000_000_000n;
    }
    // Months and days are kept as numbers; seconds are 64-bit, as Cypher's are.
    const limit = BigInt(Number.MAX_SAFE_INTEGER);
    if ([months, days].some((x) => x > limit || x < -limit) || !durationSecondsFit(whole)) badValue(fn, 'duration out of range', 'NumberOutOfRange');
    return new DurationValue(Number(months), Number(days), whole, Number(rest));
  }
  const F = (key: string): number => Number(u(key));
  const r = durationFromTotals(
    F('years') * 12 + F('quarters') * 3 + F('months'),
    F('weeks') * 7 + F('days'),
    F('hours') * 3600 + F('minutes') * 60 + F('seconds'),
    F('milliseconds') * 1e6 + F('microseconds') * 1e3 + F('nanoseconds'),
  );
  return r ?? badValue(fn, 'duration out of range', 'NumberOutOfRange');
}

