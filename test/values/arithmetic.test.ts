import { describe, expect, it } from 'vitest';
import { daysFromCivil } from '../../src/common/values/calendar.js';
import { DateValue, DurationValue, LocalDateTimeValue, LocalTimeValue } from '../../src/common/values/temporal.js';
import { parseDate, parseDateTime, parseDuration, parseLocalDateTime, parseLocalTime, parseTime } from '../../src/common/values/temporal-parse.js';
import { nodeRef, pathValue, type Value } from '../../src/common/values/value.js';
import { CypherError } from '../../src/query/errors.js';
import { add, divide, modulo, multiply, negate, power, subtract } from '../../src/query/values/arithmetic.js';
import { asRowCount, inList, listElement, listSlice, regexMatch } from '../../src/query/values/coerce.js';
import { fromJsonValue, toJsonValue } from '../../src/query/values/convert.js';
import { formatFloat } from '../../src/common/values/float-text.js';
import { temporalComponent } from '../../src/query/values/temporal-access.js';
import { temporalPlusDuration } from '../../src/query/values/temporal-arithmetic.js';
import { durationBetween } from '../../src/query/values/temporal-between.js';

const MAX = 9223372036854775807n;
const MIN = -9223372036854775808n;
const UTC = { offsetSeconds: 0 };

function errorOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (e instanceof CypherError) return `${e.type}/${e.detail}`;
    throw e;
  }
  return 'no error';
}

describe('numeric operators', () => {
  it('keep INTEGER exact and fail on 64-bit overflow instead of wrapping', () => {
    expect(add(MAX - 1n, 1n)).toBe(MAX);
    expect(errorOf(() => add(MAX, 1n))).toBe('ArithmeticError/IntegerOverflow');
    expect(errorOf(() => subtract(MIN, 1n))).toBe('ArithmeticError/IntegerOverflow');
    expect(errorOf(() => multiply(2n ** 32n, 2n ** 31n))).toBe('ArithmeticError/IntegerOverflow');
    expect(errorOf(() => negate(MIN))).toBe('ArithmeticError/IntegerOverflow');
    expect(errorOf(() => divide(MIN, -1n))).toBe('ArithmeticError/IntegerOverflow');
  });

  it('divide integers by truncation, with the dividend sign for the remainder', () => {
    expect(divide(7n, 2n)).toBe(3n);
    expect(divide(-7n, 2n)).toBe(-3n);
    expect(modulo(-7n, 2n)).toBe(-1n);
    expect(modulo(7.5, 2n)).toBe(1.5);
    expect(errorOf(() => divide(1n, 0n))).toBe('ArithmeticError/DivisionByZero');
    expect(errorOf(() => modulo(1n, 0n))).toBe('ArithmeticError/DivisionByZero');
    expect(divide(1.0, 0n)).toBe(Infinity);
    expect(Number.isNaN(divide(0.0, 0.0) as number)).toBe(true);
  });

  it('mix INTEGER and FLOAT into FLOAT, and ^ always gives FLOAT', () => {
    expect(add(1n, 0.5)).toBe(1.5);
    expect(power(2n, 3n)).toBe(8);
    expect(typeof power(2n, 3n)).toBe('number');
  });

  it('propagate null and refuse mismatched types', () => {
    expect(add(null, 1n)).toBeNull();
    expect(multiply(1n, null)).toBeNull();
    expect(errorOf(() => add(true, 1n))).toBe('TypeError/InvalidArgumentType');
    expect(errorOf(() => subtract('a', 'b'))).toBe('TypeError/InvalidArgumentType');
  });
});

describe('string and list concatenation', () => {
  it('concatenates strings, and strings with numbers as Cypher prints them', () => {
    expect(add('a', 'b')).toBe('ab');
    expect(add('n', 1n)).toBe('n1');
    expect(add(1.0, 'x')).toBe('1.0x');
  });

  it('concatenates lists and appends or prepends single values', () => {
    expect(add([1n, 10n, 100n], [4n, 5n])).toEqual([1n, 10n, 100n, 4n, 5n]);
    expect(add([false, true], false)).toEqual([false, true, false]);
    expect(add(0n, [1n])).toEqual([0n, 1n]);
  });

  it('formats floats like Java', () => {
    expect([1, 2.3, -0, 1e20, 1.5e-7, 12345678.9, NaN].map(formatFloat)).toEqual(['1.0', '2.3', '-0.0', '1.0E20', '1.5E-7', '1.23456789E7', 'NaN']);
  });
});

