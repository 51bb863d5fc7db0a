import { describe, expect, it } from 'vitest';
import type { Value } from '../../../src/common/values/value.js';
import type { Db } from '../../../src/index.js';
import type { GraphReader } from '../../../src/projections/graph/view.js';
import { batchedRuns } from '../../../src/query/execute/batch/batch-aggregate.js';
import { conjunctFilters } from '../../../src/query/execute/batch/conjunct-filters.js';
import { QueryEngine } from '../../../src/query/engine.js';
import { prng, testSeed } from '../../support/prng.js';
import { outcome as runOutcome, withDb, type Outcome } from '../engine/support.js';

/**
 * Filters, keys and sort keys over a label alone, run as kernels over batches: a filter conjunct by conjunct over
 * the members the conjuncts before it kept, with the conjuncts no kernel takes per row over what is left, a top-k
 * or a sort whose keys are expressions computed as vectors, and DISTINCT of expressions. Each query runs on one
 * snapshot through an engine with batching and one without, and must give the same rows in the same order, or
 * the same error: random INTEGERs with nulls, negatives and ±(2^53 - 1), FLOATs with -0.0, NaN and ±Infinity,
 * INTEGERs beside FLOATs, INTEGERs past 2^53 (a product that overflows), a column with zeros (a division that
 * raises unless a conjunct before it dropped every zero), and columns every node has a value in (vectors that skip
 * merging nulls) beside columns with nulls.
 */
const EDGE_INTS = [0n, 1n, -1n, 9_007_199_254_740_991n, -9_007_199_254_740_991n, -7n] as const;
const EDGE_FLOATS = [0.0, -0.0, 5e-324, 1e300, -1e300, 2.5, -2.5, Infinity, -Infinity] as const;

async function load(db: Db, r: () => number): Promise<void> {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  const nodes: Value[] = [];
  for (let k = 0; k < 1500; k++) {
    const p = new Map<string, Value>();
    // Small INTEGERs (int32 kernels), wide ones, FLOATs, zeros among divisors, and columns left to the rows.
    if (r() < 0.92) p.set('s', BigInt(Math.floor((r() - 0.5) * 200)));
    if (r() < 0.9) p.set('i', r() < 0.1 ? pick(EDGE_INTS) : BigInt(Math.floor((r() - 0.5) * 2_000_000)));
    if (r() < 0.9) p.set('f', r() < 0.15 ? pick(EDGE_FLOATS) : (r() - 0.5) * 1e4);
    if (r() < 0.9) p.set('z', BigInt(Math.floor(r() * 5)));
    if (r() < 0.9) p.set('nan', r() < 0.1 ? Number.NaN : r() * 100);
    if (r() < 0.9) p.set('mixed', r() < 0.5 ? BigInt(Math.floor(r() * 100)) : r() * 100);
    if (r() < 0.9) p.set('big', r() < 0.02 ? 9_223_372_036_854_775_807n : BigInt(Math.floor(r() * 1000)));
    if (r() < 0.95) p.set('name', `n${Math.floor(r() * 400)}`);
    // Columns every node has a value in: their vectors carry no nulls, and the loops merging nulls are skipped.
    p.set('a', BigInt(Math.floor((r() - 0.5) * 300)));
    p.set('g', r() < 0.05 ? -0.0 : (r() - 0.5) * 1e3);
    nodes.push(p);
  }
  await db.query('UNWIND $n AS p CREATE (x:V) SET x = p', { n: nodes });
}

function outcome(engine: QueryEngine, text: string, graph: GraphReader): Outcome {
  return runOutcome(engine, text, graph, new Map<string, Value>([['k', 7n]]));
}

/** Filters of several conjuncts: all typed, typed then per row, with NULL conjuncts and failing ones. */
const FILTERS = [
  'abs(n.s - 50) < 30 AND n.i % 2 = 0',
  'n.s % 3 = 0 AND n.f / 2.0 > 0.0 AND n.i > 0',
  'n.i % 7 = 1 OR abs(n.f) < 100.0',
  'n.s > 0 AND size(n.name) > 3',
  "n.s % 5 = 0 AND toUpper(n.name) STARTS WITH 'N1'",
  'n.s < 0 AND 10 / n.z > 1',
  'n.z <> 0 AND 10 / n.z > 1',
  'n.z > 0 AND n.s % 2 = 0 AND 100 / n.z > 30',
  'n.s > 90 AND n.big * 2 > 0',
  'n.s > 0 AND n.nan > 50.0',
  'n.s > 0 AND n.mixed % 2 = 0',
  'CASE WHEN n.s > 0 THEN n.i % 3 ELSE n.s END = 0 AND n.f > 0.0',
  'coalesce(n.i, 0) % 10 < 3 AND n.s IS NOT NULL',
  'abs(n.a - 10) < 40 AND n.a % 3 = 0 AND n.g * 2.0 < 100.0',
  'n.a / 7 = n.s % 5 OR n.g < -400.0',
];

