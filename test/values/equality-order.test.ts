import { describe, expect, it } from 'vitest';
import { equals, equivalent } from '../../src/common/values/equality.js';
import { hashValue, ValueHashMap, ValueHashSet } from '../../src/common/values/hash.js';
import { compareValues, lessThan, orderCompare } from '../../src/common/values/order.js';
import { isStorableProperty } from '../../src/common/values/storable.js';
import { DateTimeValue, DateValue, DurationValue, LocalTimeValue, TimeValue } from '../../src/common/values/temporal.js';
import { nodeRef, pathValue, relationshipRef, type Value } from '../../src/common/values/value.js';

const map = (o: Record<string, Value>): Value => new Map(Object.entries(o));

describe('Cypher equality (=) is three-valued', () => {
  it.each<[string, Value, Value, boolean | null]>([
    ['null = null', null, null, null],
    ['1 = null', 1n, null, null],
    ['1 = 1.0', 1n, 1, true],
    ["'1' = 1", '1', 1n, false],
    ["'1.0' = 1.0", '1.0', 1, false],
    ['NaN = NaN', NaN, NaN, false],
    ['NaN = 1', NaN, 1n, false],
    ['2^53+1 = 2^53 (float)', 9007199254740993n, 9007199254740992, false],
    ['2^60 = 2^60 (float)', 2n ** 60n, 2 ** 60, true],
    ['[1, 2] = [1]', [1n, 2n], [1n], false],
    ['[null] = [1]', [null], [1n], null],
    ["['a'] = [1]", ['a'], [1n], false],
    ['[[1]] = [[1], [null]]', [[1n]], [[1n], [null]], false],
    ['[[1], [2]] = [[1], [null]]', [[1n], [2n]], [[1n], [null]], null],
    ['[[1], [2, 3]] = [[1], [null]]', [[1n], [2n, 3n]], [[1n], [null]], false],
    ['{} = {}', map({}), map({}), true],
    ['{k: 1.0} = {k: 1}', map({ k: 1 }), map({ k: 1n }), true],
    ['{} = {k: null}', map({}), map({ k: null }), false],
    ['{k: null} = {k: null, l: null}', map({ k: null }), map({ k: null, l: null }), false],
    ['{k: null} = {k: null}', map({ k: null }), map({ k: null }), null],
    ['{k: 1, l: null} = {k: null, l: 1}', map({ k: 1n, l: null }), map({ k: null, l: 1n }), null],
    ['node = same node', nodeRef(1), nodeRef(1), true],
    ['node = relationship with the same id', nodeRef(1), relationshipRef(1), false],
    ['path = same path', pathValue([1, 2], [3]), pathValue([1, 2], [3]), true],
    ['date = duration', new DateValue(0), DurationValue.ZERO, false],
    ['durations: 70s = 1min 10s', new DurationValue(0, 0, 70, 0), new DurationValue(0, 0, 70, 0), true],
    ['durations: 1 day != 24 hours', new DurationValue(0, 1, 0, 0), new DurationValue(0, 0, 86400, 0), false],
    ['times at one instant and offset', new TimeValue(3600e9, 3600), new TimeValue(3600e9, 3600), true],
    ['times at one instant, other offsets', new TimeValue(3600e9, 3600), new TimeValue(0, 0), false],
    ['datetimes at one instant, offset and zone', new DateTimeValue(0, 3600e9, 3600, 'Europe/Paris'), new DateTimeValue(0, 3600e9, 3600, 'Europe/Paris'), true],
    ['datetimes at one instant, other offsets', new DateTimeValue(0, 3600e9, 3600, null), new DateTimeValue(0, 0, 0, null), false],
    ['datetimes at one instant and offset, other zones', new DateTimeValue(0, 3600e9, 3600, 'Europe/Paris'), new DateTimeValue(0, 3600e9, 3600, null), false],
  ])('%s', (_name, a, b, expected) => {
    expect(equals(a, b)).toBe(expected);
    expect(equals(b, a)).toBe(expected);
  });
});

describe('equivalence (DISTINCT, grouping) and its hash', () => {
  it('makes null equivalent to null and NaN to NaN, never null itself', () => {
    expect(equivalent(null, null)).toBe(true);
    expect(equivalent(NaN, NaN)).toBe(true);
    expect(equivalent([null, NaN], [null, NaN])).toBe(true);
    expect(equivalent(map({ k: null }), map({ k: null }))).toBe(true);
    expect(equivalent(1n, null)).toBe(false);
  });

  it('hashes equivalent values alike', () => {
    const pairs: [Value, Value][] = [
      [1n, 1],
      [0n, -0],
      [2n ** 60n, 2 ** 60],
      [[1n, 'a'], [1, 'a']],
      [map({ a: 1n, b: 2n }), new Map<string, Value>([['b', 2n], ['a', 1n]])],
      [NaN, -NaN],
      [new TimeValue(3600e9, 3600), new TimeValue(3600e9, 3600)],
    ];
    for (const [a, b] of pairs) {
      expect(equivalent(a, b)).toBe(true);
      expect(hashValue(a)).toBe(hashValue(b));
    }
    expect(hashValue('a')).not.toBe(hashValue('b'));
  });

  it('groups keys with a value-keyed map in insertion order', () => {
    const m = new ValueHashMap<number>();
    for (const k of [1n, 1, 'x', null, [1n, null], 2.5, [1, null], null]) m.set(k, (m.get(k) ?? 0) + 1);
    expect([...m.entries()].map(([, n]) => n)).toEqual([2, 1, 2, 2, 1]);
    const s = new ValueHashSet();
    expect([s.add(1n), s.add(1), s.add(NaN), s.add(NaN)]).toEqual([true, false, true, false]);
  });
});

