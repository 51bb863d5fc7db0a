import { describe, expect, it } from 'vitest';
import { SnapshotView } from '../../../src/projections/graph/view.js';
import { QueryEngine, type ExecuteContext, type QueryResult } from '../../../src/query/engine.js';
import { prng, testSeed } from '../../support/prng.js';
import { canonical, withDb } from './support.js';

/**
 * Whole-graph queries over a quiet graph read the store's scan-friendly forms (a CSR per type,
 * property columns and label bitmaps by node id) once they have walked enough; the same question
 * asked so that it cannot use them (two types, labels and properties read through functions) must
 * answer the same rows, before and after writes, and AS OF an older commit.
 */
const pairs: readonly (readonly [string, string])[] = [
  ['MATCH (a:P)-[:K]->(b:P) RETURN a.g AS g, count(*) AS n, sum(b.v) AS v', "MATCH (a:P)-[:K|NONE]->(b) WHERE 'P' IN labels(b) RETURN a.g AS g, count(*) AS n, sum(properties(b)['v']) AS v"],
  ['MATCH (a:P)<-[r:K]-(b) WHERE a.v > b.v RETURN id(r), a.v, b.v', "MATCH (a:P)<-[r:K|NONE]-(b) WHERE properties(a)['v'] > properties(b)['v'] RETURN id(r), a.v, b.v"],
  ['MATCH (a)-[:K]-(b:Q) RETURN id(a), id(b)', "MATCH (a)-[:K|NONE]-(b) WHERE 'Q' IN labels(b) RETURN id(a), id(b)"],
  ['MATCH (a:P)-[:K]->(b)-[:K]->(c) WHERE c.v = 3 RETURN count(*)', "MATCH (a:P)-[:K|NONE]->(b)-[:K|NONE]->(c) WHERE properties(c)['v'] = 3 RETURN count(*)"],
  ['MATCH (a:P)-[:K]->(b:P) RETURN b.v AS v, count(*) AS n ORDER BY n DESC, v LIMIT 3', "MATCH (a:P)-[:K|NONE]->(b) WHERE 'P' IN labels(b) RETURN b.v AS v, count(*) AS n ORDER BY n DESC, v LIMIT 3"],
];

