import { describe, expect, it } from 'vitest';
import { prng, testSeed } from '../../support/prng.js';
import { checkSelection, matches, randomGraph, returned } from './path-selection-check.js';
import { find, withDb } from './support.js';

/**
 * A path selector over a quantified path pattern, or over a variable-length relationship the
 * bidirectional search does not take (SHORTEST k > 1, groups, a lower bound above 1), searches breadth
 * first by length and selects as it goes (SearchRepeat in EXPLAIN). Checked against the selection made here over every match of the same
 * pattern without a selector, on seeded random graphs: SHORTEST k GROUPS and ALL SHORTEST keep exactly
 * the paths of the k smallest lengths of each partition; SHORTEST k keeps the k smallest lengths (which
 * of the paths tied at the last length is free) and ANY k keeps min(k, matches) paths, all of them
 * matches, with their group variables.
 */

describe('path selectors over quantified path patterns, searched by length', () => {
  it('select what a selection over every match selects, on random graphs', async () => {
    const seed = testSeed('path-selector-search');
    const r = prng(seed);
    await withDb(async (db) => {
      const n = 8;
      await randomGraph(db, r, n, 17);
      const groups = '[v IN y | v.i]';
      const patterns = [
        // Two hops an iteration, a WHERE inside, a bounded quantifier.
        { inner: ' ((x)-[r:R|S]->(y:V)-[s]->(z) WHERE r.w <> s.w)', range: '{1,3} ', ys: groups },
        // Undirected hops, from zero iterations, no upper bound.
        { inner: ' ((x)-[r]-(y) WHERE r.w > 0)', range: '{0,} ', ys: groups },
        // A label expression and a WHERE on an inner node.
        { inner: ' ((x:V)-[:R]->(y WHERE y.k <> x.k))', range: '+ ', ys: groups },
        // Variable-length and quantified relationships, searched as the one-hop pattern they equal.
        { inner: '-[:R|S]->', range: '{2,6} ', ys: '[]' },
        { inner: '-[:R*1..4 {w: 1}]->', range: '', ys: '[]' },
      ];
      const selectors = [
        { text: 'SHORTEST 1', kind: 'shortest', k: 1 },
        { text: 'SHORTEST 3', kind: 'shortest', k: 3 },
        { text: 'ALL SHORTEST', kind: 'groups', k: 1 },
        { text: 'SHORTEST 2 GROUPS', kind: 'groups', k: 2 },
        { text: 'ANY 2', kind: 'any', k: 2 },
      ] as const;
      let searched = 0;
      for (const { inner, range, ys } of patterns) {
        for (let round = 0; round < 3; round++) {
          const s = BigInt(Math.floor(r() * n));
          const t = BigInt(Math.floor(r() * n));
          // From one node to every node, to one node (a search into it), and from every node to one node (a search leftwards).
          const ends = [
            ['(a:V {i: $s})', '(b)'],
            ['(a:V {i: $s})', '(b:V {i: $t})'],
            ['(a:V)', '(b:V {i: $t})'],
          ] as const;
          for (const [from, to] of ends) {
            const pattern = `${from}${inner}${range}${to}`;
            const params = { s, t };
            const all = matches((await db.query(`MATCH p = ${pattern} ${returned(ys)}`, params)).rows);
            for (const sel of selectors) {
              const query = `MATCH p = ${sel.text} ${pattern} ${returned(ys)}`;
              // Searched (by length, or bidirectionally), never every match then selected.
              if (find(db.explain(query), 'SelectPaths') === undefined) searched++;
              const got = matches((await db.query(query, params)).rows);
              checkSelection(all, got, sel.kind, sel.k, `seed ${seed}: ${query} with s=${s}, t=${t}`);
            }
          }
        }
      }
      expect(searched).toBe(patterns.length * 3 * 3 * selectors.length);
    });
  }, 120_000);

  it('a count given as a parameter, pre-filters on the far end and a post-filter on the path', async () => {
    await withDb(async (db) => {
      await db.query(
        `CREATE (a:S {i: 0})-[:R]->(b:M {i: 1})-[:R]->(c:M {i: 2})-[:R]->(d:T {i: 3}),
                (a)-[:R]->(e:M {i: 4})-[:R]->(d), (d)-[:R]->(f:T {i: 5}), (a)-[:R]->(f)`,
      );
      const rows = async (q: string, params: Record<string, bigint> = {}): Promise<unknown[][]> =>
        JSON.parse(JSON.stringify((await db.query(q, params)).rows, (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v))) as unknown[][];
      // The far end's label filters before the selection: the shortest path to a T node.
      expect(await rows('MATCH p = SHORTEST $k (a:S) ((x)-[:R]->(y)){1,} (b:T) RETURN b.i, length(p) ORDER BY b.i, length(p)', { k: 2n })).toEqual([
        [3, 2],
        [3, 3],
        [5, 1],
        [5, 3],
      ]);
      // The MATCH's WHERE filters after it: the shortest path to f is length 1, so none of length 3 is left.
      expect(await rows('MATCH p = SHORTEST 1 (a:S) ((x)-[:R]->(y)){1,} (b:T) WHERE length(p) > 2 RETURN b.i')).toEqual([]);
      // Group variables come out in pattern order, for a search that goes leftwards from the rarer end too.
      expect(await rows('MATCH p = ALL SHORTEST (a:M) ((x)-[:R]->(y)){1,} (b:T {i: 5}) RETURN a.i, [n IN y | n.i] ORDER BY a.i')).toEqual([
        [1, [2, 3, 5]],
        [2, [3, 5]],
        [4, [3, 5]],
      ]);
      await expect(db.query('MATCH p = SHORTEST $k (a:S) ((x)-[:R]->(y)){1,} (b:T) RETURN p', { k: 0n })).rejects.toThrow(/INTEGER from 1/);
    });
  });

  it('answers on a dense graph whose trails are far too many to enumerate', async () => {
    await withDb(async (db) => {
      const n = 2000;
      const degree = 12;
      await db.query('UNWIND range(0, $n - 1) AS i CREATE (:V {i: i})', { n: BigInt(n) });
      // Node i links to i + 1 and to `degree - 1` pseudo-random others: connected, with cycles everywhere.
      await db.query(
        `MATCH (a:V) UNWIND range(1, $d) AS j
         MATCH (b:V {i: CASE j WHEN 1 THEN (a.i + 1) % $n ELSE (a.i * 7919 + j * 104729) % $n END})
         CREATE (a)-[:R {w: j % 4}]->(b)`,
        { n: BigInt(n), d: BigInt(degree) },
      );
      const one = await db.query('MATCH p = SHORTEST 1 (a:V {i: 0}) ((x)-[r:R]->(y)-[s:R]->(z) WHERE r.w <> s.w){1,} (b:V {i: 1999}) RETURN length(p)');
      expect(one.rows.length).toBe(1);
      const groups = await db.query('MATCH p = SHORTEST 2 GROUPS (a:V {i: 0}) ((x)-[r:R]->(y)-[s:R]->(z) WHERE r.w <> s.w){1,} (b:V {i: 1999}) RETURN length(p)');
      const lengths = [...new Set(groups.rows.map((row) => Number(row[0])))];
      expect(lengths.length).toBe(2);
      expect(lengths[0]).toBe(Number(one.rows[0]![0]));
      const any = await db.query('MATCH p = ANY 3 (a:V {i: 5}) ((x)-[:R]->(y)){2,} (b:V {i: 17}) RETURN length(p)');
      expect(any.rows.length).toBe(3);
      // A quantified relationship beyond what the bidirectional search selects (k above 1) is searched by length too.
      const three = await db.query('MATCH p = SHORTEST 3 (a:V {i: 0})-[:R]->+(b:V {i: 1999}) RETURN length(p)');
      expect(three.rows.length).toBe(3);
      // Every node is reached from node 0 (the ring), each at its shortest length.
      const everyEnd = await db.query('MATCH p = SHORTEST 1 (a:V {i: 0}) ((x)-[:R]->(y)){1,} (b:V) RETURN count(*), max(length(p))');
      expect(Number(everyEnd.rows[0]![0])).toBe(n);
    }, { statement_timeout_ms: 30_000 });
  }, 120_000);
});
