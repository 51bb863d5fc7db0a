import { describe, expect, it } from 'vitest';
import type { Value } from '../../../src/common/values/value.js';
import type { GraphReader } from '../../../src/projections/graph/view.js';
import { foldedBitmaps, foldedRuns } from '../../../src/query/execute/batch/end-filters.js';
import { QueryEngine, type ExecuteContext } from '../../../src/query/engine.js';
import { prng, testSeed } from '../../support/prng.js';
import { canonical, withDb } from '../engine/support.js';

/**
 * Filters on an expand's end node folded into the expand as a bitmap by node id (batch-plan.ts,
 * `foldEndFilters`; end-filters.ts). Each query is answered by an engine with batching and one
 * without, on one snapshot: the rows must agree in order, or both fail with the same kind of error.
 * The graph has typed, mixed-type and absent properties, unlabelled ends, self-loops and parallel
 * relationships.
 */
type Outcome = { readonly rows: string[] } | { readonly error: string };

function outcome(engine: QueryEngine, text: string, graph: GraphReader): Outcome {
  const ctx: ExecuteContext = { params: new Map<string, Value>([['lo', 3n]]), memory_limit_bytes: 1 << 28, now_us: 0 };
  try {
    return { rows: canonical(engine.execute(engine.prepare(text), graph, ctx).rows, true) };
  } catch (e) {
    return { error: (e as { code?: string }).code ?? (e as Error).name };
  }
}

/** Folded: every filter reads only the end node, through typed columns, and nothing else reads that node. */
const FOLDED = [
  'MATCH (a:P)-[:K]->(b:P) WHERE b.age > 5 RETURN count(*) AS n',
  'MATCH (a:P)-[:K]->(b) WHERE b.age > $lo AND b.city <> "c1" RETURN a.city AS city, count(*) AS n',
  'MATCH (a:P)<-[:K]-(b:P) WHERE b.age >= 2 RETURN a.age AS age, count(*) AS n, avg(a.age) AS mean',
  'MATCH (a:P)-[:K]-(b:P) WHERE b.city <> "c2" RETURN count(*) AS n',
  'MATCH (a:P)-[r:K]->(b:P)-[:K]->(c:P) WHERE c.age < 4 RETURN a.city AS city, count(*) AS n',
  'MATCH (a:P)-[:K]->(b:P)-[:K]->(c:P) WHERE b.age > 6 AND c.city <> "c2" RETURN count(*) AS n',
  'MATCH (a:P)-[:K]->(b:P) WHERE b.age IS NULL RETURN count(*) AS n',
  'MATCH (a:P)-[:K]->(b:P) WHERE b.score > 1.5 RETURN count(DISTINCT a) AS n',
  // Functions and operators of one column are evaluated once per value it holds, which makes them typed.
  'MATCH (a:P)-[:K]->(b:P) WHERE a.age > 100 AND b.name + 1 > 2 RETURN count(*) AS n',
  "MATCH (a:P)-[:K]->(b:P) WHERE toUpper(b.city) ENDS WITH '1' AND b.age % 3 = 1 RETURN a.city AS city, count(*) AS n",
  // Two columns of one node: evaluated once per pair of values.
  'MATCH (a:P)-[:K]->(b:P) WHERE a.age > 100 AND b.name + b.age > 2 RETURN count(*) AS n',
];

/** Not folded: the end node is read elsewhere, or the filter is not a typed condition. */
const KEPT = [
  'MATCH (a:P)-[:K]->(b:P) WHERE b.age > 5 RETURN b.city AS city, count(*) AS n',
  'MATCH (a:P)-[:K]->(b:P) WHERE b.age > 5 RETURN sum(b.age) AS s',
  'MATCH (a:P)-[:K]->(b:P) WHERE b.mixed > 1 RETURN count(*) AS n',
  'MATCH (a:P)-[:K]->(b:P) WHERE b.age / 0 > 1 RETURN count(*) AS n',
  'MATCH (a:P)-[:K]->(b:P) WHERE a.age > 100 AND b.name + b.mixed > 2 RETURN count(*) AS n',
  'MATCH (a:P)-[:K]->(b:P) WHERE b.age > a.age RETURN count(*) AS n',
];

