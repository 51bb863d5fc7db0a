import { describe, expect, it } from 'vitest';
import type { Value } from '../../src/common/values/value.js';
import type { CypherCall } from '../../src/api/query-service.js';
import { Database } from '../../src/server/database.js';
import { cypherCall } from '../support/cypher-call.js';
import { countLabel, withRunner } from '../support/runner-db.js';
import { failure } from '../support/failure.js';

/**
 * Auto-committed write statements run in time slices on a snapshot of their own: other writes commit
 * during their pauses, a cancelled or late one proposes nothing, and one that read what another wrote
 * meanwhile is refused whole, as a transaction's commit would be.
 */
const nodes = 50_000;

const call = (text: string, params: Record<string, Value> = {}, extra: Partial<CypherCall> = {}): CypherCall =>
  cypherCall(text, params, { memory_limit_bytes: 512 * 1024 * 1024, ...extra });



/** Turns of the event loop until `db` applied an entry after `index`, or `settled` says the statement ended. */
async function untilApplied(db: Database, index: number, settled: () => boolean): Promise<void> {
  while (db.sm.appliedIndex === index && !settled()) await new Promise((resolve) => setImmediate(resolve));
}

describe('sliced auto-committed writes', () => {
  it('a large CREATE pauses while a point write commits, and both are applied', async () => {
    await withRunner('sliced-writes', async (db, runner) => {
      const big = runner.autoCommit(call('UNWIND range(1, $n) AS i CREATE (:Big {i: i})', { n: BigInt(nodes) }), db.latestCommitted());
      let settled = false;
      void big.finally(() => (settled = true));
      const applied = db.sm.appliedIndex;
      const point = runner.autoCommit(call('CREATE (:Point) RETURN 1'), db.latestCommitted());
      await untilApplied(db, applied, () => settled);
      // The point write was applied while the large one was still running.
      expect(settled).toBe(false);
      await point;
      expect((await big).stats.nodes_created).toBe(nodes);
      expect(await countLabel(db, runner, 'Big')).toBe(BigInt(nodes));
      expect(await countLabel(db, runner, 'Point')).toBe(1n);
    });
  });

  it('a paused write that read a node another write changed meanwhile is refused whole and run again on the new state: no lost update', async () => {
    await withRunner('sliced-writes', async (db, runner) => {
      await runner.autoCommit(call('CREATE (:Account {k: 1, v: 0})'), db.latestCommitted());
      const reading = runner.autoCommit(
        call('MATCH (a:Account {k: 1}) UNWIND range(1, $n) AS i CREATE (:Entry {i: i}) WITH a, count(*) AS c SET a.v = a.v + c', { n: BigInt(nodes) }),
        db.latestCommitted(),
      );
      const settled = { now: false };
      void reading.finally(() => (settled.now = true));
      // Let it take its snapshot and pause first.
      await new Promise((resolve) => setTimeout(resolve, 20));
      const applied = db.sm.appliedIndex;
      const other = runner.autoCommit(call('MATCH (a:Account {k: 1}) SET a.v = -1'), db.latestCommitted());
      await untilApplied(db, applied, () => settled.now);
      expect(settled.now).toBe(false);
      await other;
      const out = await reading;
      expect(out.stats.nodes_created).toBe(nodes);
      // The first run (which read v = 0) applied nothing: one set of entries, and the re-run read -1.
      expect(await countLabel(db, runner, 'Entry')).toBe(BigInt(nodes));
      const v = await runner.autoCommit(call('MATCH (a:Account) RETURN a.v'), db.latestCommitted());
      expect(v.rows[0]).toEqual([BigInt(nodes) - 1n]);
    });
  });

  it('the refusal itself: a paused sliced write that read a node written meanwhile is refused ABORTED / TRANSACTION_CONFLICT with nothing applied', async () => {
    await withRunner('sliced-writes', async (db, runner) => {
      await runner.autoCommit(call('CREATE (:Account {k: 1, v: 0})'), db.latestCommitted());
      const id = (await runner.autoCommit(call('MATCH (a:Account) RETURN id(a)'), db.latestCommitted())).rows[0]![0] as bigint;
      const paused = db.writeSliced(async (ws) => {
        ws.node(Number(id));
        await new Promise((resolve) => setTimeout(resolve, 20));
        ws.createNode(['Entry'], new Map());
        return 0;
      }, { concern: call("RETURN 1").concern });
      const outcome = failure(paused);
      await new Promise((resolve) => setTimeout(resolve, 5));
      await runner.autoCommit(call('MATCH (a:Account {k: 1}) SET a.v = -1'), db.latestCommitted());
      const e = await outcome;
      expect(e.code).toBe('ABORTED');
      expect(e.reason).toBe('TRANSACTION_CONFLICT');
      expect(await countLabel(db, runner, 'Entry')).toBe(0n);
    });
  });

  it('a paused MERGE that found no node while another write created one is run again: no duplicate', async () => {
    await withRunner('sliced-writes', async (db, runner) => {
      const merging = runner.autoCommit(
        call("MERGE (u:User {name: 'ada'}) WITH u UNWIND range(1, $n) AS i CREATE (:Entry {i: i})", { n: BigInt(nodes) }),
        db.latestCommitted(),
      );
      const settled = { now: false };
      void merging.finally(() => (settled.now = true));
      await new Promise((resolve) => setTimeout(resolve, 20));
      await runner.autoCommit(call("CREATE (:User {name: 'ada'})"), db.latestCommitted());
      expect(settled.now).toBe(false);
      await merging;
      expect(await countLabel(db, runner, 'User')).toBe(1n);
      expect(await countLabel(db, runner, 'Entry')).toBe(BigInt(nodes));
    });
  });

  it('a paused write that other writes overtook, but that read nothing they wrote, commits', async () => {
    await withRunner('sliced-writes', async (db, runner) => {
      await runner.autoCommit(call('CREATE (:Account {k: 1}), (:Ledger {k: 2})'), db.latestCommitted());
      const writing = runner.autoCommit(
        call('MATCH (a:Account {k: 1}) UNWIND range(1, $n) AS i CREATE (:Entry {i: i}) WITH a, count(*) AS c SET a.v = c', { n: BigInt(nodes) }),
        db.latestCommitted(),
      );
      let settled = false;
      void writing.finally(() => (settled = true));
      await new Promise((resolve) => setTimeout(resolve, 20));
      await runner.autoCommit(call('MATCH (l:Ledger) SET l.v = -1'), db.latestCommitted());
      expect(settled).toBe(false);
      await writing;
      expect(await countLabel(db, runner, 'Entry')).toBe(BigInt(nodes));
      const v = await runner.autoCommit(call('MATCH (a:Account), (l:Ledger) RETURN a.v, l.v'), db.latestCommitted());
      expect(v.rows).toEqual([[BigInt(nodes), -1n]]);
    });
  });

  it('a write whose call is cancelled while it is paused ends CANCELLED and applies nothing', async () => {
    await withRunner('sliced-writes', async (db, runner) => {
      const client = new AbortController();
      const writing = runner.autoCommit(call('UNWIND range(1, $n) AS i CREATE (:Gone {i: i})', { n: 10_000_000n }, { signal: client.signal }), db.latestCommitted());
      const outcome = failure(writing);
      await new Promise((resolve) => setTimeout(resolve, 20));
      client.abort();
      expect((await outcome).code).toBe('CANCELLED');
      expect(await countLabel(db, runner, 'Gone')).toBe(0n);
    });
  });

  it('a write past its deadline ends DEADLINE_EXCEEDED and applies nothing', async () => {
    await withRunner('sliced-writes', async (db, runner) => {
      const writing = runner.autoCommit(call('UNWIND range(1, $n) AS i CREATE (:Late {i: i})', { n: 10_000_000n }, { deadline_ms: Date.now() + 50 }), db.latestCommitted());
      expect((await failure(writing)).code).toBe('DEADLINE_EXCEEDED');
      expect(await countLabel(db, runner, 'Late')).toBe(0n);
    });
  });
});
