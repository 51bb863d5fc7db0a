import { closeSync, fdatasyncSync, ftruncateSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, unlinkSync } from 'node:fs';
import { fdatasync as fdatasyncCb, writev as writevCb } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { assert } from '../../common/assert.js';
import { WeftError } from '../../common/errors.js';
import { fsyncDir } from './fsync-dir.js';
import { promisify } from 'node:util';

/**
 * The durable, append-only log of one member: a folder of segment files, each named by the index of
 * its first entry. A record is a 24-byte header (payload length, CRC-32 of index, term and payload,
 * index, term) followed by the payload.
 *
 * Three watermarks say how far the log is safe (DESIGN 3.4):
 * - memory:  appended to this process;
 * - cache:   written to the file, not yet fsynced (survives a process crash, not a power loss);
 * - journal: fsynced (survives both). Raft's commit rule counts only this one.
 * Invariant: firstIndex - 1 <= journal <= cache <= memory = lastIndex.
 *
 * Group commit: appends accumulate while a write and fsync are under way; the next flush writes all
 * of them with one writev and one fdatasync.
 */
export interface StoredEntry {
  readonly index: number;
  readonly term: number;
  readonly data: Uint8Array;
}

export interface SegmentLogOptions {
  /** A segment is closed and a new one started once it passes this size. */
  readonly segment_bytes_max: number;
}

export const defaultSegmentLogOptions: SegmentLogOptions = { segment_bytes_max: 64 * 1024 * 1024 };

const HEADER_BYTES = 24;
/** A single payload larger than this is refused; it bounds what recovery must read at once. */
export const ENTRY_BYTES_MAX = 256 * 1024 * 1024;

interface Segment {
  readonly first_index: number;
  readonly path: string;
  /** Index of the last entry in this segment; first_index - 1 when empty. */
  last_index: number;
  bytes: number;
  /** offsets[i] is the byte offset of entry first_index + i. */
  readonly offsets: number[];
  /** A descriptor kept open for reads once the segment is first read; closed when it is removed. */
  read_fd?: number | undefined;
}

export type DurabilityListener = (watermarks: { cache: number; journal: number }) => void;

export class SegmentLog {
  private readonly segments: Segment[];
  private fd: number;
  private readonly pending: StoredEntry[] = [];
  /** The batch being written and fsynced; its entries are in neither `pending` nor the cache watermark. */
  private inflight: readonly StoredEntry[] = [];
  private waiters: { index: number; level: 'cache' | 'journal'; resolve: () => void; reject: (e: Error) => void }[] = [];
  private flushing = false;
  private closed = false;
  private flushError: Error | undefined;
  private readonly listeners: DurabilityListener[] = [];
  /** Entries count and fsync count, for the group commit figures of the benchmarks. */
  readonly stats = { fsyncs: 0, entries_synced: 0, bytes_written: 0 };

  memoryIndex: number;
  cacheIndex: number;
  journalIndex: number;

  private constructor(
    private readonly dir: string,
    private readonly options: SegmentLogOptions,
    segments: Segment[],
  ) {
    this.segments = segments;
    const last = segments[segments.length - 1];
    assert(last !== undefined, 'a log has at least one segment');
    this.fd = openSync(last.path, 'r+');
    this.memoryIndex = this.cacheIndex = this.journalIndex = last.last_index;
  }

  /**
   * Opens the log in `dir`, creating it when absent. A torn record at the end of the last segment (a
   * crash in the middle of a write) is cut off; damage anywhere else is refused as DATA_LOSS.
   */
  static open(dir: string, options: SegmentLogOptions = defaultSegmentLogOptions, first_index = 1): SegmentLog {
    mkdirSync(dir, { recursive: true });
    const names = readdirSync(dir).filter((n) => n.endsWith('.seg')).sort();
    const segments: Segment[] = [];
    if (names.length === 0) {
      const path = join(dir, segmentName(first_index));
      closeSync(openSync(path, 'w'));
      fsyncDir(dir);
      segments.push({ first_index, path, last_index: first_index - 1, bytes: 0, offsets: [] });
    }
    for (let i = 0; i < names.length; i++) {
      const name = names[i]!;
      const isLast = i === names.length - 1;
      const segment = scanSegment(join(dir, name), Number.parseInt(name, 10), isLast);
      const previous = segments[segments.length - 1];
      if (previous !== undefined && previous.last_index + 1 !== segment.first_index) {
        throw new WeftError('DATA_LOSS', `log segment ${name} does not follow entry ${previous.last_index}`);
      }
      segments.push(segment);
    }
    return new SegmentLog(dir, options, segments);
  }

