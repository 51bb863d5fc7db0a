import { describe, expect, it } from 'vitest';
import { find, operators, withDb } from './support.js';

/**
 * The Neo4j 5 clauses that run a body per row (CALL { }, FOREACH) and the quantified relationships,
 * seen from the plan and the log: what EXPLAIN shows, and that a statement holding them still commits
 * as one entry. Their answers are covered by the conformance scenarios (test/conformance/features).
 */
describe('CALL subqueries, FOREACH and quantified relationships in plans', () => {
  it('a CALL subquery is an Apply whose second child is the body, planned per row', async () => {
    await withDb(async (db) => {
      await db.query('UNWIND range(1, 20) AS i CREATE (:Item {i: i})');
      const plan = db.explain('MATCH (n:Item) CALL (n) { MATCH (m:Item) WHERE m.i < n.i RETURN count(m) AS below } RETURN n.i, below');
      const apply = find(plan, 'Apply');
      expect(apply).toBeDefined();
      expect(apply!.details['returns']).toBe('below');
      expect(apply!.details['imports']).toBe('n');
      expect(apply!.children).toHaveLength(2);
      expect(operators(apply!.children[0]!)).toContain('NodeByLabelScan');
      expect(operators(apply!.children[1]!)).toEqual(expect.arrayContaining(['Aggregation', 'Filter', 'NodeByLabelScan']));
    });
  });

  it('OPTIONAL CALL, a unit subquery and FOREACH name their operators', async () => {
    await withDb(async (db) => {
      expect(find(db.explain('UNWIND [1] AS x OPTIONAL CALL (x) { MATCH (n) RETURN n } RETURN x, n'), 'OptionalApply')).toBeDefined();
      expect(find(db.explain('UNWIND [1, 2] AS x CALL (x) { CREATE (:T {x: x}) } RETURN x'), 'SubqueryForeach')).toBeDefined();
      const foreach = find(db.explain('FOREACH (x IN [1, 2] | CREATE (:T {x: x}))'), 'Foreach');
      expect(foreach).toBeDefined();
      expect(operators(foreach!.children[1]!)).toEqual(expect.arrayContaining(['Create', 'Unwind']));
    });
  });

  it('a quantified relationship is a variable-length expand', async () => {
    await withDb(async (db) => {
      const plan = db.explain('MATCH (a)-[:NEXT]->{1,3}(b) RETURN b');
      expect(find(plan, 'VarLengthExpand')?.details['pattern']).toContain('*1..3');
      const qpp = db.explain('MATCH (a) (()-[:NEXT]->())+ (b) RETURN b');
      expect(find(qpp, 'VarLengthExpand')?.details['pattern']).toContain('*1..');
    });
  });

  it('a statement whose subqueries and FOREACH write commits as one log entry', async () => {
    await withDb(async (db) => {
      const before = db.database.committedIndex;
      const result = await db.query('UNWIND range(1, 5) AS i CALL (i) { CREATE (:Row {i: i}) } FOREACH (j IN [i, -i] | CREATE (:Echo {j: j})) RETURN count(*) AS rows');
      expect(result.rows).toEqual([[5n]]);
      expect(result.stats.nodes_created).toBe(15);
      expect(db.database.committedIndex).toBe(before + 1);
      const counted = await db.query('MATCH (r:Row) WITH count(r) AS rows MATCH (e:Echo) RETURN rows, count(e) AS echoes');
      expect(counted.rows).toEqual([[5n, 10n]]);
    });
  });
});
