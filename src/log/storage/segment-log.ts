import { closeSync, fdatasyncSync, openSync, readSync, unlinkSync } from 'node:fs';
import { fdatasync as fdatasyncCb, writev as writevCb, writevSync } from 'node:fs';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { assert } from '../../common/assert.js';
import { WeftError } from '../../common/errors.js';
import { fsyncDir, fsyncDirAsync } from './fsync-dir.js';
import { diskFull, fsyncing, fsyncingSync, isNoSpace, nextRetryMs } from './no-space.js';
import { LOG_DAMAGED, LOG_FAILED, createSegment, recoverSegments, segmentName, type DamagePolicy, type RecoveryReport } from './segment-directory.js';
import { ENTRY_BYTES_MAX, RECORD_HEADER_BYTES, SEGMENT_HEADER_BYTES, decodeRecordHeader, encodeRecordHeader, payloadIntact } from './segment-format.js';
import { verifyRecordAt } from './segment-recovery.js';
import { SegmentSpare } from './segment-spare.js';
import { zeroRangeSync } from './zero-fill.js';

export { ENTRY_BYTES_MAX } from './segment-format.js';
export type { DamagePolicy, RecoveryReport } from './segment-directory.js';
export type { Damage } from './segment-recovery.js';

/**
 * The durable, append-only log of one member: a folder of segment files, each named by the index of
 * its first entry. The bytes are described in segment-format.ts and docs/storage.md; every record is
 * verified when open recovers the log and again on every read.
 *
 * Three watermarks say how far the log is safe (DESIGN 3.4):
 * - memory:  appended to this process;
 * - cache:   written to the file, not yet fsynced (survives a process crash, not a power loss);
 * - journal: fsynced (survives both). Raft's commit rule counts only this one.
 * Invariant: firstIndex - 1 <= journal <= cache <= memory = lastIndex.
 *
 * Group commit: appends accumulate while a write and fsync are under way; the next flush writes all
 * of them with one writev and one fdatasync.
 *
 * Preallocation: the newest segment is a file of its full size whose bytes after the last record
 * are zero (invariant; a cut writes zeros over the records it removes). The next segment is made
 * ahead, zero-filled in the thread pool once the current one is half full (segment-spare.ts).
 */
export interface StoredEntry {
  readonly index: number;
  readonly term: number;
  readonly data: Uint8Array;
}

export interface SegmentLogOptions {
  /** A segment is closed and a new one started once it passes this size. */
  readonly segment_bytes_max: number;
  /**
   * A batch of at most this many entries is fsynced on the event loop's thread instead of the
   * thread pool: one thread wakeup fewer on a lone write, and the loop blocked (no frame, timer or
   * call served) for that fsync's duration. 0 (absent): every fsync goes to the pool. See
   * docs/storage.md, "One write at concurrency 1".
   */
  readonly inline_fsync_entries_max?: number;
  /**
   * The same bound while the member does not lead (setLeading), where the larger of the two applies.
   * A follower sends nothing before its fsync (its acknowledgement waits for it), so blocking its
   * loop for a lone append's fsync holds back no frame, and saves the thread-pool round trip on
   * every member's path to its acknowledgement. A leader's appends to its followers leave in the
   * same turn as its flush, and their socket writes would wait behind an fsync on the loop. 0
   * (absent): no different bound. See docs/storage.md, "One write at concurrency 1".
   */
  readonly follower_inline_fsync_entries_max?: number;
  /**
   * The same bound while the member leads a group of one (setLeading, setGroupOfOne), where the
   * larger applies. A leader's fsyncs stay off the loop so that its appends to followers leave
   * while it syncs; alone, it sends nothing, and a lone write's only wait is its own fsync, to which
   * the thread pool adds a worker wakeup and a loop wakeup. What it costs: the loop serves nothing
   * (a read, /health) during that fsync, on a stalling disk for the stall. 0 (absent): no different
   * bound. See docs/storage.md, "One write at concurrency 1".
   */
  readonly single_member_inline_fsync_entries_max?: number;
  /**
   * Segments are made at their full size (segment_bytes_max) and records written over zeros, so an
   * fdatasync does not also commit a new file size (docs/storage.md, "Preallocated segments").
   * Absent: true. false: files grow with every write (the format-2 behaviour), for comparison.
   */
  readonly preallocate?: boolean;
}

export const defaultSegmentLogOptions: SegmentLogOptions = { segment_bytes_max: 64 * 1024 * 1024 };

/** The file operations whose failure the log must survive correctly; tests inject failing ones. */
export interface SegmentLogIo {
  fdatasync(fd: number): Promise<void>;
  fdatasyncSync(fd: number): void;
}

