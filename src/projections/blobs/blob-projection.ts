import { assert, assertNever } from '../../common/assert.js';
import type { BlobEvent } from '../../log/events.js';
import type { Refusal } from '../graph/graph-store.js';

/**
 * Which blobs exist and how many references each chunk has, folded from `blob_put` and
 * `blob_deleted` entries. The chunk bytes live outside the log; this projection only decides when a
 * chunk is no longer needed. Apply touches no file: chunks whose count reached zero in a committed
 * entry are queued, and the server deletes them after the entry applies (`takeReleased`).
 */
export interface BlobRecord {
  readonly blob_id: string;
  /** Hex SHA-256 of each chunk, in order; repeats allowed (a blob of identical chunks). */
  readonly chunk_ids: readonly string[];
  readonly total_size: number;
}

/** Checkpoint form: the blobs; chunk counts are derived from them at load. */
export interface BlobSnapshot {
  readonly blobs: readonly (readonly [string, readonly string[], number])[];
}

/** What a pending entry changed, so a rollback can undo it and a commit can release its chunks. */
interface PendingChange {
  readonly index: number;
  readonly added?: BlobRecord;
  readonly removed?: BlobRecord;
}

export class BlobProjection {
  private readonly blobs = new Map<string, BlobRecord>();
  /**
   * Invariant: refs.get(c) is the number of occurrences of chunk c in the chunk_ids of every blob
   * (pending ones included); a chunk with no reference is absent.
   */
  private readonly refs = new Map<string, number>();
  /** Changes of entries applied but not committed, oldest first. */
  private readonly pending: PendingChange[] = [];
  /** Chunks whose count reached zero at a committed entry and that the server has not taken yet. */
  private released: string[] = [];
  /** Blobs added or removed so far (see `revision`). */
  private changes = 0;

  blob(blob_id: string): BlobRecord | undefined {
    return this.blobs.get(blob_id);
  }

  /** References to `chunk_id` in the latest state (pending entries included). */
  refCount(chunk_id: string): number {
    return this.refs.get(chunk_id) ?? 0;
  }

  /** Every chunk some blob references in the latest state (pending entries included). */
  referencedChunks(): IterableIterator<string> {
    return this.refs.keys();
  }

  get blobCount(): number {
    return this.blobs.size;
  }

  get chunkCount(): number {
    return this.refs.size;
  }

  /**
   * Whether the event would apply to the latest state. `propertyRefs` counts the node properties
   * that hold the blob (a referenced blob cannot be deleted).
   */
  check(event: BlobEvent, propertyRefs: (blob_id: string) => number): Refusal | undefined {
    switch (event.kind) {
      case 'blob_put':
        return undefined;
      case 'blob_deleted': {
        if (!this.blobs.has(event.blob_id)) {
          return { code: 'NOT_FOUND', reason: 'BLOB_NOT_FOUND', message: `blob ${event.blob_id} does not exist`, metadata: { blob_id: event.blob_id } };
        }
        const holders = propertyRefs(event.blob_id);
        if (holders > 0) {
          return {
            code: 'FAILED_PRECONDITION',
            reason: 'BLOB_REFERENCED',
            message: `blob ${event.blob_id} is held by ${holders} node propert${holders === 1 ? 'y' : 'ies'}; remove them before deleting it`,
            metadata: { blob_id: event.blob_id, references: String(holders) },
          };
        }
        return undefined;
      }
      default:
        return assertNever(event, 'blob event');
    }
  }

  /** Applies a checked event. A second put of the same blob changes nothing (the id names the content). */
  apply(event: BlobEvent, index: number, committed: boolean): void {
    switch (event.kind) {
      case 'blob_put': {
        if (this.blobs.has(event.blob_id)) return;
        const record: BlobRecord = { blob_id: event.blob_id, chunk_ids: event.chunk_ids, total_size: event.total_size };
        this.add(record);
        if (!committed) this.pending.push({ index, added: record });
        return;
      }
      case 'blob_deleted': {
        const record = this.blobs.get(event.blob_id);
        assert(record !== undefined, `blob_deleted of unknown blob ${event.blob_id} was checked`);
        this.remove(record);
        if (committed) this.release(record);
        else this.pending.push({ index, removed: record });
        return;
      }
      default:
        return assertNever(event, 'blob event');
    }
  }

  commit(index: number): void {
    while (this.pending.length > 0 && this.pending[0]!.index <= index) {
      const change = this.pending.shift()!;
      if (change.removed !== undefined) this.release(change.removed);
    }
  }

  /** Undoes pending entries after `index`, newest first. */
  rollbackAfter(index: number): void {
    while (this.pending.length > 0 && this.pending[this.pending.length - 1]!.index > index) {
      const change = this.pending.pop()!;
      if (change.added !== undefined) this.remove(change.added);
      if (change.removed !== undefined) this.add(change.removed);
    }
  }

  /** Chunks released since the last call; the caller deletes those still unreferenced. */
  takeReleased(): string[] {
    const out = this.released;
    this.released = [];
    return out;
  }

  /** Committed blobs only: a pending put is undone for the snapshot, as its entry replays after it. */
  snapshot(): BlobSnapshot {
    const pendingAdded = new Set(this.pending.flatMap((c) => (c.added !== undefined ? [c.added.blob_id] : [])));
    const blobs: (readonly [string, readonly string[], number])[] = [];
    for (const b of this.blobs.values()) if (!pendingAdded.has(b.blob_id)) blobs.push([b.blob_id, b.chunk_ids, b.total_size]);
    for (const c of this.pending) if (c.removed !== undefined) blobs.push([c.removed.blob_id, c.removed.chunk_ids, c.removed.total_size]);
    return { blobs };
  }

  restore(s: BlobSnapshot | undefined): void {
    for (const [blob_id, chunk_ids, total_size] of s?.blobs ?? []) this.add({ blob_id, chunk_ids, total_size });
  }

  /** Advances on every blob added or removed (applied, rolled back or restored): a change to look at. */
  get revision(): number {
    return this.changes;
  }

  private add(record: BlobRecord): void {
    this.changes++;
    this.blobs.set(record.blob_id, record);
    for (const c of record.chunk_ids) this.refs.set(c, (this.refs.get(c) ?? 0) + 1);
  }

  private remove(record: BlobRecord): void {
    this.changes++;
    this.blobs.delete(record.blob_id);
    for (const c of record.chunk_ids) {
      const n = (this.refs.get(c) ?? 0) - 1;
      assert(n >= 0, `chunk ${c} counted below zero`);
      if (n === 0) this.refs.delete(c);
      else this.refs.set(c, n);
    }
  }

  private release(record: BlobRecord): void {
    for (const c of new Set(record.chunk_ids)) if (!this.refs.has(c)) this.released.push(c);
  }
}
