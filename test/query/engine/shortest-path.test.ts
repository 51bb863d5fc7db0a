import { describe, expect, it } from 'vitest';
import { CypherError } from '../../../src/query/errors.js';
import { prng, testSeed } from '../../support/prng.js';
import { find, operators, withDb } from './support.js';

/**
 * shortestPath and allShortestPaths against a brute force: every variable-length match between two
 * nodes, kept at its shortest length, is exactly what allShortestPaths answers, and shortestPath
 * answers one of them.
 */
const pathKey = (rels: readonly unknown[]): string => rels.map((r) => String((r as { id: number }).id)).join(',');

describe('shortest paths', () => {
  it('agree with an exhaustive variable-length search on random graphs', async () => {
    const seed = testSeed('shortest-path');
    const r = prng(seed);
    await withDb(async (db) => {
      const n = 14;
      const ids: bigint[] = [];
      for (let i = 0; i < n; i++) ids.push((await db.query('CREATE (x:V {i: $i}) RETURN id(x)', { i: BigInt(i) })).rows[0]![0] as bigint);
      for (let i = 0; i < 26; i++) {
        const a = ids[Math.floor(r() * n)]!;
        const b = ids[Math.floor(r() * n)]!;
        await db.query(`MATCH (a), (b) WHERE id(a) = $a AND id(b) = $b CREATE (a)-[:${r() < 0.7 ? 'R' : 'S'}]->(b)`, { a, b });
      }
      let compared = 0;
      for (let q = 0; q < 40; q++) {
        const a = BigInt(Math.floor(r() * n));
        // Every fifth search is from a node to itself: the shortest cycles through it.
        const b = q % 5 === 0 ? a : BigInt(Math.floor(r() * n));
        const rel = ['-[:R*..6]->', '-[*..6]-', '<-[:R|S*..6]-', '-[:R*0..6]->'][q % 4]!;
        const params = { a, b };
        const withVar = rel.replace('[', '[rs');
        const brute = await db.query(`MATCH (x:V {i: $a})${withVar}(y:V {i: $b}) RETURN rs`, params);
        const lengths = brute.rows.map((row) => (row[0] as unknown[]).length);
        const best = lengths.length === 0 ? undefined : Math.min(...lengths);
        const shortest = brute.rows.filter((row) => (row[0] as unknown[]).length === best).map((row) => pathKey(row[0] as unknown[]));
        const all = await db.query(`MATCH p = allShortestPaths((x:V {i: $a})${withVar}(y:V {i: $b})) RETURN rs, length(p)`, params);
        const one = await db.query(`MATCH p = shortestPath((x:V {i: $a})${withVar}(y:V {i: $b})) RETURN rs, length(p)`, params);
        const context = `seed ${seed}, ${a} ${rel} ${b}`;
        expect(all.rows.map((row) => pathKey(row[0] as unknown[])).sort(), context).toEqual([...new Set(shortest)].sort());
        if (best === undefined) {
          expect(one.rows, context).toEqual([]);
        } else {
          compared++;
          expect(one.rows.length, context).toBe(1);
          expect(shortest, context).toContain(pathKey(one.rows[0]![0] as unknown[]));
          expect(one.rows[0]![1], context).toBe(BigInt(best));
        }
      }
      expect(compared).toBeGreaterThan(5);
    });
  });

  it('find the shortest paths whose every relationship passes a WHERE all(r IN relationships(p) ...), as Neo4j does', async () => {
    const seed = testSeed('shortest-path-filtered');
    const r = prng(seed);
    await withDb(async (db) => {
      const n = 14;
      const ids: bigint[] = [];
      for (let i = 0; i < n; i++) ids.push((await db.query('CREATE (x:V {i: $i}) RETURN id(x)', { i: BigInt(i) })).rows[0]![0] as bigint);
      for (let i = 0; i < 34; i++) {
        const a = ids[Math.floor(r() * n)]!;
        const b = ids[Math.floor(r() * n)]!;
        await db.query('MATCH (a), (b) WHERE id(a) = $a AND id(b) = $b CREATE (a)-[:R {w: $w}]->(b)', { a, b, w: BigInt(Math.floor(r() * 3)) });
      }
      for (let q = 0; q < 40; q++) {
        // Distinct ends: from a node to itself the search answers the shortest cycle per first step, which a plain
        // variable-length match does not express.
        const from = Math.floor(r() * n);
        const params = { a: BigInt(from), b: BigInt((from + 1 + Math.floor(r() * (n - 1))) % n), lo: BigInt(q % 2) };
        const rel = ['-[rs:R*..6]->', '-[rs:R*..6]-'][q % 2]!;
        // Every variable-length match whose relationships all pass, kept at its shortest length.
        const brute = await db.query(`MATCH (x:V {i: $a})${rel}(y:V {i: $b}) WHERE all(k IN rs WHERE k.w > $lo) RETURN rs`, params);
        const lengths = brute.rows.map((row) => (row[0] as unknown[]).length);
        const best = lengths.length === 0 ? undefined : Math.min(...lengths);
        const shortest = brute.rows.filter((row) => (row[0] as unknown[]).length === best).map((row) => pathKey(row[0] as unknown[]));
        const where = 'WHERE all(k IN relationships(p) WHERE k.w > $lo)';
        const all = await db.query(`MATCH (x:V {i: $a}), (y:V {i: $b}) MATCH p = allShortestPaths((x)${rel}(y)) ${where} RETURN rs`, params);
        const context = `seed ${seed}, ${params.a} ${rel} ${params.b} w > ${params.lo}`;
        expect(all.rows.map((row) => pathKey(row[0] as unknown[])).sort(), context).toEqual([...new Set(shortest)].sort());
      }
      // A chain 0 -> 1 -> 2 whose direct shortcut 0 -> 2 fails the test: the search goes around it.
      await db.query("CREATE (a:W {i: 0})-[:R {w: 2}]->(:W {i: 1})-[:R {w: 2}]->(c:W {i: 2}), (a)-[:R {w: 0}]->(c)");
      const around = await db.query(
        'MATCH (x:W {i: 0}), (y:W {i: 2}) MATCH p = shortestPath((x)-[:R*..4]->(y)) WHERE all(k IN relationships(p) WHERE k.w > 1) RETURN length(p)',
      );
      expect(around.rows).toEqual([[2n]]);
    });
  });

  it('plans a search between the bound end nodes and says so in EXPLAIN', async () => {
    await withDb(async (db) => {
      const plan = db.explain("MATCH (a:V {i: 1}), (b:V {i: 2}) MATCH p = shortestPath((a)-[:R*]->(b)) RETURN p");
      expect(operators(plan)).toContain('ShortestPath');
      expect(operators(db.explain('MATCH p = allShortestPaths((a:V)-[*]-(b:V)) RETURN p'))).toContain('AllShortestPaths');
    });
  });

  it('a WHERE over the path picks the shortest path that passes it, and a path from a node to itself is the empty one from length 0', async () => {
    await withDb(async (db) => {
      await db.query("CREATE (a:V {i: 0})-[:R]->(b:V {i: 1})-[:R]->(c:V {i: 2}), (a)-[:R]->(c)");
      // As in Neo4j, the predicate is evaluated before the shortest path is decided: a -> b -> c.
      const filtered = await db.query('MATCH p = shortestPath((a:V {i: 0})-[:R*]->(c:V {i: 2})) WHERE length(p) > 1 RETURN [n IN nodes(p) | n.i]');
      expect(filtered.rows).toEqual([[[0n, 1n, 2n]]]);
      expect(find(db.explain('MATCH p = shortestPath((a:V {i: 0})-[:R*]->(c:V {i: 2})) WHERE length(p) > 1 RETURN p'), 'SearchPaths(Into)')).toBeDefined();
      expect((await db.query('MATCH p = shortestPath((a:V {i: 0})-[:R*0..]->(a)) RETURN length(p)')).rows).toEqual([[0n]]);
      expect((await db.query('MATCH p = shortestPath((a:V {i: 0})-[:R*]->(a)) RETURN p')).rows).toEqual([]);
      // Undirected, one relationship is no cycle (it would be used twice); a triangle is one of length 3.
      await db.query('CREATE (x:U {i: 0})-[:T]->(:U {i: 1}), (y:U {i: 2})-[:T]->(:U {i: 3})-[:T]->(:U {i: 4})-[:T]->(y)');
      expect((await db.query('MATCH p = shortestPath((x:U {i: 0})-[:T*]-(x)) RETURN p')).rows).toEqual([]);
      expect((await db.query('MATCH p = allShortestPaths((y:U {i: 2})-[:T*]-(y)) RETURN length(p)')).rows).toEqual([[3n], [3n]]);
      const optional = await db.query('MATCH (a:V {i: 2}), (c:V {i: 0}) OPTIONAL MATCH p = shortestPath((a)-[:R*]->(c)) RETURN p');
      expect(optional.rows).toEqual([[null]]);
    });
  });

  it('refuses forms it cannot search', async () => {
    await withDb(async (db) => {
      for (const text of [
        'MATCH p = shortestPath((a)-[:R]->(b)-[:R]->(c)) RETURN p',
        'MATCH p = shortestPath((a)-[:R*2..]->(b)) RETURN p',
        'CREATE p = shortestPath((a)-[:R]->(b)) RETURN p',
        'MATCH ()-[r]->() MATCH p = shortestPath((a)-[r*]->(b)) RETURN p',
        'MATCH p = longestPath((a)-[:R*]->(b)) RETURN p',
      ]) {
        const e = await db.query(text).then(
          () => undefined,
          (err: unknown) => err,
        );
        expect(e, text).toBeInstanceOf(CypherError);
        expect((e as CypherError).type, text).toBe('SyntaxError');
      }
    });
  });

  it('is bounded by the statement memory limit', async () => {
    await withDb(
      async (db) => {
        // A chain of 3000 nodes: the search reaches every one of them.
        let first = -1n;
        // Written 100 at a time: each statement's write set counts against the same small limit.
        for (let lo = 1; lo <= 3000; lo += 100) {
          const made = await db.query('UNWIND range($lo, $lo + 99) AS i CREATE (v:V {i: i}) RETURN id(v)', { lo: BigInt(lo) });
          if (first < 0n) first = made.rows[0]![0] as bigint;
        }
        for (let k = 0; k < 2999; k += 100) {
          await db.query('UNWIND range($k, $to) AS k MATCH (a), (b) WHERE id(a) = $first + k AND id(b) = $first + k + 1 CREATE (a)-[:R]->(b)', {
            k: BigInt(k),
            to: BigInt(Math.min(k + 99, 2998)),
            first,
          });
        }
        const query = 'MATCH (a:V {i: 1}), (b:V {i: 3000}) MATCH p = shortestPath((a)-[:R*]->(b)) RETURN length(p)';
        const e = await db.query(query).then(
          () => undefined,
          (err: unknown) => err,
        );
        expect((e as { reason?: string } | undefined)?.reason).toBe('EXCEEDS_MEMORY_BUDGET');
        expect((await db.query('MATCH (a:V {i: 1}), (b:V {i: 30}) MATCH p = shortestPath((a)-[:R*]->(b)) RETURN length(p)')).rows).toEqual([[29n]]);
      },
      { memory_limit_bytes: 200_000 },
    );
  });
});
