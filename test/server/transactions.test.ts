import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ChangeFeed, type Change } from '../../src/projections/change-feed.js';
import { Database } from '../../src/server/database.js';
import { Transactions } from '../../src/server/transactions.js';

const dirs: string[] = [];
const open: Database[] = [];
async function db(): Promise<Database> {
  const dir = mkdtempSync(join(tmpdir(), 'weft-tx-'));
  dirs.push(dir);
  const d = await Database.open({ data_dir: dir, node_id: 1, mvcc_retention_secs: 300, checkpoint_interval_entries: 10_000, log_segment_bytes_max: 1 << 20 });
  open.push(d);
  return d;
}
afterEach(async () => {
  for (const d of open.splice(0)) await d.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const journaled = { acks: 1, level: 'journal', timeout_ms: 0 } as const;

describe('interactive transactions', () => {
  it('open -> commit: buffered writes are invisible until commit, then land in one entry', async () => {
    const d = await db();
    const txs = new Transactions(d, { idle_timeout_ms: 60_000, open_max: 10 });
    const tx = txs.begin();
    const a = txs.run(tx, (ws) => ws.createNode(['A'], new Map([['v', 1n]])));
    txs.run(tx, (ws) => ws.createNode(['A'], new Map([['v', 2n]])));
    expect(txs.run(tx, (ws) => [...ws.nodesWithLabel('A')].length)).toBe(2);
    expect([...d.latestCommitted().nodesWithLabel('A')]).toHaveLength(0);
    const before = d.committedIndex;
    const receipt = await txs.commit(tx.id, [], journaled);
    expect(receipt.index).toBe(before + 1);
    expect(d.latestCommitted().node(a.id)?.ts).toBe(receipt.commit_ts);
    expect(() => txs.get(tx.id)).toThrow(/not open/);
    txs.close();
  });

  it('a pinned snapshot is repeatable: a concurrent commit is not seen', async () => {
    const d = await db();
    const txs = new Transactions(d, { idle_timeout_ms: 60_000, open_max: 10 });
    const { value: n } = await d.write((ws) => ws.createNode(['C'], new Map([['v', 1n]])), { concern: journaled });
    const tx = txs.begin();
    await d.write((ws) => ws.setNodeProperties(n.id, new Map([['v', 2n]]), false), { concern: journaled });
    expect(txs.run(tx, (ws) => ws.node(n.id)?.props.get('v'))).toBe(1n);
    // Read-only: commits at its pinned timestamp.
    const receipt = await txs.commit(tx.id, [], journaled);
    expect(receipt.commit_ts).toBe(tx.snapshot_ts);
    txs.close();
  });

  it('lost update is refused: two transactions write the same node, the second commit aborts', async () => {
    const d = await db();
    const txs = new Transactions(d, { idle_timeout_ms: 60_000, open_max: 10 });
    const { value: n } = await d.write((ws) => ws.createNode(['Acct'], new Map([['balance', 100n]])), { concern: journaled });
    const t1 = txs.begin();
    const t2 = txs.begin();
    for (const [tx, delta] of [[t1, 10n], [t2, 20n]] as const) {
      txs.run(tx, (ws) => ws.setNodeProperties(n.id, new Map([['balance', (ws.node(n.id)!.props.get('balance') as bigint) + delta]]), false));
    }
    await txs.commit(t1.id, [], journaled);
    await expect(txs.commit(t2.id, [], journaled)).rejects.toMatchObject({ code: 'ABORTED', reason: 'TRANSACTION_CONFLICT' });
    expect(d.latestCommitted().node(n.id)?.props.get('balance')).toBe(110n);
    txs.close();
  });

  it('expect list: a mismatch aborts REVISION_MISMATCH with both versions; absent means must not exist', async () => {
    const d = await db();
    const txs = new Transactions(d, { idle_timeout_ms: 60_000, open_max: 10 });
    const { value: n, receipt } = await d.write((ws) => ws.createNode(['E'], new Map()), { concern: journaled });
    const tx = txs.begin();
    txs.run(tx, (ws) => ws.createNode(['F'], new Map()));
    await expect(txs.commit(tx.id, [{ node_id: n.id, version: receipt.commit_ts + 1 }], journaled)).rejects.toMatchObject({
      code: 'ABORTED',
      reason: 'REVISION_MISMATCH',
      metadata: { expected_version: String(receipt.commit_ts + 1), current_version: String(receipt.commit_ts) },
    });
    expect([...d.latestCommitted().nodesWithLabel('F')]).toHaveLength(0);
    const ok = txs.begin();
    txs.run(ok, (ws) => ws.createNode(['F'], new Map()));
    await txs.commit(ok.id, [{ node_id: n.id, version: receipt.commit_ts }, { node_id: 999_999 }], journaled);
    expect([...d.latestCommitted().nodesWithLabel('F')]).toHaveLength(1);
    const absent = txs.begin();
    await expect(txs.commit(absent.id, [{ node_id: n.id }], journaled)).rejects.toMatchObject({ reason: 'REVISION_MISMATCH' });
    const zero = txs.begin();
    await expect(txs.commit(zero.id, [{ node_id: n.id, version: 0 }], journaled)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    txs.close();
  });

  it('rollback discards the buffer; idle transactions expire; the open count is bounded', async () => {
    const d = await db();
    let now = 0;
    const txs = new Transactions(d, { idle_timeout_ms: 1000, open_max: 2 }, () => now);
    const tx = txs.begin();
    txs.run(tx, (ws) => ws.createNode(['R'], new Map()));
    txs.rollback(tx.id);
    expect([...d.latestCommitted().nodesWithLabel('R')]).toHaveLength(0);
    expect(() => txs.rollback(tx.id)).toThrow(/not open/);
    txs.begin();
    txs.begin();
    expect(() => txs.begin()).toThrow(expect.objectContaining({ code: 'RESOURCE_EXHAUSTED' }));
    now = 5000;
    await new Promise((r) => setTimeout(r, 300));
    expect(txs.count).toBe(0);
    txs.close();
  });
});

describe('change feed', () => {
  it('delivers committed changes in log order with before and after; resuming from commit_ts + 1 has no gap or duplicate', async () => {
    const d = await db();
    const feed = new ChangeFeed(d);
    const { value: a } = await d.write((ws) => ws.createNode(['N'], new Map([['v', 1n]])), { concern: journaled });
    await d.write((ws) => ws.setNodeProperties(a.id, new Map([['v', 2n]]), false), { concern: journaled });
    const { value: b } = await d.write((ws) => ws.createNode(['N'], new Map()), { concern: journaled });
    await d.write((ws) => ws.createEdge('R', a.id, b.id, new Map()), { concern: journaled });
    const controller = new AbortController();
    const got: Change[] = [];
    const reading = (async () => {
      for await (const changes of feed.watch(0, controller.signal)) {
        got.push(...changes);
        if (got.length >= 6) controller.abort();
      }
    })();
    await d.write((ws) => ws.deleteNode(b.id, true), { concern: journaled });
    await reading;
    expect(got.map((c) => c.operation)).toEqual(['node_created', 'node_updated', 'node_created', 'edge_created', 'edge_deleted', 'node_deleted']);
    expect(got[1]!.node_before?.props.get('v')).toBe(1n);
    expect(got[1]!.node_after?.props.get('v')).toBe(2n);
    // Resuming after the edge's creation yields the last entry whole: edge and node deleted together.
    const resumeFrom = got[3]!.commit_ts + 1;
    const again: Change[] = [];
    const c2 = new AbortController();
    for await (const changes of feed.watch(resumeFrom, c2.signal)) {
      again.push(...changes);
      c2.abort();
    }
    expect(again.map((c) => c.operation)).toEqual(['edge_deleted', 'node_deleted']);
  });
});

describe('change feed retention', () => {
  it('starting before the oldest retained entry fails FAILED_PRECONDITION naming the oldest start', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-feed-old-'));
    dirs.push(dir);
    let now = 1_800_000_000_000_000;
    const d = await Database.open({ data_dir: dir, node_id: 1, mvcc_retention_secs: 1, checkpoint_interval_entries: 10_000, log_segment_bytes_max: 1 << 20, clock: () => now });
    open.push(d);
    const first = await d.write((ws) => ws.createNode(['Old'], new Map()), { concern: journaled });
    now += 5_000_000;
    await d.write((ws) => ws.createNode(['New'], new Map()), { concern: journaled });
    const feed = new ChangeFeed(d);
    const consume = async () => {
      for await (const _ of feed.watch(first.receipt.commit_ts, new AbortController().signal)) break;
    };
    await expect(consume()).rejects.toMatchObject({ code: 'FAILED_PRECONDITION', reason: 'CHANGE_FEED_EXPIRED' });
    const oldest = feed.oldestStart();
    expect(oldest).toBeGreaterThan(first.receipt.commit_ts);
    const got: Change[] = [];
    const c = new AbortController();
    for await (const changes of feed.watch(oldest, c.signal)) {
      got.push(...changes);
      c.abort();
    }
    expect(got[0]?.node_after?.labels).toEqual(['New']);
  });
});