export interface OpenOptions {
  /** What to do with corruption found at open; a torn tail is always cut. Default refuse. */
  readonly on_damage?: DamagePolicy;
  readonly io?: SegmentLogIo;
}

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
/** Told when the log starts waiting for space (the error callers would get) and when space returned (undefined). */
export type SpaceListener = (full: WeftError | undefined) => void;

export class SegmentLog {
  private readonly segments: Segment[];
  private fd: number;
  private readonly pending: StoredEntry[] = [];
  /** The batch being written and fsynced; its entries are in neither `pending` nor the cache watermark. */
  private inflight: readonly StoredEntry[] = [];
  private waiters: { index: number; level: 'cache' | 'journal'; resolve: () => void; reject: (e: Error) => void }[] = [];
  private flushing = false;
  /**
   * Whether writes have been arriving together: the last flush wrote a batch of more than one entry,
   * or more than one batch (entries appended while a batch was being written). Then a new flush
   * waits one turn of the event loop so that proposals arriving in that turn's other callbacks join
   * its batch (group commit); otherwise a lone append is flushed at once, since nothing would join.
   * False at open.
   */
  private gathering = false;
  /**
   * Set when a spare was renamed into the newest segment and the directory not yet fsynced; the next
   * flush fsyncs the directory beside the file, so nothing in the segment is reported durable first.
   */
  private dir_unsynced = false;
  /** Undefined when preallocation is off. */
  private readonly spare: SegmentSpare | undefined;
  private closed = false;
  /** Set once, by the first failed write or fsync; never cleared (see fail). */
  private flushError: WeftError | undefined;
  private readonly listeners: DurabilityListener[] = [];
  /**
   * Set while a write or a new segment was refused for space and waits to be tried again (see
   * flush); cleared by the first batch made durable after. Nothing past the journal watermark is
   * reported durable meanwhile.
   */
  private noSpace: WeftError | undefined;
  private readonly spaceListeners: SpaceListener[] = [];
  /** Ends the wait between tries at once (close). */
  private wakeRetry: (() => void) | undefined;
  /** Set by close: a write refused for space is no longer waited on, it fails the log. */
  private closing = false;
  /**
   * Entries count and fsync count, for the group commit figures of the benchmarks; and how many
   * times the log started waiting for space.
   */
  /** `fsyncs_on_loop`: those of `fsyncs` made on the event loop's thread (the inline bounds). */
  readonly stats = { fsyncs: 0, entries_synced: 0, bytes_written: 0, no_space_waits: 0, fsyncs_on_loop: 0 };

  memoryIndex: number;
  cacheIndex: number;
  journalIndex: number;
  /** What open found and did: a torn tail cut, or (under truncate_and_report) corruption cut. */
  readonly recovery: RecoveryReport;

  private constructor(
    private readonly dir: string,
    private readonly options: SegmentLogOptions,
    segments: Segment[],
    recovery: RecoveryReport,
    private readonly io: SegmentLogIo,
  ) {
    this.segments = segments;
    this.recovery = recovery;
    this.spare = options.preallocate === false ? undefined : new SegmentSpare(dir, options.segment_bytes_max);
    const last = segments[segments.length - 1];
    assert(last !== undefined, 'a log has at least one segment');
    this.fd = openSync(last.path, 'r+');
    try {
      // The previous process may have crashed after writing and before its fdatasync: those bytes
      // sit in the page cache and would vanish on a power loss. Nothing is reported durable unsynced.
      io.fdatasyncSync(this.fd);
      fsyncDir(dir);
    } catch (e) {
      closeSync(this.fd);
      throw e;
    }
    this.memoryIndex = this.cacheIndex = this.journalIndex = last.last_index;
  }

