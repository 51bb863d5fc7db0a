import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Value } from '../../src/common/values/value.js';
import type { CypherCall } from '../../src/api/query-service.js';
import { CypherRunner } from '../../src/server/cypher-runner.js';
import { Database } from '../../src/server/database.js';
import { Transactions } from '../../src/server/transactions.js';
import { cypherCall } from '../support/cypher-call.js';
import { withRunner } from '../support/runner-db.js';

/**
 * A read that pauses between time slices keeps reading its snapshot while writes commit during its
 * pauses, even with no MVCC retention at all: the versions it reads stay pinned until it ends.
 */
const journaled = { acks: 1, level: 'journal', timeout_ms: 0 } as const;

/** Its statements may hold many rows at once (millions pass through the long read). */
const call = (text: string, params: Record<string, Value> = {}): CypherCall => cypherCall(text, params, { memory_limit_bytes: 256 * 1024 * 1024 });



describe('sliced reads over a moving graph', () => {
  it('a long read answers from its snapshot while every node it reads is changed and then deleted', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-sliced-reads-'));
    const db = await Database.open({ data_dir: dir, node_id: 1, mvcc_retention_secs: 0, checkpoint_interval_entries: 1_000_000, log_segment_bytes_max: 1 << 24 });
    const runner = new CypherRunner(db);
    try {
      const nodes = 5_000;
      const repeats = 400;
      await runner.autoCommit(call('UNWIND range(1, $n) AS i CREATE (:N {v: 1})', { n: BigInt(nodes) }), db.latestCommitted());
      // About two million rows: many slices, so the writes below commit while the read is paused.
      const read = runner.autoCommit(call('MATCH (n:N) UNWIND range(1, $r) AS i RETURN sum(n.v) AS total, count(*) AS rows', { r: BigInt(repeats) }), db.latestCommitted());
      let settled = false;
      void read.finally(() => (settled = true));
      await new Promise((resolve) => setImmediate(resolve));
      await runner.autoCommit(call('MATCH (n:N) SET n.v = 2'), db.latestCommitted());
      await runner.autoCommit(call('MATCH (n:N) DETACH DELETE n'), db.latestCommitted());
      // The writes committed while the read was still under way.
      expect(settled).toBe(false);
      const out = await read;
      expect(out.rows[0]).toEqual([BigInt(nodes * repeats), BigInt(nodes * repeats)]);
      const after = await runner.autoCommit(call('MATCH (n:N) RETURN count(n)'), db.latestCommitted());
      expect(after.rows[0]).toEqual([0n]);
    } finally {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a transaction statement that writes pauses too, while auto-committed writes go on, and commits whole', async () => {
    await withRunner('sliced-reads', async (db, runner) => {
      const txs = new Transactions(db, { idle_timeout_ms: 60_000, open_max: 4 });
      try {
        const tx = txs.begin();
        const n = 100_000;
        const inTx = (text: string) => {
          const c = { ...call(text, { n: BigInt(n) }), transaction_id: tx.id };
          return txs.runSliced(tx, runner.transactions.query(c.text, c.params), c.signal, (ws, signal) => runner.inTransactionSliced({ ...c, signal }, ws));
        };
        const writing = inTx('UNWIND range(1, $n) AS i CREATE (:T {i: i})');
        let settled = false;
        void writing.finally(() => (settled = true));
        await new Promise((resolve) => setImmediate(resolve));
        // The transaction's write set is its own: another write is executed and applied while its
        // statement is paused (its commit waits for the log, which may take longer than the statement).
        const applied = db.sm.appliedIndex;
        const other = runner.autoCommit(call('CREATE (:Other)'), db.latestCommitted());
        while (db.sm.appliedIndex === applied && !settled) await new Promise((resolve) => setImmediate(resolve));
        expect(settled).toBe(false);
        await other;
        expect((await writing).stats.nodes_created).toBe(n);
        const inside = await inTx('MATCH (t:T) RETURN count(t), sum(t.i)');
        expect(inside.rows[0]).toEqual([BigInt(n), BigInt((n * (n + 1)) / 2)]);
        await txs.commit(tx.id, [], journaled);
        const after = await runner.autoCommit(call('MATCH (t:T) RETURN count(t)'), db.latestCommitted());
        expect(after.rows[0]).toEqual([BigInt(n)]);
      } finally {
        txs.close();
      }
    }, 1 << 24);
  });
});
