import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BlobManager, blobIdOfChunks } from '../../src/server/blobs/blob-manager.js';
import { PackStore } from '../../src/server/blobs/pack-store.js';
import { TaskLane } from '../../src/server/blobs/task-lane.js';
import { Database } from '../../src/server/database.js';

/**
 * Chunks are appended to packs and become visible only when their pack is sealed (durable); the
 * rule that matters for a crash is that every chunk a `blob_put` names is durable when that entry
 * commits, whichever upload wrote it. Downloads read runs of chunks ahead, and still send nothing
 * a check against the chunk's checksum has not passed.
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
  it('a chunk in a pack is invisible until the pack is sealed; two packs holding one chunk keep one copy live', async () => {
    const store = PackStore.open(join(tempDir(), 'blobs'));
    const data = randomBytes(256 * 1024);
    const id = idOf(data);
    const first = await store.begin();
    const second = await store.begin();
    await Promise.all([first.append(id, data), second.append(id, data)]);
    expect(store.has(id)).toBe(false);
    await store.seal(second);
    expect(store.has(id)).toBe(true);
    expect((await store.read(id)).equals(data)).toBe(true);
    await store.seal(first);
    expect(store.stats()).toEqual({ packs: 2, data_bytes: 2 * data.byteLength, live_bytes: data.byteLength });
    // The later seal's copy is dead: its pack goes at the next collection, the chunk stays.
    expect(await store.collectInterrupted(Date.now(), true)).toBe(1);
    expect(store.stats()).toEqual({ packs: 1, data_bytes: data.byteLength, live_bytes: data.byteLength });
    expect((await store.read(id)).equals(data)).toBe(true);
    await store.close();
  });

  it('start-up reads the sealed packs back; a pack a stop interrupted is kept only while a referenced chunk is missing', async () => {
    const dir = join(tempDir(), 'blobs');
    const store = PackStore.open(dir);
    const chunks = [randomBytes(256 * 1024), randomBytes(256 * 1024), randomBytes(77)];
    const sealed = await store.begin();
    for (const c of chunks.slice(0, 2)) await sealed.append(idOf(c), c);
    await store.seal(sealed);
    const open = await store.begin();
    await open.append(idOf(chunks[2]!), chunks[2]!);
    // The process stops here: the second pack never gets its trailer.
    await store.close();

    const again = PackStore.open(dir);
    for (const c of chunks.slice(0, 2)) expect((await again.read(idOf(c))).equals(c)).toBe(true);
    expect(again.has(idOf(chunks[2]!))).toBe(false);
    expect(again.unsealedPacks()).toEqual([basename(open.path)]);
    expect(await again.collectInterrupted(Date.now(), false)).toBe(0);
    expect(existsSync(open.path)).toBe(true);
    expect(await again.collectInterrupted(Date.now(), true)).toBe(1);
    expect(existsSync(open.path)).toBe(false);
    // A damaged trailer reads as unsealed too, never as chunks at wrong places.
    const bytes = readFileSync(sealed.path);
    bytes[bytes.byteLength - 30] = bytes[bytes.byteLength - 30]! ^ 0x01;
    writeFileSync(sealed.path, bytes);
    const damaged = PackStore.open(dir);
    expect(damaged.has(idOf(chunks[0]!))).toBe(false);
    expect(damaged.unsealedPacks()).toEqual([basename(sealed.path)]);
    await again.close();
    await damaged.close();
    // The stopped writer's descriptor, left open above as a stop would leave it.
    await open.abandon();
  });

  it("every chunk of a blob is durable when its entry commits, including one another upload is still writing", async () => {
    const dir = tempDir();
    const db = await Database.open({ data_dir: dir, node_id: 1, mvcc_retention_secs: 300, checkpoint_interval_entries: 1000, log_segment_bytes_max: 1 << 20 });
    // Small packs: the upload seals two of them behind its stream and a third at its end.
    const blobs = BlobManager.open(db, { chunk_writes_in_flight_max: 2, pack_bytes_max: 512 * 1024, orphan_grace_ms: 60_000, concern: () => journaled });
    const shared = randomBytes(256 * 1024);
    // As if another upload still streaming had written it: in a pack, not yet sealed.
    const elsewhere = await blobs.store.begin();
    await elsewhere.append(idOf(shared), shared);
    const notDurableAtCommit: string[] = [];
    db.onCommit(() => {
      for (const c of db.sm.blobs.referencedChunks()) if (!blobs.store.has(c)) notDurableAtCommit.push(c);
    });
    const parts = [randomBytes(256 * 1024), shared, randomBytes(256 * 1024), shared, randomBytes(256 * 1024), randomBytes(1000)];
    const up = await blobs.upload(pieces(...parts), new AbortController().signal);
    expect(up.chunk_ids).toHaveLength(6);
    expect(up.chunk_ids[1]).toBe(idOf(shared));
    // Not counted against the unsealed copy; counted once this upload had written its own.
    expect(up.dedup_chunks).toBe(1);
    expect(db.sm.blobs.blob(up.blob_id)).toBeDefined();
    expect(notDurableAtCommit).toEqual([]);
    expect(new Set(up.chunk_ids.map((c) => blobs.store.place(c)!.path)).size).toBe(3);
    await blobs.store.seal(elsewhere);
    expect(await blobs.collectOrphans(0)).toEqual({ chunks_deleted: 0, temporaries_deleted: 1 });
    const again: Buffer[] = [];
    for await (const c of blobs.chunks(blobs.meta(up.blob_id), new AbortController().signal)) again.push(Buffer.from(c));
    expect(Buffer.concat(again).equals(Buffer.concat(parts))).toBe(true);
    blobs.close();
    await db.close();
  });
});

describe('pack compaction', () => {
  it('a pack mostly dead after a delete is rewritten with its live chunks; a restart finds them in the new pack', async () => {
    const dir = tempDir();
    const opts = { data_dir: dir, node_id: 1, mvcc_retention_secs: 300, checkpoint_interval_entries: 1000, log_segment_bytes_max: 1 << 20 };
    const db = await Database.open(opts);
    const options = { chunk_writes_in_flight_max: 2, pack_bytes_max: 4 << 20, orphan_grace_ms: 60_000, concern: () => journaled } as const;
    const blobs = BlobManager.open(db, options);
    const kept = randomBytes(256 * 1024);
    const a = await blobs.upload(pieces(randomBytes(256 * 1024), kept, randomBytes(256 * 1024), randomBytes(256 * 1024)), new AbortController().signal);
    const b = await blobs.upload(pieces(kept, randomBytes(9)), new AbortController().signal);
    const old = blobs.store.place(idOf(kept))!.path;
    // Three quarters of A's pack are live: nothing to compact.
    expect(await blobs.compactPacks()).toEqual({ packs: 0, bytes_reclaimed: 0 });
    expect(await blobs.delete(a.blob_id)).toEqual({ chunks_deleted: 3 });
    // A download in progress holds the chunk: its pack is left alone until it ends.
    const download = blobs.chunks(blobs.meta(b.blob_id), new AbortController().signal);
    expect((await download.next()).value?.equals(kept)).toBe(true);
    expect(await blobs.compactPacks()).toEqual({ packs: 0, bytes_reclaimed: 0 });
    await download.return(undefined);
    expect(await blobs.compactPacks()).toEqual({ packs: 1, bytes_reclaimed: 3 * 256 * 1024 });
    expect(existsSync(old)).toBe(false);
    expect(blobs.store.place(idOf(kept))!.path).not.toBe(old);
    const read = async (m: BlobManager): Promise<Buffer> => {
      const out: Buffer[] = [];
      for await (const c of m.chunks(m.meta(b.blob_id), new AbortController().signal)) out.push(Buffer.from(c));
      return Buffer.concat(out);
    };
    expect((await read(blobs)).subarray(0, kept.byteLength).equals(kept)).toBe(true);
    blobs.close();
    await db.close();

    const again = await Database.open(opts);
    const reopened = BlobManager.open(again, options);
    expect(await reopened.collectOrphans(0)).toEqual({ chunks_deleted: 0, temporaries_deleted: 0 });
    expect((await read(reopened)).subarray(0, kept.byteLength).equals(kept)).toBe(true);
    expect(reopened.store.stats()).toEqual({ packs: 2, data_bytes: 256 * 1024 + 9, live_bytes: 256 * 1024 + 9 });
    reopened.close();
    await again.close();
  });
});

describe('chunks read back from disk', () => {
  it('a download with chunks read ahead still stops at a flipped bit or a missing pack, having sent only good bytes', async () => {
    const db = await Database.open({ data_dir: tempDir(), node_id: 1, mvcc_retention_secs: 300, checkpoint_interval_entries: 1000, log_segment_bytes_max: 1 << 20 });
    let blobs = BlobManager.open(db, { chunk_writes_in_flight_max: 2, pack_bytes_max: 512 * 1024, orphan_grace_ms: 60_000, concern: () => journaled });
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

    // One bit of the third chunk flips in its pack: the first two are sent, the third never is.
    const third = blobs.store.place(up.chunk_ids[2]!)!;
    const bytes = readFileSync(third.path);
    bytes[third.offset + 1000] = bytes[third.offset + 1000]! ^ 0x10;
    writeFileSync(third.path, bytes);
    const flipped = await download();
    expect(flipped.error).toMatchObject({ code: 'DATA_LOSS', reason: 'BLOB_CHUNK_CORRUPT' });
    expect(flipped.sent).toHaveLength(2);
    expect(Buffer.concat(flipped.sent).equals(Buffer.concat(parts.slice(0, 2)))).toBe(true);
    bytes[third.offset + 1000] = bytes[third.offset + 1000]! ^ 0x10;
    writeFileSync(third.path, bytes);

    // The last chunk's pack goes while the member is down: the download stops after the fourth.
    rmSync(blobs.store.place(up.chunk_ids[4]!)!.path);
    blobs.close();
    blobs = BlobManager.open(db, { chunk_writes_in_flight_max: 2, pack_bytes_max: 512 * 1024, orphan_grace_ms: 60_000, concern: () => journaled });
    const lost = await download();
    expect(lost.error).toMatchObject({ code: 'DATA_LOSS', reason: 'BLOB_CHUNK_LOST' });
    expect(lost.sent).toHaveLength(4);
    blobs.close();
    await db.close();
  });

  it('a format-2 directory is taken over: its chunk files are read, checked, deduplicated against and released', async () => {
    const dir = tempDir();
    // A format-2 directory: one file per chunk, named by its id, and the entry naming them.
    const parts = [randomBytes(256 * 1024), randomBytes(3000)];
    const ids = parts.map(idOf);
    const blob_id = blobIdOfChunks(ids.map((c) => Buffer.from(c, 'hex')));
    const older = await Database.open({ data_dir: dir, node_id: 1, mvcc_retention_secs: 300, checkpoint_interval_entries: 1000, log_segment_bytes_max: 1 << 20, engine_format: 2 });
    mkdirSync(join(dir, 'blobs', 'chunks'), { recursive: true });
    parts.forEach((p, i) => writeFileSync(join(dir, 'blobs', 'chunks', ids[i]!), p));
    await older.submit({ kind: 'blob_put', blob_id, chunk_ids: ids, total_size: 256 * 1024 + 3000 }, journaled);
    await older.close();
    expect(readFileSync(join(dir, 'ENGINE_FORMAT'), 'utf8').trim()).toBe('2');
    // The format-3 release took a format-2 directory over (each release takes over its predecessor's only).
    const db = await Database.open({ data_dir: dir, node_id: 1, mvcc_retention_secs: 300, checkpoint_interval_entries: 1000, log_segment_bytes_max: 1 << 20, engine_format: 3 });
    expect(readFileSync(join(dir, 'ENGINE_FORMAT'), 'utf8').trim()).toBe('3');
    const blobs = BlobManager.open(db, { chunk_writes_in_flight_max: 2, pack_bytes_max: 1 << 20, orphan_grace_ms: 60_000, concern: () => journaled });
    const read = async (id: string): Promise<Buffer> => {
      const out: Buffer[] = [];
      for await (const c of blobs.chunks(blobs.meta(id), new AbortController().signal)) out.push(Buffer.from(c));
      return Buffer.concat(out);
    };
    expect((await read(blob_id)).equals(Buffer.concat(parts))).toBe(true);
    // The first chunk again, in a new blob: found among the files, not written to a pack.
    const up = await blobs.upload(pieces(parts[0]!, randomBytes(10)), new AbortController().signal);
    expect(up.dedup_chunks).toBe(1);
    expect(blobs.store.place(ids[0]!)!.path).toBe(join(dir, 'blobs', 'chunks', ids[0]!));
    // A flipped bit in a file is found too.
    const file = readFileSync(join(dir, 'blobs', 'chunks', ids[1]!));
    file[5] = file[5]! ^ 0x01;
    writeFileSync(join(dir, 'blobs', 'chunks', ids[1]!), file);
    await expect(read(blob_id)).rejects.toMatchObject({ code: 'DATA_LOSS', reason: 'BLOB_CHUNK_CORRUPT' });
    expect(await blobs.delete(blob_id)).toEqual({ chunks_deleted: 1 });
    expect(existsSync(join(dir, 'blobs', 'chunks', ids[1]!))).toBe(false);
    expect(existsSync(join(dir, 'blobs', 'chunks', ids[0]!))).toBe(true);
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