  get firstIndex(): number {
    return this.segments[0]!.first_index;
  }

  get lastIndex(): number {
    return this.memoryIndex;
  }

  onDurable(listener: DurabilityListener): void {
    this.listeners.push(listener);
  }

  /** Appends entries in memory and schedules their write; they must continue the log. */
  append(entries: readonly StoredEntry[]): void {
    assert(!this.closed, 'append to a closed log');
    if (this.flushError) throw this.flushError;
    for (const entry of entries) {
      assert(entry.index === this.memoryIndex + 1, `entry ${entry.index} does not follow ${this.memoryIndex}`);
      if (entry.data.byteLength > ENTRY_BYTES_MAX) {
        throw new WeftError('RESOURCE_EXHAUSTED', `log entry of ${entry.data.byteLength} bytes exceeds ${ENTRY_BYTES_MAX}`);
      }
      this.pending.push(entry);
      this.memoryIndex = entry.index;
    }
    this.scheduleFlush();
  }

  private scheduleFlush(): void {
    if (this.flushing || this.pending.length === 0) return;
    this.flushing = true;
    // One turn of the event loop lets concurrent proposals join this batch; the write and the fsync
    // run off the main thread, and whatever is appended meanwhile forms the next batch.
    setImmediate(() => void this.flush());
  }

  private async flush(): Promise<void> {
    try {
      while (this.pending.length > 0 && !this.closed) {
        const batch = this.pending.splice(0, this.pending.length);
        this.inflight = batch;
        await this.writeBatch(batch);
        this.cacheIndex = batch[batch.length - 1]!.index;
        this.notify();
        await fdatasyncFd(this.fd);
        this.stats.fsyncs++;
        this.stats.entries_synced += batch.length;
        this.journalIndex = this.cacheIndex;
        this.inflight = [];
        this.notify();
        this.maybeRoll();
      }
    } catch (e) {
      // A failed write or fsync leaves the file in an unknown state: stop accepting writes.
      this.flushError = e instanceof Error ? e : new Error(String(e));
      this.notify();
    } finally {
      this.flushing = false;
    }
  }

  private async writeBatch(batch: readonly StoredEntry[]): Promise<void> {
    const segment = this.segments[this.segments.length - 1]!;
    const buffers: Uint8Array[] = [];
    let offset = segment.bytes;
    const offsets: number[] = [];
    for (const entry of batch) {
      buffers.push(encodeHeader(entry), entry.data);
      offsets.push(offset);
      offset += HEADER_BYTES + entry.data.byteLength;
    }
    const total = offset - segment.bytes;
    let written = 0;
    while (written < total) {
      // writev may write less than asked; continue from where it stopped.
      written += await writevFd(this.fd, sliceBuffers(buffers, written), segment.bytes + written);
    }
    segment.offsets.push(...offsets);
    segment.bytes = offset;
    segment.last_index = batch[batch.length - 1]!.index;
    this.stats.bytes_written += total;
  }

  private maybeRoll(): void {
    const segment = this.segments[this.segments.length - 1]!;
    if (segment.bytes < this.options.segment_bytes_max) return;
    closeSync(this.fd);
    const first_index = segment.last_index + 1;
    const path = join(this.dir, segmentName(first_index));
    this.fd = openSync(path, 'w+');
    fsyncDir(this.dir);
    this.segments.push({ first_index, path, last_index: first_index - 1, bytes: 0, offsets: [] });
  }

