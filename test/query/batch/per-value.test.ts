import { describe, expect, it } from 'vitest';
import type { Value } from '../../../src/common/values/value.js';
import type { Db } from '../../../src/index.js';
import type { GraphReader } from '../../../src/projections/graph/view.js';
import { batchedRuns } from '../../../src/query/execute/batch/batch-aggregate.js';
import { perValueTables } from '../../../src/query/execute/batch/per-value.js';
import { QueryEngine } from '../../../src/query/engine.js';
import { prng, testSeed } from '../../support/prng.js';
import { outcome as runOutcome, withDb, type Outcome } from '../engine/support.js';

/**
 * Expressions over one or two columns evaluated once per value (or pair of values) the columns hold give what
 * the row evaluator gives row by row: over floats with -0.0 beside 0.0, huge and tiny magnitudes, integers past
 * a small table's span, strings, nulls; columns holding NaN or INTEGERs past 2^53 (which stay per row); and
 * expressions that fail for some values. Each query runs on one snapshot through an engine with batching and
 * one without, rows in order; the counters show the tables were made. rand() and timestamp() are never
 * evaluated per value.
 */
const FLOATS = [1.5, -2.25, 0.0, -0.0, 3.0, 1e300, -1e-300, 5e-324, 0.1] as const;
const WIDE = [3_000_000_000n, -3_000_000_000n, 5n, 9_007_199_254_740_991n, -9_007_199_254_740_991n, 4097n] as const;

async function load(db: Db, r: () => number): Promise<void> {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  const nodes: Value[] = [];
  for (let k = 0; k < 400; k++) {
    const p = new Map<string, Value>();
    if (r() < 0.85) p.set('f', pick(FLOATS));
    if (r() < 0.85) p.set('w', pick(WIDE));
    if (r() < 0.9) p.set('i', BigInt(Math.floor(r() * 7) - 3));
    if (r() < 0.9) p.set('s', pick(['x', 'y', '', 'Zz']));
    // A column with NaN, and one with INTEGERs past 2^53: neither is typed, so both stay per row.
    if (r() < 0.8) p.set('g', pick([Number.NaN, 1.5, -0.0]));
    if (r() < 0.8) p.set('big', pick([9_007_199_254_740_993n, -4611686018427387904n, 2n]));
    nodes.push(p);
  }
  await db.query('UNWIND $n AS p CREATE (x:V) SET x = p', { n: nodes });
  await db.query('MATCH (a:V), (b:V) WHERE id(b) = (id(a) * 7 + 3) % 400 CREATE (a)-[:E]->(b)');
}

/** The statement's outcome with this file's parameters. */
function outcome(engine: QueryEngine, text: string, graph: GraphReader): Outcome {
  return runOutcome(engine, text, graph, new Map<string, Value>([['d', 3n]]));
}

/** Keys and filters over one column of each kind, and over pairs of columns. */
const ONE = [
  'toString(n.f)',
  '1.0 / n.f',
  'n.f * 2 - 1',
  'round(n.f)',
  'toInteger(n.f)',
  'sign(n.f)',
  'n.w % 7',
  'toFloat(n.w) / 3.0',
  'toString(n.w)',
  'n.w / $d',
  'abs(n.w) > 4096',
  'n.g + 1',
  'toString(n.big)',
  'n.big % 5',
  'n.i / (n.i - 1)',
  '10 / n.i',
];
const TWO = [
  'n.s + toString(n.f)',
  'n.f + n.w',
  'toString(n.i) + n.s',
  'CASE WHEN n.f > 0 THEN n.w ELSE n.i END',
  'n.w / n.i',
  'n.s + toString(n.w)',
  'n.f * n.i',
];