describe('global sort order (ORDER BY)', () => {
  it('orders distinct types as the TCK expects', () => {
    const sorted: Value[] = [map({ a: 'map' }), nodeRef(1), relationshipRef(1), ['list'], pathValue([1, 2], [1]), 'text', false, 1.5, NaN, null];
    const shuffled = [sorted[6], sorted[9], sorted[2], sorted[8], sorted[0], sorted[7], sorted[4], sorted[1], sorted[5], sorted[3]] as Value[];
    expect(shuffled.sort(orderCompare)).toEqual(sorted);
  });

  it('orders lists element by element, shorter first', () => {
    const sorted: Value[] = [[], ['a'], ['a', 1n], [1n], [1n, 'a'], [1n, null], [null, 1n], [null, 2n]];
    expect([...sorted].reverse().sort(orderCompare)).toEqual(sorted);
  });

  it('orders numbers across INTEGER and FLOAT exactly, NaN last', () => {
    const sorted: Value[] = [-Infinity, -1n, -0.5, 0n, 0.5, 9007199254740992, 9007199254740993n, Infinity, NaN];
    expect([...sorted].reverse().sort(orderCompare)).toEqual(sorted);
  });

  it('orders times by instant', () => {
    const a = new TimeValue(12 * 3600e9 + 35 * 60e9, 5 * 3600); // 12:35+05:00 = 07:35Z
    const b = new TimeValue(10 * 3600e9, -8 * 3600); // 10:00-08:00 = 18:00Z
    expect(orderCompare(a, b)).toBeLessThan(0);
  });

  it('orders one instant in several zones west to east, a bare offset before named zones', () => {
    // 2020-01-01 12:00 at UTC+1 is 11:00Z: the same instant written five ways.
    const day = 18262;
    const sorted: Value[] = [
      new DateTimeValue(day, 6 * 3600e9, -5 * 3600, null), // 06:00-05:00
      new DateTimeValue(day, 11 * 3600e9, 0, null), // 11:00Z
      new DateTimeValue(day, 12 * 3600e9, 3600, null), // 12:00+01:00
      new DateTimeValue(day, 12 * 3600e9, 3600, 'Africa/Lagos'),
      new DateTimeValue(day, 12 * 3600e9, 3600, 'Europe/Paris'),
    ];
    expect([...sorted].reverse().sort(orderCompare)).toEqual(sorted);
    expect(lessThan(sorted[1] as Value, sorted[2] as Value)).toBe(true);
    expect(lessThan(new TimeValue(12 * 3600e9, 3600), new TimeValue(11 * 3600e9, 0))).toBe(false);
  });

  it('orders durations by their length with average months, then months and days', () => {
    const d = (months: number, days: number, seconds: bigint): DurationValue => new DurationValue(months, days, seconds, 0);
    const sorted: Value[] = [d(0, 0, -1n), d(0, 0, 86_400n), d(0, 1, 0n), d(0, 30, 0n), d(1, 0, 0n), d(0, 31, 0n), d(12, 0, 0n), d(0, 366, 0n)];
    expect([...sorted].reverse().sort(orderCompare)).toEqual(sorted);
  });
});

describe('comparison operators', () => {
  it('are null between incomparable values', () => {
    expect(compareValues(1n, 'a')).toBeNull();
    expect(compareValues(null, 1n)).toBeNull();
    expect(compareValues(map({}), map({}))).toBeNull();
    expect(compareValues(nodeRef(1), nodeRef(2))).toBeNull();
    expect(compareValues(DurationValue.ZERO, DurationValue.ZERO)).toBeNull();
    expect(compareValues(new DateValue(1), new LocalTimeValue(1))).toBeNull();
    expect(lessThan([1n, 'a'], [1n, 2n])).toBeNull();
  });

  it('answer false for every comparison with NaN', () => {
    const c = compareValues(NaN, 1n);
    expect(c === null ? 'null' : [c < 0, c > 0, c <= 0, c >= 0]).toEqual([false, false, false, false]);
  });

  it('compare lists lexicographically and strings by code unit', () => {
    expect(lessThan([1n, 2n], [1n, 3n])).toBe(true);
    expect(lessThan([2n, -2n], [2n, -2n, 100n])).toBe(true);
    expect(lessThan([1n, null], [2n, 3n])).toBe(true);
    expect(lessThan('B', 'a')).toBe(true);
    expect(lessThan(false, true)).toBe(true);
    expect(lessThan(1n, 1.5)).toBe(true);
  });
});

describe('storable property values', () => {
  it.each<[string, Value, boolean]>([
    ['integer', 1n, true],
    ['homogeneous list', [1n, 2n], true],
    ['numeric list mixing int and float', [1n, 2.5], true],
    ['list of dates', [new DateValue(0), new DateValue(1)], true],
    ['mixed list', [1n, 'a'], false],
    ['list with null', [1n, null], false],
    ['list of maps', [map({ num: 1n })], false],
    ['map', map({ a: 1n }), false],
    ['node', nodeRef(1), false],
    ['null', null, false],
    ['vector', new Float32Array([1, 2]), true],
  ])('%s', (_name, v, ok) => {
    expect(isStorableProperty(v)).toBe(ok);
  });

  it('accepts maps only where the schema declares MAP or DOCUMENT', () => {
    expect(isStorableProperty(map({ a: [map({ b: null })] }), { allowMaps: true })).toBe(true);
    expect(isStorableProperty(map({ a: nodeRef(1) }), { allowMaps: true })).toBe(false);
  });
});
