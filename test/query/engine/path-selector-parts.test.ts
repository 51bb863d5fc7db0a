import { describe, expect, it } from 'vitest';
import type { Db } from '../../../src/index.js';
import { prng, testSeed } from '../../support/prng.js';
import { checkSelection, matches, randomGraph, returned } from './path-selection-check.js';
import { find, withDb } from './support.js';

/**
 * A path selector over a path of several parts (fixed relationships beside a quantified path pattern,
 * several quantified parts, variable-length relationships among fixed ones) or with a pre-filter over
 * the whole path (its path variable, a group variable, two of its inner nodes) searches by length over
 * (node, part, iterations) states (SearchPaths in EXPLAIN). Checked against the selection made over every
 * match of the same pattern without a selector, its pre-filter as the MATCH's WHERE, on seeded random
 * graphs, from one node, between two and into one node from every node (a search leftwards).
 */

/** A path between `(a...)` and `(b...)`, and the pre-filter the selective form holds inside its parentheses. */
interface Shape {
  readonly middle: string;
  readonly where?: string;
  readonly ys: string;
}

const shapes: readonly Shape[] = [
  // A fixed relationship before a quantified path pattern with a WHERE inside.
  { middle: '-[:R]->(m) ((x)-[r]->(y) WHERE r.w > 0){1,3} ', ys: '[v IN y | v.i]' },
  // Two quantified path patterns, the second from zero iterations, a filtered node between them.
  { middle: ' ((x)-[:R]->(y)){1,2} (m:V WHERE m.k <> 2) ((u)-[:S|R]-(v)){0,2} ', ys: '[[n IN y | n.i], [n IN v | n.i]]' },
  // A variable-length relationship before a fixed one.
  { middle: '-[:R*1..3]->(m)-[:S]->', ys: '[]' },
  // A pre-filter on the path variable.
  { middle: ' ((x)-[r]->(y)){1,} ', where: 'length(p) % 2 = 0', ys: '[v IN y | v.i]' },
  // A pre-filter on a group variable across iterations, after an undirected fixed relationship.
  { middle: '-[s]-(m) ((x)-[r:R]->(y)){1,} ', where: 'all(i IN range(1, size(r) - 1) WHERE r[i].w >= r[i - 1].w)', ys: '[e IN r | e.w]' },
  // A pre-filter over two nodes inside the path, around a variable-length relationship.
  { middle: '-[:R]->(m)-[:R|S*1..2]-(n)<-[:S]-', where: 'm.k <> n.k', ys: '[m.i, n.i]' },
];

const selectors = [
  { text: 'SHORTEST 1', kind: 'shortest', k: 1 },
  { text: 'SHORTEST 3', kind: 'shortest', k: 3 },
  { text: 'ALL SHORTEST', kind: 'groups', k: 1 },
  { text: 'SHORTEST 2 GROUPS', kind: 'groups', k: 2 },
  { text: 'ANY 2', kind: 'any', k: 2 },
] as const;

