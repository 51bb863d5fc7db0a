import { describe, expect, it } from 'vitest';
import type { Value } from '../../../src/common/values/value.js';
import type { Db } from '../../../src/index.js';
import { QueryEngine } from '../../../src/query/engine.js';
import { withDb } from './support.js';

/**
 * Bounds given as parameters are weighed by the histograms as literals are, for the values of the run being
 * planned: a narrow range of an indexed property is sought and a wide one scanned, and where a pattern starts
 * follows the parameter's value. A plan is kept for values in the same histogram buckets and made again for
 * values in others, and every plan answers every value correctly.
 */
const PERSONS = 20_000;

async function load(db: Db): Promise<void> {
  await db.query('UNWIND range(0, $n - 1) AS i CREATE (:Person {id: i, age: 18 + i % 60})', { n: BigInt(PERSONS) });
  await db.query('CREATE INDEX person_id FOR (p:Person) ON (p.id)');
  await db.query('UNWIND range(0, $n - 1, 4) AS i MATCH (a:Person {id: i}), (b:Person {id: (i * 7 + 1) % $n}) CREATE (a)-[:KNOWS]->(b)', { n: BigInt(PERSONS) });
  for (let k = 0; k < 3; k++) await db.query('MATCH (p:Person) RETURN count(*)');
}

/** The plan text EXPLAIN gives for a run with `params`. */
async function planOf(db: Db, text: string, params: Record<string, Value>): Promise<string> {
  return String((await db.query(`EXPLAIN ${text}`, params)).rows[0]?.[0]);
}

