import { describe, expect, it } from 'vitest';
import type { BatchCommits } from '../../src/query/execute/context.js';
import { QueryEngine, type ExecuteContext, type QueryResult } from '../../src/query/engine.js';
import type { Database } from '../../src/server/database.js';
import { cypherCall } from '../support/cypher-call.js';
import { countLabel, withRunner } from '../support/runner-db.js';

/**
 * `IN [n] CONCURRENT TRANSACTIONS` on the server's batch path: a batch is proposed (its entry pending on
 * the leader) and the next batch runs while it commits, up to n in flight; the rows still pass on in
 * the order of the batches. The database's real BatchCommits is wrapped to log each proposal and each
 * commit, and to hold every commit back until `open_after` proposals were made, so the overlap shows.
 */
async function run(db: Database, text: string, open_after: number): Promise<{ result: QueryResult; events: string[] }> {
  const engine = new QueryEngine();
  const prepared = engine.prepare(text);
  const events: string[] = [];
  let proposals = 0;
  let open = (): void => {};
  const gate = new Promise<void>((resolve) => (open = resolve));
  if (open_after <= 1) open();
  const ctx: ExecuteContext = { params: new Map(), memory_limit_bytes: 64 << 20, now_us: Date.now() * 1000, writes_private: true };
  const { value } = await db.writeInBatches(
    (ws, real) => {
      const batches: BatchCommits = {
        ...real,
        propose: async () => {
          const p = await real.propose();
          const n = ++proposals;
          events.push(`propose ${n}`);
          if (n >= open_after) open();
          const committed = p.committed.then(async (index) => {
            await gate;
            events.push(`commit ${n}`);
            return index;
          });
          return { index: p.index, committed };
        },
      };
      return engine.executeSliced(prepared, ws, { ...ctx, batches });
    },
    { concern: cypherCall('').concern },
  );
  return { result: value, events };
}

describe('IN CONCURRENT TRANSACTIONS on the write path', () => {
  it('IN 3 CONCURRENT: three batches are proposed before the first commits, and the rows keep the batches order', async () => {
    await withRunner('concurrent', async (db, runner) => {
      const { result, events } = await run(
        db,
        'UNWIND range(1, 10) AS i CALL (i) { CREATE (n:Row {i: i}) RETURN n.i AS got } IN 3 CONCURRENT TRANSACTIONS OF 2 ROWS REPORT STATUS AS s ON ERROR CONTINUE RETURN got, s.committed',
        3,
      );
      expect(events.slice(0, 4)).toEqual(['propose 1', 'propose 2', 'propose 3', 'commit 1']);
      // Never more than three in flight: the fourth proposal waits for the first commit.
      expect(events.indexOf('propose 4')).toBeGreaterThan(events.indexOf('commit 1'));
      expect(result.rows).toEqual(Array.from({ length: 10 }, (_, k) => [BigInt(k + 1), true]));
      expect(await countLabel(db, runner, 'Row')).toBe(10n);
    });
  });

  it('a later batch reads what an earlier one wrote while that one is still committing', async () => {
    await withRunner('concurrent', async (db) => {
      const { result } = await run(
        db,
        'UNWIND range(1, 4) AS i CALL (i) { MERGE (c:Counter) ON CREATE SET c.n = 1 ON MATCH SET c.n = c.n + 1 RETURN c.n AS seen } IN 4 CONCURRENT TRANSACTIONS OF 1 ROW RETURN i, seen',
        4,
      );
      expect(result.rows).toEqual([
        [1n, 1n],
        [2n, 2n],
        [3n, 3n],
        [4n, 4n],
      ]);
    });
  });

  it('without CONCURRENT each batch commits before the next is proposed', async () => {
    await withRunner('concurrent', async (db) => {
      const { events } = await run(db, 'UNWIND range(1, 6) AS i CALL (i) { CREATE (:Row {i: i}) } IN TRANSACTIONS OF 2 ROWS', 1);
      expect(events).toEqual(['propose 1', 'commit 1', 'propose 2', 'commit 2', 'propose 3', 'commit 3']);
    });
  });

  it('a failed batch passes on after the batches in flight before it, and ON ERROR BREAK stops the later ones', async () => {
    await withRunner('concurrent', async (db, runner) => {
      const { result } = await run(
        db,
        'UNWIND [1, 2, 3, 0, 5, 6] AS i CALL (i) { CREATE (n:Row {v: 60 / i}) RETURN n.v AS v } IN 3 CONCURRENT TRANSACTIONS OF 1 ROW ON ERROR BREAK REPORT STATUS AS s RETURN i, v, s.started, s.committed',
        3,
      );
      expect(result.rows).toEqual([
        [1n, 60n, true, true],
        [2n, 30n, true, true],
        [3n, 20n, true, true],
        [0n, null, true, false],
        [5n, null, false, false],
        [6n, null, false, false],
      ]);
      expect(await countLabel(db, runner, 'Row')).toBe(3n);
    });
  });
});
