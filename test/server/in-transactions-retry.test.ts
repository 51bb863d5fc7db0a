import { describe, expect, it } from 'vitest';
import { aborted } from '../../src/common/errors.js';
import type { Value } from '../../src/common/values/value.js';
import type { BatchCommits } from '../../src/query/execute/context.js';
import { QueryEngine, type ExecuteContext, type QueryResult } from '../../src/query/engine.js';
import type { Database } from '../../src/server/database.js';
import { cypherCall } from '../support/cypher-call.js';
import { failure } from '../support/failure.js';
import { countLabel, withRunner } from '../support/runner-db.js';

/**
 * ON ERROR RETRY on the server's batch path. The batches commit through the database's real
 * BatchCommits; a wrapper makes the first `conflicts` proposals fail as a batch overtaken by another
 * write does (rolled back, ABORTED / TRANSACTION_CONFLICT), and stands in for the clock: each
 * back-off pause is recorded and moves a virtual clock on by its length, so the durations are exact.
 */
interface Script {
  /** Proposals refused with a conflict before the real ones go through. */
  conflicts: number;
  /** Every proposal asked for, refused or not. */
  commits: number;
  /** The back-off pauses, in ms. */
  readonly pauses: number[];
}

async function runWithConflicts(db: Database, text: string, conflicts: number, params: Record<string, Value> = {}): Promise<{ out: Promise<QueryResult>; script: Script }> {
  const engine = new QueryEngine();
  const prepared = engine.prepare(text);
  const script: Script = { conflicts, commits: 0, pauses: [] };
  let clock_ms = 1_000;
  const ctx: ExecuteContext = { params: new Map(Object.entries(params)), memory_limit_bytes: 64 << 20, now_us: Date.now() * 1000, writes_private: true };
  const out = db
    .writeInBatches(
      (ws, real) => {
        const batches: BatchCommits = {
          ...real,
          propose: async () => {
            script.commits++;
            if (script.conflicts > 0) {
              script.conflicts--;
              await real.rollback();
              throw aborted('node 1 was written after the snapshot; retry', 'TRANSACTION_CONFLICT');
            }
            return real.propose();
          },
          sleep: (ms) => {
            script.pauses.push(ms);
            clock_ms += ms;
            return Promise.resolve();
          },
          now: () => clock_ms,
        };
        return engine.executeSliced(prepared, ws, { ...ctx, batches });
      },
      { concern: cypherCall('').concern },
    )
    .then((r) => r.value);
  return { out, script };
}

describe('ON ERROR RETRY on the write path', () => {
  it('a batch overtaken five times is retried with doubling pauses and commits: no other mode would have got there', async () => {
    await withRunner('retry', async (db, runner) => {
      const { out, script } = await runWithConflicts(db, 'UNWIND range(1, 4) AS i CALL (i) { CREATE (:Row {i: i}) } IN TRANSACTIONS OF 4 ROWS ON ERROR RETRY THEN FAIL', 5);
      const result = await out;
      expect(script.commits).toBe(6);
      expect(script.pauses).toEqual([5, 10, 20, 40, 80]);
      expect(result.stats.nodes_created).toBe(4);
      expect(await countLabel(db, runner, 'Row')).toBe(4n);
    });
  });

  it('without RETRY a batch is tried three times, then the conflict is its error', async () => {
    await withRunner('retry', async (db, runner) => {
      const { out, script } = await runWithConflicts(
        db,
        'UNWIND range(1, 4) AS i CALL (i) { CREATE (:Row {i: i}) } IN TRANSACTIONS OF 2 ROWS ON ERROR CONTINUE REPORT STATUS AS s RETURN i, s.committed',
        5,
      );
      const result = await out;
      // Batch 1 takes the three tries and fails; batch 2 meets the last two conflicts and commits on its third.
      expect(script.commits).toBe(3 + 3);
      expect(script.pauses).toEqual([]);
      expect(result.rows).toEqual([
        [1n, false],
        [2n, false],
        [3n, true],
        [4n, true],
      ]);
      expect(await countLabel(db, runner, 'Row')).toBe(2n);
    });
  });

  it('RETRY FOR 0 SECONDS retries once, then falls back to THEN CONTINUE with the conflict as the error message', async () => {
    await withRunner('retry', async (db, runner) => {
      const { out, script } = await runWithConflicts(
        db,
        `UNWIND range(1, 4) AS i CALL (i) { CREATE (:Row {i: i}) } IN TRANSACTIONS OF 2 ROWS ON ERROR RETRY FOR 0 SECONDS
         REPORT STATUS AS s RETURN i, s.committed, s.errorMessage`,
        2,
      );
      const result = await out;
      expect(script.commits).toBe(2 + 1);
      expect(script.pauses).toEqual([0]);
      expect(result.rows.map((r) => r.slice(0, 2))).toEqual([
        [1n, false],
        [2n, false],
        [3n, true],
        [4n, true],
      ]);
      expect(String(result.rows[0]![2])).toContain('retry');
      expect(await countLabel(db, runner, 'Row')).toBe(2n);
    });
  });

  it('RETRY FOR a duration keeps retrying until the duration has passed since the first retry, the last pause cut short', async () => {
    await withRunner('retry', async (db) => {
      const { out, script } = await runWithConflicts(db, 'UNWIND [1] AS i CALL (i) { CREATE (:Row) } IN TRANSACTIONS ON ERROR RETRY FOR $d SECONDS THEN FAIL', 100, { d: 0.1 });
      const e = await failure(out);
      expect(e).toMatchObject({ code: 'ABORTED', reason: 'TRANSACTION_CONFLICT' });
      expect(script.pauses).toEqual([5, 10, 20, 40, 25]);
      expect(script.commits).toBe(6);
    });
  });

  it('an error that is not transient is not retried', async () => {
    await withRunner('retry', async (db, runner) => {
      const { out, script } = await runWithConflicts(
        db,
        'UNWIND [1, 0, 2] AS i CALL (i) { CREATE (:Row {v: 10 / i}) } IN TRANSACTIONS OF 1 ROW ON ERROR RETRY FOR 5 SECONDS THEN BREAK RETURN i',
        0,
      );
      const result = await out;
      expect(result.rows).toHaveLength(3);
      expect(script.pauses).toEqual([]);
      // The failed batch never reaches its commit: it is rolled back; BREAK runs nothing after it.
      expect(script.commits).toBe(1);
      expect(await countLabel(db, runner, 'Row')).toBe(1n);
    });
  });
});
