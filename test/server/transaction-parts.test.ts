import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CypherCall } from '../../src/api/query-service.js';
import type { Value } from '../../src/common/values/value.js';
import type { Event } from '../../src/log/events.js';
import { CypherRunner } from '../../src/server/cypher-runner.js';
import { Database } from '../../src/server/database.js';
import { Transactions, type Transaction } from '../../src/server/transactions.js';
import { cypherCall } from '../support/cypher-call.js';
import { failure } from '../support/failure.js';

/**
 * A large interactive transaction commits in parts, as a large auto-committed write does
 * (docs/transactions.md): its ops are built in steps, its parts are held by the log without
 * touching the graph, a point write sent meanwhile commits before it, and its commit part checks
 * what the transaction read, applying all of it or nothing.
 */
const nodes = 10_000;
const journaled = { acks: 1, level: 'journal', timeout_ms: 0 } as const;
const call = (text: string, params: Record<string, Value> = {}): CypherCall => cypherCall(text, params, { memory_limit_bytes: 256 * 1024 * 1024 });

const open = (dir: string): Promise<Database> =>
  Database.open({ data_dir: dir, node_id: 1, mvcc_retention_secs: 0, checkpoint_interval_entries: 1_000_000, log_segment_bytes_max: 1 << 26 });

function kinds(db: Database): Event['kind'][] {
  const out: Event['kind'][] = [];
  for (let i = db.logFirstIndex; i <= db.committedIndex; i++) out.push(db.readEntry(i).event.kind);
  return out;
}

async function count(db: Database, runner: CypherRunner, label: string): Promise<bigint> {
  const out = await runner.autoCommit(call(`MATCH (x:${label}) RETURN count(x)`), db.latestCommitted());
  return out.rows[0]?.[0] as bigint;
}

async function withTransactions(body: (db: Database, runner: CypherRunner, txs: Transactions, dir: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'weft-transaction-parts-'));
  const db = await open(dir);
  const txs = new Transactions(db, { idle_timeout_ms: 60_000, open_max: 4 });
  try {
    await body(db, new CypherRunner(db), txs, dir);
  } finally {
    txs.close();
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const inTx = (txs: Transactions, runner: CypherRunner, tx: Transaction, text: string, params: Record<string, Value> = {}) => {
  const c = { ...call(text, params), transaction_id: tx.id };
  return txs.runSliced(tx, runner.transactions.query(c.text, c.params), c.signal, (ws, signal) => runner.inTransactionSliced({ ...c, signal }, ws));
};

describe('a large transaction commits in parts', () => {
  it('a point write sent while its parts are appended commits before its commit part; a restart gives the same graph', async () => {
    await withTransactions(async (db, runner, txs, dir) => {
      const tx = txs.begin();
      await inTx(txs, runner, tx, 'UNWIND range(1, $n) AS i CREATE (:Big {i: i})', { n: BigInt(nodes) });
      const commit = txs.commit(tx.id, [], journaled);
      let settled = false;
      void commit.finally(() => (settled = true));
      while (db.sm.writeParts.size === 0 && !settled) await new Promise((resolve) => setImmediate(resolve));
      expect(settled).toBe(false);
      // Ended as soon as its ops were built: a second commit finds no such transaction.
      expect((await failure(txs.commit(tx.id, [], journaled))).code).toBe('NOT_FOUND');
      await runner.autoCommit(call('CREATE (:Point)'), db.latestCommitted());
      const receipt = await commit;

      const log = kinds(db);
      const firstPart = log.indexOf('graph_write_part');
      const lastPart = log.lastIndexOf('graph_write_part');
      const point = log.lastIndexOf('graph_write');
      expect(lastPart - firstPart).toBeGreaterThanOrEqual(Math.ceil(nodes / 2048) - 1);
      expect(point).toBeGreaterThan(firstPart);
      expect(point).toBeLessThan(lastPart);
      expect(receipt.index).toBe(db.logFirstIndex + lastPart);
      expect(await count(db, runner, 'Big')).toBe(BigInt(nodes));

      await db.close();
      const again = await open(dir);
      try {
        const r = new CypherRunner(again);
        expect(await count(again, r, 'Big')).toBe(BigInt(nodes));
        expect(await count(again, r, 'Point')).toBe(1n);
      } finally {
        await again.close();
      }
    });
  });

  it('a transaction in parts whose read node was written after its snapshot is refused whole at its commit part', async () => {
    await withTransactions(async (db, runner, txs) => {
      await runner.autoCommit(call('CREATE (:Account {id: 1, balance: 10})'), db.latestCommitted());
      const tx = txs.begin();
      await inTx(txs, runner, tx, 'MATCH (a:Account {id: 1}) UNWIND range(1, $n) AS i CREATE (:Entry {i: i, seen: a.balance})', { n: BigInt(nodes) });
      await runner.autoCommit(call('MATCH (a:Account {id: 1}) SET a.balance = 20'), db.latestCommitted());
      const e = await failure(txs.commit(tx.id, [], journaled));
      expect([e.code, e.reason]).toEqual(['ABORTED', 'TRANSACTION_CONFLICT']);
      expect(kinds(db)).toContain('graph_write_part');
      expect(await count(db, runner, 'Entry')).toBe(0n);
      expect(db.sm.writeParts.size).toBe(0);
    });
  });

  it('a large transaction with an expected version stays one entry, checked as before', async () => {
    await withTransactions(async (db, runner, txs) => {
      const created = await runner.autoCommit(call('CREATE (a:Account {id: 1}) RETURN id(a)'), db.latestCommitted());
      const id = Number(created.rows[0]?.[0] as bigint);
      const tx = txs.begin();
      await inTx(txs, runner, tx, 'UNWIND range(1, $n) AS i CREATE (:Entry {i: i})', { n: BigInt(nodes) });
      const e = await failure(txs.commit(tx.id, [{ node_id: id, version: 1 }], journaled));
      expect([e.code, e.reason]).toEqual(['ABORTED', 'REVISION_MISMATCH']);
      expect(kinds(db)).not.toContain('graph_write_part');
      expect(await count(db, runner, 'Entry')).toBe(0n);
    });
  });
});
