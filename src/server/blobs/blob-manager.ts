import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { notFound } from '../../common/errors.js';
import type { ConcernWait } from '../../log/driver/log-driver.js';
import type { BlobRecord } from '../../projections/blobs/blob-projection.js';
import { refusalError, type Database } from '../database.js';
import type { ChunkFetch } from './chunk-peers.js';
import { PackStore } from './pack-store.js';
import type { PackWriter } from './pack-writer.js';
import { fixedChunks, partsBytes, type ByteParts, type UploadPiece } from './rechunk.js';
import { TaskLane } from './task-lane.js';
import { diskFull, isNoSpace } from '../../log/storage/no-space.js';

/**
 * The blob write path of one member (DESIGN 5): chunk bytes go to packs in the content-addressed
 * store and are durable before the `blob_put` entry naming them is proposed; deletes go through the log, and
 * a chunk whose count reached zero is removed after its entry applies. Chunks an upload in progress
 * has touched are pinned, so neither release nor orphan collection removes them under it.
 */
export interface BlobManagerOptions {
  /** Chunk writes one upload keeps in flight; bounds its memory to this many chunks. */
  readonly chunk_writes_in_flight_max: number;
  /** A pack is sealed and the next begun once its chunk data would pass this many bytes. */
  readonly pack_bytes_max: number;
  /** An unreferenced chunk younger than this is left alone by orphan collection. */
  readonly orphan_grace_ms: number;
  readonly concern: () => ConcernWait;
  /** Epoch milliseconds; injectable for tests of the grace period. */
  readonly now_ms?: () => number;
  /** A chunk this member lacks, from the other members of its group (chunk-peers.ts); absent alone. */
  readonly fetchChunk?: ChunkFetch;
}

/** Chunks a download reads ahead of the one it sends (256 KiB each, so this bounds its memory). */
export const download_chunks_ahead_max = 8;
/** Bytes of chunks lying back to back in one pack that a download reads with one read. */
export const download_read_bytes_max = 1024 * 1024;

/**
 * A pack is compacted once its live chunks hold at most this share of its bytes: dead space is then
 * at most half of what packs hold (beside the packs below the share, awaiting the next sweep), and
 * a compaction copies at most half a pack to reclaim at least the other half.
 */
