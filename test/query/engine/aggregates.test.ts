import { describe, expect, it } from 'vitest';
import { CypherError } from '../../../src/query/errors.js';
import { lookupFunction } from '../../../src/query/functions/catalog.js';
import type { AggregateFunction } from '../../../src/query/functions/definition.js';
import { prng, testSeed } from '../../support/prng.js';
import { withDb } from './support.js';

/**
 * sum() and avg() add integers in a JavaScript number while the partial sum is small and move it
 * into a BigInt when it grows. These check that the answer is still the exact 64-bit one, at and
 * around the edges of the safe-integer range, and that overflow is still refused.
 */
const SAFE = 2n ** 53n;
const MAX = 2n ** 63n - 1n;

async function one(db: { query(t: string, p?: Record<string, unknown>): Promise<{ rows: readonly (readonly unknown[])[] }> }, text: string, xs: readonly unknown[]): Promise<unknown> {
  const r = await db.query(text, { xs: xs as never });
  return r.rows[0]?.[0];
}

describe('sum and avg', () => {
  it('sum of integers is exact across the safe-integer range', async () => {
    await withDb(async (db) => {
      const cases: bigint[][] = [
        [1n, 2n, 3n],
        [SAFE - 1n, 1n, 1n, 1n],
        [SAFE / 2n, SAFE / 2n, SAFE / 2n, -5n],
        [SAFE + 1n, SAFE + 3n, -7n],
        [-(SAFE - 1n), -(SAFE - 1n), -(SAFE - 1n)],
        [MAX - 10n, 5n, 5n],
        [MAX, -MAX, MAX],
        Array.from({ length: 5000 }, (_, i) => BigInt(i) * 1_000_000_007n),
      ];
      for (const xs of cases) {
        const expected = xs.reduce((a, b) => a + b, 0n);
        expect(await one(db, 'UNWIND $xs AS x RETURN sum(x)', xs)).toBe(expected);
        const avg = await one(db, 'UNWIND $xs AS x RETURN avg(x)', xs);
        expect(avg).toBe(Number(expected) / xs.length);
      }
    });
  });

  it('sum over the 64-bit range is IntegerOverflow', async () => {
    await withDb(async (db) => {
      for (const xs of [[MAX, 1n], [SAFE, MAX], [-MAX, -2n], Array.from({ length: 3000 }, () => 2n ** 52n * 1000n)]) {
        const e = await db.query('UNWIND $xs AS x RETURN sum(x)', { xs }).then(
          () => undefined,
          (err: unknown) => err,
        );
        expect(e).toBeInstanceOf(CypherError);
        expect((e as CypherError).detail).toBe('IntegerOverflow');
      }
    });
  });

  it('a FLOAT makes the sum a FLOAT from there on', async () => {
    await withDb(async (db) => {
      expect(await one(db, 'UNWIND $xs AS x RETURN sum(x)', [1n, 2n, 0.5, 3n])).toBe(6.5);
      expect(await one(db, 'UNWIND $xs AS x RETURN sum(x)', [0.5, SAFE + 1n])).toBe(0.5 + Number(SAFE + 1n));
      expect(await one(db, 'UNWIND $xs AS x RETURN avg(x)', [1n, 2n, 0.5])).toBe(3.5 / 3);
      expect(await one(db, 'UNWIND $xs AS x RETURN sum(x)', [])).toBe(0n);
      expect(await one(db, 'UNWIND $xs AS x RETURN avg(x)', [])).toBe(null);
      expect(await one(db, 'UNWIND $xs AS x RETURN sum(x)', [null, 4n, null])).toBe(4n);
    });
  });

  it('numbers and durations do not mix, in either order', async () => {
    await withDb(async (db) => {
      for (const text of [
        "UNWIND [1, duration('P1D')] AS x RETURN sum(x)",
        "UNWIND [duration('P1D'), 1] AS x RETURN sum(x)",
        "UNWIND [1.5, duration('P1D')] AS x RETURN avg(x)",
        "UNWIND [duration('P1D'), 2] AS x RETURN avg(x)",
        "UNWIND ['a'] AS x RETURN sum(x)",
      ]) {
        const e = await db.query(text).then(
          () => undefined,
          (err: unknown) => err,
        );
        expect(e, text).toBeInstanceOf(CypherError);
        expect((e as CypherError).detail, text).toBe('InvalidArgumentType');
      }
      const d = await db.query("UNWIND [duration('P1D'), duration('PT12H')] AS x RETURN toString(sum(x)), toString(avg(x))");
      expect(d.rows[0]).toEqual(['P1DT12H', 'PT18H']);
    });
  });

  it('count is an INTEGER, also under DISTINCT and over no rows', async () => {
    await withDb(async (db) => {
      expect((await db.query('UNWIND [1, 1, 2, null] AS x RETURN count(x), count(DISTINCT x), count(*)')).rows[0]).toEqual([3n, 2n, 4n]);
      expect((await db.query('UNWIND [] AS x RETURN count(x), count(*)')).rows[0]).toEqual([0n, 0n]);
    });
  });

  it('adding exact integers as doubles gives what adding them as INTEGERs gives, overflow included', () => {
    const sum = lookupFunction('sum') as AggregateFunction;
    const avg = lookupFunction('avg') as AggregateFunction;
    const big = SAFE - 1n;
    const cases: bigint[][] = [
      [1n, 2n, 3n],
      [big, big, big, -big, 7n],
      [SAFE / 2n, SAFE / 2n, SAFE / 2n + 1n, -5n],
      Array.from({ length: 2000 }, () => big),
      Array.from({ length: 1025 }, () => big),
      Array.from({ length: 1024 }, () => big),
      Array.from({ length: 500 }, (_, i) => BigInt(i * 9_007_199) * (i % 2 === 0 ? 1n : -1n)),
    ];
    const outcome = (f: AggregateFunction, xs: bigint[], exact: boolean): unknown => {
      const acc = f.create({ distinct: false });
      try {
        for (const x of xs) {
          if (exact) acc.addExactInteger?.(Number(x));
          else acc.add(x);
        }
        return acc.result();
      } catch (e) {
        return e instanceof CypherError ? `${e.type}/${e.detail}` : e;
      }
    };
    for (const xs of cases) {
      for (const f of [sum, avg]) expect(outcome(f, xs, true), `${f.name} of ${xs.length} values`).toEqual(outcome(f, xs, false));
    }
    // 1025 values of 2^53 - 1 pass 2^63 - 1: both ways refuse it.
    expect(outcome(sum, Array.from({ length: 1025 }, () => big), true)).toMatch(/Overflow/);
  });
});

