import { unlink, type FileHandle } from 'node:fs/promises';
import { encodeTrailer, partsCrc, type PackEntry } from './pack-format.js';
import { partsBytes, type ByteParts } from './rechunk.js';

/**
 * One pack being written: chunks appended back to back at offsets reserved synchronously, so
 * several writes can be in flight at once and still land in order of reservation. Every
 * `pack_sync_bytes` written, an fdatasync starts behind the writes (on the thread pool, nobody
 * waits for it), so the dirty pages are on their way to disk while the stream goes on and the seal's
 * own fsync finds little left to do. Used only through PackStore, which makes the sealed pack's
 * chunks visible.
 */
export const pack_sync_bytes = 64 * 1024 * 1024;

export class PackWriter {
  /** Bytes reserved so far; the next chunk goes here. Invariant: sum of the entries' lengths. */
  private end = 0;
  private readonly entries: PackEntry[] = [];
  private readonly own = new Set<string>();
  private readonly pending = new Set<Promise<void>>();
  private unsyncedBytes = 0;
  private syncing: Promise<void> | undefined;
  private failure: { readonly error: unknown } | undefined;
  private state: 'open' | 'sealing' | 'closed' = 'open';

  constructor(
    readonly serial: number,
    readonly path: string,
    private readonly handle: FileHandle,
  ) {}

  /** Bytes of chunk data reserved in this pack. */
  get bytes(): number {
    return this.end;
  }

  holds(chunk_id: string): boolean {
    return this.own.has(chunk_id);
  }

  /**
   * Writes the chunk at the end of the pack. The offset is taken before the first await, so calls
   * may overlap. The bytes are not durable, nor readable through the store, until the pack is sealed.
   * A chunk given as parts (an upload's, as its messages arrived) is checksummed and written as
   * they are, with one `writev`, never joined.
   */
  async append(chunk_id: string, data: Uint8Array | ByteParts): Promise<void> {
    if (this.state !== 'open') throw new Error(`pack ${this.path} is no longer open for writing`);
    const parts = data instanceof Uint8Array ? [data] : data;
    const length = partsBytes(parts);
    const offset = this.end;
    this.end += length;
    this.entries.push({ chunk_id, offset, length, crc: partsCrc(parts) });
    this.own.add(chunk_id);
    const write = this.writeAt(parts, offset);
    this.pending.add(write);
    try {
      await write;
    } catch (e) {
      this.failure ??= { error: e };
      throw e;
    } finally {
      this.pending.delete(write);
    }
    this.unsyncedBytes += length;
    if (this.unsyncedBytes >= pack_sync_bytes && this.syncing === undefined) this.syncBehind();
  }

  /**
   * Makes the pack whole and durable: waits for its writes, fsyncs the chunks, then writes the
   * index trailer and fsyncs again. Only after the first fsync may the trailer exist on disk, so a
   * trailer that checks always stands for chunk bytes that are durable. Answers the entries.
   */
  async seal(): Promise<{ readonly entries: readonly PackEntry[]; readonly data_bytes: number }> {
    if (this.state !== 'open') throw new Error(`pack ${this.path} was already sealed or abandoned`);
    this.state = 'sealing';
    try {
      await Promise.all(this.pending);
      await this.syncing;
      if (this.failure !== undefined) throw this.failure.error;
      await this.handle.datasync();
      await this.writeAt([encodeTrailer(this.entries)], this.end);
      await this.handle.datasync();
    } finally {
      this.state = 'closed';
      await this.handle.close();
    }
    return { entries: this.entries, data_bytes: this.end };
  }

  /**
   * Stops writing and removes the file (an upload that failed, or a seal that did): its chunks were
   * never made visible, so nothing can name them.
   */
  async abandon(): Promise<void> {
    if (this.state !== 'closed') {
      this.state = 'closed';
      await Promise.allSettled(this.pending);
      await this.syncing?.catch(() => undefined);
      await this.handle.close();
    }
    await unlink(this.path).catch(() => undefined);
  }

  private syncBehind(): void {
    this.unsyncedBytes = 0;
    this.syncing = this.handle.datasync().then(
      () => {
        this.syncing = undefined;
      },
      (e: unknown) => {
        this.syncing = undefined;
        this.failure ??= { error: e };
      },
    );
  }

  /** Writes the parts back to back at `position`, going on after a short write. */
  private async writeAt(parts: ByteParts, position: number): Promise<void> {
    let left = parts;
    while (left.length > 0) {
      const { bytesWritten } = left.length === 1 ? await this.handle.write(left[0]!, 0, left[0]!.byteLength, position) : await this.handle.writev(left, position);
      position += bytesWritten;
      left = dropBytes(left, bytesWritten);
    }
  }
}

/** The parts after their first `n` bytes. */
function dropBytes(parts: ByteParts, n: number): ByteParts {
  let i = 0;
  while (i < parts.length && n >= parts[i]!.byteLength) n -= parts[i++]!.byteLength;
  if (i === parts.length) return [];
  return n === 0 ? parts.slice(i) : [parts[i]!.subarray(n), ...parts.slice(i + 1)];
}