describe('parameter bounds', () => {
  it('seek a narrow range given as parameters and scan a wide one, as for literals', async () => {
    await withDb(async (db) => {
      await load(db);
      const text = 'MATCH (p:Person) WHERE p.id >= $lo AND p.id < $hi AND p.age > 20 RETURN count(*)';
      const scanOf = async (lo: bigint, hi: bigint): Promise<string> => {
        const plan = await planOf(db, text, { lo, hi });
        return plan.includes('NodeIndexSeekByRange') ? 'seek' : plan.includes('NodeByLabelScan') ? 'scan' : 'other';
      };
      const expected = (lo: number, hi: number): bigint => {
        let n = 0;
        for (let i = lo; i < Math.min(hi, PERSONS); i++) if (18 + (i % 60) > 20) n++;
        return BigInt(n);
      };
      expect(await scanOf(100n, 150n)).toBe('seek');
      expect(await scanOf(100n, 15_000n)).toBe('scan');
      // Back and forth between buckets: each run gets the plan of its own values.
      expect(await scanOf(101n, 149n)).toBe('seek');
      expect(await scanOf(0n, 20_000n)).toBe('scan');
      for (const [lo, hi] of [
        [100, 150],
        [100, 15_000],
        [101, 149],
        [0, 20_000],
        [19_990, 30_000],
        [150, 100],
      ] as const) {
        expect((await db.query(text, { lo: BigInt(lo), hi: BigInt(hi) })).rows, `${lo}..${hi}`).toEqual([[expected(lo, hi)]]);
      }
      // The estimate shown weighs the values: 50 ids keep about 50 rows, not a fixed guess of the label.
      const shown = /Filter[^\n]*rows~([\d.]+)/.exec(await planOf(db, text, { lo: 100n, hi: 150n }));
      expect(Number(shown?.[1])).toBeLessThan(100);
      // Without values (EXPLAIN alone) nothing is weighed: the bounds are left to the index at run time.
      expect(db.explain(text).details.explain).toContain('NodeIndexSeekByRange');
    });
  });

  it('start a pattern where a parameter bound keeps few nodes', async () => {
    await withDb(async (db) => {
      await load(db);
      const text = 'MATCH (a:Person)-[:KNOWS]->(b:Person) WHERE b.age > $min RETURN count(*)';
      // The scan at the bottom of the plan (the last line naming one) is where the pattern starts.
      const startOf = async (min: bigint): Promise<string> => {
        const lines = (await planOf(db, text, { min })).split('\n').filter((l) => l.includes('NodeByLabelScan') || l.includes('NodeIndexSeek'));
        return /pattern: \((\w+)/.exec(lines[lines.length - 1] ?? '')?.[1] ?? 'none';
      };
      expect(await startOf(76n)).toBe('b');
      expect(await startOf(20n)).toBe('a');
      for (const min of [76n, 20n, 50n]) {
        let n = 0;
        for (let i = 0; i < PERSONS; i += 4) if (18 + (((i * 7 + 1) % PERSONS) % 60) > Number(min)) n++;
        expect((await db.query(text, { min })).rows, `min ${min}`).toEqual([[BigInt(n)]]);
      }
    });
  });

  it('weigh an expression of parameters by its value, and answer every value with each plan', async () => {
    await withDb(async (db) => {
      await load(db);
      const text = 'MATCH (p:Person) WHERE p.id >= $lo + 1 AND p.id < $lo + $width AND p.age > 20 RETURN count(*)';
      const scanOf = async (lo: bigint, width: bigint): Promise<string> => {
        const plan = await planOf(db, text, { lo, width });
        return plan.includes('NodeIndexSeekByRange') ? 'seek' : plan.includes('NodeByLabelScan') ? 'scan' : 'other';
      };
      expect(await scanOf(100n, 50n)).toBe('seek');
      expect(await scanOf(100n, 15_000n)).toBe('scan');
      expect(await scanOf(9_000n, 40n)).toBe('seek');
      const expected = (lo: number, width: number): bigint => {
        let n = 0;
        for (let i = lo + 1; i < Math.min(lo + width, PERSONS); i++) if (i >= 0 && 18 + (i % 60) > 20) n++;
        return BigInt(n);
      };
      for (const [lo, width] of [
        [100, 50],
        [100, 15_000],
        [9_000, 40],
        [-5, 30],
        [19_990, 100],
        [500, -10],
      ] as const) {
        expect((await db.query(text, { lo: BigInt(lo), width: BigInt(width) })).rows, `${lo} + ${width}`).toEqual([[expected(lo, width)]]);
      }
      // A FLOAT, a null and a string: compared as the row evaluator compares them, whatever plan was kept.
      expect((await db.query(text, { lo: 99.5, width: 51n })).rows).toEqual([[expected(100, 50) + (18 + (100 % 60) > 20 ? 1n : 0n)]]);
      expect((await db.query(text, { lo: null, width: 50n })).rows).toEqual([[0n]]);
      // 'x' + 1 is the string 'x1', which no INTEGER compares with.
      expect((await db.query(text, { lo: 'x', width: 50n })).rows).toEqual([[0n]]);
    });
  });

  it('weigh IN a list parameter by its length and values, with empty lists, nulls and wrong types', async () => {
    await withDb(async (db) => {
      await load(db);
      const text = 'MATCH (p:Person) WHERE p.age IN $ages RETURN count(*)';
      const estimate = async (ages: Value): Promise<number> => Number(/Filter[^\n]*rows~([\d.]+)/.exec(await planOf(db, text, { ages }))?.[1]);
      const perAge = PERSONS / 60;
      expect(await estimate([20n])).toBeGreaterThan(perAge * 0.7);
      expect(await estimate([20n])).toBeLessThan(perAge * 1.3);
      expect(await estimate([20n, 21n, 22n, 23n, 24n, 25n, 26n, 27n])).toBeGreaterThan(8 * perAge * 0.7);
      expect(await estimate([20n, 21n, 22n, 23n, 24n, 25n, 26n, 27n])).toBeLessThan(8 * perAge * 1.3);
      // A value repeated counts once; values no node has, nulls and other kinds keep nothing (one row, the floor).
      expect(await estimate([20n, 20n, 20n])).toBeLessThan(perAge * 1.3);
      expect(await estimate([])).toBeLessThanOrEqual(1);
      expect(await estimate([null, 'x', 1000n])).toBeLessThanOrEqual(1);
      const count = (ages: readonly number[]): bigint => {
        let n = 0;
        for (let i = 0; i < PERSONS; i++) if (ages.includes(18 + (i % 60))) n++;
        return BigInt(n);
      };
      for (const ages of [[20], [20, 21, 22, 23, 24, 25, 26, 27], [], [20, 20], [77, 18], Array.from({ length: 60 }, (_, k) => 18 + k)]) {
        expect((await db.query(text, { ages: ages.map(BigInt) })).rows, `[${ages.join(', ')}]`).toEqual([[count(ages)]]);
      }
      expect((await db.query(text, { ages: [null, 20n] })).rows).toEqual([[count([20])]]);
      expect((await db.query(text, { ages: ['20', 20.0] })).rows).toEqual([[count([20])]]);
      expect((await db.query(text, { ages: null })).rows).toEqual([[0n]]);
      await expect(db.query(text, { ages: 20n })).rejects.toThrow();
    });
  });

  it('weigh an equality with a parameter by the share its value keeps', async () => {
    await withDb(async (db) => {
      // Half the items (the first half: a strided sample sees them as it sees the rest) share kind 0; the rest
      // spread over 1,000 kinds.
      await db.query('UNWIND range(0, 9999) AS i CREATE (:Item {kind: CASE WHEN i < 5000 THEN 0 ELSE i % 1000 + 1 END})');
      for (let k = 0; k < 3; k++) await db.query('MATCH (i:Item) RETURN sum(i.kind)');
      const text = 'MATCH (i:Item) WHERE i.kind = $kind RETURN count(*)';
      // The equality is checked in the scan (property-scan), whose line shows its estimate.
      const estimate = async (kind: Value): Promise<number> => Number(/kind[^\n]*rows~([\d.]+)/.exec(await planOf(db, text, { kind }))?.[1]);
      expect(await estimate(0n)).toBeGreaterThan(3_500);
      expect(await estimate(7n)).toBeLessThan(100);
      expect(await estimate(0n)).toBeGreaterThan(3_500);
      expect(await estimate(5_000n)).toBeLessThanOrEqual(1);
      for (const [kind, n] of [
        [0n, 5_000n],
        [7n, 5n],
        [0.0, 5_000n],
        [5_000n, 0n],
        [null, 0n],
        ['0', 0n],
      ] as const) {
        expect((await db.query(text, { kind })).rows, String(kind)).toEqual([[n]]);
      }
    });
  });

  it('keep one plan per class of values: same-class values hit, values of another class plan again', async () => {
    await withDb(async (db) => {
      await load(db);
      const engine = new QueryEngine();
      const graph = db.database.latestCommitted();
      const run = (text: string, params: Record<string, Value>): void => {
        engine.execute(engine.prepare(text), graph, { params: new Map(Object.entries(params)), memory_limit_bytes: 1 << 28, now_us: 0 });
      };
      const planned = (text: string, params: Record<string, Value>): boolean => {
        const before = engine.planCacheStats().misses;
        run(text, params);
        return engine.planCacheStats().misses > before;
      };
      // The pattern's map is weighed where the pattern starts.
      const equality = 'MATCH (a:Person {age: $age})-[:KNOWS]->(b:Person) RETURN count(*)';
      expect(planned(equality, { age: 20n })).toBe(true);
      expect(planned(equality, { age: 21n }), 'as common a value').toBe(false);
      expect(planned(equality, { age: 500n }), 'a value no node has').toBe(true);
      expect(planned(equality, { age: 600n })).toBe(false);
      expect(planned(equality, { age: null }), 'null').toBe(true);
      expect(planned(equality, { age: 20n }), 'the first class again').toBe(false);
      const range = 'MATCH (p:Person) WHERE p.id >= $lo + 1 AND p.id < $lo + 2000 RETURN count(*)';
      expect(planned(range, { lo: 6_000n })).toBe(true);
      // Both bounds in the middle band, whichever end is nearer.
      expect(planned(range, { lo: 9_000n })).toBe(false);
      expect(planned(range, { lo: 12_000n })).toBe(false);
      expect(planned(range, { lo: -3_000n }), 'below the least value').toBe(true);
    });
  });
});