describe('percentiles', () => {
  it('over exact integers given as doubles (selected, not sorted) they equal percentiles over the same INTEGERs (sorted)', () => {
    const seed = testSeed('percentile selection');
    const r = prng(seed);
    const disc = lookupFunction('percentiledisc') as AggregateFunction;
    const cont = lookupFunction('percentilecont') as AggregateFunction;
    const outcome = (f: AggregateFunction, xs: bigint[], p: number, exact: boolean): unknown => {
      const acc = f.create({ distinct: false });
      acc.add(null, p);
      for (const x of xs) {
        if (exact) acc.addExactInteger?.(Number(x));
        else acc.add(x, p);
      }
      return acc.result();
    };
    for (let trial = 0; trial < 300; trial++) {
      const n = 1 + Math.floor(r() * (trial % 3 === 0 ? 5 : 3000));
      // Few distinct values (many ties), a wide range, or sorted and reversed runs.
      const spread = [3, 1000, 2 ** 40][trial % 3]!;
      let xs = Array.from({ length: n }, () => BigInt(Math.floor(r() * spread) - Math.floor(spread / 2)));
      if (trial % 5 === 1) xs = xs.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      if (trial % 5 === 2) xs = xs.sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));
      for (const p of [0, 0.1, 0.5, 0.77, 0.99, 1, r()]) {
        for (const f of [disc, cont]) {
          expect(outcome(f, xs, p, true), `seed ${seed} trial ${trial} ${f.name}(${p}) of ${n}`).toEqual(outcome(f, xs, p, false));
        }
      }
    }
  });
});
