import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { notFound } from '../../common/errors.js';
import type { ConcernWait } from '../../log/driver/log-driver.js';
import type { BlobRecord } from '../../projections/blobs/blob-projection.js';
import { refusalError, type Database } from '../database.js';
import { ChunkStore } from './chunk-store.js';
import type { ChunkFetch } from './chunk-peers.js';
import { fixedChunks } from './rechunk.js';
import { TaskLane } from './task-lane.js';

/**
 * The blob write path of one member (DESIGN 5): chunk bytes go to the content-addressed store and
 * are durable before the `blob_put` entry naming them is proposed; deletes go through the log, and
 * a chunk whose count reached zero is removed after its entry applies. Chunks an upload in progress
 * has touched are pinned, so neither release nor orphan collection removes them under it.
 */
export interface BlobManagerOptions {
  /** Chunk writes one upload keeps in flight; bounds its memory to this many chunks. */
  readonly chunk_writes_in_flight_max: number;
  /** Chunk fsyncs one upload keeps in flight behind its writes (they hold no chunk memory). */
  readonly chunk_syncs_in_flight_max: number;
  /** An unreferenced chunk younger than this is left alone by orphan collection. */
  readonly orphan_grace_ms: number;
  readonly concern: () => ConcernWait;
  /** Epoch milliseconds; injectable for tests of the grace period. */
  readonly now_ms?: () => number;
  /** A chunk this member lacks, from the other members of its group (chunk-peers.ts); absent alone. */
  readonly fetchChunk?: ChunkFetch;
}

/** Chunks a download reads ahead of the one it sends (256 KiB each, so this bounds its memory). */
export const download_chunks_ahead_max = 4;

export interface UploadOutcome {
  readonly blob_id: string;
  readonly chunk_ids: readonly string[];
  readonly total_size: number;
  readonly dedup_chunks: number;
}

export interface CollectOutcome {
  readonly chunks_deleted: number;
  readonly temporaries_deleted: number;
}

/** The blob id: hex SHA-256 over the concatenated 32-byte chunk hashes, in order (docs/blobs.md). */
export function blobIdOfChunks(chunk_hashes: readonly Uint8Array[]): string {
  const h = createHash('sha256');
  for (const c of chunk_hashes) h.update(c);
  return h.digest('hex');
}

export class BlobManager {
  /** Chunk id -> uploads in progress holding it. Invariant: every count is positive. */
  private readonly pins = new Map<string, number>();
  private readonly unsubscribe: () => void;
  private chunksReleased = 0;
  /** The blob projection's revision at the last whole fillMissing pass, and what it left missing. */
  private filledRevision = -1;
  private lastMissing = 0;

  private constructor(
    private readonly db: Database,
    readonly store: ChunkStore,
    private readonly o: BlobManagerOptions,
  ) {
    // Deletion is I/O after apply: the projection only says which chunks reached zero.
    this.unsubscribe = db.onCommit(() => this.deleteReleased());
  }

  static open(db: Database, o: BlobManagerOptions): BlobManager {
    const store = ChunkStore.open(join(db.dataDir.path, 'blobs', 'chunks'));
    return new BlobManager(db, store, o);
  }

  get released(): number {
    return this.chunksReleased;
  }

  close(): void {
    this.unsubscribe();
  }

  meta(blob_id: string): BlobRecord {
    const blob = this.db.sm.blobs.blob(blob_id);
    if (blob === undefined) throw notFound(`blob ${blob_id} does not exist`, 'BLOB_NOT_FOUND', { blob_id });
    return blob;
  }

