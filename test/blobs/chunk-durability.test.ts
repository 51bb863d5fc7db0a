import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BlobManager } from '../../src/server/blobs/blob-manager.js';
import { ChunkStore } from '../../src/server/blobs/chunk-store.js';
import { TaskLane } from '../../src/server/blobs/task-lane.js';
import { Database } from '../../src/server/database.js';

/**
 * Chunk files are written without an fsync and synced behind the upload's stream; the rule that
 * matters for a crash is that every chunk a `blob_put` names is durable when that entry commits,
 * whichever upload wrote it. Downloads read ahead, and still send nothing a check against the
 * chunk id has not passed.
 */
const journaled = { acks: 1, level: 'journal', timeout_ms: 0 } as const;
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'weft-chunk-durability-'));
  dirs.push(dir);
  return dir;
}
const idOf = (data: Uint8Array): string => createHash('sha256').update(data).digest('hex');
async function* pieces(...parts: Uint8Array[]): AsyncGenerator<Uint8Array> {
  yield* parts;
}

describe('chunk durability', () => {
  it('a chunk is written once however many write it at once, and is durable only after sync', async () => {
    const store = ChunkStore.open(join(tempDir(), 'chunks'));
    const data = randomBytes(256 * 1024);
    const id = idOf(data);
    const outcomes = await Promise.all([store.write(id, data), store.write(id, data), store.write(id, data)]);
    expect(outcomes.sort()).toEqual(['existed', 'existed', 'written']);
    expect(readFileSync(store.path(id)).equals(data)).toBe(true);
    expect(store.isDurable(id)).toBe(false);
    await Promise.all([store.sync(id), store.sync(id)]);
    expect(store.isDurable(id)).toBe(true);
    expect(await store.write(id, data)).toBe('existed');
    expect(store.isDurable(id)).toBe(true);
  });

  it("every chunk of a blob is durable when its entry commits, including one another upload wrote and had not synced", async () => {
    const dir = tempDir();
    const db = await Database.open({ data_dir: dir, node_id: 1, mvcc_retention_secs: 300, checkpoint_interval_entries: 1000, log_segment_bytes_max: 1 << 20 });
    const blobs = BlobManager.open(db, { chunk_writes_in_flight_max: 2, chunk_syncs_in_flight_max: 1, orphan_grace_ms: 60_000, concern: () => journaled });
    const shared = randomBytes(256 * 1024);
    // As if an upload still streaming had written it: on disk, not yet synced.
    expect(await blobs.store.write(idOf(shared), shared)).toBe('written');
    expect(blobs.store.isDurable(idOf(shared))).toBe(false);
    const notDurableAtCommit: string[] = [];
    db.onCommit(() => {
      for (const c of db.sm.blobs.referencedChunks()) if (!blobs.store.isDurable(c)) notDurableAtCommit.push(c);
    });
    const up = await blobs.upload(pieces(randomBytes(256 * 1024), shared, randomBytes(256 * 1024), randomBytes(1000)), new AbortController().signal);
    expect(up.chunk_ids).toHaveLength(4);
    expect(up.chunk_ids[1]).toBe(idOf(shared));
    expect(up.dedup_chunks).toBe(1);
    expect(db.sm.blobs.blob(up.blob_id)).toBeDefined();
    expect(notDurableAtCommit).toEqual([]);
    blobs.close();
    await db.close();
  });
});

describe('chunks read back from disk', () => {
  it('a download with chunks read ahead still stops at a flipped bit or a missing file, having sent only good bytes', async () => {
    const db = await Database.open({ data_dir: tempDir(), node_id: 1, mvcc_retention_secs: 300, checkpoint_interval_entries: 1000, log_segment_bytes_max: 1 << 20 });
    const blobs = BlobManager.open(db, { chunk_writes_in_flight_max: 2, chunk_syncs_in_flight_max: 2, orphan_grace_ms: 60_000, concern: () => journaled });
    const parts = [randomBytes(256 * 1024), randomBytes(256 * 1024), randomBytes(256 * 1024), randomBytes(256 * 1024), randomBytes(5)];
    const up = await blobs.upload(pieces(...parts), new AbortController().signal);
    const download = async (): Promise<{ sent: Buffer[]; error: unknown }> => {
      const sent: Buffer[] = [];
      try {
        for await (const c of blobs.chunks(blobs.meta(up.blob_id), new AbortController().signal)) sent.push(Buffer.from(c));
        return { sent, error: undefined };
      } catch (e) {
        return { sent, error: e };
      }
    };
    expect(Buffer.concat((await download()).sent).equals(Buffer.concat(parts))).toBe(true);

    // One bit of the third chunk flips on disk: the first two are sent, the third never is.
    const third = blobs.store.path(up.chunk_ids[2]!);
    const bytes = readFileSync(third);
    bytes[1000] = bytes[1000]! ^ 0x10;
    writeFileSync(third, bytes);
    const flipped = await download();
    expect(flipped.error).toMatchObject({ code: 'DATA_LOSS', reason: 'BLOB_CHUNK_CORRUPT' });
    expect(flipped.sent).toHaveLength(2);
    expect(Buffer.concat(flipped.sent).equals(Buffer.concat(parts.slice(0, 2)))).toBe(true);

    // The second chunk's file goes: the download stops after the first.
    rmSync(blobs.store.path(up.chunk_ids[1]!));
    const lost = await download();
    expect(lost.error).toMatchObject({ code: 'DATA_LOSS', reason: 'BLOB_CHUNK_LOST' });
    expect(lost.sent).toHaveLength(1);
    blobs.close();
    await db.close();
  });
});

describe('task lane', () => {
  it('runs at most its bound at once, queues without waiting, and reports the first failure', async () => {
    const lane = new TaskLane(2);
    let running = 0;
    let most = 0;
    const ran: number[] = [];
    const task = (n: number, fail = false) => async (): Promise<void> => {
      running++;
      most = Math.max(most, running);
      await new Promise((r) => setImmediate(r));
      running--;
      ran.push(n);
      if (fail) throw new Error(`task ${n} failed`);
    };
    for (let n = 0; n < 6; n++) lane.enqueue(task(n));
    await lane.submit(task(6));
    await lane.drain();
    expect(most).toBe(2);
    expect(ran.sort()).toEqual([0, 1, 2, 3, 4, 5, 6]);

    const failing = new TaskLane(1);
    failing.enqueue(task(10, true));
    failing.enqueue(task(11));
    await expect(failing.drain()).rejects.toThrow('task 10 failed');
    // The task queued behind the failure never ran.
    expect(ran).not.toContain(11);
    expect(failing.failed).toBeDefined();
  });
});
