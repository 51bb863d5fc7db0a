import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Value } from '../../src/common/values/value.js';
import type { CypherCall } from '../../src/api/query-service.js';
import { WriteSet } from '../../src/projections/graph/write-set.js';
import { QueryEngine, type ExecuteContext } from '../../src/query/engine.js';
import { Database } from '../../src/server/database.js';
import { open } from '../../src/index.js';
import { cypherCall } from '../support/cypher-call.js';
import { countLabel, withRunner } from '../support/runner-db.js';
import { failure } from '../support/failure.js';

/**
 * `CALL { } IN TRANSACTIONS` on the server's write path: each batch is a log entry of its own,
 * committed while the statement runs, so other writes land between batches, a later failure leaves
 * the earlier batches committed, and a constraint refusal at commit is one batch's error. Inside an
 * explicit transaction it is refused as Neo4j refuses it.
 */
const call = (text: string, params: Record<string, Value> = {}, extra: Partial<CypherCall> = {}): CypherCall =>
  cypherCall(text, params, { memory_limit_bytes: 256 * 1024 * 1024, ...extra });



/** The graph writes of the log after `from`, by how many nodes each creates. */
function createdPerEntry(db: Database, from: number): number[] {
  const out: number[] = [];
  for (let i = from + 1; i <= db.sm.appliedIndex; i++) {
    const event = db.readEntry(i).event;
    if (event.kind === 'graph_write') out.push(event.ops.filter((op) => op.op === 'create_node').length);
  }
  return out;
}

describe('CALL { } IN TRANSACTIONS on the write path', () => {
  it('25 rows in batches of 10 are three log entries of 10, 10 and 5 nodes', async () => {
    await withRunner('in-transactions', async (db, runner) => {
      const before = db.sm.appliedIndex;
      const out = await runner.autoCommit(call('UNWIND range(1, 25) AS i CALL (i) { CREATE (:Row {i: i}) } IN TRANSACTIONS OF 10 ROWS'), db.latestCommitted());
      expect(out.stats.nodes_created).toBe(25);
      expect(createdPerEntry(db, before)).toEqual([10, 10, 5]);
      expect(out.commit_ts).toBe(db.sm.clock.tsOf(db.sm.appliedIndex));
    });
  });

  it('a body that only reads runs as a read: batches and statuses, and no entry', async () => {
    await withRunner('in-transactions', async (db, runner) => {
      await runner.autoCommit(call('UNWIND range(1, 4) AS i CREATE (:N {i: i})'), db.latestCommitted());
      const before = db.sm.appliedIndex;
      const out = await runner.autoCommit(
        call('UNWIND [1, 3] AS k CALL (k) { MATCH (n:N) WHERE n.i >= k RETURN count(n) AS c } IN TRANSACTIONS OF 1 ROW ON ERROR CONTINUE REPORT STATUS AS s RETURN k, c, s.committed'),
        db.latestCommitted(),
      );
      expect(out.rows).toEqual([
        [1n, 4n, true],
        [3n, 2n, true],
      ]);
      expect(db.sm.appliedIndex).toBe(before);
    });
  });

  it('ON ERROR FAIL: the statement fails, and the batches committed before the failing one stay', async () => {
    await withRunner('in-transactions', async (db, runner) => {
      const e = await failure(runner.autoCommit(call('UNWIND [1, 2, 3, 0, 5] AS i CALL (i) { CREATE (:Row {v: 10 / i}) } IN TRANSACTIONS OF 2 ROWS'), db.latestCommitted()));
      expect(e.reason).toBe('ArithmeticError');
      // Batches [1, 2] committed; [3, 0] failed and was rolled back whole; [5] never ran.
      expect(await countLabel(db, runner, 'Row')).toBe(2n);
    });
  });

  it('other writes commit between the batches of a long statement', async () => {
    await withRunner('in-transactions', async (db, runner) => {
      const before = db.sm.appliedIndex;
      const big = runner.autoCommit(call('UNWIND range(1, 5000) AS i CALL (i) { CREATE (:Big {i: i}) } IN TRANSACTIONS OF 500 ROWS'), db.latestCommitted());
      let settled = false;
      void big.finally(() => (settled = true));
      // Wait until the first batch has been proposed, then write.
      while (createdPerEntry(db, before).length === 0 && !settled) await new Promise((resolve) => setImmediate(resolve));
      await runner.autoCommit(call('CREATE (:Point)'), db.latestCommitted());
      expect(settled).toBe(false);
      expect((await big).stats.nodes_created).toBe(5000);
      expect(await countLabel(db, runner, 'Big')).toBe(5000n);
      const kinds = createdPerEntry(db, before);
      // The point write's entry sits between two batches of the big statement.
      expect(kinds.indexOf(1)).toBeGreaterThan(0);
      expect(kinds.indexOf(1)).toBeLessThan(kinds.length - 1);
    });
  });

  it('a batch that another write overtook during its pauses is rolled back and run again by itself: no lost update', async () => {
    await withRunner('in-transactions', async (db, runner) => {
      await runner.autoCommit(call('CREATE (:Counter {n: 0})'), db.latestCommitted());
      const engine = new QueryEngine();
      const prepared = engine.prepare('UNWIND range(1, 50) AS i CALL (i) { MATCH (c:Counter) SET c.n = c.n + 1 } IN TRANSACTIONS OF 50 ROWS');
      // Every row pauses (a slice of 0 ms, the clock read at every row), so the one batch spans many turns.
      const ctx: ExecuteContext = { params: new Map(), memory_limit_bytes: 64 << 20, now_us: Date.now() * 1000, slice_ms: 0, clock_check_rows: 1, writes_private: true };
      const before = db.sm.appliedIndex;
      const batched = db.writeInBatches((ws, batches) => engine.executeSliced(prepared, ws, { ...ctx, batches }), { concern: call('').concern });
      await runner.autoCommit(call('MATCH (c:Counter) SET c.n = 100'), db.latestCommitted());
      const { value } = await batched;
      // The first run read n = 0 and was refused at its commit; the second read 100.
      expect((await runner.autoCommit(call('MATCH (c:Counter) RETURN c.n'), db.latestCommitted())).rows).toEqual([[150n]]);
      expect(value.stats.properties_set).toBe(50);
      // One entry for the point write, one for the batch: the refused run proposed nothing.
      expect(createdPerEntry(db, before)).toHaveLength(2);
    });
  });

  it('inside an explicit transaction it is refused with Neo4j error, and writes nothing', async () => {
    await withRunner('in-transactions', async (db, runner) => {
      let next = 1_000_000;
      const ws = new WriteSet(db.latestCommitted(), { nodeId: () => next++, edgeId: () => next++ }, true);
      const text = 'UNWIND [1, 2] AS i CALL (i) { CREATE (:Row {i: i}) } IN TRANSACTIONS';
      for (const run of [() => Promise.resolve().then(() => runner.inTransaction(call(text), ws)), () => runner.inTransactionSliced(call(text), ws)]) {
        const e = await failure(run());
        expect(e.code).toBe('FAILED_PRECONDITION');
        expect(e.reason).toBe('IMPLICIT_TRANSACTION_REQUIRED');
        expect(e.message).toContain('can only be executed in an implicit transaction');
        expect(e.metadata).toMatchObject({ neo4j_code: 'Neo.DatabaseError.Transaction.TransactionStartFailed' });
      }
      expect(ws.ops()).toEqual([]);
    });
  });
});