  /**
   * Stores the bytes of `source` as a blob: cut into 256 KiB chunks, each hashed and written, at
   * most `chunk_writes_in_flight_max` at once, which bounds the memory; then fsynced behind the stream
   * (at most `chunk_syncs_in_flight_max` at once); once every chunk is durable and the directory
   * fsynced, one `blob_put` is proposed. A chunk that was already present is synced too, in case
   * the upload that wrote it has not synced it yet.
   */
  async upload(source: AsyncIterable<Uint8Array>, signal: AbortSignal): Promise<UploadOutcome> {
    const pinned: string[] = [];
    const hashes: Buffer[] = [];
    const chunk_ids: string[] = [];
    const writes = new TaskLane(this.o.chunk_writes_in_flight_max);
    const syncs = new TaskLane(this.o.chunk_syncs_in_flight_max);
    let dedup_chunks = 0;
    let total_size = 0;
    try {
      for await (const chunk of fixedChunks(source)) {
        if (signal.aborted) throw signal.reason;
        const failed = writes.failed ?? syncs.failed;
        if (failed !== undefined) throw failed.error;
        const digest = createHash('sha256').update(chunk).digest();
        const chunk_id = digest.toString('hex');
        hashes.push(digest);
        chunk_ids.push(chunk_id);
        total_size += chunk.byteLength;
        // Pinned before its existence is looked at: a release between the look and the propose
        // would otherwise delete a file this upload counts on.
        this.pin(chunk_id);
        pinned.push(chunk_id);
        await writes.submit(async () => {
          if ((await this.store.write(chunk_id, chunk)) === 'existed') dedup_chunks++;
          syncs.enqueue(this.syncOf(chunk_id));
        });
      }
      await writes.drain();
      await syncs.drain();
      if (signal.aborted) throw signal.reason;
      this.store.syncDir();
      const blob_id = blobIdOfChunks(hashes);
      if (this.db.sm.blobs.blob(blob_id) === undefined) {
        await this.db.submit({ kind: 'blob_put', blob_id, chunk_ids, total_size }, this.o.concern());
      }
      return { blob_id, chunk_ids, total_size, dedup_chunks };
    } finally {
      await writes.settle();
      await syncs.settle();
      for (const c of pinned) this.unpin(c);
    }
  }

  /**
   * The blob's chunks in order, each read whole and checked against its hash; at most
   * `download_chunks_ahead_max` read ahead of the one being sent, so the next chunks come off the
   * disk while one travels. The chunks stay pinned until the download ends, so a delete meanwhile
   * cannot cut it short.
   */
  async *chunks(blob: BlobRecord, signal: AbortSignal): AsyncGenerator<Buffer, void, undefined> {
    for (const c of blob.chunk_ids) this.pin(c);
    const ahead: Promise<Buffer>[] = [];
    let next = 0;
    try {
      while (next < blob.chunk_ids.length || ahead.length > 0) {
        while (ahead.length < download_chunks_ahead_max && next < blob.chunk_ids.length) {
          const read = this.readOrFetch(blob.chunk_ids[next++]!);
          // Awaited in its turn below; until then a failure must not count as unhandled.
          read.catch(() => undefined);
          ahead.push(read);
        }
        if (signal.aborted) throw signal.reason;
        yield await ahead.shift()!;
      }
    } finally {
      await Promise.allSettled(ahead);
      for (const c of blob.chunk_ids) this.unpin(c);
    }
  }

  /**
   * Deletes the blob through the log. The answer counts the chunks no other blob references, known
   * when the entry is proposed; their files go once it applies.
   */
  async delete(blob_id: string): Promise<{ chunks_deleted: number }> {
    const event = { kind: 'blob_deleted', blob_id } as const;
    const refusal = this.db.sm.checkBlob(event);
    if (refusal !== undefined) throw refusalError(refusal);
    const blob = this.meta(blob_id);
    const occurrences = new Map<string, number>();
    for (const c of blob.chunk_ids) occurrences.set(c, (occurrences.get(c) ?? 0) + 1);
    let chunks_deleted = 0;
    for (const [c, n] of occurrences) if (this.db.sm.blobs.refCount(c) === n) chunks_deleted++;
    await this.db.submit(event, this.o.concern());
    this.deleteReleased();
    return { chunks_deleted };
  }

