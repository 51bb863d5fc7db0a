import { describe, expect, it } from 'vitest';
import type { Value } from '../../../src/common/values/value.js';
import type { Db } from '../../../src/index.js';
import type { GraphReader } from '../../../src/projections/graph/view.js';
import { numberKernels } from '../../../src/query/execute/batch/vector-functions.js';
import { QueryEngine } from '../../../src/query/engine.js';
import { prng, testSeed } from '../../support/prng.js';
import { outcome as runOutcome, withDb, type Outcome } from '../engine/support.js';

/**
 * Number kernels over batches (`/`, `%`, toInteger, toFloat, abs, sign, floor, ceil, round, coalesce, with + - *
 * and comparisons around them) answer as the row evaluator does, over columns of many distinct values (so no
 * per-value table stands in for them): random INTEGERs with nulls, negatives and the edges of exact doubles
 * (±(2^53 - 1)), divisors that are never 0, FLOATs with -0.0, 5e-324, 1e300 and Infinity; and, left to the row
 * evaluator, columns with NaN, with INTEGERs past 2^53 (-2^63 among them) and with INTEGERs mixed with FLOATs.
 * Errors (division by zero, 64-bit overflow, toInteger of 1e300) are raised by both paths or by neither. Each
 * query runs on one snapshot through an engine with batching and one without, rows in order, as a grouping key
 * over a label alone, a grouping key after an expand, a filter and min/max/count arguments.
 */
const EDGE_INTS = [0n, 1n, -1n, 9_007_199_254_740_991n, -9_007_199_254_740_991n, 4_503_599_627_370_497n, -7n] as const;
const EDGE_FLOATS = [0.0, -0.0, 5e-324, 1e300, -1e300, 2.5, -2.5, 0.5, -0.49999999999999994] as const;
const WIDE = [9_007_199_254_740_993n, -9_223_372_036_854_775_808n, 9_223_372_036_854_775_807n, 3n, -11n] as const;

async function load(db: Db, r: () => number): Promise<void> {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  const int = (): bigint => (r() < 0.1 ? pick(EDGE_INTS) : BigInt(Math.floor((r() - 0.5) * 2_000_000)));
  const nodes: Value[] = [];
  for (let k = 0; k < 600; k++) {
    const p = new Map<string, Value>();
    if (r() < 0.9) p.set('i', int());
    // Divisors: never 0, of either sign, with ±1 and large magnitudes.
    if (r() < 0.9) p.set('j', r() < 0.2 ? pick([1n, -1n, 9_007_199_254_740_991n]) : BigInt(Math.floor(r() * 20_000) + 1) * (r() < 0.5 ? -1n : 1n));
    if (r() < 0.9) p.set('f', r() < 0.15 ? pick(EDGE_FLOATS) : (r() - 0.5) * 1e6);
    // Finite FLOATs that are never 0 (a divisor that cannot give NaN).
    if (r() < 0.9) p.set('h', (r() < 0.5 ? -1 : 1) * (r() * 1e4 + 1e-3));
    if (r() < 0.9) p.set('inf', r() < 0.1 ? pick([Infinity, -Infinity]) : r() * 1e5);
    // Left to the row evaluator: NaN, INTEGERs past 2^53, INTEGERs beside FLOATs.
    if (r() < 0.9) p.set('nan', r() < 0.1 ? Number.NaN : r() * 100);
    if (r() < 0.9) p.set('big', r() < 0.3 ? pick(WIDE) : int());
    if (r() < 0.9) p.set('mixed', r() < 0.5 ? int() : r() * 1e4);
    nodes.push(p);
  }
  await db.query('UNWIND $n AS p CREATE (x:V) SET x = p', { n: nodes });
  await db.query('MATCH (a:V), (b:V) WHERE id(b) = (id(a) * 7 + 3) % 600 CREATE (a)-[:E]->(b)');
}

/** The statement's outcome with this file's parameters. */
function outcome(engine: QueryEngine, text: string, graph: GraphReader): Outcome {
  return runOutcome(engine, text, graph, new Map<string, Value>([['d', -3n], ['z', 0n], ['x', 2.5]]));
}

