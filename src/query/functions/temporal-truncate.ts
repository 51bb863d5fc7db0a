import { civilFromDays, dayOfWeek, daysFromCivil, floorDiv, NANOS_PER_DAY, NANOS_PER_SECOND, weekYearOf, weekYearStart } from '../../common/values/calendar.js';
import type { Value } from '../../common/values/value.js';
import { badValue, wrongType } from './args.js';
import type { FunctionContext } from './context.js';
import { basePoint, build, defaultZone, isPoint, partsOf, timeZoneOfBase, type Parts, type PointKind } from './temporal-construct.js';
import { DATE_FIELDS, Fields, resolveDate, resolveTime, TIME_FIELDS, zoneSpecOf } from './temporal-fields.js';

/**
 * `date.truncate(unit, value, map?)` and its siblings: a value cut down to a unit, then a map's
 * selections and components set on top of it.
 */

const DATE_UNITS = ['millennium', 'century', 'decade', 'year', 'weekyear', 'quarter', 'month', 'week', 'day'] as const;
const TIME_UNITS = ['hour', 'minute', 'second', 'millisecond', 'microsecond'] as const;

/** How coarse each unit is, coarsest first: what a truncation keeps. */
const UNIT_RANK: Readonly<Record<string, number>> = {
  millennium: 0,
  century: 1,
  decade: 2,
  year: 3,
  weekyear: 3,
  quarter: 4,
  month: 5,
  week: 6,
  day: 7,
  hour: 8,
  minute: 9,
  second: 10,
  millisecond: 11,
  microsecond: 12,
};

/**
 * The rank of what each component of a truncation map sets; it must be finer than the unit (the
 * manual: truncated to `day`, the map cannot set a month). A `date` selection sets the year and all
 * below it, a `time` selection the hour and all below it.
 */
const COMPONENT_RANK: Readonly<Record<string, number>> = {
  date: 3,
  year: 3,
  quarter: 4,
  month: 5,
  week: 6,
  day: 7,
  dayofweek: 7,
  dayofquarter: 7,
  ordinalday: 7,
  time: 8,
  hour: 8,
  minute: 9,
  second: 10,
  millisecond: 11,
  microsecond: 12,
  nanosecond: 13,
};

function truncateDay(unit: string, day: number): number {
  const c = civilFromDays(day);
  switch (unit) {
    case 'millennium':
      return daysFromCivil(floorDiv(c.year, 1000) * 1000, 1, 1);
    case 'century':
      return daysFromCivil(floorDiv(c.year, 100) * 100, 1, 1);
    case 'decade':
      return daysFromCivil(floorDiv(c.year, 10) * 10, 1, 1);
    case 'year':
      return daysFromCivil(c.year, 1, 1);
    case 'weekyear':
      return weekYearStart(weekYearOf(day, c.year));
    case 'quarter':
      return daysFromCivil(c.year, Math.floor((c.month - 1) / 3) * 3 + 1, 1);
    case 'month':
      return daysFromCivil(c.year, c.month, 1);
    case 'week':
      return day - (dayOfWeek(day) - 1);
    default:
      return day;
  }
}

function truncateNano(unit: string, nano: number): number {
  const size: Record<string, number> = {
    day: NANOS_PER_DAY,
    hour: 3600 * NANOS_PER_SECOND,
    minute: 60 * NANOS_PER_SECOND,
    second: NANOS_PER_SECOND,
    millisecond: 1_000_000,
    microsecond: 1000,
  };
  const s = size[unit] ?? NANOS_PER_DAY;
  return Math.floor(nano / s) * s;
}

/**
 * `<kind>.truncate(unit, value, map?)`: the value cut down to the unit, then the map's components set
 * on top. A `timezone` in the map replaces the zone keeping the local time.
 */
