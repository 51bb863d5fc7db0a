import { describe, expect, it } from 'vitest';
import type { Value } from '../../../src/common/values/value.js';
import { SnapshotView } from '../../../src/projections/graph/view.js';
import { batchedRuns } from '../../../src/query/execute/batch/batch-aggregate.js';
import { withDb } from '../engine/support.js';

/**
 * Relationship properties in batched pipelines come from a column by edge id per type (GraphStore.edgeColumn),
 * built on demand and dropped when an edge of the type is written: after a write, a query reads the new values,
 * never the column built before it.
 */
describe('relationship property columns', () => {
  it('serve batched reads of a type, and are rebuilt after a write to the type', async () => {
    await withDb(async (db) => {
      await db.query('UNWIND range(0, 59) AS i CREATE (:P {i: i})');
      await db.query('MATCH (a:P), (b:P) WHERE b.i = (a.i * 7 + 3) % 60 CREATE (a)-[:K {w: a.i % 5}]->(b)');
      await db.query("MATCH (a:P), (b:P) WHERE b.i = (a.i + 1) % 60 CREATE (a)-[:L {w: 'x'}]->(b)");
      const query = 'MATCH (a:P)-[k:K]->(b:P) RETURN k.w AS w, count(*) AS n, sum(k.w) AS s ORDER BY w';
      const answer = async (): Promise<Value[][]> => (await db.query(query)).rows.map((r) => [...r]);
      // Repeated runs build the forms a batched run reads.
      for (let i = 0; i < 3; i++) await answer();
      const before = batchedRuns.count;
      expect(await answer()).toEqual([0n, 1n, 2n, 3n, 4n].map((w) => [w, 12n, w * 12n]));
      expect(batchedRuns.count - before).toBe(1);
      const view = db.database.latestCommitted() as SnapshotView;
      expect(view).toBeInstanceOf(SnapshotView);
      expect(view.edgeColumn('K', 'w', 0)?.filter((v) => v !== undefined)).toHaveLength(60);
      // Another type's relationships have no place in K's column.
      expect(view.edgeColumn('L', 'w', 1e9)?.filter((v) => v !== undefined)).toEqual(new Array(60).fill('x'));

      await db.query('MATCH (a:P {i: 0})-[k:K]->() SET k.w = 40');
      await db.query('MATCH (a:P {i: 1})-[k:K]->() DELETE k');
      for (let i = 0; i < 3; i++) await answer();
      const rows = await answer();
      expect(rows).toEqual([
        [0n, 11n, 0n],
        [1n, 11n, 11n],
        [2n, 12n, 24n],
        [3n, 12n, 36n],
        [4n, 12n, 48n],
        [40n, 1n, 40n],
      ]);
      const after = db.database.latestCommitted() as SnapshotView;
      expect(after.edgeColumn('K', 'w', 0)?.filter((v) => v !== undefined)).toHaveLength(59);
    });
  });

  it('feed several aggregates of one relationship property from one read per batch, grouped by the far end', async () => {
    await withDb(async (db) => {
      await db.query('UNWIND range(0, 59) AS i CREATE (:P {i: i})');
      await db.query('MATCH (a:P), (b:P) WHERE b.i = (a.i * 7 + 3) % 60 CREATE (a)-[:K {w: a.i % 5}]->(b)');
      const query = 'MATCH (a:P)-[k:K]->(b:P) RETURN b.i % 3 AS g, min(k.w) AS lo, max(k.w) AS hi, sum(k.w) AS s, avg(k.w) AS m, count(k.w) AS n ORDER BY g';
      // The same groups computed here: a's relationship goes to b = (7a + 3) % 60 with w = a % 5.
      const groups = new Map<number, number[]>();
      for (let a = 0; a < 60; a++) {
        const g = ((7 * a + 3) % 60) % 3;
        groups.set(g, [...(groups.get(g) ?? []), a % 5]);
      }
      const want = [...groups.entries()]
        .sort(([x], [y]) => x - y)
        .map(([g, ws]) => [BigInt(g), BigInt(Math.min(...ws)), BigInt(Math.max(...ws)), BigInt(ws.reduce((x, y) => x + y, 0)), ws.reduce((x, y) => x + y, 0) / ws.length, BigInt(ws.length)]);
      for (let i = 0; i < 3; i++) await db.query(query);
      const before = batchedRuns.count;
      expect((await db.query(query)).rows.map((r) => [...r])).toEqual(want);
      expect(batchedRuns.count - before).toBe(1);
    });
  });
});
