import { describe, expect, it } from 'vitest';
import type { Value } from '../../../src/common/values/value.js';
import type { Db } from '../../../src/index.js';
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
});