describe('path selectors over paths of several parts, searched by length', () => {
  it('select what a selection over every match selects, on random graphs', async () => {
    const seed = testSeed('path-selector-parts');
    const r = prng(seed);
    await withDb(async (db) => {
      const n = 8;
      await randomGraph(db, r, n, 17);
      for (const shape of shapes) {
        for (let round = 0; round < 2; round++) {
          const params = { s: BigInt(Math.floor(r() * n)), t: BigInt(Math.floor(r() * n)) };
          const ends = [
            ['(a:V {i: $s})', '(b)'],
            ['(a:V {i: $s})', '(b:V {i: $t})'],
            ['(a:V)', '(b:V {i: $t})'],
          ] as const;
          for (const [from, to] of ends) {
            const body = `${from}${shape.middle}${to}`;
            const everything = `MATCH p = ${body}${shape.where !== undefined ? ` WHERE ${shape.where}` : ''} ${returned(shape.ys)}`;
            const all = matches((await db.query(everything, params)).rows);
            for (const sel of selectors) {
              const query = `MATCH p = ${sel.text} ${shape.where !== undefined ? `(${body} WHERE ${shape.where})` : body} ${returned(shape.ys)}`;
              const context = `seed ${seed}: ${query} with s=${params.s}, t=${params.t}`;
              expect(find(db.explain(query), 'SelectPaths'), `${context}: searched, not enumerated`).toBeUndefined();
              expect(find(db.explain(query), 'SearchPaths(All)') ?? find(db.explain(query), 'SearchPaths(Into)'), `${context}: SearchPaths`).toBeDefined();
              checkSelection(all, matches((await db.query(query, params)).rows), sel.kind, sel.k, context);
            }
          }
        }
      }
    });
  }, 180_000);

  it('shortestPath and allShortestPaths with a WHERE over the path keep the shortest paths that pass it, on random graphs', async () => {
    const seed = testSeed('shortest-path-where');
    const r = prng(seed);
    await withDb(async (db) => {
      const n = 8;
      await randomGraph(db, r, n, 17);
      const wheres = ['length(p) % 2 = 1', 'none(e IN relationships(p) WHERE e.w = 0)', 'any(v IN nodes(p) WHERE v.k = 1)', 'size(rs) >= 2'];
      for (const where of wheres) {
        for (let round = 0; round < 4; round++) {
          const params = { s: BigInt(Math.floor(r() * n)), t: BigInt(Math.floor(r() * n)) };
          const pattern = '(a:V {i: $s})-[rs:R|S*1..5]-(b:V {i: $t})';
          const all = matches((await db.query(`MATCH p = ${pattern} WHERE ${where} ${returned('[]')}`, params)).rows);
          for (const [fn, kind] of [
            ['shortestPath', 'shortest'],
            ['allShortestPaths', 'groups'],
          ] as const) {
            const query = `MATCH p = ${fn}(${pattern}) WHERE ${where} ${returned('[]')}`;
            checkSelection(all, matches((await db.query(query, params)).rows), kind, 1, `seed ${seed}: ${query} with s=${params.s}, t=${params.t}`);
          }
        }
      }
    });
  }, 120_000);

  it('a pre-filter the search cannot apply as it goes is applied to each whole path, and the search goes on past the paths it refuses', async () => {
    await withDb(async (db) => {
      // From s, one path of each length 1 to 4 into t: the direct one, and detours through a, b, c.
      await db.query(
        `CREATE (s:N {i: 0}), (t:N {i: 9}), (a:N {i: 1}), (b:N {i: 2}), (c:N {i: 3}),
                (s)-[:R]->(t), (s)-[:R]->(a), (a)-[:R]->(t), (a)-[:R]->(b), (b)-[:R]->(t), (b)-[:R]->(c), (c)-[:R]->(t)`,
      );
      const lengths = async (q: string): Promise<number[]> => (await db.query(q)).rows.map((row) => Number(row[0]));
      // Only the paths of even length pass; the shortest two that pass are of lengths 2 and 4.
      expect(await lengths('MATCH p = SHORTEST 2 ((s:N {i: 0}) ((x)-[:R]->(y))+ (t:N {i: 9}) WHERE length(p) % 2 = 0) RETURN length(p) ORDER BY length(p)')).toEqual([2, 4]);
      // As a post-filter (the MATCH's WHERE) the selection comes first: the two shortest are 1 and 2, and 2 is left.
      expect(await lengths('MATCH p = SHORTEST 2 (s:N {i: 0}) ((x)-[:R]->(y))+ (t:N {i: 9}) WHERE length(p) % 2 = 0 RETURN length(p)')).toEqual([2]);
      // A group variable as a pre-filter: the inner nodes all have i below 3.
      expect(await lengths('MATCH p = ALL SHORTEST ((s:N {i: 0})-[:R]->(m) ((x)-[:R]->(y))* (t:N {i: 9}) WHERE all(v IN [m] + y WHERE v.i < 3 OR v.i = 9) AND m.i < 9) RETURN length(p)')).toEqual([2]);
      // No path passes: nothing, after the search has run out of trails.
      expect(await lengths('MATCH p = SHORTEST 1 ((s:N {i: 0})-[:R]->(m) ((x)-[:R]->(y)){0,} (t:N {i: 9}) WHERE length(p) > 5) RETURN length(p)')).toEqual([]);
    });
  });

  it('answers on a dense graph whose trails are far too many to enumerate', async () => {
    const fixedAndQuantified = '(a:V {i: 0})-[:R]->(m) ((x)-[:R]->(y)){1,} (b:V {i: 1999})';
    // Every match is far too many trails: their enumeration meets the deadline.
    await withDb(
      async (db) => {
        await denseGraph(db);
        await expect(db.query(`MATCH p = ${fixedAndQuantified} RETURN count(*)`)).rejects.toMatchObject({ code: 'DEADLINE_EXCEEDED' });
      },
      { statement_timeout_ms: 2_000 },
    );
    await withDb(
      async (db) => {
        await denseGraph(db);
        const one = await db.query(`MATCH p = SHORTEST 1 ${fixedAndQuantified} RETURN length(p)`);
        expect(one.rows.length).toBe(1);
        const groups = await db.query(`MATCH p = SHORTEST 2 GROUPS ${fixedAndQuantified} RETURN length(p)`);
        const lengths = [...new Set(groups.rows.map((row) => Number(row[0])))];
        expect(lengths).toEqual([Number(one.rows[0]![0]), Number(one.rows[0]![0]) + 1]);
        // Two quantified parts, and a pre-filter on the path.
        const two = await db.query('MATCH p = ANY 3 (a:V {i: 5}) ((x)-[:R]->(y)){1,} (m) ((u)<-[:R]-(v)){1,} (b:V {i: 17}) RETURN length(p)');
        expect(two.rows.length).toBe(3);
        const odd = await db.query('MATCH p = SHORTEST 2 ((a:V {i: 0}) ((x)-[:R]->(y)){1,} (b:V {i: 1999}) WHERE length(p) % 2 = 1) RETURN length(p)');
        expect(odd.rows.map((row) => Number(row[0]) % 2)).toEqual([1, 1]);
        // To every node, through a fixed relationship first: each node once, at its shortest length.
        const everyEnd = await db.query('MATCH p = SHORTEST 1 (a:V {i: 0})-[:R]->(m) ((x)-[:R]->(y)){0,} (b:V) RETURN count(*)');
        expect(Number(everyEnd.rows[0]![0])).toBe(n);
      },
      { statement_timeout_ms: 30_000 },
    );
  }, 180_000);
});

const n = 2000;
const degree = 12;

/** Node i links to i + 1 and to `degree - 1` pseudo-random others: connected, with cycles everywhere. */
async function denseGraph(db: Db): Promise<void> {
  await db.query('UNWIND range(0, $n - 1) AS i CREATE (:V {i: i})', { n: BigInt(n) });
  await db.query(
    `MATCH (v:V) WITH v ORDER BY v.i WITH collect(v) AS vs
     UNWIND range(0, $n - 1) AS i UNWIND range(1, $d) AS j
     WITH vs[i] AS a, vs[CASE j WHEN 1 THEN (i + 1) % $n ELSE (i * 7919 + j * 104729) % $n END] AS b, j
     CREATE (a)-[:R {w: j % 4}]->(b)`,
    { n: BigInt(n), d: BigInt(degree) },
  );
}