describe('expressions evaluated per value', () => {
  it('answer as the row evaluator does, over one column and over pairs', async () => {
    const seed = testSeed('per-value');
    const r = prng(seed);
    await withDb(async (db) => {
      await load(db, r);
      // The forms a batched run reads, built as repeated whole-graph queries build them.
      for (let k = 0; k < 3; k++) await db.query('MATCH (n:V)-[:E]->(m) RETURN count(*)');
      const graph = db.database.latestCommitted();
      const batched = new QueryEngine();
      const rows = new QueryEngine({ batched: false });
      const texts: string[] = [];
      for (const e of [...ONE, ...TWO]) {
        texts.push(`MATCH (n:V)-[:E]->(m) RETURN ${e} AS k, count(*) AS c ORDER BY c DESC, k`);
        texts.push(`MATCH (n:V)-[:E]->(m) WHERE (${e}) IS NOT NULL AND toString(${e}) STARTS WITH '-' RETURN count(*) AS c`);
      }
      // Two columns of the two ends of an expand.
      texts.push('MATCH (n:V)-[:E]->(m:V) RETURN n.s + m.s AS k, count(*) AS c ORDER BY k');
      texts.push('MATCH (n:V)-[:E]->(m:V) WHERE abs(n.f - m.f) < 1 RETURN n.w AS w, count(*) AS c ORDER BY w');
      const before = { ...perValueTables };
      for (const text of texts) expect(outcome(batched, text, graph), `seed ${seed}: ${text}`).toEqual(outcome(rows, text, graph));
      expect(perValueTables.one - before.one).toBeGreaterThan(ONE.length);
      expect(perValueTables.two - before.two).toBeGreaterThan(TWO.length);
    });
  });

  it('run a grouping over a label alone batched when a CASE mixing columns and literals needs a table', async () => {
    const seed = testSeed('per-value-case');
    const r = prng(seed);
    await withDb(async (db) => {
      await load(db, r);
      for (let k = 0; k < 3; k++) await db.query('MATCH (n:V)-[:E]->(m) RETURN count(*)');
      const graph = db.database.latestCommitted();
      const batched = new QueryEngine();
      const rows = new QueryEngine({ batched: false });
      const texts = [
        "MATCH (n:V) RETURN CASE WHEN n.i < 0 THEN n.s ELSE 'other' END AS k, count(*) AS c ORDER BY c DESC, k",
        'MATCH (n:V) WHERE n.i > -3 RETURN CASE n.s WHEN 1 THEN 0 WHEN n.s THEN n.i ELSE 7.5 END AS k, count(*) AS c, sum(n.i) AS t ORDER BY k',
        "MATCH (n:V) RETURN CASE WHEN n.f > 0 THEN n.f ELSE 'none' END AS k, count(*) AS c ORDER BY k",
      ];
      for (const text of texts) {
        const want = outcome(rows, text, graph);
        outcome(batched, text, graph);
        const before = batchedRuns.count;
        expect(outcome(batched, text, graph), `seed ${seed}: ${text}`).toEqual(want);
        expect(batchedRuns.count - before, `seed ${seed}: ${text} ran batched`).toBe(1);
      }
    });
  });

  it('never evaluate rand() or timestamp() per value', async () => {
    await withDb(async (db) => {
      await db.query('UNWIND range(1, 600) AS i CREATE (:V {f: toFloat(i % 3), s: toString(i % 2)})');
      for (let k = 0; k < 3; k++) await db.query('MATCH (n:V) RETURN n.s AS s, count(*)');
      const before = { ...perValueTables };
      // Per value, every row of one f would share one random number: per row there are as many as rows.
      const random = await db.query('MATCH (n:V) WITH n.f + rand() AS x, count(*) AS c RETURN count(*) AS values, sum(c) AS rows');
      expect(random.rows).toEqual([[600n, 600n]]);
      const pair = await db.query('MATCH (n:V) WITH n.s + toString((n.f + 1.0) * rand()) AS x, count(*) AS c RETURN count(*) AS values');
      expect(pair.rows).toEqual([[600n]]);
      await db.query('MATCH (n:V) WHERE n.f + timestamp() > 0 RETURN n.s AS s, count(*) AS c');
      expect(perValueTables).toEqual(before);
      // The same shapes without them are evaluated per value.
      await db.query('MATCH (n:V) WITH toString(n.f) AS x, count(*) AS c RETURN count(*)');
      expect(perValueTables.one).toBeGreaterThan(before.one);
    });
  });
});
