import { describe, expect, it } from 'vitest';
import type { Value } from '../../../src/common/values/value.js';
import type { GraphReader } from '../../../src/projections/graph/view.js';
import { WriteSet } from '../../../src/projections/graph/write-set.js';
import { batchedJoins } from '../../../src/query/execute/batch/value-join-batches.js';
import { QueryEngine, type ExecuteContext } from '../../../src/query/engine.js';
import { prng, testSeed } from '../../support/prng.js';
import { canonical, withDb } from '../engine/support.js';
import { load, warm } from './join-graph.js';

/**
 * The value hash join built from batches (value-join-batches.ts) against the row-at-a-time join, on
 * random graphs whose key properties are typed columns: integers, floats (with -0.0 and 2^53), strings,
 * booleans, each absent on some nodes, with many duplicate keys. Left keys come from aggregations, from
 * plain projections (duplicates) and from parameter lists that mix INTEGERs, FLOATs equal to them,
 * INTEGERs beyond 2^53, NaN, strings, booleans and null. Both table sides are taken (an aggregation's rows
 * make the table; other inputs, and one beyond the kept rows, probe the pattern's). Then the graph is written
 * (updates, deletes, creations) and the same queries run on the new snapshot and on the one held from before.
 */
const QUERIES: readonly string[] = [
  'MATCH (p:P) WITH p.s AS s, max(p.a) AS top MATCH (q:P) WHERE q.s = s AND q.a = top RETURN s, id(q)',
  'MATCH (p:P) WITH p.k AS k, min(p.a) AS lo MATCH (q:P) WHERE q.k = k AND q.a = lo RETURN k, lo, id(q)',
  'MATCH (p:P) WHERE p.a < 3 WITH p.s AS s, p.k AS k, p.a AS a MATCH (q:P) WHERE q.s = s AND q.k = k AND q.a = a RETURN id(q), s, k, a',
  'UNWIND $nums AS x MATCH (q:P) WHERE q.f = x RETURN x, id(q)',
  'UNWIND $nums AS x MATCH (q:P) WHERE x = q.k RETURN x, id(q), q.f',
  'UNWIND $strs AS x MATCH (q:P) WHERE q.s = x AND q.a > 2 RETURN x, id(q)',
  'UNWIND [true, false, null, 1, 0] AS x MATCH (q:P) WHERE q.b = x RETURN x, id(q)',
  // Keys on the far end and on the relationship of an expand.
  'MATCH (p:P) WITH p.k AS k, count(*) AS n MATCH (q:P)-[r:R]->(t:P) WHERE t.k = k AND r.w = n % 4 RETURN k, n, id(q), id(r), id(t)',
  // min and max of strings over the label (codes batched), then joined on the string.
  'MATCH (p:P) WITH p.k AS k, min(p.s) AS first, max(p.s) AS last MATCH (q:P) WHERE q.k = k AND q.s = first RETURN k, first, last, id(q)',
  // Keys of the scanned node alone, tested before the expand.
  'MATCH (p:P) WITH p.s AS s, min(p.a) AS lo MATCH (q:P)-[r:R]->(t:P) WHERE q.s = s AND q.a = lo AND t.a > 0 RETURN s, id(q), id(r), id(t)',
  'MATCH (p:P) WITH p.k AS k, max(p.a) AS hi MATCH (q:P)<-[r:R]-(t:P) WHERE q.k = k AND q.a = hi RETURN k, id(q), id(r), id(t) LIMIT 30',
  'MATCH (p:P) WITH DISTINCT p.s AS s MATCH (q:P) WHERE q.s = s RETURN s, id(q) LIMIT 7',
  // An aggregation of more rows than are kept: the right side becomes the table after all.
  'UNWIND range(1, 4500) AS i WITH i % 9 - 4 AS k, i AS j, count(*) AS c MATCH (q:P) WHERE q.k = k AND q.a = c RETURN k, j, id(q) SKIP 2000 LIMIT 400',
  'UNWIND range(1, 4500) AS i WITH i % 9 - 4 AS k, i % 5 AS m, i MATCH (q:P) WHERE q.k = k AND q.a = m RETURN k, i, id(q) SKIP 2000 LIMIT 400',
  'UNWIND range(1, 4500) AS i WITH toString(i % 5) AS s MATCH (q:P) WHERE q.s = s RETURN count(*), sum(id(q))',
  // An aggregation filtered by WITH ... WHERE on its aggregate (a test that cannot fail) still makes the table.
  'MATCH (p:P) WITH p.s AS s, p.k AS k, count(*) AS c WHERE c > 3 MATCH (q:P)-[r:R]->(t:P) WHERE q.s = s AND q.k = k RETURN s, k, c, id(q), id(r), id(t)',
  'MATCH (p:P) WITH p.k AS k, count(*) AS c WHERE c >= 2 AND k IS NOT NULL MATCH (q:P) WHERE q.k = k RETURN k, c, id(q)',
  // Two keys after an expand, one on each end: the scanned node and the end node are narrowed apart.
  'MATCH (p:P) WITH p.s AS s, min(p.a) AS lo MATCH (q:P)-[r:R]->(t:P) WHERE q.s = s AND t.a = lo RETURN s, lo, id(q), id(r), id(t)',
  'MATCH (p:P) WITH p.k AS k, max(p.s) AS top MATCH (q:P)<-[:R]-(t:P) WHERE t.s = top AND q.k = k RETURN k, top, id(q), id(t)',
  // Nothing above reads the relationship or the end node: the join copies only the slots read.
  'MATCH (p:P) WITH p.s AS s, max(p.a) AS hi MATCH (q:P)-[:R]->(t:P) WHERE q.s = s AND q.a = hi RETURN s, count(*)',
  // After OPTIONAL MATCH: rows whose key is null (nothing found) join nothing.
  'MATCH (p:P) WHERE p.a = 1 OPTIONAL MATCH (p)-[:R]->(f:P) WHERE f.a > 3 WITH f.s AS s, count(*) AS c MATCH (q:P) WHERE q.s = s RETURN s, c, id(q)',
  'MATCH (p:P) OPTIONAL MATCH (p)-[:R]->(f:P) WITH f.k AS k, count(p) AS c MATCH (q:P) WHERE q.k = k AND q.a < 3 RETURN k, c, id(q)',
  // A left side past the kept minimum that is still smaller than the pattern side's estimate makes the table.
  'UNWIND range(1, 4500) AS i WITH i % 9 - 4 AS k, i AS j, count(*) AS c MATCH (q:P)-[:R]->(t:P)-[:R]->(u:P) WHERE u.k = k AND q.a = c RETURN k, j, id(q), id(t), id(u) SKIP 100 LIMIT 300',
  // A list key takes the row-at-a-time join; keys from lists of mixed values meet typed columns.
  'MATCH (p:P) WITH p.l AS l, count(*) AS c MATCH (q:P) WHERE q.l = l RETURN l, c, id(q)',
  'UNWIND [[1], [1.0], [null], null, [2, 3]] AS l MATCH (q:P) WHERE q.l = l RETURN l, id(q)',
];