  /**
   * Opens the log in `dir`, creating it when absent. A torn last write batch (a crash before its
   * fdatasync returned) is cut off; corruption of anything that was durable is refused as DATA_LOSS
   * (reason LOG_DAMAGED, metadata segment, offset, index), or cut and reported under
   * `on_damage: 'truncate_and_report'`. A segment of another format version is refused as
   * FAILED_PRECONDITION (LOG_FORMAT_UNSUPPORTED). See docs/storage.md.
   */
  static open(dir: string, options: SegmentLogOptions = defaultSegmentLogOptions, first_index = 1, open: OpenOptions = {}): SegmentLog {
    const size_bytes = options.preallocate === false ? 0 : options.segment_bytes_max;
    const { segments, report } = recoverSegments(dir, first_index, open.on_damage ?? 'refuse', size_bytes);
    return new SegmentLog(dir, options, segments.map((s) => ({ ...s, offsets: [...s.offsets] })), report, open.io ?? nodeIo);
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

  onSpace(listener: SpaceListener): void {
    this.spaceListeners.push(listener);
  }

  /** Next segments made ahead that the disk refused for space, since open. */
  get sparesRefused(): number {
    return this.spare?.refused_for_space ?? 0;
  }

  /** The error a write gets while this log waits for space; undefined while it writes. */
  get diskFull(): WeftError | undefined {
    return this.noSpace;
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

  /**
   * Whether this member leads (set by the member driver as its role changes): only a member that
   * does not lead uses follower_inline_fsync_entries_max. A log opens as not leading; a member that
   * leads says so before its first append as leader.
   */
  private leading = false;

  setLeading(leading: boolean): void {
    this.leading = leading;
  }

  /** Whether the member's group has no member but this one (set with setLeading, before each append). */
  private group_of_one = false;

  setGroupOfOne(alone: boolean): void {
    this.group_of_one = alone;
  }

  private inlineFsyncEntriesMax(): number {
    const own = this.options.inline_fsync_entries_max ?? 0;
    if (!this.leading) return Math.max(own, this.options.follower_inline_fsync_entries_max ?? 0);
    return this.group_of_one ? Math.max(own, this.options.single_member_inline_fsync_entries_max ?? 0) : own;
  }

  private scheduleFlush(): void {
    if (this.flushing || this.pending.length === 0) return;
    this.flushing = true;
    // While writes arrive together, one turn of the event loop lets concurrent proposals join this
    // batch; a lone write starts at once (in a microtask, so the rest of its caller's synchronous
    // appends still join). Whatever is appended while a batch is written forms the next batch. A
    // leader with followers always waits the turn: its appends to them leave at the end of this
    // turn (peer-link.ts), and they should not wait behind its writev and the fsync's handoff.
    if (this.gathering || (this.leading && !this.group_of_one)) setImmediate(() => void this.flush());
    else queueMicrotask(() => void this.flush());
  }

  /**
   * Writes and fsyncs what is pending, batch after batch. A batch or a new segment refused for space
   * is tried again, after a wait that doubles up to no_space_retry_ms_max, until space returns: the
   * batch is held in `inflight` and written whole again at the same offset (what part of it reached
   * the file is past the end of the log, and is a torn tail to a restart). Any other failure, and
   * every failed fsync, fails the log.
   */
  private async flush(): Promise<void> {
    let wait_ms = 0;
    let batches = 0;
    try {
      while (!this.closed) {
        try {
          // A new segment refused for space is made before the next batch.
          await this.maybeRoll();
          if (this.inflight.length === 0) {
            if (this.pending.length === 0) break;
            this.inflight = this.pending.splice(0, this.pending.length);
            batches++;
            this.gathering = this.inflight.length > 1 || batches > 1;
          }
          await this.persist(this.inflight);
          this.inflight = [];
          await this.maybeRoll();
        } catch (e) {
          if (!isNoSpace(e) || this.closing) throw e;
          this.waitingForSpace(e);
          wait_ms = nextRetryMs(wait_ms);
          await this.pause(wait_ms);
          continue;
        }
        wait_ms = 0;
        // A roll that waited for space, with nothing pending after it.
        if (this.noSpace !== undefined) this.spaceReturned();
      }
    } catch (e) {
      this.fail(e);
    } finally {
      this.flushing = false;
    }
  }

  /** Writes one batch and fsyncs it; the watermarks move as each step completes. */
  private async persist(batch: readonly StoredEntry[]): Promise<void> {
    await this.writeBatch(batch);
    // The write landed: the disk has space again (an fsync failing now fails the log, full or not).
    if (this.noSpace !== undefined) this.spaceReturned();
    this.cacheIndex = batch[batch.length - 1]!.index;
    this.notify();
    // A failed fdatasync is fatal to this log and never retried: the kernel may already have
    // dropped the dirty pages and marked them clean, so a retry could succeed over lost data.
    if (this.dir_unsynced) {
      // The first flush into a rotated-in segment: its name becomes durable with its first bytes.
      await fsyncing(() => Promise.all([this.io.fdatasync(this.fd), fsyncDirAsync(this.dir)]).then(() => undefined));
      this.dir_unsynced = false;
    } else if (batch.length <= this.inlineFsyncEntriesMax()) {
      fsyncingSync(() => this.io.fdatasyncSync(this.fd));
      this.stats.fsyncs_on_loop++;
    } else await fsyncing(() => this.io.fdatasync(this.fd));
    this.stats.fsyncs++;
    this.stats.entries_synced += batch.length;
    this.journalIndex = this.cacheIndex;
    this.notify();
  }

  private waitingForSpace(cause: unknown): void {
    if (this.noSpace !== undefined) return;
    this.noSpace = diskFull(this.dir, cause);
    this.stats.no_space_waits++;
    for (const listener of this.spaceListeners) listener(this.noSpace);
  }

  private spaceReturned(): void {
    this.noSpace = undefined;
    for (const listener of this.spaceListeners) listener(undefined);
  }

  /** Waits `ms` before the next try, or less if the log closes. */
  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.wakeRetry = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakeRetry = done;
    });
  }

  /**
   * A failed write or fsync leaves the file in an unknown state: the log takes no more writes and
   * every waiter is refused. Only a restart, which re-reads and re-verifies the files, recovers.
   */
  private fail(cause: unknown): WeftError {
    const detail = cause instanceof Error ? cause.message : String(cause);
    // Closed while waiting for space: the callers learn why their writes were never made durable.
    if (isNoSpace(cause)) this.flushError ??= diskFull(this.dir, cause);
    this.flushError ??= new WeftError('UNAVAILABLE', `the log in ${this.dir} failed to write or fsync (${detail}); it accepts no writes until restarted`, LOG_FAILED, { detail });
    this.notify();
    return this.flushError;
  }

  private async writeBatch(batch: readonly StoredEntry[]): Promise<void> {
    const segment = this.segments[this.segments.length - 1]!;
    const buffers: Uint8Array[] = [];
    let offset = segment.bytes;
    const offsets: number[] = [];
    // Every record names its batch's first entry: recovery's evidence of what was durable.
    const batch_first_index = batch[0]!.index;
    for (const entry of batch) {
      buffers.push(encodeRecordHeader(entry.index, entry.term, entry.data, batch_first_index), entry.data);
      offsets.push(offset);
      offset += RECORD_HEADER_BYTES + entry.data.byteLength;
    }
    const total = offset - segment.bytes;
    let written = 0;
    while (written < total) {
      // writev may write less than asked; continue from where it stopped. A small batch is copied
      // into the page cache on this thread (microseconds): a round trip through the thread pool
      // costs more than that, and it lies on every write's path to its fsync on every member.
      const rest = sliceBuffers(buffers, written);
      const at = segment.bytes + written;
      written += total - written <= sync_write_bytes_max ? writevSync(this.fd, rest, at) : await writevFd(this.fd, rest, at);
    }
    // Not push(...offsets): a batch of a few hundred thousand entries would overflow the stack.
    for (const o of offsets) segment.offsets.push(o);
    segment.bytes = offset;
    segment.last_index = batch[batch.length - 1]!.index;
    this.stats.bytes_written += total;
  }

  /**
   * Starts the next segment once this one is full. With a spare ready that is a header write and a
   * rename (microseconds; the directory is fsynced by the next flush, beside its fdatasync). A spare
   * still being made is waited for (it was started when this segment was half full, so only writes
   * that outpace a zero-fill ever wait): segment boundaries stay where the size bound puts them.
   * Without a spare (preallocation off, or its preparation failed) the segment is created here, on
   * the path of the writes that wait.
   */
  private async maybeRoll(): Promise<void> {
    const max = this.options.segment_bytes_max;
    const newest = (): Segment => this.segments[this.segments.length - 1]!;
    if (this.spare?.kind === 'none' && newest().bytes >= max / 2) this.spare.prepare();
    if (newest().bytes < max) return;
    if (this.spare?.kind === 'preparing') {
      await this.spare.settle();
      // Callers of sync() resumed meanwhile and may have truncated the log: judge it again.
      if (this.closed || newest().bytes < max) return;
    }
    const first_index = newest().last_index + 1;
    const path = join(this.dir, segmentName(first_index));
    // The new segment is opened before the old descriptor is closed: a creation refused for space
    // leaves the log writing where it was, and the roll is tried again (flush).
    if (this.spare?.take(first_index, path) === true) {
      this.dir_unsynced = true;
      this.replaceFd(openSync(path, 'r+'));
      this.segments.push({ first_index, path, last_index: first_index - 1, bytes: SEGMENT_HEADER_BYTES, offsets: [] });
      return;
    }
    const created = createSegment(this.dir, first_index, this.spare === undefined ? 0 : max);
    this.replaceFd(openSync(created.path, 'r+'));
    this.segments.push({ ...created, offsets: [] });
    // A failed preparation is tried again, once per rotation.
    this.spare?.prepare();
  }

  private replaceFd(fd: number): void {
    closeSync(this.fd);
    this.fd = fd;
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

  /** Reads one written entry and verifies both checksums and its index; DATA_LOSS if any fails. */
  private readOne(index: number): StoredEntry {
    const segment = this.segmentOf(index);
    const offset = segment.offsets[index - segment.first_index];
    assert(offset !== undefined, `no offset for entry ${index}`);
    const fd = (segment.read_fd ??= openSync(segment.path, 'r'));
    const head = Buffer.alloc(RECORD_HEADER_BYTES);
    const got = readSync(fd, head, 0, RECORD_HEADER_BYTES, offset);
    const header = got === RECORD_HEADER_BYTES ? decodeRecordHeader(head, 0) : undefined;
    if (header === undefined) throw damagedOnRead(segment, offset, index, 'record header unreadable or checksum mismatch');
    if (header.index !== index) throw damagedOnRead(segment, offset, index, `record holds entry ${header.index}`);
    const data = Buffer.alloc(header.payload_bytes);
    const read = readSync(fd, data, 0, header.payload_bytes, offset + RECORD_HEADER_BYTES);
    if (read !== header.payload_bytes || !payloadIntact(header, data)) throw damagedOnRead(segment, offset, index, 'record payload checksum mismatch');
    return { index, term: header.term, data };
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
      // Up to the end of the last record: the zeros of a preallocated segment are not read.
      const bytes = readPrefix(segment.path, segment.bytes);
      for (let i = 0; i < segment.offsets.length; i++) {
        const index = segment.first_index + i;
        if (index < from || index > this.cacheIndex) continue;
        const offset = segment.offsets[i]!;
        const check = verifyRecordAt(bytes, offset, index);
        if (check.kind === 'damaged') throw damagedOnRead(segment, offset, index, check.detail);
        const start = offset + RECORD_HEADER_BYTES;
        visit({ index, term: check.header.term, data: bytes.subarray(start, start + check.header.payload_bytes) });
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
      // Zeros over the removed records, not a shorter file: the end of the log is where zeros begin,
      // and a preallocated segment keeps its size.
      try {
        zeroRangeSync(this.fd, cut, segment.bytes);
        this.io.fdatasyncSync(this.fd);
      } catch (e) {
        throw this.fail(e);
      }
      segment.offsets.length = keep;
      segment.bytes = cut;
      segment.last_index = index - 1;
    }
    fsyncDir(this.dir);
    this.dir_unsynced = false;
    this.memoryIndex = this.cacheIndex = this.journalIndex = index - 1;
  }

  /** Deletes whole segments whose entries all lie at or below `index` (they are in a checkpoint). */
  compactTo(index: number): void {
    while (this.segments.length > 1 && this.segments[0]!.last_index <= index) {
      this.remove(this.segments.shift()!);
    }
    fsyncDir(this.dir);
  }

  /**
   * From now on a write refused for space fails the log (and its waiters) instead of waiting: the
   * member is stopping, and must not wait on a disk that may never empty.
   */
  stopWaitingForSpace(): void {
    this.closing = true;
    this.wakeRetry?.();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.spare?.cancel();
    this.stopWaitingForSpace();
    await this.sync().catch(() => undefined);
    this.closed = true;
    // A preparation under way writes into this folder; the caller may remove it once close returns.
    await this.spare?.settle();
    closeSync(this.fd);
    for (const segment of this.segments) {
      if (segment.read_fd !== undefined) closeSync(segment.read_fd);
      segment.read_fd = undefined;
    }
  }
}

/** Batches up to this size are written without leaving the event loop's thread (see writeBatch). */
const sync_write_bytes_max = 256 * 1024;
const writevP = promisify(writevCb);
const nodeIo: SegmentLogIo = { fdatasync: promisify(fdatasyncCb), fdatasyncSync };
async function writevFd(fd: number, buffers: Uint8Array[], position: number): Promise<number> {
  return (await writevP(fd, buffers, position)).bytesWritten;
}

function readPrefix(path: string, bytes: number): Buffer {
  const out = Buffer.alloc(bytes);
  const fd = openSync(path, 'r');
  try {
    let got = 0;
    for (let n = 1; got < bytes && n > 0; got += n) n = readSync(fd, out, got, bytes - got, got);
    return got < bytes ? out.subarray(0, got) : out;
  } finally {
    closeSync(fd);
  }
}

function damagedOnRead(segment: Segment, offset: number, index: number, detail: string): WeftError {
  const name = basename(segment.path);
  return new WeftError('DATA_LOSS', `log segment ${name} is damaged at byte ${offset} (entry ${index}): ${detail}`, LOG_DAMAGED, {
    segment: name,
    offset: String(offset),
    index: String(index),
    detail,
  });
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