/** Expressions a kernel covers, over typed columns. */
const KERNELS = [
  'n.i / 7',
  'n.i / $d',
  'n.i % 7',
  'n.i % -4',
  'n.i / n.j',
  'n.i % n.j',
  'n.f / 2.0',
  'n.f / n.h',
  'n.f % 3.0',
  'n.f % n.h',
  'n.i / 2.5',
  'n.i % $x',
  'toFloat(n.i) / 7.0',
  'round(toFloat(n.i) / 7.0)',
  'toInteger(n.h)',
  'toInteger(n.i / 3)',
  'toInteger(n.f / 1e300)',
  'toFloat(n.i)',
  'floor(n.f)',
  'ceil(n.h)',
  'round(n.f)',
  'round(n.inf)',
  'abs(n.i)',
  'abs(n.f)',
  'sign(n.f)',
  'sign(n.i)',
  'coalesce(n.i, n.j, 0)',
  'coalesce(n.f, n.h, 1.5)',
  'coalesce(n.i > 0, n.f < 0)',
  '(n.i % 5) * 1.5',
  '-(n.i % 3) * 2.0',
  'n.i * 0 * -1.5',
  'n.j / 3 - n.i % 11',
  'n.inf / n.h',
  'n.inf * 2.0',
  'toInteger(n.f / n.h) % 10',
  'n.i / 7 = n.j % 3',
  'toFloat(n.i) / n.h > 1.0',
  'abs(n.i % 1000) < 500 AND n.f / 3.0 > 0.0',
];

/** Expressions no kernel takes: the row evaluator answers them, errors and all. */
const ROW = [
  'n.i / 0',
  'n.i % $z',
  'n.i / n.i',
  'n.f / 0.0',
  'n.f / n.f',
  'n.inf % 3.0',
  'n.inf - n.inf',
  'toInteger(n.f)',
  'n.i * n.i',
  'n.nan / 2.0',
  'n.big / 7',
  'n.big % 3',
  '-n.big',
  'n.big * 2',
  'toInteger(n.big)',
  'abs(n.big)',
  'n.mixed / 2',
  'coalesce(n.i, 0.5)',
  'round(n.f, 2)',
];

function queries(e: string): string[] {
  return [
    `MATCH (n:V) RETURN ${e} AS k, count(*) AS c ORDER BY c DESC, k LIMIT 20`,
    `MATCH (n:V)-[:E]->(m) RETURN ${e} AS k, count(*) AS c ORDER BY k, c`,
    `MATCH (n:V)-[:E]->(m) WHERE coalesce((${e}) > 0, (${e}) = true, false) RETURN count(*) AS c`,
    `MATCH (n:V)-[:E]->(m) RETURN min(${e}) AS lo, max(${e}) AS hi, count(${e}) AS c`,
  ];
}

describe('number kernels over batches', () => {
  it('answer as the row evaluator does, errors included, over typed and untyped columns', async () => {
    const seed = testSeed('vector-kernels');
    const r = prng(seed);
    await withDb(async (db) => {
      await load(db, r);
      for (let k = 0; k < 3; k++) await db.query('MATCH (n:V)-[:E]->(m) RETURN count(*)');
      const graph = db.database.latestCommitted();
      const batched = new QueryEngine();
      const rows = new QueryEngine({ batched: false });
      const before = numberKernels.compiled;
      let errors = 0;
      for (const e of [...KERNELS, ...ROW]) {
        for (const text of queries(e)) {
          const want = outcome(rows, text, graph);
          if ('error' in want) errors++;
          expect(outcome(batched, text, graph), `seed ${seed}: ${text}`).toEqual(want);
        }
      }
      // Every kernel expression compiled at least one kernel in each of its four queries.
      expect(numberKernels.compiled - before).toBeGreaterThanOrEqual(KERNELS.length * 4);
      // The row cases include failing ones: the comparison saw errors, not only rows.
      expect(errors).toBeGreaterThan(10);
    });
  });

  it('take no kernel where the answer could fail or be NaN', async () => {
    const seed = testSeed('vector-kernels-row');
    const r = prng(seed);
    await withDb(async (db) => {
      await load(db, r);
      for (let k = 0; k < 3; k++) await db.query('MATCH (n:V)-[:E]->(m) RETURN count(*)');
      const graph = db.database.latestCommitted();
      const batched = new QueryEngine();
      for (const e of ROW) {
        const before = numberKernels.compiled;
        outcome(batched, `MATCH (n:V)-[:E]->(m) RETURN ${e} AS k, count(*) AS c`, graph);
        expect(numberKernels.compiled - before, `seed ${seed}: ${e}`).toBe(0);
      }
    });
  });
});
