import { describe, expect, it } from 'vitest';
import type { Value } from '../../../src/common/values/value.js';
import type { Db } from '../../../src/index.js';
import { SnapshotView, type GraphReader } from '../../../src/projections/graph/view.js';
import { batchedRuns } from '../../../src/query/execute/batch/batch-aggregate.js';
import { QueryEngine, type ExecuteContext } from '../../../src/query/engine.js';
import { indexCatalogOf } from '../../../src/server/cypher-runner.js';
import { prng, testSeed } from '../../support/prng.js';
import { canonical, withDb } from '../engine/support.js';

/**
 * Batched pipelines whose scan compares an indexed property. The catalog declines a seek that would return
 * more than 5% of the label (and more than 1,000 nodes); the row path then reads the label in its own order,
 * and so may a batched run. A seek the index answers (a narrow range, an equality) keeps the row path, which
 * reads in the index's order. DISTINCT over a label alone runs batched when its columns are typed. Every
 * query must answer as the row operators do, rows in the same order, and the wide ranges must have run
 * batched.
 */
const NODES = 3000;

/** Wide ranges and prefixes on indexed properties: the catalog declines them. */
const DECLINED: readonly string[] = [
  'MATCH (a:P)-[:R]->(b:P) WHERE a.k < 2000 RETURN b.c AS c, count(*) AS n',
  'MATCH (a:P)-[:R]->(b:P) WHERE a.k >= 500 AND a.k < 2500 AND b.a > 2 RETURN a.c AS c, count(DISTINCT b) AS n, sum(b.a) AS s',
  'MATCH (a:P)-[:R]->(b:P) WHERE a.k > $lo RETURN a.a AS a, min(b.k) AS lo, max(b.c) AS hi',
  'MATCH (a:P)<-[:R]-(b:P) WHERE a.k <= 2800 RETURN b.k AS k, a.k AS ak ORDER BY k DESC, ak LIMIT 12',
  "MATCH (a:P)-[:R]->(b:P) WHERE a.s STARTS WITH 'x' RETURN b.c AS c, count(*) AS n",
  // DISTINCT over a label alone, whose typed columns run batched (no fused scan serves DISTINCT).
  'MATCH (p:P) WHERE p.k < 2000 WITH DISTINCT p.c AS c, p.a > 2 AS big RETURN c, big',
  'MATCH (p:P) WHERE p.k > $lo RETURN DISTINCT p.a AS a, p.c AS c',
  'MATCH (p:P) RETURN DISTINCT p.c AS c, p.a AS a',
];

/** Narrow ranges and equalities, planned as seeks: the index answers, and the rows come in its order. */
const ANSWERED: readonly string[] = [
  'MATCH (a:P)-[:R]->(b:P) WHERE a.k < 12 RETURN b.c AS c, count(*) AS n',
  'MATCH (a:P {k: 7})-[:R]->(b:P) RETURN b.k AS k, count(*) AS n',
  'MATCH (a:P)-[:R]->(b:P) WHERE a.k > $none RETURN count(*) AS n',
  'MATCH (p:P) WHERE p.k >= 10 AND p.k < 16 RETURN DISTINCT p.c AS c, p.a AS a',
];

async function load(db: Db, r: () => number): Promise<void> {
  const rows: Value[] = [];
  for (let i = 0; i < NODES; i++) {
    const m = new Map<string, Value>([['a', BigInt(Math.floor(r() * 6))], ['c', `c${Math.floor(r() * 7)}`]]);
    // The indexed key: integers with repeats, absent on some nodes.
    if (r() < 0.9) m.set('k', BigInt(Math.floor(r() * NODES)));
    m.set('s', r() < 0.4 ? `x${i}` : `y${i}`);
    rows.push(m);
  }
  await db.query('UNWIND $rows AS row CREATE (n:P) SET n = row', { rows });
  const pairs: Value[] = [];
  for (let i = 0; i < NODES * 4; i++) pairs.push([BigInt(Math.floor(r() * NODES)), BigInt(Math.floor(r() * NODES))]);
  await db.query('MATCH (n:P) WITH collect(n) AS ns UNWIND $pairs AS pair WITH ns[pair[0]] AS a, ns[pair[1]] AS b CREATE (a)-[:R]->(b)', { pairs });
  await db.query('CREATE INDEX p_k FOR (p:P) ON (p.k)');
  await db.query('CREATE INDEX p_s FOR (p:P) ON (p.s)');
}

/** Asks for the label's list, columns and CSR a batched run reads, as repeated whole-graph queries would. */
async function warm(db: Db): Promise<SnapshotView> {
  for (let i = 0; i < 3; i++) await db.query('MATCH (n:P) RETURN count(*)');
  const view = db.database.latestCommitted() as SnapshotView;
  for (const k of ['k', 'a', 'c', 's']) view.nodeColumn(k, 1e9);
  view.adjacency('R', 1e9);
  return view;
}

const params = new Map<string, Value>([
  ['lo', 300n],
  ['none', null],
]);

function answer(engine: QueryEngine, text: string, graph: GraphReader): string[] {
  const ctx: ExecuteContext = { params, memory_limit_bytes: 1 << 28, now_us: 0 };
  return canonical(engine.execute(engine.prepare(text), graph, ctx).rows, true);
}

describe('batched pipelines under an indexed comparison', () => {
  it('run batched when the catalog declines the seek, keep the index when it answers, and answer as the row operators do', async () => {
    const seed = testSeed('declined-seeks');
    const r = prng(seed);
    await withDb(async (db) => {
      await load(db, r);
      const view = await warm(db);
      const indexes = indexCatalogOf(db.database);
      const rows = new QueryEngine({ indexes, batched: false });
      const batched = new QueryEngine({ indexes });
      for (const text of DECLINED) {
        const want = answer(rows, text, view);
        expect(want.length, `seed ${seed}: ${text} keeps rows`).toBeGreaterThan(0);
        // Twice: the first run may still be asking for a form.
        answer(batched, text, view);
        const before = batchedRuns.count;
        expect(answer(batched, text, view), `seed ${seed}: ${text}`).toEqual(want);
        expect(batchedRuns.count - before, `seed ${seed}: ${text} ran batched`).toBe(1);
      }
      for (const text of ANSWERED) {
        const want = answer(rows, text, view);
        answer(batched, text, view);
        const before = batchedRuns.count;
        expect(answer(batched, text, view), `seed ${seed}: ${text}`).toEqual(want);
        expect(batchedRuns.count - before, `seed ${seed}: ${text} kept the index`).toBe(0);
        expect(batched.explain(text, view).details.explain, text).toMatch(/NodeIndexSeek/);
      }
    });
  });
});