  private notify(): void {
    for (const listener of this.listeners) listener({ cache: this.cacheIndex, journal: this.journalIndex });
    if (this.waiters.length === 0) return;
    const still: typeof this.waiters = [];
    for (const w of this.waiters) {
      if (this.flushError) w.reject(this.flushError);
      else if ((w.level === 'cache' ? this.cacheIndex : this.journalIndex) >= w.index) w.resolve();
      else still.push(w);
    }
    this.waiters = still;
  }

  /** Resolves once entry `index` has reached `level` (written, or fsynced). */
  whenDurable(index: number, level: 'cache' | 'journal'): Promise<void> {
    if (this.flushError) return Promise.reject(this.flushError);
    if ((level === 'cache' ? this.cacheIndex : this.journalIndex) >= index) return Promise.resolve();
    return new Promise((resolve, reject) => this.waiters.push({ index, level, resolve, reject }));
  }

  /** Resolves once everything appended so far is fsynced. */
  sync(): Promise<void> {
    return this.whenDurable(this.memoryIndex, 'journal');
  }

  /** Reads entries [from, to] from the files (entries still pending are read from memory). */
  read(from: number, to: number): StoredEntry[] {
    assert(from >= this.firstIndex && to <= this.memoryIndex, `read [${from}, ${to}] outside the log`);
    const out: StoredEntry[] = [];
    for (let index = from; index <= to; index++) {
      if (index > this.cacheIndex) {
        const p = this.inflight.find((e) => e.index === index) ?? this.pending.find((e) => e.index === index);
        assert(p !== undefined, `entry ${index} is neither written nor pending`);
        out.push(p);
        continue;
      }
      out.push(this.readOne(index));
    }
    return out;
  }

  private readOne(index: number): StoredEntry {
    const segment = this.segmentOf(index);
    const offset = segment.offsets[index - segment.first_index];
    assert(offset !== undefined, `no offset for entry ${index}`);
    const fd = (segment.read_fd ??= openSync(segment.path, 'r'));
    const header = Buffer.alloc(HEADER_BYTES);
    readSync(fd, header, 0, HEADER_BYTES, offset);
    const length = header.readUInt32LE(0);
    const data = Buffer.alloc(length);
    readSync(fd, data, 0, length, offset + HEADER_BYTES);
    return { index, term: Number(header.readBigUInt64LE(16)), data };
  }

  /** Deletes a segment's file, closing its read descriptor first. */
  private remove(segment: Segment): void {
    if (segment.read_fd !== undefined) closeSync(segment.read_fd);
    segment.read_fd = undefined;
    unlinkSync(segment.path);
  }

  /** Calls `visit` for every entry from `from` on, segment by segment, without holding them all. */
  scan(from: number, visit: (entry: StoredEntry) => void): void {
    for (const segment of this.segments) {
      if (segment.last_index < from) continue;
      const bytes = readFileSync(segment.path);
      for (let i = 0; i < segment.offsets.length; i++) {
        const index = segment.first_index + i;
        if (index < from || index > this.cacheIndex) continue;
        const record = decodeRecord(bytes, segment.offsets[i]!);
        assert(record !== undefined && record.index === index, `entry ${index} unreadable after recovery`);
        visit(record);
      }
    }
  }

  private segmentOf(index: number): Segment {
    for (let i = this.segments.length - 1; i >= 0; i--) {
      const s = this.segments[i]!;
      if (index >= s.first_index) return s;
    }
    throw new WeftError('OUT_OF_RANGE', `entry ${index} was compacted away`);
  }

  /**
   * Removes entries from `index` on (a Raft conflict). Only entries not yet reported durable to a
   * leader can conflict, but the cut is made durable before it returns either way.
   */
  async truncateFrom(index: number): Promise<void> {
    await this.sync();
    assert(index > this.firstIndex - 1 && index <= this.memoryIndex + 1, `truncate from ${index} outside the log`);
    while (this.segments.length > 1 && this.segments[this.segments.length - 1]!.first_index >= index) {
      const s = this.segments.pop()!;
      closeSync(this.fd);
      this.remove(s);
      this.fd = openSync(this.segments[this.segments.length - 1]!.path, 'r+');
    }
    const segment = this.segments[this.segments.length - 1]!;
    const keep = index - segment.first_index;
    if (keep < segment.offsets.length) {
      const cut = segment.offsets[keep]!;
      ftruncateSync(this.fd, cut);
      fdatasyncSync(this.fd);
      segment.offsets.length = keep;
      segment.bytes = cut;
      segment.last_index = index - 1;
    }
    fsyncDir(this.dir);
    this.memoryIndex = this.cacheIndex = this.journalIndex = index - 1;
  }