describe('temporal arithmetic (TCK Temporal8 cases)', () => {
  const d1 = parseDuration('P12Y5M14DT16H13M10.000000002S') as DurationValue;
  const d2 = new DurationValue(1, -14, 16 * 3600 - 720 + 70, 0);
  const d3 = parseDuration('P12Y11M29DT33H58M13.500000003S') as DurationValue;

  it('adds and subtracts durations to dates, times and datetimes', () => {
    const date = parseDate('1984-10-11') as DateValue;
    expect([d1, d2, d3].map((d) => `${String(add(date, d))} ${String(subtract(date, d))}`)).toEqual([
      '1997-03-25 1972-04-27',
      '1984-10-28 1984-09-25',
      '1997-10-11 1971-10-12',
    ]);
    const lt = parseLocalTime('12:31:14.000000001') as LocalTimeValue;
    expect(String(add(lt, d1))).toBe('04:44:24.000000003');
    expect(String(subtract(lt, d1))).toBe('20:18:03.999999999');
    const ldt = parseLocalDateTime('1984-10-11T12:31:14.000000001') as LocalDateTimeValue;
    expect(String(add(d3, ldt))).toBe('1997-10-11T22:29:27.500000004');
    expect(String(subtract(ldt, d3))).toBe('1971-10-12T02:33:00.499999998');
    const t = parseTime('12:31:14.000000001+01:00', UTC, 0);
    expect(String(add(t ?? null, d2))).toBe('04:20:24.000000001+01:00');
    const dt = parseDateTime('1984-10-11T12:31:14.000000001+01:00', UTC);
    expect(String(subtract(dt ?? null, d2))).toBe('1984-09-24T20:42:04.000000001+01:00');
  });

  it('adds, subtracts, multiplies and divides durations', () => {
    expect(String(add(d1, d1))).toBe('P24Y10M28DT32H26M20.000000004S');
    expect(String(subtract(d1, d3))).toBe('P-6M-15DT-17H-45M-3.500000001S');
    const x = parseDuration('P12Y5M14DT16H13M10.000000001S') as DurationValue;
    expect(String(multiply(x, 2n))).toBe('P24Y10M28DT32H26M20.000000002S');
    expect(String(multiply(0.5, x))).toBe('P6Y2M22DT13H21M8S');
    expect(String(divide(x, 2n))).toBe('P6Y2M22DT13H21M8S');
    expect(String(divide(x, 0.5))).toBe('P24Y10M28DT32H26M20.000000002S');
    expect(String(negate(x))).toBe('P-12Y-5M-14DT-16H-13M-10.000000001S');
    expect(errorOf(() => divide(x, 0n))).toBe('ArithmeticError/DivisionByZero');
  });

  it('clamps the day when months land on a shorter month', () => {
    const jan31 = new DateValue(daysFromCivil(2024, 1, 31));
    expect(String(temporalPlusDuration(jan31, new DurationValue(1, 0, 0, 0), 1))).toBe('2024-02-29');
  });

  it('measures durations between values (duration.between and its unit forms)', () => {
    const p = (s: string) => parseDate(s) as DateValue;
    const dt = parseDateTime('1984-10-12T21:40:32.142+0100', UTC);
    if (dt === undefined) throw new Error('parse');
    expect(String(durationBetween(p('1984-10-11'), p('1985-11-25'), 'all'))).toBe('P1Y1M14D');
    expect(String(durationBetween(p('1985-11-25'), p('1984-10-11'), 'all'))).toBe('P-1Y-1M-14D');
    expect(String(durationBetween(p('1984-10-11'), dt, 'all'))).toBe('P1DT21H40M32.142S');
    expect(String(durationBetween(p('2015-06-24'), parseLocalTime('14:30') as LocalTimeValue, 'all'))).toBe('PT14H30M');
    expect(String(durationBetween(parseLocalTime('14:30') as LocalTimeValue, parseTime('16:30+0100', UTC, 0) ?? p('2000-01-01'), 'all'))).toBe('PT2H');
    const a = parseLocalDateTime('2015-07-21T21:40:32.142') as LocalDateTimeValue;
    const b = parseLocalDateTime('2016-07-21T21:45:22.142') as LocalDateTimeValue;
    expect(String(durationBetween(a, b, 'all'))).toBe('P1YT4M50S');
    const sto = parseDateTime('2017-10-29T00:00[Europe/Stockholm]', UTC);
    const lon = parseDateTime('2017-10-29T00:00[Europe/London]', UTC);
    if (sto === undefined || lon === undefined) throw new Error('parse');
    expect(String(durationBetween(sto, lon, 'all'))).toBe('PT1H');
    expect(String(durationBetween(p('1984-10-11'), p('1985-11-25'), 'months'))).toBe('P1Y1M');
    expect(String(durationBetween(p('1984-10-11'), p('1985-11-25'), 'days'))).toBe('P410D');
    expect(String(durationBetween(p('1984-10-11'), dt, 'seconds'))).toBe('PT45H40M32.142S');
  });

  it('reads components of temporal values', () => {
    const dt = parseDateTime('1984-11-11T12:31:14.645876123[Europe/Stockholm]', UTC);
    if (dt === undefined) throw new Error('parse');
    const get = (k: string) => temporalComponent(dt, k);
    expect(['year', 'quarter', 'week', 'weekYear', 'ordinalDay', 'weekDay', 'dayOfQuarter'].map(get)).toEqual([1984n, 4n, 45n, 1984n, 316n, 7n, 42n]);
    expect(['timezone', 'offset', 'offsetMinutes', 'epochSeconds', 'epochMillis'].map(get)).toEqual([
      'Europe/Stockholm',
      '+01:00',
      60n,
      469020674n,
      469020674645n,
    ]);
    const jan1 = parseDate('1984-01-01') as DateValue;
    expect(['weekYear', 'week', 'weekDay'].map((k) => temporalComponent(jan1, k))).toEqual([1983n, 52n, 7n]);
    const d = parseDuration('P1Y4M10DT1H1M1.111111111S') as DurationValue;
    const names = ['years', 'quarters', 'months', 'weeks', 'days', 'hours', 'minutes', 'seconds', 'milliseconds', 'nanosecondsOfSecond', 'monthsOfQuarter', 'daysOfWeek'];
    expect(names.map((k) => temporalComponent(d, k))).toEqual([1n, 5n, 16n, 1n, 10n, 1n, 61n, 3661n, 3661111n, 111111111n, 1n, 3n]);
    expect(temporalComponent(jan1, 'hour')).toBeUndefined();
  });
});

