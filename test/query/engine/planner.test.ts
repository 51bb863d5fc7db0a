import { describe, expect, it } from 'vitest';
import { canonical, find, operators, withDb } from './support.js';

describe('planner choices', () => {
  it('a pattern starts at its most selective label and expands from there', async () => {
    await withDb(async (db) => {
      await db.query('UNWIND range(1, 200) AS i CREATE (:Big {i: i})');
      await db.query('UNWIND range(1, 3) AS i CREATE (:Small {i: i})');
      const plan = db.explain('MATCH (a:Big)-[:R]->(b:Small) RETURN a, b');
      expect(find(plan, 'NodeByLabelScan')?.details['pattern']).toBe('(b:Small)');
      expect(operators(plan)).toContain('Expand(All)');
    });
  });

  it('id(n) = $x becomes a lookup by id, and finds the node', async () => {
    await withDb(async (db) => {
      const created = await db.query("CREATE (n:P {name: 'x'}) RETURN id(n) AS id");
      const id = created.rows[0]![0]!;
      const text = 'MATCH (n:P) WHERE id(n) = $id RETURN n.name';
      expect(operators(db.explain(text))).toContain('NodeByIdSeek');
      expect(operators(db.explain(text))).not.toContain('NodeByLabelScan');
      expect((await db.query(text, { id })).rows).toEqual([['x']]);
      expect(operators(db.explain('MATCH (n) WHERE id(n) IN [1, 2] RETURN n'))).toContain('NodeByIdSeek');
      const eid = (await db.query('MATCH (n:P) RETURN elementId(n)')).rows[0]![0]!;
      const byElement = 'MATCH (n) WHERE elementId(n) = $e RETURN n.name';
      expect(operators(db.explain(byElement))).toContain('NodeByElementIdSeek');
      expect((await db.query(byElement, { e: eid })).rows).toEqual([['x']]);
      expect((await db.query(byElement, { e: 'not-an-element-id' })).rows).toEqual([]);
    });
  });

  it('property equalities are checked inside the label scan, other predicates right above it', async () => {
    await withDb(async (db) => {
      const plan = db.explain("MATCH (p:Person)-[:KNOWS]->(f) WHERE p.city = 'Oslo' AND p.age > 30 AND f.age < 20 RETURN f");
      const scan = find(plan, 'NodeByLabelScan');
      expect(scan?.details['predicate']).toBe("p.city = 'Oslo'");
      // p.age > 30 sits between the scan and the expand; f.age < 20 after the expand.
      const expand = find(plan, 'Expand(All)')!;
      expect(expand.children[0]?.operator).toBe('Filter');
      expect(expand.children[0]?.details['predicate']).toBe('p.age > 30');
      expect(find(plan, 'Filter')?.details['predicate']).toBe('f.age < 20');
    });
  });

  it('a WHERE label test turns a scan of every node into a label scan', async () => {
    await withDb(async (db) => {
      const plan = db.explain('MATCH (n) WHERE n:Person AND n.age = 3 RETURN n');
      expect(find(plan, 'NodeByLabelScan')?.details).toMatchObject({ pattern: '(n:Person)', predicate: 'n.age = 3' });
      expect(operators(plan)).not.toContain('AllNodesScan');
    });
  });

  it('ORDER BY with LIMIT keeps a top-k instead of sorting everything', async () => {
    await withDb(async (db) => {
      const plan = db.explain('MATCH (n) RETURN n.x AS x ORDER BY x DESC SKIP 2 LIMIT 3');
      expect(operators(plan)).toEqual(expect.arrayContaining(['Limit', 'Skip', 'Top']));
      expect(operators(plan)).not.toContain('Sort');
      await db.query('UNWIND range(1, 500) AS i CREATE ({x: i % 97})');
      const rows = (await db.query('MATCH (n) RETURN n.x AS x ORDER BY x DESC SKIP 2 LIMIT 3')).rows;
      // 96 occurs five times among 1..500 mod 97.
      expect(rows).toEqual([[96n], [96n], [96n]]);
      const all = (await db.query('MATCH (n) RETURN n.x AS x ORDER BY x DESC')).rows;
      expect(rows).toEqual(all.slice(2, 5));
    });
  });

  it('two paths meeting at a busy node are joined by hash when both ends are selective', async () => {
    await withDb(async (db) => {
      // Every Spoke is attached to all 20 Hubs: expanding back out of a hub would visit 100 spokes.
      await db.query('UNWIND range(1, 20) AS h CREATE (:Hub {h: h})');
      await db.query('UNWIND range(1, 100) AS i CREATE (:Spoke {k: i % 30})');
      await db.query('MATCH (s:Spoke), (h:Hub) CREATE (s)-[:AT]->(h)');
      const text = 'MATCH (a:Spoke {k: 1})-[:AT]->(h), (b:Spoke {k: 2})-[:AT]->(h) RETURN a.k AS ak, h.h AS hub, b.k AS bk';
      const plan = db.explain(text);
      expect(operators(plan)).toContain('NodeHashJoin');
      const rows = (await db.query(text)).rows;
      // Four spokes have k = 1 and four k = 2; each pair meets at every hub.
      expect(rows).toHaveLength(4 * 4 * 20);
      for (const [ak, , bk] of rows) expect([ak, bk]).toEqual([1n, 2n]);
    });
  });

  it('updating clauses are fenced by eager barriers, so a scan never sees the nodes it creates', async () => {
    await withDb(async (db) => {
      await db.query('UNWIND range(1, 5) AS i CREATE (:N)');
      expect(operators(db.explain('MATCH (n:N) CREATE (:N)'))).toContain('Eager');
      const r = await db.query('MATCH (n:N) CREATE (:N) WITH count(*) AS c MATCH (m:N) RETURN c, count(m)');
      expect(canonical(r.rows)).toEqual(canonical([[5n, 10n]]));
    });
  });
});
