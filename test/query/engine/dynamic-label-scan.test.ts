import { describe, expect, it } from 'vitest';
import type { Value } from '../../../src/common/values/value.js';
import { prng, testSeed } from '../../support/prng.js';
import { canonical, find, withDb } from './support.js';

/**
 * `MATCH (n:$($label))`, `:$any(...)` and `:$all(...)` are planned as a scan of the labels the value
 * names (the label of the fewest nodes for all, each label once for any), read when the scan starts.
 * One statement text is run with many parameter values: its cached plan must answer each as the
 * same question asked through `labels(n)` does.
 */
const labels = ['A', 'B', 'C', 'D'];

describe('dynamic labels in MATCH scan the labels they name', () => {
  it('EXPLAIN shows the dynamic label scan, for a parameter and for a literal list', async () => {
    await withDb(async (db) => {
      for (const text of ['MATCH (n:$($l)) RETURN n', 'MATCH (n:$any($l)) RETURN n', "MATCH (n:$all(['A', 'B'])) RETURN n"]) {
        expect(find(db.explain(text), 'DynamicLabelNodeScan'), text).toBeDefined();
      }
      // A value read from the row is evaluated per row: the scan stays a scan of every node.
      expect(find(db.explain('UNWIND [\'A\'] AS l MATCH (n:$(l)) RETURN n'), 'DynamicLabelNodeScan')).toBeUndefined();
    });
  });

  it('one cached plan answers every parameter value as labels(n) does', async () => {
    const seed = testSeed('dynamic-label-scan');
    const r = prng(seed);
    await withDb(async (db) => {
      const nodes = Array.from({ length: 300 }, (_, i) => ({ i: BigInt(i), labels: labels.filter(() => r() < 0.35) }));
      await db.query('UNWIND $nodes AS x CREATE (n {i: x.i}) SET n:$(x.labels)', { nodes: nodes.map((n) => new Map<string, Value>([['i', n.i], ['labels', n.labels]])) });
      const values: Value[] = ['A', 'D', 'Z', ['A', 'B'], ['B', 'A', 'B'], ['C', 'Z'], []];
      for (const mode of ['', 'all', 'any'] as const) {
        const scan = `MATCH (n:$${mode}($l)) RETURN n.i`;
        const walk = `MATCH (n) WHERE ${mode === 'any' ? 'any' : 'all'}(x IN (CASE WHEN $l IS :: LIST<ANY> THEN $l ELSE [$l] END) WHERE x IN labels(n)) RETURN n.i`;
        for (const l of values) {
          const a = await db.query(scan, { l });
          const b = await db.query(walk, { l });
          expect(canonical(a.rows), `seed ${seed}: ${scan} with ${JSON.stringify(l)}`).toEqual(canonical(b.rows));
        }
      }
    });
  });

  it("a statement's own new nodes are found by the scan of their label", async () => {
    await withDb(async (db) => {
      await db.query('CREATE (:A {i: 1}), (:B {i: 2})');
      const out = await db.query('CREATE (:A {i: 3}) WITH 1 AS one MATCH (n:$any($l)) RETURN n.i ORDER BY n.i', { l: ['A'] });
      expect(out.rows).toEqual([[1n], [3n]]);
    });
  });

  it('a value that names no label is refused when the scan starts, as the filter would', async () => {
    await withDb(async (db) => {
      await expect(db.query('MATCH (n:$($l)) RETURN n', { l: 5n })).rejects.toMatchObject({ reason: 'TypeError' });
      await expect(db.query('MATCH (n:$($l)) RETURN n', { l: '' })).rejects.toMatchObject({ reason: 'ArgumentError' });
    });
  });
});