export const pack_compact_live_share_max = 0.5;

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
    readonly store: PackStore,
    private readonly o: BlobManagerOptions,
  ) {
    // Deletion is I/O after apply: the projection only says which chunks reached zero.
    this.unsubscribe = db.onCommit(() => this.deleteReleased());
  }

  static open(db: Database, o: BlobManagerOptions): BlobManager {
    const store = PackStore.open(join(db.dataDir.path, 'blobs'));
    return new BlobManager(db, store, o);
  }

  get released(): number {
    return this.chunksReleased;
  }

  close(): void {
    this.unsubscribe();
    void this.store.close();
  }

  meta(blob_id: string): BlobRecord {
    const blob = this.db.sm.blobs.blob(blob_id);
    if (blob === undefined) throw notFound(`blob ${blob_id} does not exist`, 'BLOB_NOT_FOUND', { blob_id });
    return blob;
  }

  /**
   * Stores the bytes of `source` as a blob: cut into 256 KiB chunks, each hashed; a chunk the store
   * holds already (or this upload wrote before) is named, not written; a new one is appended to
   * this upload's pack, at most `chunk_writes_in_flight_max` writes at once, which bounds the
   * memory. A pack that reaches `pack_bytes_max` is sealed behind the stream and the next begun.
   * Once every pack is sealed (durable), one `blob_put` is proposed. An upload that writes nothing
   * new opens no file at all.
   */
  async upload(source: AsyncIterable<UploadPiece>, signal: AbortSignal): Promise<UploadOutcome> {
    const pinned: string[] = [];
    const hashes: Buffer[] = [];
    const chunk_ids: string[] = [];
    /** Chunks this upload wrote, in any of its packs: a repeat is deduplicated against them. */
    const written = new Set<string>();
    const writes = new TaskLane(this.o.chunk_writes_in_flight_max);
    const seals: Promise<void>[] = [];
    let pack: PackWriter | undefined;
    let dedup_chunks = 0;
    let total_size = 0;
    let ok = false;
    try {
      for await (const chunk of fixedChunks(source)) {
        if (signal.aborted) throw signal.reason;
        if (writes.failed !== undefined) throw writes.failed.error;
        const hash = createHash('sha256');
        for (const part of chunk) hash.update(part);
        const digest = hash.digest();
        const chunk_bytes = partsBytes(chunk);
        const chunk_id = digest.toString('hex');
        hashes.push(digest);
        chunk_ids.push(chunk_id);
        total_size += chunk_bytes;
        // Pinned before its presence is looked at: a release between the look and the propose
        // would otherwise delete a chunk this upload counts on.
        this.pin(chunk_id);
        pinned.push(chunk_id);
        if (written.has(chunk_id) || this.store.has(chunk_id)) {
          dedup_chunks++;
          continue;
        }
        if (pack !== undefined && pack.bytes + chunk_bytes > this.o.pack_bytes_max) {
          seals.push(this.sealBehind(pack));
          pack = undefined;
        }
        pack ??= await this.store.begin();
        written.add(chunk_id);
        await writes.submit(this.appendOf(pack, chunk_id, chunk));
      }
      await writes.drain();
      if (pack !== undefined) {
        seals.push(this.sealBehind(pack));
        pack = undefined;
      }
      for (const s of seals) await s;
      if (signal.aborted) throw signal.reason;
      const blob_id = blobIdOfChunks(hashes);
      if (this.db.sm.blobs.blob(blob_id) === undefined) {
        await this.db.submit({ kind: 'blob_put', blob_id, chunk_ids, total_size }, this.o.concern());
      }
      ok = true;
      return { blob_id, chunk_ids, total_size, dedup_chunks };
    } catch (e) {
      // A pack write refused for space: the pack goes (below) and the caller learns why, typed.
      throw isNoSpace(e) ? diskFull(this.store.dir, e) : e;
    } finally {
      if (!ok) {
        await writes.settle();
        if (pack !== undefined) await this.store.abandon(pack);
        await Promise.allSettled(seals);
      }
      for (const c of pinned) this.unpin(c);
    }
  }

  /**
   * The blob's chunks in order, each checked against the checksum it was stored with; chunks that
   * lie back to back in one pack are read together (at most `download_read_bytes_max`), and at most
   * `download_chunks_ahead_max` are read ahead of the one being sent, so the next chunks come off
   * the disk while one travels. The chunks stay pinned until the download ends, so a delete
   * meanwhile cannot cut it short.
   */
  async *chunks(blob: BlobRecord, signal: AbortSignal): AsyncGenerator<Buffer, void, undefined> {
    const ids = blob.chunk_ids;
    for (const c of ids) this.pin(c);
    const ahead: Promise<Buffer>[] = [];
    let next = 0;
    try {
      while (next < ids.length || ahead.length > 0) {
        while (ahead.length < download_chunks_ahead_max && next < ids.length) {
          const reads = this.readOrFetch(ids, next, download_chunks_ahead_max - ahead.length);
          // Awaited in their turn below; until then a failure must not count as unhandled.
          for (const r of reads) r.catch(() => undefined);
          ahead.push(...reads);
          next += reads.length;
        }
        if (signal.aborted) throw signal.reason;
        yield await ahead.shift()!;
      }
    } finally {
      await Promise.allSettled(ahead);
      for (const c of ids) this.unpin(c);
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
   * Removes chunks nothing references: left by an upload that never reached its entry, or by a
   * release interrupted by a crash; a pack goes with its last live chunk. Also removes the packs of
   * writes a stop interrupted. Chunks whose pack (or file) is younger than the grace period, and
   * chunks an upload in progress holds, are left alone.
   */
  async collectOrphans(grace_ms = this.o.orphan_grace_ms): Promise<CollectOutcome> {
    const before = this.now() - grace_ms;
    let chunks_deleted = 0;
    for (const { chunk_id, mtime_ms } of this.store.list()) {
      if (mtime_ms > before) continue;
      // Checked and deleted in one synchronous step: no upload can pin it in between.
      if (this.db.sm.blobs.refCount(chunk_id) === 0 && !this.pins.has(chunk_id) && this.store.deleteSync(chunk_id)) chunks_deleted++;
    }
    const temporaries_deleted = await this.store.collectInterrupted(before, this.lacking() === 0);
    return { chunks_deleted, temporaries_deleted };
  }

  /**
   * Rewrites the packs whose live share fell to `pack_compact_live_share_max` or below (blobs
   * deleted out of them), one at a time, skipping packs an upload or download in progress uses.
   * Runs with each sweep while serving, not at start. Answers the packs compacted and the bytes
   * of dead space reclaimed.
   */
  async compactPacks(): Promise<{ readonly packs: number; readonly bytes_reclaimed: number }> {
    let packs = 0;
    let bytes_reclaimed = 0;
    for (const serial of this.store.compactable(pack_compact_live_share_max, (c) => this.pins.has(c))) {
      bytes_reclaimed += await this.store.compact(serial);
      packs++;
    }
    return { packs, bytes_reclaimed };
  }

  /**
   * Every chunk the blobs reference now, pinned (neither released nor moved by compaction) until
   * `release`: what a backup of the current state carries (backup-source.ts).
   */
  holdReferenced(): { readonly chunk_ids: readonly string[]; release(): void } {
    const chunk_ids = [...this.db.sm.blobs.referencedChunks()];
    for (const c of chunk_ids) this.pin(c);
    let released = false;
    return {
      chunk_ids,
      release: () => {
        if (released) return;
        released = true;
        for (const c of chunk_ids) this.unpin(c);
      },
    };
  }

  /** Chunks the blobs reference that this member's store lacks. */
  lacking(): number {
    let n = 0;
    for (const chunk_id of this.db.sm.blobs.referencedChunks()) if (!this.store.has(chunk_id)) n++;
    return n;
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
    const fetched: { chunk_id: string; data: Uint8Array }[] = [];
    let missing = 0;
    for (const chunk_id of [...blobs.referencedChunks()]) {
      if (this.store.has(chunk_id)) continue;
      if (fetched.length >= max_chunks) {
        missing++;
        continue;
      }
      const data = await fetchChunk(chunk_id);
      if (data === undefined) missing++;
      else fetched.push({ chunk_id, data });
    }
    // A chunk released while it was fetched is not stored (orphan collection would take it later).
    const filled = await this.store.putAll(fetched.filter((c) => blobs.refCount(c.chunk_id) > 0));
    this.filledRevision = revision;
    this.lastMissing = missing;
    return { filled, missing };
  }

  /**
   * Reads for the chunks of `ids` from `from` on: a run lying back to back in one pack (at most
   * `count_max` chunks), or one chunk fetched from another member and served. A fetched chunk is
   * not stored here: the background pass (`fillMissing`) stores the chunks it fetches in one pack,
   * where storing each here would make a pack, and two fsyncs, per chunk of the download.
   */
  private readOrFetch(ids: readonly string[], from: number, count_max: number): Promise<Buffer>[] {
    const chunk_id = ids[from]!;
    const fetchChunk = this.o.fetchChunk;
    if (this.store.has(chunk_id) || fetchChunk === undefined) {
      const run = Math.min(count_max, this.store.runLength(ids, from, download_read_bytes_max));
      return this.store.readMany(ids, from, run);
    }
    return [
      (async () => {
        const data = await fetchChunk(chunk_id);
        if (data === undefined) return this.store.read(chunk_id);
        return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
      })(),
    ];
  }

  /**
   * The write of one chunk as a lane task. Made here, not inline in `upload`, so the closure holds
   * only this chunk, not the upload loop's other state.
   */
  private appendOf(pack: PackWriter, chunk_id: string, chunk: ByteParts): () => Promise<void> {
    return () => pack.append(chunk_id, chunk);
  }

  /** Seals a full pack while the upload streams on; its failure is the upload's, found when awaited. */
  private sealBehind(pack: PackWriter): Promise<void> {
    const sealing = this.store.seal(pack);
    sealing.catch(() => undefined);
    return sealing;
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

