import { describe, expect, it } from 'vitest';
import { perValueTables } from '../../../src/query/execute/batch/per-value.js';
import { prng, testSeed } from '../../support/prng.js';
import { canonical, withDb } from './support.js';

/**
 * Whole-graph queries read CSRs, columns by id and the forms derived from them (typed columns, relationship
 * columns in adjacency order, per-value tables), all charged to the scan cache. With a cache too small to keep
 * them all, forms are evicted least recently used first and built again on demand: the answers must be the
 * ones a cache that keeps everything gives, and the cache must stay within its limit.
 */
const queries: readonly string[] = [
  'MATCH (a:P)-[k:K]->(b:P) RETURN a.g AS g, count(*) AS n, sum(k.w) AS w, avg(b.v) AS v',
  'MATCH (a:P)-[:K]->(b:P) RETURN b.v AS v, count(*) AS n ORDER BY n DESC, v LIMIT 3',
  'MATCH (p:P) WHERE p.v > 3 RETURN p.g % 3 AS k, count(*) AS n',
  'MATCH (a:P)-[:K]->() RETURN id(a) AS id, count(*) AS d ORDER BY d DESC, id LIMIT 5',
  'MATCH (a:P)-[k:K]-(b:Q) RETURN b.v AS v, sum(k.w) AS w, count(*) AS n',
  'MATCH (a:P)-[k:K]->(b) WHERE k.w > 5 AND a.v < b.v RETURN count(*) AS n',
  // An end filter folded into a counted expand: a bitmap made for each run, whose counts are not kept.
  'MATCH (a:P)-[:K]->(b:P) WHERE b.v > 3 RETURN id(a) AS id, count(*) AS d ORDER BY d DESC, id LIMIT 5',
];

describe('a scan cache too small for every form', () => {
  it('evicts and rebuilds forms, answering as a cache that keeps them all', async () => {
    const seed = testSeed('scan-cache-eviction');
    const r = prng(seed);
    await withDb(async (db) => {
      await db.query('UNWIND range(1, 600) AS i CREATE (:P {v: i % 11, g: i % 5})');
      await db.query('UNWIND range(1, 200) AS i CREATE (:Q {v: i % 3})');
      const ids = (await db.query('MATCH (n) RETURN id(n)')).rows.map((row) => row[0] as bigint);
      const edges = Array.from({ length: 8000 }, () => [ids[Math.floor(r() * ids.length)]!, ids[Math.floor(r() * ids.length)]!, BigInt(Math.floor(r() * 10))]);
      await db.query('UNWIND $e AS e MATCH (a), (b) WHERE id(a) = e[0] AND id(b) = e[1] CREATE (a)-[:K {w: e[2]}]->(b)', { e: edges });
      const cache = db.database.sm.graph.scanCache;
      const answers = async (): Promise<string[][]> => {
        const out: string[][] = [];
        for (const q of queries) out.push(canonical((await db.query(q)).rows));
        return out;
      };
      // Enough rounds for the walks to add up to every form, then the answers with all of them kept.
      for (let round = 0; round < 4; round++) await answers();
      const kept = await answers();
      const all = cache.used;
      expect(all).toBeGreaterThan(0);
      expect(cache.evictions).toBe(0);
      // Runs that find every form kept charge nothing more, whatever their parameters (a per-value table made
      // again for another parameter gives back the bytes of the one it replaces).
      await answers();
      expect(cache.used).toBe(all);
      const shifted = 'MATCH (p:P) RETURN toString(p.g) + $s AS k, count(*) AS n';
      await db.query(shifted, { s: 'x0' });
      const withTable = cache.used;
      const tables = perValueTables.one;
      for (let d = 1; d < 6; d++) {
        const rows = canonical((await db.query(shifted, { s: `x${d}` })).rows);
        expect(rows.length, `seed ${seed}, suffix ${d}`).toBe(5);
        expect(cache.used, `seed ${seed}, suffix ${d}`).toBe(withTable);
      }
      expect(perValueTables.one - tables).toBe(5);
      cache.limit_bytes = Math.floor(all / 3);
      for (let round = 0; round < 4; round++) {
        expect(await answers(), `seed ${seed}, round ${round} in a third of the room`).toEqual(kept);
        expect(cache.used).toBeLessThanOrEqual(Math.floor(all / 3));
      }
      expect(cache.evictions).toBeGreaterThan(0);
      cache.limit_bytes = 0;
      expect(await answers(), `seed ${seed}, no room at all`).toEqual(kept);
      expect(cache.used).toBe(0);
    });
  });
});