  /** Deletes whole segments whose entries all lie at or below `index` (they are in a checkpoint). */
  compactTo(index: number): void {
    while (this.segments.length > 1 && this.segments[0]!.last_index <= index) {
      this.remove(this.segments.shift()!);
    }
    fsyncDir(this.dir);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.sync().catch(() => undefined);
    this.closed = true;
    closeSync(this.fd);
    for (const segment of this.segments) {
      if (segment.read_fd !== undefined) closeSync(segment.read_fd);
      segment.read_fd = undefined;
    }
  }
}

const writevP = promisify(writevCb);
const fdatasyncFd = promisify(fdatasyncCb);
async function writevFd(fd: number, buffers: Uint8Array[], position: number): Promise<number> {
  return (await writevP(fd, buffers, position)).bytesWritten;
}

function segmentName(first_index: number): string {
  return `${String(first_index).padStart(20, '0')}.seg`;
}

function encodeHeader(entry: StoredEntry): Uint8Array {
  const header = Buffer.alloc(HEADER_BYTES);
  header.writeUInt32LE(entry.data.byteLength, 0);
  header.writeBigUInt64LE(BigInt(entry.index), 8);
  header.writeBigUInt64LE(BigInt(entry.term), 16);
  const crc = crc32(entry.data, crc32(header.subarray(8, 24)));
  header.writeUInt32LE(crc, 4);
  return header;
}

function decodeRecord(bytes: Buffer, offset: number): (StoredEntry & { end: number }) | undefined {
  if (offset + HEADER_BYTES > bytes.byteLength) return undefined;
  const length = bytes.readUInt32LE(offset);
  const end = offset + HEADER_BYTES + length;
  if (length > ENTRY_BYTES_MAX || end > bytes.byteLength) return undefined;
  const header = bytes.subarray(offset + 8, offset + HEADER_BYTES);
  const data = bytes.subarray(offset + HEADER_BYTES, end);
  if (crc32(data, crc32(header)) !== bytes.readUInt32LE(offset + 4)) return undefined;
  return {
    index: Number(bytes.readBigUInt64LE(offset + 8)),
    term: Number(bytes.readBigUInt64LE(offset + 16)),
    data,
    end,
  };
}

function scanSegment(path: string, first_index: number, isLast: boolean): Segment {
  const bytes = readFileSync(path);
  const offsets: number[] = [];
  let offset = 0;
  let expected = first_index;
  while (offset < bytes.byteLength) {
    const record = decodeRecord(bytes, offset);
    if (record === undefined || record.index !== expected) {
      if (!isLast) throw new WeftError('DATA_LOSS', `log segment ${path} is damaged at byte ${offset}`);
      // A torn write at the tail: nothing after it was ever acknowledged as durable.
      const fd = openSync(path, 'r+');
      ftruncateSync(fd, offset);
      fdatasyncSync(fd);
      closeSync(fd);
      break;
    }
    offsets.push(offset);
    offset = record.end;
    expected++;
  }
  return { first_index, path, last_index: first_index + offsets.length - 1, bytes: offset, offsets };
}

function sliceBuffers(buffers: readonly Uint8Array[], skip: number): Uint8Array[] {
  if (skip === 0) return buffers as Uint8Array[];
  const out: Uint8Array[] = [];
  for (const b of buffers) {
    if (skip >= b.byteLength) {
      skip -= b.byteLength;
      continue;
    }
    out.push(skip > 0 ? b.subarray(skip) : b);
    skip = 0;
  }
  return out;
}