export function truncate(kind: PointKind, unitArg: Value, v: Value, mapArg: Value, ctx: FunctionContext): Value {
  const fn = `${kind}.truncate`;
  if (unitArg === null || v === null) return null;
  if (typeof unitArg !== 'string') return wrongType(fn, 'a STRING unit', unitArg);
  if (!isPoint(v)) return wrongType(fn, 'a temporal value', v);
  const unit = unitArg.toLowerCase();
  const isDateUnit = (DATE_UNITS as readonly string[]).includes(unit);
  const isTimeUnit = (TIME_UNITS as readonly string[]).includes(unit);
  if (!isDateUnit && !isTimeUnit) badValue(fn, `unknown unit '${unitArg}'`);
  const hasDate = kind === 'date' || kind === 'localdatetime' || kind === 'datetime';
  if (kind === 'date' && isTimeUnit) badValue(fn, `cannot truncate a DATE to ${unitArg}`);
  if (!hasDate && isDateUnit && unit !== 'day') badValue(fn, `cannot truncate a time to ${unitArg}`);
  const p = partsOf(v);
  let day = p.day;
  let nano = p.nano;
  if (hasDate) {
    if (day === undefined) badValue(fn, 'the value has no date');
    day = truncateDay(unit, day);
  }
  if (kind !== 'date') nano = isDateUnit ? 0 : truncateNano(unit, nano ?? 0);
  let zone = p.zone;
  if (mapArg !== null && mapArg !== undefined) {
    if (!(mapArg instanceof Map)) return wrongType(fn, 'a MAP of components', mapArg);
    ({ day, nano, zone } = overrideTruncated(kind, unit, new Fields(fn, mapArg), { day, nano, zone }));
  }
  return build(kind, fn, day, nano, zone ?? defaultZone(ctx), ctx);
}

/**
 * The component map of a truncation applied to the truncated parts: `{date: d}` and `{time: t}`
 * replace those parts, as in a constructor (`datetime.truncate('week', date(), {dayOfWeek: 2, time:
 * time()})`), then the components apply, then a `timezone` replaces the zone keeping the wall clock.
 */
function overrideTruncated(kind: PointKind, unit: string, f: Fields, truncated: Parts): Parts {
  const fn = f.fn;
  for (const [component, rank] of Object.entries(COMPONENT_RANK)) {
    if (f.has(component) && rank <= (UNIT_RANK[unit] ?? 0)) badValue(fn, `'${component}' is not finer than the unit '${unit}' it would override`);
  }
  const hasDate = kind === 'date' || kind === 'localdatetime' || kind === 'datetime';
  if (f.has('datetime') || f.has('epochseconds') || f.has('epochmillis')) badValue(fn, 'the components may select a date or a time, not a datetime or an epoch');
  if (!hasDate && (f.has('date') || f.any(DATE_FIELDS))) badValue(fn, `${kind} has no date components`);
  if (kind === 'date' && (f.has('time') || f.any(TIME_FIELDS))) badValue(fn, 'date has no time components');
  const tz = f.raw('timezone');
  if (tz !== undefined && tz !== null && kind !== 'time' && kind !== 'datetime') badValue(fn, `${kind} has no time zone to set`);
  let { day, nano, zone } = truncated;
  const dateBase = basePoint(f, 'date');
  if (dateBase !== undefined) {
    const p = partsOf(dateBase);
    if (p.day === undefined) badValue(fn, "'date' must be a value with a date");
    day = p.day;
  }
  const timeBase = basePoint(f, 'time');
  if (timeBase !== undefined) {
    const p = partsOf(timeBase);
    if (p.nano === undefined) badValue(fn, "'time' must be a value with a time of day");
    nano = p.nano;
    if (p.zone !== undefined) zone = timeZoneOfBase(kind, timeBase, p);
  }
  if (hasDate && f.any(DATE_FIELDS)) day = resolveDate(f, day);
  if (kind !== 'date' && f.any(TIME_FIELDS)) nano = resolveTime(f, nano);
  if (tz !== undefined && tz !== null) zone = zoneSpecOf(fn, tz);
  return { day, nano, zone };
}
