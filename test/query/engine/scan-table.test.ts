import { describe, expect, it } from 'vitest';
import type { Value } from '../../../src/common/values/value.js';
import { prng, testSeed } from '../../support/prng.js';
import { canonical, withDb } from './support.js';

/**
 * Two MATCH clauses joined on a property (`MATCH (b:P) WHERE b.x = a.x`) fold the join into the scan of
 * `b` as an inline equality whose value comes from the row; over a committed snapshot the scan then reads
 * the label once into a table by that property and walks one bucket per row. Each query is asked again
 * with the join written so that it stays a filter over a full scan per row (`NOT (b.x <> a.x)` is the same
 * predicate in three-valued logic), and both must give the same rows in the same order (the same multiset when
 * both patterns sit in one MATCH, whose start the planner may choose differently for the two texts). The values mix
 * INTEGERs, FLOATs equal to them, strings, booleans, lists, nulls and absent properties.
 */
const QUERIES: readonly (readonly [string, string])[] = [
  ['MATCH (a:P) MATCH (b:P) WHERE b.x = a.x RETURN id(a), id(b)', 'MATCH (a:P) MATCH (b:P) WHERE NOT (b.x <> a.x) RETURN id(a), id(b)'],
  [
    "MATCH (a:P) WHERE a.k = 'a' MATCH (b:P {k: 'b'}) WHERE b.x = a.x RETURN id(a), id(b), b.x",
    "MATCH (a:P) WHERE a.k = 'a' MATCH (b:P {k: 'b'}) WHERE NOT (b.x <> a.x) RETURN id(a), id(b), b.x",
  ],
  ['MATCH (a:P) MATCH (b:P {k: $k, x: a.y}) RETURN a.y, count(*)', 'MATCH (a:P) MATCH (b:P {k: $k}) WHERE NOT (b.x <> a.y) RETURN a.y, count(*)'],
  ['MATCH (a:P) MATCH (b:P) WHERE b.x = coalesce(a.x, 0) RETURN id(a), id(b)', 'MATCH (a:P) MATCH (b:P) WHERE NOT (b.x <> coalesce(a.x, 0)) RETURN id(a), id(b)'],
  [
    'MATCH (a:P) OPTIONAL MATCH (b:P) WHERE b.y = a.x RETURN id(a), collect(id(b)) AS bs',
    'MATCH (a:P) OPTIONAL MATCH (b:P) WHERE NOT (b.y <> a.x) RETURN id(a), collect(id(b)) AS bs',
  ],
  ['MATCH (a:P), (b:P) WHERE a.k = b.k AND b.x = a.y RETURN id(a), id(b)', 'MATCH (a:P), (b:P) WHERE NOT (a.k <> b.k) AND NOT (b.x <> a.y) RETURN id(a), id(b)'],
];

function randomValue(r: () => number): Value | undefined {
  const x = r();
  if (x < 0.1) return undefined;
  if (x < 0.45) return BigInt(Math.floor(r() * 6));
  if (x < 0.6) return Math.floor(r() * 12) / 2;
  if (x < 0.75) return ['a', 'b', '1', ''][Math.floor(r() * 4)] as string;
  if (x < 0.85) return r() < 0.5;
  return [BigInt(Math.floor(r() * 2))];
}

describe('a join on a property reads its label into a table', () => {
  it('answers as a nested loop with a filter does, rows and order', async () => {
    const seed = testSeed('scan-table');
    const r = prng(seed);
    await withDb(async (db) => {
      const rows: Value[] = [];
      for (let i = 0; i < 200; i++) {
        const m = new Map<string, Value>([['k', ['a', 'b', 'c'][Math.floor(r() * 3)] as string]]);
        for (const key of ['x', 'y']) {
          const v = randomValue(r);
          if (v !== undefined) m.set(key, v);
        }
        rows.push(m);
      }
      await db.query('UNWIND $rows AS row CREATE (n:P) SET n = row', { rows });
      // `a.x` is null on some rows: a comparison with null keeps no node.
      await db.query('CREATE (:P {k: "a"})');
      for (const [joined, filtered] of QUERIES) {
        const context = `seed ${seed}: ${joined}`;
        // With both patterns in one MATCH the planner may start at either node for either text: rows as a multiset.
        const ordered = !joined.includes('), (');
        const expected = canonical((await db.query(filtered, { k: 'b' })).rows, ordered);
        expect(expected.length, context).toBeGreaterThan(0);
        // Twice: the first run makes the label's kept list, the second reads it.
        for (let run = 0; run < 2; run++) expect(canonical((await db.query(joined, { k: 'b' })).rows, ordered), context).toEqual(expected);
      }
    });
  });

  it('folds the join into the scan, and a statement that writes still sees its own writes', async () => {
    await withDb(async (db) => {
      await db.query('UNWIND range(1, 20) AS i CREATE (:P {x: i % 4, n: i})');
      // A key the value hash join does not take (a function of the row) stays folded into the scan.
      const plan = JSON.stringify(db.explain('MATCH (a:P) MATCH (b:P) WHERE b.x = coalesce(a.x, 0) RETURN count(*)'));
      expect(plan).toContain('predicate: b.x = coalesce(a.x, 0)');
      expect((await db.query('MATCH (a:P) MATCH (b:P) WHERE b.x = coalesce(a.x, 0) RETURN count(*)')).rows).toEqual([[100n]]);
      expect((await db.query('MATCH (a:P) MATCH (b:P) WHERE b.x = a.x RETURN count(*)')).rows).toEqual([[100n]]);
      // Inside a write the scan reads the write set row by row: one node per matched row, seen by the reads after it.
      const out = await db.query('UNWIND [0, 0, 1] AS v MATCH (b:P) WHERE b.x = v CREATE (:P {x: v}) RETURN count(*)');
      expect(out.rows).toEqual([[15n]]);
      expect((await db.query('MATCH (a:P) MATCH (b:P) WHERE b.x = a.x RETURN count(*)')).rows).toEqual([[15n * 15n + 10n * 10n + 5n * 5n + 5n * 5n]]);
    });
  });
});
