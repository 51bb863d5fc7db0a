import { describe, expect, it } from 'vitest';
import { DurationValue } from '../../src/common/values/temporal.js';
import type { Value } from '../../src/common/values/value.js';
import { lookupFunction } from '../../src/query/functions/catalog.js';
import type { AggregateOptions } from '../../src/query/functions/definition.js';
import { errorOf } from './support.js';

function aggregate(name: string, values: Value[], options: Partial<AggregateOptions> = {}, extra?: Value): Value {
  const f = lookupFunction(name);
  if (f === undefined || f.kind !== 'aggregate') throw new Error(`no aggregate ${name}`);
  const acc = f.create({ distinct: false, ...options });
  for (const v of values) acc.add(v, extra);
  return acc.result();
}

describe('aggregates', () => {
  it('count values, rows, and distinct values', () => {
    expect(aggregate('count', [1n, null, 2n])).toBe(2n);
    expect(aggregate('count', [null, null], { star: true })).toBe(2n);
    expect(aggregate('count', [1n, 1, 2n, null, 2n], { distinct: true })).toBe(2n);
    expect(aggregate('count', [])).toBe(0n);
  });

  it('sum integers exactly, floats as floats, durations as durations', () => {
    expect(aggregate('sum', [1n, 2n, null])).toBe(3n);
    expect(aggregate('sum', [1n, 2.5])).toBe(3.5);
    expect(aggregate('sum', [])).toBe(0n);
    expect(String(aggregate('sum', [new DurationValue(0, 1, 0, 0), new DurationValue(1, 0, 30, 0)]))).toBe('P1M1DT30S');
    expect(errorOf(() => aggregate('sum', [2n ** 62n, 2n ** 62n]))).toBe('ArithmeticError/IntegerOverflow');
    expect(errorOf(() => aggregate('sum', [1n, 'a']))).toBe('TypeError/InvalidArgumentType');
    expect(errorOf(() => aggregate('sum', [1n, DurationValue.ZERO]))).toBe('TypeError/InvalidArgumentType');
  });

  it('average numbers as FLOAT and durations as durations', () => {
    expect(aggregate('avg', [1n, 2n])).toBe(1.5);
    expect(aggregate('avg', [])).toBeNull();
    expect(String(aggregate('avg', [new DurationValue(0, 1, 0, 0), new DurationValue(0, 2, 0, 0)]))).toBe('P1DT12H');
  });

  it('take min and max by the global order', () => {
    expect(aggregate('min', [3n, 1.5, null, 2n])).toBe(1.5);
    expect(aggregate('max', [3n, 'z', 1n])).toBe(3n);
    expect(aggregate('min', [null])).toBeNull();
  });

  it('collect non-null values, distinct on request', () => {
    expect(aggregate('collect', [1n, null, 1n])).toEqual([1n, 1n]);
    expect(aggregate('collect', [1n, null, 1.0, [2n], [2n]], { distinct: true })).toEqual([1n, [2n]]);
    expect(aggregate('collect', [])).toEqual([]);
  });

  it('compute sample and population standard deviation', () => {
    expect(aggregate('stDev', [2n, 4n, 4n, 4n, 5n, 5n, 7n, 9n])).toBeCloseTo(2.138, 3);
    expect(aggregate('stDevP', [2n, 4n, 4n, 4n, 5n, 5n, 7n, 9n])).toBeCloseTo(2, 10);
    expect(aggregate('stDev', [1n])).toBe(0);
    expect(aggregate('stDev', [])).toBe(0);
  });

  it('compute percentiles and reject percentiles outside [0, 1] (TCK Aggregation6)', () => {
    const prices = [10.0, 20.0, 30.0];
    for (const [p, r] of [
      [0.0, 10.0],
      [0.5, 20.0],
      [1.0, 30.0],
    ] as const) {
      expect(aggregate('percentileDisc', prices, {}, p)).toBe(r);
      expect(aggregate('percentileCont', prices, {}, p)).toBe(r);
    }
    expect(aggregate('percentileCont', [1n, 2n], {}, 0.25)).toBe(1.25);
    expect(aggregate('percentileDisc', [3n, 1n, 2n], {}, 0.4)).toBe(2n);
    expect(aggregate('percentileCont', [], {}, 0.5)).toBeNull();
    for (const p of [1000n, -1n, 1.1]) {
      expect(errorOf(() => aggregate('percentileCont', [10.0], {}, p))).toBe('ArgumentError/NumberOutOfRange');
      expect(errorOf(() => aggregate('percentileDisc', [10.0], {}, p))).toBe('ArgumentError/NumberOutOfRange');
    }
  });

  it('estimate memory that grows with what they hold', () => {
    const f = lookupFunction('collect');
    if (f?.kind !== 'aggregate') throw new Error('collect');
    const acc = f.create({ distinct: false });
    const before = acc.memoryBytes();
    for (let i = 0; i < 100; i++) acc.add('x'.repeat(100));
    expect(acc.memoryBytes()).toBeGreaterThan(before + 100 * 200);
    const counter = lookupFunction('count');
    if (counter?.kind !== 'aggregate') throw new Error('count');
    const c = counter.create({ distinct: true });
    const start = c.memoryBytes();
    c.add('abc');
    c.add('abc');
    expect(c.memoryBytes()).toBeGreaterThan(start);
  });
});
