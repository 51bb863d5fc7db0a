import { describe, expect, it } from 'vitest';
import { call, errorOf, mi, text } from './support.js';

describe('temporal constructors', () => {
  it('read the statement clock by default and the other clocks by name', () => {
    expect(text('datetime')).toBe('1984-11-11T11:31:14.645876123Z');
    expect(text('date')).toBe('1984-11-11');
    expect(text('localtime')).toBe('11:31:14.645876123');
    expect(text('date.transaction')).toBe('1970-01-01');
    expect(text('localdatetime.realtime')).toBe('1970-01-02T00:00:00.000000001');
    expect(text('datetime.statement', 'Europe/Stockholm')).toBe('1984-11-11T12:31:14.645876123+01:00[Europe/Stockholm]');
    expect(text('time', mi({ timezone: '+05:00' }))).toBe('16:31:14.645876123+05:00');
    expect(call('date.realtime', null)).toBeNull();
    expect(text('timestamp')).toBe('469020674645');
  });

  it('build values from component maps (TCK Temporal1)', () => {
    expect(text('date', mi({ year: 1817, week: 1 }))).toBe('1816-12-30');
    expect(text('date', mi({ year: 1984, quarter: 3, dayOfQuarter: 45 }))).toBe('1984-08-14');
    expect(text('date', mi({ year: 1984, ordinalDay: 202 }))).toBe('1984-07-20');
    expect(text('localtime', mi({ hour: 12n, minute: 31n, second: 14n, nanosecond: 789n, millisecond: 123n, microsecond: 456n }))).toBe(
      '12:31:14.123456789',
    );
    expect(text('time', mi({ hour: 12, minute: 34, second: 56, timezone: '-02:05:07' }))).toBe('12:34:56-02:05:07');
    expect(text('datetime', mi({ year: 1984, ordinalDay: 202, timezone: 'Europe/Stockholm' }))).toBe('1984-07-20T00:00+02:00[Europe/Stockholm]');
    expect(text('datetime.fromepoch', 416779n, 999999999n)).toBe('1970-01-05T19:46:19.999999999Z');
    expect(text('datetime.fromepochmillis', 237821673987n)).toBe('1977-07-15T13:34:33.987Z');
    expect(text('datetime', mi({ epochSeconds: 416779n, nanosecond: 5n }))).toBe('1970-01-05T19:46:19.000000005Z');
  });

  it('project from other temporal values (TCK Temporal3)', () => {
    const dt = call('datetime', mi({ year: 1984, month: 10, day: 11, hour: 12, timezone: 'Europe/Stockholm' }));
    const lt = call('localtime', mi({ hour: 12, minute: 31, second: 14, nanosecond: 645876123 }));
    expect(text('time', mi({ time: dt, timezone: '+05:00' }))).toBe('16:00+05:00');
    expect(text('date', mi({ date: dt, week: 1 }))).toBe('1984-01-05');
    expect(text('date', mi({ date: dt, quarter: 3 }))).toBe('1984-07-11');
    expect(text('datetime', mi({ date: dt, time: lt, day: 28, second: 42, timezone: 'Pacific/Honolulu' }))).toBe(
      '1984-10-28T12:31:42.645876123-10:00[Pacific/Honolulu]',
    );
    expect(text('localdatetime', dt)).toBe('1984-10-11T12:00');
  });

  it('parse strings and reject bad input with the TCK codes', () => {
    expect(text('date', '2015-W30-2')).toBe('2015-07-21');
    expect(text('duration', 'P1DT2H')).toBe('P1DT2H');
    expect(errorOf(() => call('date', '2015-02-30'))).toBe('ArgumentError/InvalidArgumentValue');
    expect(errorOf(() => call('date', mi({ year: 2015, month: 13 })))).toBe('ArgumentError/InvalidArgumentValue');
    expect(errorOf(() => call('date', mi({ month: 1 })))).toBe('ArgumentError/InvalidArgumentValue');
    expect(errorOf(() => call('date', mi({ year: 2015, month: 1, week: 2 })))).toBe('ArgumentError/InvalidArgumentValue');
    expect(errorOf(() => call('localtime', mi({ hour: 12, second: 3 })))).toBe('ArgumentError/InvalidArgumentValue');
    expect(errorOf(() => call('datetime', mi({ year: 2015, timezone: 'Nowhere/Land' })))).toBe('ArgumentError/InvalidArgumentValue');
    expect(errorOf(() => call('date', mi({ year: 2015, colour: 1n })))).toBe('ArgumentError/InvalidArgumentValue');
    expect(errorOf(() => call('date', 12n))).toBe('TypeError/InvalidArgumentValue');
    expect(call('date', null)).toBeNull();
  });

  it('truncate to units and apply the map on top (TCK Temporal9)', () => {
    const dt = call('datetime', mi({ year: 2017, month: 10, day: 11, hour: 12, minute: 31, second: 14, nanosecond: 645876123, timezone: '-01:00' }));
    expect(text('date.truncate', 'millennium', dt, mi({ day: 2n }))).toBe('2000-01-02');
    expect(text('datetime.truncate', 'century', dt, mi({ timezone: 'Europe/Stockholm' }))).toBe('2000-01-01T00:00+01:00[Europe/Stockholm]');
    expect(text('localdatetime.truncate', 'weekYear', call('date', '1984-01-01'))).toBe('1983-01-03T00:00');
    expect(text('time.truncate', 'millisecond', dt, mi({ nanosecond: 2n }))).toBe('12:31:14.645000002-01:00');
    expect(text('localtime.truncate', 'hour', dt)).toBe('12:00');
    expect(errorOf(() => call('date.truncate', 'hour', dt))).toBe('ArgumentError/InvalidArgumentValue');
    expect(errorOf(() => call('date.truncate', 'fortnight', dt))).toBe('ArgumentError/InvalidArgumentValue');
  });
});

describe('durations', () => {
  it('build from maps of whole and fractional units (TCK Temporal1 [12])', () => {
    expect(text('duration', mi({ days: 14, hours: 16, minutes: 12 }))).toBe('P14DT16H12M');
    expect(text('duration', mi({ months: 0.75 }))).toBe('P22DT19H51M49.5S');
    expect(text('duration', mi({ weeks: 2.5 }))).toBe('P17DT12H');
    expect(text('duration', mi({ years: 12, months: 5, days: 14, hours: 16, minutes: 12, seconds: 70 }))).toBe('P12Y5M14DT16H13M10S');
    expect(text('duration', mi({ minutes: 1.5, seconds: 1 }))).toBe('PT1M31S');
    expect(text('duration', mi({ seconds: -1, nanoseconds: 1 }))).toBe('PT-0.999999999S');
  });

  it('measure between values', () => {
    const a = call('date', '1984-10-11');
    const b = call('date', '1985-11-25');
    expect(text('duration.between', a, b)).toBe('P1Y1M14D');
    expect(text('duration.inMonths', a, b)).toBe('P1Y1M');
    expect(text('duration.inDays', a, b)).toBe('P410D');
    expect(text('duration.inSeconds', a, call('date', '1984-10-12'))).toBe('PT24H');
    expect(call('duration.between', null, b)).toBeNull();
  });
});