/** Sort keys: kernels, with nulls, ties, -0.0, Infinity; and keys no kernel takes (mixed, NaN). */
const SORTS = [
  'abs(n.s - 45), n.i',
  'n.i % $k DESC, n.s',
  'n.f / 2.0, n.s DESC, n.i',
  'toFloat(n.s) / 3.0 DESC, n.i',
  'coalesce(n.s, 1000) % 10, n.f',
  'sign(n.i), abs(n.s) DESC, n.i',
  'n.mixed * 2, n.i',
  'n.nan + 1.0, n.i',
  'CASE WHEN n.s > 0 THEN n.s ELSE n.f END, n.i',
  'n.a % 7, n.g / 3.0 DESC, n.i',
  'abs(n.a) - n.s DESC, n.i',
];

function queries(): string[] {
  const out: string[] = [];
  for (const f of FILTERS) {
    out.push(`MATCH (n:V) WHERE ${f} RETURN count(*) AS c`);
    out.push(`MATCH (n:V) WHERE ${f} RETURN n.s % 4 AS k, count(*) AS c, min(n.i) AS lo ORDER BY k`);
    out.push(`MATCH (n:V) WHERE ${f} RETURN n.i AS i ORDER BY abs(n.s - 20), i SKIP 3 LIMIT 8`);
    out.push(`MATCH (n:V) WHERE ${f} RETURN DISTINCT n.s % 6 AS k, n.z AS z`);
  }
  for (const s of SORTS) {
    out.push(`MATCH (n:V) RETURN n.i AS i, n.s AS s ORDER BY ${s} LIMIT 12`);
    out.push(`MATCH (n:V) WHERE n.s % 3 = 0 RETURN n.i AS i, n.f AS f ORDER BY ${s} SKIP 5 LIMIT 5`);
    out.push(`MATCH (n:V) WHERE n.s < 20 RETURN n.i AS i ORDER BY ${s}`);
  }
  out.push('MATCH (n:V) RETURN DISTINCT abs(n.s) % 7 AS a, n.s / 10 AS b');
  out.push('MATCH (n:V) RETURN DISTINCT toFloat(n.s) / 4.0 AS q');
  return out;
}

describe('batches over a label alone', () => {
  it('filter, group, sort and dedupe as the row operators do, errors included', async () => {
    const seed = testSeed('label-batches');
    const r = prng(seed);
    await withDb(async (db) => {
      await load(db, r);
      for (let k = 0; k < 3; k++) await db.query('MATCH (n:V) WHERE n.s > 0 RETURN count(*)');
      const graph = db.database.latestCommitted();
      const batched = new QueryEngine();
      const rows = new QueryEngine({ batched: false });
      const runs = batchedRuns.count;
      const split = conjunctFilters.compiled;
      let errors = 0;
      for (const text of queries()) {
        const want = outcome(rows, text, graph);
        if ('error' in want) errors++;
        // Twice: the first run may build the columns a later one reads.
        expect(outcome(batched, text, graph), `seed ${seed}: ${text}`).toEqual(want);
        expect(outcome(batched, text, graph), `seed ${seed}, again: ${text}`).toEqual(want);
      }
      // The comparison saw errors (division by zero, overflow), not only rows.
      expect(errors).toBeGreaterThan(3);
      // Most of them ran batched, and filters of several conjuncts ran conjunct by conjunct.
      expect(batchedRuns.count - runs).toBeGreaterThan(queries().length);
      expect(conjunctFilters.compiled - split).toBeGreaterThan(FILTERS.length);
    });
  });

  it('run a top-k whose key is a kernel batched, and one of plain operators fused', async () => {
    const seed = testSeed('label-batches-top');
    const r = prng(seed);
    await withDb(async (db) => {
      await load(db, r);
      for (let k = 0; k < 3; k++) await db.query('MATCH (n:V) WHERE n.s > 0 RETURN count(*)');
      const graph = db.database.latestCommitted();
      const batched = new QueryEngine();
      for (const [text, took] of [
        ['MATCH (n:V) WHERE n.s % 3 = 0 RETURN n.i AS i ORDER BY abs(n.s - 45), i SKIP 5 LIMIT 5', 1],
        ['MATCH (n:V) RETURN n.i AS i ORDER BY n.i % 10 DESC, i LIMIT 5', 1],
        ['MATCH (n:V) RETURN n.i AS i ORDER BY n.s / 3, i', 1],
        ['MATCH (n:V) WHERE n.s > 0 RETURN n.i AS i ORDER BY n.s * 2 - n.i LIMIT 5', 0],
        ['MATCH (n:V) RETURN n.i AS i ORDER BY n.i LIMIT 5', 0],
        ['MATCH (n:V) RETURN n.i AS i ORDER BY n.mixed % 3, i LIMIT 5', 0],
      ] as const) {
        outcome(batched, text, graph);
        const at = batchedRuns.count;
        outcome(batched, text, graph);
        expect(batchedRuns.count - at, `seed ${seed}: ${text}`).toBe(took);
      }
    });
  });
});
