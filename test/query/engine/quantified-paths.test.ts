import { describe, expect, it } from 'vitest';
import { prng, testSeed } from '../../support/prng.js';
import { canonical, find, withDb } from './support.js';

/**
 * Quantified path patterns and path selectors against forms the engine answered before them, on
 * seeded random graphs: a one-hop quantified path pattern is the variable-length relationship, a
 * two-hop one is the UNION of its unrolled iterations, SHORTEST 1 / ALL SHORTEST over one
 * relationship agree with shortestPath / allShortestPaths in length and number, and ANY keeps one path
 * for every pair the search connects, over a quantified relationship and a repeated path alike.
 */
describe('quantified path patterns on random graphs', () => {
  it('agree with variable-length relationships, unrolled UNIONs and the shortest path functions', async () => {
    const seed = testSeed('quantified-paths');
    const r = prng(seed);
    await withDb(async (db) => {
      const n = 10;
      await db.query('UNWIND range(0, $n - 1) AS i CREATE (:V {i: i})', { n: BigInt(n) });
      for (let e = 0; e < 24; e++) {
        const a = BigInt(Math.floor(r() * n));
        const b = BigInt(Math.floor(r() * n));
        await db.query(`MATCH (a:V {i: $a}), (b:V {i: $b}) CREATE (a)-[:${r() < 0.6 ? 'R' : 'S'} {w: $w}]->(b)`, { a, b, w: BigInt(Math.floor(r() * 4)) });
      }
      for (let s = 0; s < n; s++) {
        const params = { s: BigInt(s) };
        const repeated = await db.query('MATCH (a:V {i: $s}) ((x)-[r:R]->(y) WHERE r.w > 0){1,3} (b) RETURN b.i, [e IN r | id(e)], [v IN y | v.i]', params);
        const varLength = await db.query('MATCH (a:V {i: $s})-[r:R*1..3]->(b) WHERE all(e IN r WHERE e.w > 0) RETURN b.i, [e IN r | id(e)], [e IN r | endNode(e).i]', params);
        expect(canonical(repeated.rows), `seed ${seed}, start ${s}`).toEqual(canonical(varLength.rows));

        const twoHop = await db.query('MATCH (a:V {i: $s}) ((x)-[:R]->(m)-[:S]->(y)){1,2} (b) RETURN b.i, [v IN m | v.i]', params);
        const unrolled = await db.query(
          `MATCH (a:V {i: $s})-[:R]->(m1)-[:S]->(b) RETURN b.i, [m1.i] AS ms
           UNION ALL
           MATCH (a:V {i: $s})-[:R]->(m1)-[:S]->()-[:R]->(m2)-[:S]->(b) RETURN b.i, [m1.i, m2.i] AS ms`,
          params,
        );
        expect(canonical(twoHop.rows), `seed ${seed}, start ${s}`).toEqual(canonical(unrolled.rows));

        for (let t = 0; t < n; t++) {
          const ends = { s: BigInt(s), t: BigInt(t) };
          const one = await db.query('MATCH p = SHORTEST 1 (a:V {i: $s})-[:R|S]-{1,6}(b:V {i: $t}) RETURN length(p)', ends);
          const fn = await db.query('MATCH p = shortestPath((a:V {i: $s})-[:R|S*1..6]-(b:V {i: $t})) RETURN length(p)', ends);
          expect(canonical(one.rows), `seed ${seed}, ${s} to ${t}`).toEqual(canonical(fn.rows));
          // ANY keeps one path per pair, and a repeated path reaches the same pairs.
          const any = await db.query('MATCH p = ANY (a:V {i: $s})-[:R|S]-{1,6}(b:V {i: $t}) RETURN count(p)', ends);
          const anyRepeated = await db.query('MATCH p = ANY 1 (a:V {i: $s}) ((x)-[:R|S]-(y)){1,6} (b:V {i: $t}) RETURN count(p)', ends);
          expect([any.rows, anyRepeated.rows], `seed ${seed}, ${s} to ${t}`).toEqual([[[BigInt(fn.rows.length)]], [[BigInt(fn.rows.length)]]]);
          const all = await db.query('MATCH p = ALL SHORTEST (a:V {i: $s})-[:R]->{1,6}(b:V {i: $t}) RETURN length(p)', ends);
          const allFn = await db.query('MATCH p = allShortestPaths((a:V {i: $s})-[:R*1..6]->(b:V {i: $t})) RETURN length(p)', ends);
          expect(canonical(all.rows), `seed ${seed}, ${s} to ${t}`).toEqual(canonical(allFn.rows));
        }
        // The general selection agrees with the search: SHORTEST 1 GROUPS over a repeated path.
        const groups = await db.query('MATCH p = SHORTEST 1 GROUPS (a:V {i: $s}) ((x)-[:R]->(y)){1,4} (b) RETURN b.i, length(p)', params);
        const search = await db.query('MATCH (a:V {i: $s}), (b:V) WITH a, b MATCH p = allShortestPaths((a)-[:R*1..4]->(b)) RETURN b.i, length(p)', params);
        expect(canonical(groups.rows), `seed ${seed}, start ${s}`).toEqual(canonical(search.rows));
      }
    });
  }, 60_000);

  it('plans a quantified path pattern as one repeat over its inner expansion', async () => {
    await withDb(async (db) => {
      const plan = db.explain('MATCH (a {k: 1}) ((x)-[:R]->(y)-[:S]->(z)){1,3} (b) RETURN b');
      const repeat = find(plan, 'Repeat(All)');
      expect(repeat).toBeDefined();
      expect(repeat!.children.length).toBe(2);
    });
  });

  it('a runaway quantified path pattern ends with its deadline', async () => {
    await withDb(async (db) => {
      await db.query('UNWIND range(1, 12) AS i CREATE (:K {i: i})');
      await db.query('MATCH (a:K), (b:K) WHERE a <> b CREATE (a)-[:E]->(b)');
      await expect(db.query('MATCH ((x)-[:E]->(y)){1,} RETURN count(*)')).rejects.toThrow(/deadline/i);
    }, { statement_timeout_ms: 300 });
  }, 30_000);
});
