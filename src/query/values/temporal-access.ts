import {
  civilFromDays,
  dayOfQuarter,
  dayOfWeek,
  dayOfYear,
  NANOS_PER_SECOND,
  quarterOf,
  weekOfWeekYear,
  weekYearOf,
} from '../../common/values/calendar.js';
import {
  DateTimeValue,
  DateValue,
  DurationValue,
  LocalDateTimeValue,
  LocalTimeValue,
  TimeValue,
  type TemporalValue,
} from '../../common/values/temporal.js';
import { formatOffset } from '../../common/values/time-zone.js';
import type { Value } from '../../common/values/value.js';

/**
 * Component access on temporal values (`d.year`, `t.offsetMinutes`, `dt.epochSeconds`, `dur.days`).
 * Names are matched case-insensitively. Returns undefined for a component the type does not have;
 * the evaluator decides what that means (Cypher raises an error).
 */
export function temporalComponent(v: TemporalValue, name: string): Value | undefined {
  const key = name.toLowerCase();
  if (v instanceof DurationValue) return durationComponent(v, key);
  let day: number | undefined;
  let nano: number | undefined;
  let offset: number | undefined;
  let zone: string | undefined;
  if (v instanceof DateValue) day = v.epochDay;
  else if (v instanceof LocalTimeValue) nano = v.nanoOfDay;
  else if (v instanceof TimeValue) {
    nano = v.nanoOfDay;
    offset = v.offsetSeconds;
  } else if (v instanceof LocalDateTimeValue) {
    day = v.epochDay;
    nano = v.nanoOfDay;
  } else {
    day = v.epochDay;
    nano = v.nanoOfDay;
    offset = v.offsetSeconds;
    zone = v.zone ?? undefined;
  }
  if (day !== undefined) {
    const r = dateComponent(day, key);
    if (r !== undefined) return r;
  }
  if (nano !== undefined) {
    const r = timeComponent(nano, key);
    if (r !== undefined) return r;
  }
  if (offset !== undefined) {
    switch (key) {
      case 'timezone':
        return zone ?? formatOffset(offset);
      case 'offset':
        return formatOffset(offset);
      case 'offsetminutes':
        return BigInt(Math.trunc(offset / 60));
      case 'offsetseconds':
        return BigInt(offset);
      default:
        break;
    }
  }
  if (v instanceof DateTimeValue) {
    switch (key) {
      case 'epochseconds':
        return BigInt(v.utcEpochDay) * 86_400n + BigInt(Math.floor(v.utcNanoOfDay / NANOS_PER_SECOND));
      case 'epochmillis':
        return BigInt(v.utcEpochDay) * 86_400_000n + BigInt(Math.floor(v.utcNanoOfDay / 1_000_000));
      default:
        break;
    }
  }
  return undefined;
}

function dateComponent(epochDay: number, key: string): Value | undefined {
  const c = civilFromDays(epochDay);
  switch (key) {
    case 'year':
      return BigInt(c.year);
    case 'quarter':
      return BigInt(quarterOf(c.month));
    case 'month':
      return BigInt(c.month);
    case 'week':
      return BigInt(weekOfWeekYear(epochDay, weekYearOf(epochDay, c.year)));
    case 'weekyear':
      return BigInt(weekYearOf(epochDay, c.year));
    case 'day':
      return BigInt(c.day);
    case 'ordinalday':
      return BigInt(dayOfYear(c.year, c.month, c.day));
    case 'weekday':
    case 'dayofweek':
      return BigInt(dayOfWeek(epochDay));
    case 'quarterday':
    case 'dayofquarter':
      return BigInt(dayOfQuarter(c.year, c.month, c.day));
    default:
      return undefined;
  }
}

function timeComponent(nanoOfDay: number, key: string): Value | undefined {
  const seconds = Math.floor(nanoOfDay / NANOS_PER_SECOND);
  const nano = nanoOfDay - seconds * NANOS_PER_SECOND;
  switch (key) {
    case 'hour':
      return BigInt(Math.floor(seconds / 3600));
    case 'minute':
      return BigInt(Math.floor((seconds % 3600) / 60));
    case 'second':
      return BigInt(seconds % 60);
    case 'millisecond':
      return BigInt(Math.floor(nano / 1_000_000));
    case 'microsecond':
      return BigInt(Math.floor(nano / 1000));
    case 'nanosecond':
      return BigInt(nano);
    default:
      return undefined;
  }
}

function durationComponent(d: DurationValue, key: string): Value | undefined {
  // Java-style truncating division: components of a negative duration are negative.
  const months = BigInt(d.months);
  const days = BigInt(d.days);
  const seconds = d.seconds;
  const nanos = BigInt(d.nanos);
  const totalNanos = seconds * 1_000_000_000n + nanos;
  switch (key) {
    case 'years':
      return months / 12n;
    case 'quarters':
      return months / 3n;
    case 'months':
      return months;
    case 'weeks':
      return days / 7n;
    case 'days':
      return days;
    case 'hours':
      return seconds / 3600n;
    case 'minutes':
      return seconds / 60n;
    case 'seconds':
      return seconds;
    case 'milliseconds':
      return totalNanos / 1_000_000n;
    case 'microseconds':
      return totalNanos / 1000n;
    case 'nanoseconds':
      return totalNanos;
    case 'quartersofyear':
      return (months / 3n) % 4n;
    case 'monthsofquarter':
      return months % 3n;
    case 'monthsofyear':
      return months % 12n;
    case 'daysofweek':
      return days % 7n;
    case 'minutesofhour':
      return (seconds / 60n) % 60n;
    case 'secondsofminute':
      return seconds % 60n;
    case 'millisecondsofsecond':
      return nanos / 1_000_000n;
    case 'microsecondsofsecond':
      return nanos / 1000n;
    case 'nanosecondsofsecond':
      return nanos;
    default:
      return undefined;
  }
}