describe('CALL { } IN TRANSACTIONS in the embedded API', () => {
  it('the batches committed before a failure are there after the database is opened again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-in-transactions-reopen-'));
    try {
      const first = await open(dir);
      await expect(first.query('UNWIND [1, 2, 3, 4, 0, 6] AS i CALL (i) { CREATE (:Row {v: 12 / i}) } IN TRANSACTIONS OF 2 ROWS')).rejects.toMatchObject({ reason: 'ArithmeticError' });
      await first.close();
      const again = await open(dir);
      try {
        expect((await again.query('MATCH (r:Row) RETURN r.v ORDER BY r.v')).rows).toEqual([[3n], [4n], [6n], [12n]]);
      } finally {
        await again.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a uniqueness refusal at commit is one batch error: ON ERROR CONTINUE reports it and goes on', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-in-transactions-embedded-'));
    const db = await open(dir);
    try {
      await db.query('CREATE CONSTRAINT tag_name FOR (t:Tag) REQUIRE t.name IS UNIQUE');
      const out = await db.query(
        `UNWIND ['a', 'b', 'a', 'c'] AS name
         CALL (name) { CREATE (:Tag {name: name}) } IN TRANSACTIONS OF 1 ROW ON ERROR CONTINUE REPORT STATUS AS s
         RETURN name, s.committed AS committed, s.errorMessage IS NULL AS clean`,
      );
      expect(out.rows).toEqual([
        ['a', true, true],
        ['b', true, true],
        ['a', false, false],
        ['c', true, true],
      ]);
      expect(out.stats.nodes_created).toBe(3);
      expect((await db.query('MATCH (t:Tag) RETURN count(t)')).rows).toEqual([[3n]]);
    } finally {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