const engines = { rows: new QueryEngine({ join_policy: 'always', batched: false }), batched: new QueryEngine({ join_policy: 'always' }) };
const params = new Map<string, Value>([
  ['nums', [0n, 2n, 1.5, -0.0, 2.0, Number.NaN, 2n ** 53n, 2n ** 53n + 1n, 9007199254740992, 'x', null, true, -4n, 3n]],
  ['strs', ['0', 'x', 'y', 1n, null, '']],
]);

function answer(engine: QueryEngine, text: string, graph: GraphReader): string[] | string {
  const ctx: ExecuteContext = { params, memory_limit_bytes: 1 << 28, now_us: 0 };
  try {
    return canonical(engine.execute(engine.prepare(text), graph, ctx).rows, true);
  } catch (e) {
    return `error: ${(e as Error).message}`;
  }
}

function compare(seed: number, label: string, graph: GraphReader): number {
  let nonEmpty = 0;
  for (const text of QUERIES) {
    const want = answer(engines.rows, text, graph);
    if (typeof want === 'string') throw new Error(`seed ${seed}, ${label}: ${text}: ${want}`);
    if (want.length > 0) nonEmpty++;
    expect(answer(engines.batched, text, graph), `seed ${seed}, ${label}: ${text}`).toEqual(want);
  }
  return nonEmpty;
}