describe('filters on an end node folded into the expand', () => {
  it('answer as the row operators do, and fold only typed filters on a node nothing else reads', async () => {
    const seed = testSeed('end-filters');
    const r = prng(seed);
    await withDb(async (db) => {
      const people: Value[] = Array.from({ length: 300 }, (_, i) => {
        const p = new Map<string, Value>([['name', `p${i}`]]);
        if (r() < 0.9) p.set('age', BigInt(Math.floor(r() * 10)));
        if (r() < 0.9) p.set('city', `c${Math.floor(r() * 4)}`);
        if (r() < 0.8) p.set('score', Math.floor(r() * 8) / 2);
        p.set('mixed', [1n, 'x', 2.5, true][Math.floor(r() * 4)] as Value);
        return p;
      });
      await db.query('UNWIND $ps AS p CREATE (x:P) SET x = p', { ps: people });
      await db.query('UNWIND range(1, 20) AS i CREATE (:Q {age: i})');
      const ids = (await db.query('MATCH (n) RETURN id(n)')).rows.map((row) => row[0] as Value);
      const edges: Value[] = [];
      for (let k = 0; k < 2500; k++) {
        const a = ids[Math.floor(r() * ids.length)] as Value;
        const b = r() < 0.05 ? a : (ids[Math.floor(r() * ids.length)] as Value);
        edges.push([a, b]);
        if (r() < 0.05) edges.push([a, b]);
      }
      await db.query('UNWIND $e AS e MATCH (a), (b) WHERE id(a) = e[0] AND id(b) = e[1] CREATE (a)-[:K]->(b)', { e: edges });
      // Repeated whole-graph queries build the forms a batched run reads.
      for (let k = 0; k < 3; k++) for (const q of [...FOLDED, ...KEPT]) await db.query(q, { lo: 3n }).catch(() => undefined);

      const batched = new QueryEngine();
      const rows = new QueryEngine({ batched: false });
      const graph = db.database.latestCommitted();
      for (const text of FOLDED) {
        const before = foldedRuns.count;
        const want = outcome(rows, text, graph);
        expect('rows' in want, text).toBe(true);
        expect(outcome(batched, text, graph), `seed ${seed}: ${text}`).toEqual(want);
        expect(foldedRuns.count - before, text).toBe(1);
      }
      for (const text of KEPT) {
        const before = foldedRuns.count;
        expect(outcome(batched, text, graph), `seed ${seed}: ${text}`).toEqual(outcome(rows, text, graph));
        expect(foldedRuns.count - before, text).toBe(0);
      }
    });
  });

  it('keep their bitmap across runs while its labels, columns and parameter values are the same ones', async () => {
    await withDb(async (db) => {
      await db.query("UNWIND range(0, 199) AS i CREATE (:P {age: i % 10, city: 'c' + toString(i % 7)})");
      await db.query('MATCH (a:P), (b:P) WHERE (a.age + 3) % 10 = b.age AND a.city <> b.city CREATE (a)-[:K]->(b)');
      const text = 'MATCH (a:P)-[:K]->(b:P) WHERE b.city ENDS WITH $end AND b.age >= $lo RETURN a.age AS age, count(*) AS n';
      const batched = new QueryEngine();
      const rows = new QueryEngine({ batched: false });
      const run = (engine: QueryEngine, params: Record<string, Value>): Outcome => {
        const ctx: ExecuteContext = { params: new Map(Object.entries(params)), memory_limit_bytes: 1 << 28, now_us: 0 };
        return { rows: canonical(engine.execute(engine.prepare(text), db.database.latestCommitted(), ctx).rows) };
      };
      // The first runs build the forms a batched run reads (a kept list, the CSR, bitmaps), up to a run that folds.
      const warm = (params: Record<string, Value>): void => {
        const folded = foldedRuns.count;
        for (let k = 0; k < 8 && foldedRuns.count === folded; k++) run(batched, params);
        expect(foldedRuns.count, 'a warm-up run folds').toBeGreaterThan(folded);
      };
      warm({ end: '1', lo: 2n });
      const made = (params: Record<string, Value>): number => {
        const before = foldedBitmaps.made;
        const folded = foldedRuns.count;
        expect(run(batched, params), String(Object.values(params))).toEqual(run(rows, params));
        expect(foldedRuns.count - folded).toBe(1);
        return foldedBitmaps.made - before;
      };
      expect(made({ end: '1', lo: 2n }), 'the same values again').toBe(0);
      expect(made({ end: '3', lo: 2n }), 'another suffix').toBe(1);
      expect(made({ end: '3', lo: 2.0 }), 'the same number as a FLOAT').toBe(1);
      expect(made({ end: '3', lo: 2.0 }), 'and again').toBe(0);
      // A write makes new columns: the bitmap is made again from them, and answers as the row path does.
      await db.query("MATCH (b:P) WHERE b.age = 5 SET b.city = 'x3'");
      warm({ end: '3', lo: 2.0 });
      expect(made({ end: '3', lo: 2.0 }), 'after a write, made once again').toBe(0);
      expect(made({ end: '2', lo: 5n })).toBe(1);
    });
  });
});