describe('expands and reads over the scan-friendly forms', () => {
  it('answer as walks of the records do, through writes and at an older commit', async () => {
    const seed = testSeed('scan-forms');
    const r = prng(seed);
    await withDb(async (db) => {
      await db.query('UNWIND range(1, 400) AS i CREATE (:P {v: i % 7, g: i % 5})');
      await db.query('UNWIND range(1, 100) AS i CREATE (:Q {v: i % 3})');
      const ids = (await db.query('MATCH (n) RETURN id(n)')).rows.map((row) => row[0] as bigint);
      const edges = Array.from({ length: 6000 }, () => [ids[Math.floor(r() * ids.length)]!, ids[Math.floor(r() * ids.length)]!]);
      await db.query('UNWIND $e AS e MATCH (a), (b) WHERE id(a) = e[0] AND id(b) = e[1] CREATE (a)-[:K]->(b)', { e: edges });
      const agree = async (context: string, prefix = ''): Promise<void> => {
        for (const [fast, walk] of pairs) {
          // Three rounds: the walks add up to a CSR and columns, and the last rounds read them.
          for (let round = 0; round < 3; round++) {
            const a = await db.query(prefix + fast);
            const b = await db.query(prefix + walk);
            expect(canonical(a.rows), `seed ${seed}, ${context}, round ${round}: ${fast}`).toEqual(canonical(b.rows));
          }
        }
      };
      await agree('loaded');
      const ts = db.database.lastCommittedTs;
      await db.query('MATCH (a:P)-[k:K]->(b) WHERE a.v = 1 DELETE k');
      await db.query('MATCH (a:Q) WHERE a.v = 0 SET a:P, a.g = 9');
      await db.query('MATCH (a:P) WHERE a.v = 2 SET a.v = 30');
      await agree('after writes');
      await agree('as of the load', `AS OF TIMESTAMP ${ts} `);
    });
  });

  it('search variable-length patterns over a CSR in the order a walk of the records takes', async () => {
    const seed = testSeed('scan-forms-var-length');
    const r = prng(seed);
    await withDb(async (db) => {
      await db.query('UNWIND range(1, 120) AS i CREATE (:P {v: i % 7})');
      const ids = (await db.query('MATCH (n) RETURN id(n)')).rows.map((row) => row[0] as bigint);
      // Self-loops and parallel relationships included.
      const edges = Array.from({ length: 420 }, () => {
        const a = ids[Math.floor(r() * ids.length)]!;
        return [a, r() < 0.05 ? a : ids[Math.floor(r() * ids.length)]!];
      });
      await db.query('UNWIND $e AS e MATCH (a), (b) WHERE id(a) = e[0] AND id(b) = e[1] CREATE (a)-[:K]->(b)', { e: [...edges, ...edges.slice(0, 30)] });
      // Walks of K add up, in asks of 4,096 relationships, until the store builds its CSR.
      for (let k = 0; k < 12; k++) await db.query('MATCH (a:P)-[:K]->(b:P) RETURN count(*)');
      const graph = db.database.latestCommitted();
      expect(graph instanceof SnapshotView && graph.adjacency('K', 0) !== undefined).toBe(true);
      const engine = new QueryEngine();
      const rows = (text: string): string[] => canonical(engine.execute(engine.prepare(text), graph, { params: new Map(), memory_limit_bytes: 1 << 28, now_us: 0 }).rows, true);
      for (const shape of [
        'MATCH (a:P)-[r:T*1..3]->(b) WHERE a.v = 1 RETURN id(a), [x IN r | id(x)], id(b)',
        'MATCH (a:P)<-[r:T*0..2]-(b) WHERE a.v = 2 RETURN id(a), [x IN r | id(x)], id(b)',
        'MATCH (a:P)-[r:T*2..3]-(b) WHERE a.v = 3 RETURN id(a), [x IN r | id(x)], id(b)',
        'MATCH (a:P)-[:T*1..2]-(b:P) RETURN count(*), count(DISTINCT b)',
        'MATCH (a:P)-[r:T*1..4]->(a) RETURN id(a), [x IN r | id(x)]',
        'MATCH (a:P)-[k:T]->(b)-[r:T*1..2]->(c) WHERE a.v = 4 RETURN id(k), [x IN r | id(x)], id(c)',
        'MATCH p = (a:P)-[:T*..2]->(b) WHERE a.v = 5 RETURN p',
      ]) {
        const fast = rows(shape.replaceAll(':T', ':K'));
        expect(fast.length, shape).toBeGreaterThan(0);
        expect(fast, `seed ${seed}: ${shape}`).toEqual(rows(shape.replaceAll(':T', ':K|NONE')));
      }
    });
  });

  it('pause at every row over a CSR and resume where they stopped', async () => {
    const seed = testSeed('scan-forms-slices');
    const r = prng(seed);
    await withDb(async (db) => {
      await db.query('UNWIND range(1, 300) AS i CREATE (:P {v: i % 7})');
      const ids = (await db.query('MATCH (n) RETURN id(n)')).rows.map((row) => row[0] as bigint);
      const edges = Array.from({ length: 5000 }, () => [ids[Math.floor(r() * ids.length)]!, ids[Math.floor(r() * ids.length)]!]);
      await db.query('UNWIND $e AS e MATCH (a), (b) WHERE id(a) = e[0] AND id(b) = e[1] CREATE (a)-[:K]->(b)', { e: edges });
      // Walks enough of K for the store to build its CSR, then checks that it did.
      await db.query('MATCH (a:P)-[:K]->(b:P) RETURN count(*)');
      const graph = db.database.latestCommitted();
      expect(graph instanceof SnapshotView && graph.adjacency('K', 0) !== undefined).toBe(true);
      const engine = new QueryEngine();
      const run = async (text: string, sliced: boolean): Promise<QueryResult> => {
        const ctx: ExecuteContext = { params: new Map(), memory_limit_bytes: 1 << 28, now_us: 0, ...(sliced ? { slice_ms: 0, clock_check_rows: 1 } : {}) };
        const prepared = engine.prepare(text);
        return sliced ? engine.executeSliced(prepared, graph, ctx) : engine.execute(prepared, graph, ctx);
      };
      for (const text of [
        'MATCH (a:P)-[k:K]->(b:P) RETURN id(a), id(k), b.v',
        'MATCH (a:P)-[:K]-(b) WHERE a.v < b.v RETURN id(a), id(b)',
        'MATCH (a:P)-[:K]->(b)-[:K]->(c:P) WHERE c.v = 1 RETURN id(a), id(b), id(c) LIMIT 500',
      ]) {
        const whole = await run(text, false);
        const sliced = await run(text, true);
        expect(whole.rows.length, text).toBeGreaterThan(100);
        expect(canonical(sliced.rows, true), `seed ${seed}: ${text}`).toEqual(canonical(whole.rows, true));
      }
    });
  });
});