describe('list access, IN and row counts', () => {
  it('indexes from either end and slices with clamped bounds', () => {
    const l: Value[] = [1n, 2n, 3n];
    expect(listElement(l, -1n)).toBe(3n);
    expect(listElement(l, 3n)).toBeNull();
    expect(listSlice(l, 1n, undefined)).toEqual([2n, 3n]);
    expect(listSlice(l, -2n, -1n)).toEqual([2n]);
    expect(listSlice(l, 2n, 1n)).toEqual([]);
    expect(listSlice(l, null, 1n)).toBeNull();
  });

  it('answers IN three-valued', () => {
    expect(inList(2n, [1n, 2n])).toBe(true);
    expect(inList(3n, [1n, null])).toBeNull();
    expect(inList(3n, [1n, 2n])).toBe(false);
    expect(inList([1n], [[1n], [2n]])).toBe(true);
  });

  it('matches whole strings with =~', () => {
    expect(regexMatch('abc', 'a.c')).toBe(true);
    expect(regexMatch('abcd', 'a.c')).toBe(false);
    expect(regexMatch('a\nb', 'a.b')).toBe(false);
    expect(regexMatch(1n, 'a')).toBeNull();
    expect(errorOf(() => regexMatch('a', '('))).toBe('ArgumentError/InvalidArgumentValue');
  });

  it('checks SKIP and LIMIT values', () => {
    expect(asRowCount(2n, 'SKIP')).toBe(2);
    expect(errorOf(() => asRowCount(-1n, 'SKIP'))).toBe('ArgumentError/NegativeIntegerArgument');
    expect(errorOf(() => asRowCount(1.5, 'LIMIT'))).toBe('ArgumentError/InvalidArgumentType');
  });
});

describe('neutral JSON form', () => {
  it('round-trips every kind of value losslessly', () => {
    const values: Value[] = [
      null,
      true,
      MAX,
      1.5,
      NaN,
      -Infinity,
      'text',
      [1n, [2.5, 'x']],
      new Map<string, Value>([['a', 1n], ['b', new Map([['c', null]])]]),
      new Uint8Array([0, 255, 7]),
      new Float32Array([0.5, -1]),
      parseDate('1984-10-11') ?? null,
      parseLocalTime('12:31:14.645876123') ?? null,
      parseTime('12:31:14+02:05:59', UTC, 0) ?? null,
      parseLocalDateTime('0001-01-01T01:01:01.000000001') ?? null,
      parseDateTime('1818-07-21T00:00[Europe/Stockholm]', UTC) ?? null,
      parseDuration('P-6M-15DT-17H-45M-3.500000002S') ?? null,
      nodeRef(7),
      pathValue([1, 2], [3]),
    ];
    for (const v of values) {
      const json = JSON.parse(JSON.stringify(toJsonValue(v)));
      const back = fromJsonValue(json);
      expect(toJsonValue(back)).toEqual(toJsonValue(v));
    }
    expect(toJsonValue(MAX)).toEqual({ int: '9223372036854775807' });
    expect(() => fromJsonValue(3)).toThrow(CypherError);
  });
});