  /**
   * Removes chunk files nothing references: left by an upload that never reached its entry, or by a
   * release interrupted by a crash. Files younger than the grace period, and chunks an upload in
   * progress holds, are left alone.
   */
  async collectOrphans(grace_ms = this.o.orphan_grace_ms): Promise<CollectOutcome> {
    const before = this.now() - grace_ms;
    let chunks_deleted = 0;
    let temporaries_deleted = 0;
    for (const { chunk_id, mtime_ms } of this.store.list()) {
      if (mtime_ms > before) continue;
      // Checked and deleted in one synchronous step: no upload can pin it in between.
      if (this.db.sm.blobs.refCount(chunk_id) === 0 && !this.pins.has(chunk_id) && this.store.deleteSync(chunk_id)) chunks_deleted++;
    }
    for (const { name, mtime_ms } of this.store.temporaries()) {
      if (mtime_ms > before) continue;
      await this.store.deleteTemporary(name);
      temporaries_deleted++;
    }
    return { chunks_deleted, temporaries_deleted };
  }

  private deleteReleased(): void {
    for (const chunk_id of this.db.sm.blobs.takeReleased()) {
      // A later upload may have referenced or pinned the chunk again since its count reached zero.
      if (this.db.sm.blobs.refCount(chunk_id) > 0 || this.pins.has(chunk_id)) continue;
      if (this.store.deleteSync(chunk_id)) this.chunksReleased++;
    }
  }

  /**
   * Fetches from the other members up to `max_chunks` chunks that blobs reference and this member
   * lacks (a follower has the entries of uploads another member took, not their files). Answers how
   * many it stored and how many it still lacks. A whole pass runs only after the blobs changed or
   * while chunks are missing, so a quiet store is not walked again and again.
   */
  async fillMissing(max_chunks: number): Promise<{ readonly filled: number; readonly missing: number }> {
    const fetchChunk = this.o.fetchChunk;
    const blobs = this.db.sm.blobs;
    const revision = blobs.revision;
    if (fetchChunk === undefined || (revision === this.filledRevision && this.lastMissing === 0)) return { filled: 0, missing: 0 };
    let filled = 0;
    let missing = 0;
    for (const chunk_id of [...blobs.referencedChunks()]) {
      if (this.store.has(chunk_id)) continue;
      if (filled >= max_chunks) {
        missing++;
        continue;
      }
      const data = await fetchChunk(chunk_id);
      // A chunk released while it was fetched is not stored (orphan collection would take it later).
      if (data === undefined) missing++;
      else if (blobs.refCount(chunk_id) > 0 && (await this.store.put(chunk_id, data)) === 'written') filled++;
    }
    if (filled > 0) this.store.syncDir();
    this.filledRevision = revision;
    this.lastMissing = missing;
    return { filled, missing };
  }

  /** A chunk from this member's store, or fetched from another member, stored, and then served. */
  private async readOrFetch(chunk_id: string): Promise<Buffer> {
    const fetchChunk = this.o.fetchChunk;
    if (this.store.has(chunk_id) || fetchChunk === undefined) return this.store.read(chunk_id);
    const data = await fetchChunk(chunk_id);
    if (data === undefined) return this.store.read(chunk_id);
    if ((await this.store.put(chunk_id, data)) === 'written') this.store.syncDir();
    return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  }

  /**
   * The fsync of one chunk as a queued task. Made here, not inline in `upload`, so the closure
   * holds only the id: one made in the loop would keep the loop's chunk bytes alive while it waits
   * in the queue, and a queue behind a slow disk would then hold the blob.
   */
  private syncOf(chunk_id: string): () => Promise<void> {
    return () => this.store.sync(chunk_id);
  }

  private pin(chunk_id: string): void {
    this.pins.set(chunk_id, (this.pins.get(chunk_id) ?? 0) + 1);
  }

  private unpin(chunk_id: string): void {
    const n = (this.pins.get(chunk_id) ?? 0) - 1;
    if (n <= 0) this.pins.delete(chunk_id);
    else this.pins.set(chunk_id, n);
  }

  private now(): number {
    return (this.o.now_ms ?? Date.now)();
  }
}