describe('a value join built from batches', () => {
  it('answers as the row-at-a-time join does, rows and order, before and after writes', async () => {
    const seed = testSeed('value-join-batches');
    const r = prng(seed);
    for (let graphNo = 0; graphNo < 2; graphNo++) {
      await withDb(async (db) => {
        await load(db, r, 300 + graphNo * 200);
        const before = await warm(db);
        const left = batchedJoins.built_left;
        const right = batchedJoins.built_right;
        expect(compare(seed, `graph ${graphNo}`, before)).toBeGreaterThan(QUERIES.length / 2);
        // Both sides were made the table on the batched path.
        expect(batchedJoins.built_left - left).toBeGreaterThan(3);
        expect(batchedJoins.built_right - right).toBeGreaterThan(2);

        // Updates, deletes and creations: the new snapshot and the one from before must both still agree.
        await db.query("MATCH (q:P) WHERE q.a = 1 SET q.k = q.k + 1, q.s = 'x'");
        await db.query('MATCH (q:P) WHERE q.a = 2 AND q.k = 0 DETACH DELETE q');
        await db.query("UNWIND range(1, 40) AS i CREATE (:P {a: i % 6, k: i % 9 - 4, s: toString(i % 4), f: 2.0, b: i % 2 = 0})");
        compare(seed, `graph ${graphNo} after writes`, db.database.latestCommitted());
        compare(seed, `graph ${graphNo}, the snapshot from before the writes`, before);
        const after = await warm(db);
        compare(seed, `graph ${graphNo} after writes, warmed`, after);
      });
    }
  });

  it("takes the smaller side for the table, narrows expands by the left keys, and sees a transaction's writes", async () => {
    const seed = testSeed('value-join-batches-sides');
    const r = prng(seed);
    await withDb(async (db) => {
      await load(db, r, 500);
      const view = await warm(db);
      const taken = (text: string): { left: number; right: number; narrowed: number } => {
        const before = { ...batchedJoins };
        const want = answer(engines.rows, text, view);
        expect(answer(engines.batched, text, view), `seed ${seed}: ${text}`).toEqual(want);
        return { left: batchedJoins.built_left - before.built_left, right: batchedJoins.built_right - before.built_right, narrowed: batchedJoins.end_narrowed - before.end_narrowed };
      };
      // 4,500 input rows against a two-hop pattern of more estimated rows: the input makes the table.
      const wide = 'UNWIND range(1, 4500) AS i WITH i % 9 - 4 AS k, i AS j, count(*) AS c MATCH (q:P)-[:R]->(t:P)-[:R]->(u:P) WHERE u.k = k AND q.a = c RETURN count(*), sum(j)';
      expect(taken(wide)).toEqual({ left: 1, right: 0, narrowed: 1 });
      // The same input against the label alone (fewer rows): the pattern side makes the table.
      expect(taken('UNWIND range(1, 4500) AS i WITH i % 9 - 4 AS k, i AS j, count(*) AS c MATCH (q:P) WHERE q.k = k AND q.a = c RETURN count(*), sum(j)')).toMatchObject({ left: 0, right: 1 });
      // A filter on the aggregate that cannot fail keeps the input eager; one that may fail (a division) does not.
      expect(taken('MATCH (p:P) WITH p.k AS k, count(*) AS c WHERE c > 3 MATCH (q:P)-[:R]->(t:P) WHERE q.k = k AND t.s = "x" RETURN k, c, id(q), id(t)')).toMatchObject({ left: 1, right: 0 });
      expect(taken('MATCH (p:P) WITH p.k AS k, count(*) AS c WHERE 12 / (c - c) > 1 MATCH (q:P) WHERE q.k = k RETURN k, c, id(q)')).toMatchObject({ left: 0 });

      // Writes of an open transaction: the join reads them (through the row-at-a-time join) and the snapshot does not.
      let next = 1_000_000;
      const ws = new WriteSet(view, { nodeId: () => next++, edgeId: () => next++ }, true);
      const ctx: ExecuteContext = { params, memory_limit_bytes: 1 << 28, now_us: 0 };
      engines.batched.execute(engines.batched.prepare("UNWIND range(1, 5) AS i CREATE (:P {k: 40, a: i, s: 'new'})"), ws, ctx);
      engines.batched.execute(engines.batched.prepare("MATCH (q:P) WHERE q.k = -4 SET q.s = 'moved'"), ws, ctx);
      const text = "MATCH (p:P) WITH p.s AS s, count(*) AS c MATCH (q:P) WHERE q.s = s AND q.s IN ['new', 'moved'] RETURN s, c, id(q)";
      const inTx = answer(engines.batched, text, ws);
      expect(inTx).toEqual(answer(engines.rows, text, ws));
      expect(Array.isArray(inTx) && inTx.filter((row) => row.includes('"new"')).length).toBe(5);
      expect(Array.isArray(inTx) && inTx.some((row) => row.includes('"moved"'))).toBe(true);
      expect(answer(engines.batched, text, view)).toEqual([]);
    });
  });
});
