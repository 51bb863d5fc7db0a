import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PropertyMap } from '../../src/common/property-value.js';
import { WeftError } from '../../src/common/errors.js';
import { Database } from '../../src/server/database.js';

/**
 * Database.writeHeld answers a write once its entry is written to the log file, while its fsync
 * runs, so a reply can be built meanwhile; `settled` says when the concern holds and the reply may go.
 */
const journaled = { acks: 1, level: 'journal', timeout_ms: 0 } as const;
const in_memory = { acks: 1, level: 'memory', timeout_ms: 0 } as const;
const props: PropertyMap = new Map([['name', 'n']]);

describe('a held write', () => {
  let dir: string;
  let db: Database;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'weft-held-write-'));
    db = await Database.open({ data_dir: dir, node_id: 1, mvcc_retention_secs: 0, checkpoint_interval_entries: 1_000_000, log_segment_bytes_max: 1 << 20 });
    // The term's first entry, so the writes below are all that the log does.
    await db.write((ws) => ws.createNode(['First'], props), { concern: journaled });
  });
  afterEach(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is answered with its value once its entry is written, before the fsync returns; settled once committed', async () => {
    const before = db.log.storageStats;
    const held = await db.writeHeld((ws) => ws.createNode(['Held'], props), { concern: journaled });
    const at_answer = db.log.storageStats;
    expect(at_answer.bytes_written).toBeGreaterThan(before.bytes_written);
    expect(at_answer.fsyncs).toBe(before.fsyncs);
    expect(db.committedIndex).toBeLessThan(held.receipt.index);
    expect(db.latestCommitted().node(held.value.id)).toBeUndefined();

    await held.settled;
    expect(db.log.storageStats.fsyncs).toBeGreaterThan(before.fsyncs);
    expect(db.committedIndex).toBeGreaterThanOrEqual(held.receipt.index);
    expect(db.latestCommitted().node(held.value.id)?.labels).toEqual(['Held']);
  });

  it('under a concern below the journal it is answered as write() would be, without waiting for the file', async () => {
    const held = await db.writeHeld((ws) => ws.createNode(['Quick'], props), { concern: in_memory });
    await held.settled;
    expect(held.receipt.index).toBeGreaterThan(0);
    await db.write((ws) => ws.createNode(['After'], props), { concern: journaled });
    expect(db.latestCommitted().node(held.value.id)?.labels).toEqual(['Quick']);
  });

  it('a write that fails while it is built throws from writeHeld, and proposes nothing', async () => {
    const last = db.log.lastIndex;
    const failed = await db
      .writeHeld(
        () => {
          throw new WeftError('NOT_FOUND', 'source node 99 does not exist');
        },
        { concern: journaled },
      )
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect((failed as WeftError).code).toBe('NOT_FOUND');
    expect(db.log.lastIndex).toBe(last);
  });
});
