import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PropertyMap } from '../../src/common/property-value.js';
import { Database } from '../../src/server/database.js';

/**
 * A member alone in its group fsyncs a lone write on its event loop when
 * log_single_member_inline_fsync_entries_max allows it, and in the thread pool otherwise; either
 * way every acknowledged write is durable: it is there after the database is opened again.
 */
const journaled = { acks: 1, level: 'journal', timeout_ms: 0 } as const;
const props: PropertyMap = new Map([['name', 'n']]);

async function lonesWrites(inline_max: number, writes: number): Promise<{ on_loop: number; fsyncs: number; found: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'weft-single-member-fsync-'));
  const options = {
    data_dir: dir,
    node_id: 1,
    mvcc_retention_secs: 0,
    checkpoint_interval_entries: 1_000_000,
    log_segment_bytes_max: 1 << 20,
    log_single_member_inline_fsync_entries_max: inline_max,
  };
  try {
    const db = await Database.open(options);
    const before = db.log.storageStats;
    for (let i = 0; i < writes; i++) await db.write((ws) => ws.createNode(['Lone'], props), { concern: journaled });
    const after = db.log.storageStats;
    await db.close();
    const again = await Database.open(options);
    const found = [...again.latestCommitted().nodesWithLabel('Lone')].length;
    await again.close();
    return { on_loop: after.fsyncs_on_loop - before.fsyncs_on_loop, fsyncs: after.fsyncs - before.fsyncs, found };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('a group of one: where a lone write is fsynced', () => {
  it('with the bound at 1, each lone write is fsynced on the loop, and all are there after a restart', async () => {
    const r = await lonesWrites(1, 20);
    expect(r.fsyncs).toBeGreaterThanOrEqual(20);
    expect(r.on_loop).toBeGreaterThanOrEqual(20);
    expect(r.found).toBe(20);
  });

  it('with the bound at 0, every fsync goes to the thread pool', async () => {
    const r = await lonesWrites(0, 20);
    expect(r.fsyncs).toBeGreaterThanOrEqual(20);
    expect(r.on_loop).toBe(0);
    expect(r.found).toBe(20);
  });
});
