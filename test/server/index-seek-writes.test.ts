import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Value } from '../../src/common/values/value.js';
import type { CypherCall } from '../../src/api/query-service.js';
import { CypherRunner } from '../../src/server/cypher-runner.js';
import { Database } from '../../src/server/database.js';
import { startSchemaRuntime } from '../../src/server/index-builds/schema-runtime.js';
import { Transactions } from '../../src/server/transactions.js';
import { cypherCall } from '../support/cypher-call.js';

/**
 * Statements over a write set (auto-committed writes, transactions) seek a B-tree index like reads
 * do: the base snapshot's index answers, the write set adds the nodes it created or changed, and a
 * transaction records as read only the nodes the seek found.
 */
const journaled = { acks: 1, level: 'journal', timeout_ms: 0 } as const;
const call = (text: string, params: Record<string, Value> = {}): CypherCall => cypherCall(text, params);


async function withIndexedAccounts(accounts: number, body: (db: Database, runner: CypherRunner, txs: Transactions) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'weft-seek-writes-'));
  const db = await Database.open({ data_dir: dir, node_id: 1, mvcc_retention_secs: 300, checkpoint_interval_entries: 10_000, log_segment_bytes_max: 1 << 20 });
  const runner = new CypherRunner(db);
  const txs = new Transactions(db, { idle_timeout_ms: 60_000, open_max: 10 });
  try {
    await runner.autoCommit(call('UNWIND range(1, $n) AS i CREATE (:Account {no: i, balance: 100})', { n: BigInt(accounts) }), db.latestCommitted());
    const rt = startSchemaRuntime(db, { index_build_max_running: 1, index_build_statement_wait_secs: 30, concern: () => journaled });
    try {
      const index = await rt.admin.createIndex({ name: 'account_no', label: 'Account', properties: ['no'], if_not_exists: false });
      expect(index.serving).toBeDefined();
    } finally {
      rt.stop();
    }
    await body(db, runner, txs);
  } finally {
    txs.close();
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('index seeks over write sets', () => {
  it('a transaction reading one account by its indexed key reads only that account', async () => {
    await withIndexedAccounts(50, async (db, runner, txs) => {
      const t1 = txs.begin();
      const t2 = txs.begin();
      const move = (no: bigint) => "MATCH (a:Account {no: $no}) SET a.balance = a.balance - 1 RETURN a.balance";
      const r1 = txs.run(t1, (ws) => runner.inTransaction(call(move(1n), { no: 1n }), ws));
      const r2 = txs.run(t2, (ws) => runner.inTransaction(call(move(2n), { no: 2n }), ws));
      expect(r1.rows).toEqual([[99n]]);
      expect(r2.rows).toEqual([[99n]]);
      expect([...txs.get(t1.id).ws.readNodes]).toHaveLength(1);
      // Different accounts: both commit (a label scan would have read all 50 and conflicted).
      await txs.commit(t1.id, [], journaled);
      await txs.commit(t2.id, [], journaled);
      // The same account: the second aborts.
      const t3 = txs.begin();
      const t4 = txs.begin();
      txs.run(t3, (ws) => runner.inTransaction(call(move(3n), { no: 3n }), ws));
      txs.run(t4, (ws) => runner.inTransaction(call(move(3n), { no: 3n }), ws));
      await txs.commit(t3.id, [], journaled);
      await expect(txs.commit(t4.id, [], journaled)).rejects.toMatchObject({ code: 'ABORTED', reason: 'TRANSACTION_CONFLICT' });
      const balances = await runner.autoCommit(call('MATCH (a:Account) WHERE a.no <= 3 RETURN a.no, a.balance ORDER BY a.no'), db.latestCommitted());
      expect(balances.rows).toEqual([[1n, 99n], [2n, 99n], [3n, 99n]]);
    });
  });

  it('a seek inside a write set sees the nodes it created, changed and deleted', async () => {
    await withIndexedAccounts(50, async (db, runner, txs) => {
      const tx = txs.begin();
      const run = (text: string) => txs.run(tx, (ws) => runner.inTransaction(call(text), ws)).rows;
      run('CREATE (:Account {no: 100, balance: 5})');
      expect(run('MATCH (a:Account {no: 100}) RETURN a.balance')).toEqual([[5n]]);
      run('MATCH (a:Account {no: 7}) SET a.no = 700');
      expect(run('MATCH (a:Account {no: 7}) RETURN a.balance')).toEqual([]);
      expect(run('MATCH (a:Account {no: 700}) RETURN a.balance')).toEqual([[100n]]);
      run('MATCH (a:Account {no: 8}) DETACH DELETE a');
      expect(run('MATCH (a:Account {no: 8}) RETURN a')).toEqual([]);
      run('MATCH (a:Account {no: 9}) REMOVE a:Account');
      expect(run('MATCH (a:Account {no: 9}) RETURN a')).toEqual([]);
      await txs.commit(tx.id, [], journaled);
      // Auto-committed write statements seek as well, and see the committed result.
      const out = await runner.autoCommit(call('MATCH (a:Account {no: 700}) SET a.balance = a.balance + 1 RETURN a.balance'), db.latestCommitted());
      expect(out.rows).toEqual([[101n]]);
      const plan = JSON.stringify(runner.explain('MATCH (a:Account {no: 1}) SET a.x = 1', new Map()));
      expect(plan).toContain('NodeIndexSeek');
    });
  });

  it('a seek that would return more than a twentieth of a large label scans it instead', async () => {
    // 30,000 accounts: a seek may return max(1000, 5% of 30,000) = 1500 nodes.
    await withIndexedAccounts(30_000, async (_db, runner, txs) => {
      const readSet = (text: string): { rows: unknown; read: number } => {
        const tx = txs.begin();
        const rows = txs.run(tx, (ws) => runner.inTransaction(call(text), ws)).rows;
        const read = txs.get(tx.id).ws.readNodes.size;
        txs.rollback(tx.id);
        return { rows, read };
      };
      expect(readSet('MATCH (a:Account) WHERE a.no > 29000 RETURN count(*)')).toEqual({ rows: [[1000n]], read: 1000 });
      expect(readSet('MATCH (a:Account) WHERE a.no > 28000 RETURN count(*)')).toEqual({ rows: [[2000n]], read: 30000 });
      expect(readSet('MATCH (a:Account) WHERE a.no IN range(1, 1200) RETURN count(*)')).toEqual({ rows: [[1200n]], read: 1200 });
      expect(readSet("MATCH (a:Account) WHERE a.no >= 0 AND a.no < 'x' RETURN count(*)")).toEqual({ rows: [[0n]], read: 0 });
    });
  });
});
