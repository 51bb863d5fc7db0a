import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync, renameSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { assert } from '../../common/assert.js';
import { WeftError } from '../../common/errors.js';
import { limitBytes, type Storage } from '../raft/storage.js';
import type { ConfState, Entry, HardState, Snapshot, SnapshotMeta } from '../raft/types.js';
import { EMPTY_HARD_STATE } from '../raft/types.js';
import { writeFileAtomic } from '../storage/atomic-file.js';
import { type DurabilityListener, SegmentLog, type SegmentLogOptions, type SpaceListener } from '../storage/segment-log.js';
import { diskFull, isNoSpace, nextRetryMs } from '../storage/no-space.js';
import { EMPTY_MEMBERSHIP, type MembershipSnapshot } from './membership.js';
import { decodeStored, encodeStored } from './stored-entry.js';

/**
 * The Raft Storage of one member on disk:
 * - `log/`: the entries, in a SegmentLog (a membership change is tagged, see stored-entry.ts);
 * - `raft-state`: the hard state {term, vote, commit}, replaced atomically (write, fsync, rename)
 *   whenever term or vote change;
 * - `raft-commit`: the commit index alone, overwritten in place (8 bytes, not fsynced) at every
 *   change, so a restarted process re-applies what committed, membership changes included, without
 *   waiting for a leader. After a power loss it may lag, which is safe. A group of one writes it at
 *   the end of the event-loop turn that moved the commit instead (setCommitWriteDeferred): its
 *   replies leave first, and after a crash it elects itself and commits its whole log again anyway;
 * - `raft-snapshots/snapshot-<index>.json`: the meta of a checkpoint (index, term, membership),
 *   written before the checkpoint itself, so the checkpoint a restart loads always has its meta.
 *
 * The term of every entry still in the log is kept in memory, so term() never reads a file.
 * Invariant: the log holds every entry in (snapshot index, lastIndex()]; entries at or below the
 * snapshot's index may still be there (they go when whole segments are compacted).
 */
export interface DiskStorageOptions {
  readonly segment: SegmentLogOptions;
  /** The index of the checkpoint the state machine was loaded from (0: none). */
  readonly checkpoint_index: number;
  /** Membership of a data directory written before membership was logged: the member alone. */
  readonly legacy_membership: MembershipSnapshot;
}

interface SnapshotFile extends SnapshotMeta {
  readonly membership: MembershipSnapshot;
}

/** Loads the application's snapshot data for the meta at `index` (a checkpoint), or undefined if gone. */
export type SnapshotDataSource = (meta: SnapshotFile) => Uint8Array | undefined;

export class DiskStorage implements Storage {
  private log: SegmentLog;
  private hard: HardState;
  /** The hard state as last written to disk; the commit in it may lag (a lower commit is safe). */
  private written: HardState;
  private snap: SnapshotFile;
  /** terms[i - termBase] is the term of entry i, for termBase <= i <= lastIndex(). */
  private terms: number[] = [];
  private termBase: number;
  private dataSource: SnapshotDataSource = () => undefined;
  /**
   * The newest entries as they were appended, so applying them once they commit (on a follower, an
   * append or two after they arrived) and resending them to a lagging follower read no file and
   * decode nothing. Invariant: contiguous, ending at lastIndex() when not empty; `recentBytes` is
   * the sum of their data lengths, at most recent_bytes_max past the newest append.
   */
  private recent: Entry[] = [];
  private recentBytes = 0;
  /** Told of every fsync, of whichever log is current: a snapshot from the leader replaces the log object. */
  private readonly durableListeners: DurabilityListener[] = [];
  /** The open `raft-commit` file. */
  private readonly commitFd: number;
  private readonly commitBuf = Buffer.alloc(8);
  /** The commit index as last written to `raft-commit`. */
  private commitWritten: number;
  /** Set while a write of `raft-commit` waits for the end of the turn (writeCommitLater). */
  private commitWriteQueued = false;
  /** Whether a commit-only change is written at the end of the turn rather than at once (a group of one). */
  private commitWriteDeferred = false;
  /** A failed write of `raft-commit`, thrown from the next setHardState, inside the Ready loop. */
  private commitWriteError: unknown = undefined;
  /** Told when this member's disk becomes full and when space returns, whichever file found it. */
  private readonly spaceListeners: SpaceListener[] = [];
  /** Set while the hard state, or a snapshot install, waits for space (untilSpace). */
  private writeNoSpace: WeftError | undefined;
  /** What the last space listener call said: listeners hear changes only. */
  private spaceReported: WeftError | undefined;
  /** Set by close: a hard state waiting for space gives up. */
  private closing = false;
  /**
   * The counters of the logs an installed snapshot replaced: the member's figures count for the
   * whole process (Prometheus counters never go back), whichever log object is current.
   */
  private readonly retiredStats = { fsyncs: 0, entries_synced: 0, bytes_written: 0, no_space_waits: 0, fsyncs_on_loop: 0 };
  /**
   * Writes of this member's own refused for space, since start: the hard state's and a snapshot
   * install's waits, and spares of replaced logs (see diskFullRefusals).
   */
  private ownRefusals = 0;

  private constructor(
    private readonly dir: string,
    private readonly options: DiskStorageOptions,
    log: SegmentLog,
    hard: HardState,
    snap: SnapshotFile,
  ) {
    this.log = log;
    this.hard = hard;
    this.written = hard;
    this.snap = snap;
    this.termBase = log.firstIndex;
    this.commitFd = openSync(join(dir, 'raft-commit'), existsSync(join(dir, 'raft-commit')) ? 'r+' : 'w+');
    this.commitWritten = hard.commit;
    log.onSpace(() => this.spaceChanged());
    log.scan(log.firstIndex, (e) => this.terms.push(e.term));
    assert(this.termBase + this.terms.length - 1 === log.lastIndex, 'every entry of the log was scanned');
  }

  static open(dir: string, options: DiskStorageOptions): DiskStorage {
    mkdirSync(join(dir, 'raft-snapshots'), { recursive: true });
    const snap = readSnapshotFile(dir, options);
    let log = SegmentLog.open(join(dir, 'log'), options.segment, snap.index + 1);
    if (log.lastIndex < snap.index || log.firstIndex > snap.index + 1 || divergesAt(log, snap)) {
      // A snapshot from the leader was installed and the crash came before the old log was replaced:
      // nothing in it follows the snapshot, so start the log again after it. So too when the old log
      // reaches past the snapshot but holds another term at its index (a deposed leader's entries):
      // kept, its entries up to the snapshot would be read, and sent by this member as a leader, as
      // the group's committed ones.
      log = resetLog(dir, log, options.segment, snap.index + 1);
    }
    const statePath = join(dir, 'raft-state');
    const stored = existsSync(statePath) ? (JSON.parse(readFileSync(statePath, 'utf8')) as Partial<HardState>) : undefined;
    const hard: HardState =
      stored === undefined
        ? EMPTY_HARD_STATE
        : {
            term: stored.term ?? 0,
            vote: stored.vote ?? 0,
            // A hard state from before commit was kept: on a member of one, the whole log committed.
            commit: stored.commit ?? log.lastIndex,
          };
    const commitPath = join(dir, 'raft-commit');
    const lastCommit = existsSync(commitPath) ? readCommitFile(commitPath) : 0;
    // What a checkpoint holds committed, even if the commit written beside it lags.
    const commit = Math.min(Math.max(hard.commit, lastCommit, snap.index), log.lastIndex);
    return new DiskStorage(dir, options, log, { ...hard, commit }, snap);
  }

  /** Supplies the data of the snapshot shipped to a member behind compaction (the newest checkpoint). */
  setSnapshotDataSource(source: SnapshotDataSource): void {
    this.dataSource = source;
  }

  // ---- Storage (what the core reads) ----

  initialState(): { hard_state: HardState; conf_state: ConfState } {
    return { hard_state: this.hard, conf_state: this.snap.membership.conf_state };
  }

  /** The index before the first entry the core may read: the snapshot's, or the oldest stored entry's. */
  private dummyIndex(): number {
    return this.termBase <= this.snap.index ? this.termBase : this.snap.index;
  }

  firstIndex(): number {
    return this.dummyIndex() + 1;
  }

  lastIndex(): number {
    return this.log.lastIndex;
  }

  term(i: number): number | undefined {
    if (i === this.snap.index) return this.snap.term;
    if (i < this.dummyIndex() || i < this.termBase || i > this.log.lastIndex) return undefined;
    return this.terms[i - this.termBase];
  }

  entries(lo: number, hi: number, bytes_max: number): Entry[] {
    assert(lo >= this.firstIndex(), `entries(${lo}) compacted: first index is ${this.firstIndex()}`);
    assert(hi <= this.lastIndex() + 1, `entries(..${hi}) beyond last index ${this.lastIndex()}`);
    if (lo >= hi) return [];
    const first_recent = this.recent[0]?.index;
    if (first_recent !== undefined && lo >= first_recent) {
      return limitBytes(this.recent.slice(lo - first_recent, hi - first_recent), bytes_max);
    }
    const out: Entry[] = [];
    let bytes = 0;
    // Read in small runs so a budget of a few entries does not read the whole range.
    for (let from = lo; from < hi; ) {
      const to = Math.min(hi - 1, from + 63);
      for (const s of this.log.read(from, to)) {
        out.push(decodeStored(s.index, s.term, s.data));
        bytes += s.data.byteLength;
      }
      if (bytes > bytes_max) break;
      from = to + 1;
    }
    return limitBytes(out, bytes_max);
  }

  snapshot(): Snapshot | undefined {
    const data = this.dataSource(this.snap);
    if (data === undefined) return undefined;
    return { meta: { index: this.snap.index, term: this.snap.term, conf_state: this.snap.membership.conf_state }, data };
  }

  // ---- what the driver writes ----

  get hardState(): HardState {
    return this.hard;
  }

  get snapshotMeta(): SnapshotFile {
    return this.snap;
  }

  get segmentLog(): SegmentLog {
    return this.log;
  }

  /**
   * Listens to the log's durability watermarks, across the log's replacement by an installed
   * snapshot. A listener registered on `segmentLog` itself went quiet at the first install: a member
   * that later led never counted its own fsyncs toward a commit (leader_self_ack 'on_persist'), so a
   * group of two voters stopped committing.
   */
  onDurable(listener: DurabilityListener): void {
    this.durableListeners.push(listener);
    this.log.onDurable(listener);
  }

  /** Listens to the disk filling and emptying, across the log's replacement (see onDurable). */
  onSpace(listener: SpaceListener): void {
    this.spaceListeners.push(listener);
  }

  /** The error a write gets while this member's disk is full (its log or hard state waits for space). */
  get diskFull(): WeftError | undefined {
    return this.log.diskFull ?? this.writeNoSpace;
  }

  private spaceChanged(): void {
    const now = this.diskFull;
    if ((now === undefined) === (this.spaceReported === undefined)) return;
    this.spaceReported = now;
    for (const listener of this.spaceListeners) listener(now);
  }

  /**
   * Times a write of the log or hard state met a full disk since start (each wait counted once as it
   * starts), next segments made ahead included: how often the member hit ENOSPC (chaos `diskfull`).
   */
  get diskFullRefusals(): number {
    return this.ownRefusals + this.stats.no_space_waits + this.log.sparesRefused;
  }

  /** The log's counters since this process opened it, across logs an installed snapshot replaced. */
  get stats(): SegmentLog['stats'] {
    const now = this.log.stats;
    const r = this.retiredStats;
    return {
      fsyncs: r.fsyncs + now.fsyncs,
      entries_synced: r.entries_synced + now.entries_synced,
      bytes_written: r.bytes_written + now.bytes_written,
      no_space_waits: r.no_space_waits + now.no_space_waits,
      fsyncs_on_loop: r.fsyncs_on_loop + now.fsyncs_on_loop,
    };
  }

  /**
   * Appends entries from a Ready, first cutting any stored suffix they replace. Entries at or
   * below the snapshot are committed and equal to what the snapshot holds; they are skipped.
   */
  async append(entries: readonly Entry[]): Promise<void> {
    const fresh = entries.filter((e) => e.index > this.snap.index);
    if (fresh.length === 0) return;
    const first = fresh[0]!.index;
    assert(first <= this.log.lastIndex + 1, `append at ${first} leaves a gap after ${this.log.lastIndex}`);
    if (first <= this.log.lastIndex) {
      // A new leader's entries replace ones this member held but never acknowledged as committed.
      await this.log.truncateFrom(first);
      this.terms.length = first - this.termBase;
      this.forgetRecentFrom(first);
    }
    this.log.append(fresh.map((e) => ({ index: e.index, term: e.term, data: encodeStored(e.type, e.data) })));
    for (const e of fresh) this.terms.push(e.term);
    this.remember(fresh);
  }

  private remember(fresh: readonly Entry[]): void {
    for (const e of fresh) {
      this.recent.push(e);
      this.recentBytes += e.data.byteLength;
    }
    if (this.recent.length <= recent_entries_max && this.recentBytes <= recent_bytes_max) return;
    // Drop the oldest down to half of each bound at once, so trimming is not paid on every append.
    let drop = 0;
    let bytes = this.recentBytes;
    while (drop < this.recent.length && (this.recent.length - drop > recent_entries_max / 2 || bytes > recent_bytes_max / 2)) {
      bytes -= this.recent[drop]!.data.byteLength;
      drop++;
    }
    this.recent = this.recent.slice(drop);
    this.recentBytes = bytes;
  }

  /** Forgets remembered entries at and after `index` (they were cut from the log). */
  private forgetRecentFrom(index: number): void {
    const first = this.recent[0]?.index;
    if (first === undefined || index > this.recent[this.recent.length - 1]!.index) return;
    const kept = Math.max(0, index - first);
    for (let i = kept; i < this.recent.length; i++) this.recentBytes -= this.recent[i]!.data.byteLength;
    this.recent.length = kept;
  }

  /**
   * Records the hard state. A change of term or vote is written and fsynced before this returns (a
   * vote must never be forgotten); a commit-only change rides along with the next such write.
   */
  setHardState(hs: HardState): void {
    if (this.commitWriteError !== undefined) throw this.commitWriteError;
    this.hard = hs;
    if (hs.term !== this.written.term || hs.vote !== this.written.vote) this.writeHardState();
    if (hs.commit === this.commitWritten) return;
    if (this.commitWriteDeferred) this.writeCommitLater();
    else this.writeCommit();
  }

  /**
   * A member alone in its group (the driver says so before each Ready) defers its commit writes to
   * the end of the turn. With other voters it does not: a member restarted after a crash could then
   * not re-apply on its own what the group committed in that turn until a leader tells it.
   */
  setCommitWriteDeferred(deferred: boolean): void {
    this.commitWriteDeferred = deferred;
  }

  /**
   * Writes the commit index once this turn's other work is done (setImmediate): a lone write's
   * reply leaves in this turn, and the 8-byte write, which nothing in a group of one waits for, no
   * longer comes before it. Several commits in one turn make one write.
   */
  private writeCommitLater(): void {
    if (this.commitWriteQueued) return;
    this.commitWriteQueued = true;
    setImmediate(() => {
      this.commitWriteQueued = false;
      try {
        this.writeCommit();
      } catch (e) {
        this.commitWriteError ??= e;
      }
    });
  }

  private writeCommit(): void {
    if (this.commitClosed || this.hard.commit === this.commitWritten) return;
    this.commitBuf.writeDoubleLE(this.hard.commit, 0);
    writeSync(this.commitFd, this.commitBuf, 0, 8, 0);
    this.commitWritten = this.hard.commit;
  }

  /** Set by close once `raft-commit` is closed: a write still queued does nothing. */
  private commitClosed = false;

  /**
   * setHardState, waiting for space when the disk is full (untilSpace). The caller sends nothing the
   * hard state promises meanwhile.
   */
  async persistHardState(hs: HardState): Promise<void> {
    await this.untilSpace(() => this.setHardState(hs));
  }

  /**
   * Runs `write` (which gives up whole when refused for space: an atomic file, a new log) until the
   * disk takes it: tried again after a wait doubling up to no_space_retry_ms_max, the member saying
   * its disk is full meanwhile. Throws what is not a full disk (a failed fsync among them: never
   * retried), and the full disk's error if the storage closes.
   */
  async untilSpace<T>(write: () => T): Promise<T> {
    let result: T;
    for (let wait_ms = 0; ; ) {
      try {
        result = write();
        break;
      } catch (e) {
        if (!isNoSpace(e)) throw e;
        const full = diskFull(this.dir, e);
        if (this.closing) throw full;
        if (this.writeNoSpace === undefined) this.ownRefusals++;
        this.writeNoSpace ??= full;
        this.spaceChanged();
        wait_ms = nextRetryMs(wait_ms);
        await new Promise((resolve) => setTimeout(resolve, wait_ms));
      }
    }
    if (this.writeNoSpace !== undefined) {
      this.writeNoSpace = undefined;
      this.spaceChanged();
    }
    return result;
  }

  private writeHardState(): void {
    writeFileAtomic(join(this.dir, 'raft-state'), Buffer.from(JSON.stringify(this.hard)));
    this.written = this.hard;
  }

  /** Resolves once every appended entry is fsynced. */
  sync(): Promise<void> {
    return this.log.sync();
  }

  /**
   * Records the meta of a checkpoint about to be written at `index` (already applied and committed).
   * Written first: the checkpoint a restart finds always has its meta.
   */
  recordCheckpoint(index: number, membership: MembershipSnapshot): void {
    const term = this.term(index);
    assert(term !== undefined, `no term known for checkpoint index ${index}`);
    const file: SnapshotFile = { index, term, conf_state: membership.conf_state, membership };
    writeFileAtomic(snapshotPath(this.dir, index), Buffer.from(JSON.stringify(file)));
    this.snap = file;
  }

  /** Entries at or below `index` are in a checkpoint; whole segments below it go, with older metas. */
  compactTo(index: number): void {
    this.log.compactTo(index);
    const dropped = this.log.firstIndex - this.termBase;
    if (dropped > 0) {
      this.terms = this.terms.slice(dropped);
      this.termBase = this.log.firstIndex;
    }
    for (const name of readdirSync(join(this.dir, 'raft-snapshots'))) {
      const at = Number.parseInt(name.replace(/^snapshot-/, ''), 10);
      if (Number.isSafeInteger(at) && at < index) unlinkSync(join(this.dir, 'raft-snapshots', name));
    }
  }

  /**
   * A snapshot received from the leader, in three steps a crash may interrupt anywhere:
   * 1. recordSnapshot writes its meta (a restart ignores it until its checkpoint exists);
   * 2. the caller stores the snapshot's data as its newest checkpoint;
   * 3. installSnapshot starts the log again after it (a restart that finds the checkpoint but an old
   *    log ending before it does this itself, see open()).
   */
  recordSnapshot(meta: SnapshotMeta, membership: MembershipSnapshot): void {
    const file: SnapshotFile = { index: meta.index, term: meta.term, conf_state: meta.conf_state, membership };
    writeFileAtomic(snapshotPath(this.dir, meta.index), Buffer.from(JSON.stringify(file)));
  }

  async installSnapshot(meta: SnapshotMeta, membership: MembershipSnapshot): Promise<void> {
    const file: SnapshotFile = { index: meta.index, term: meta.term, conf_state: meta.conf_state, membership };
    this.snap = file;
    await this.log.close();
    const old = this.log.stats;
    this.retiredStats.fsyncs += old.fsyncs;
    this.retiredStats.entries_synced += old.entries_synced;
    this.retiredStats.bytes_written += old.bytes_written;
    this.retiredStats.no_space_waits += old.no_space_waits;
    this.retiredStats.fsyncs_on_loop += old.fsyncs_on_loop;
    this.ownRefusals += this.log.sparesRefused;
    // The checkpoint is in place (the caller installed it): the old log is not needed, and a new one
    // the disk refused is made again, whole, once there is space (a restart meanwhile starts it too).
    this.log = await this.untilSpace(() => resetLog(this.dir, undefined, this.options.segment, meta.index + 1));
    for (const listener of this.durableListeners) this.log.onDurable(listener);
    this.log.onSpace(() => this.spaceChanged());
    this.recent = [];
    this.recentBytes = 0;
    this.terms = [];
    this.termBase = meta.index + 1;
    this.hard = { ...this.hard, commit: Math.max(this.hard.commit, meta.index) };
    await this.untilSpace(() => this.writeHardState());
  }

  /** The member is stopping: writes waiting for space fail rather than wait (SegmentLog.stopWaitingForSpace). */
  stopWaitingForSpace(): void {
    this.closing = true;
    this.log.stopWaitingForSpace();
  }

  async close(): Promise<void> {
    this.stopWaitingForSpace();
    await this.log.close();
    if (this.hard.commit !== this.written.commit) this.writeHardState();
    this.writeCommit();
    this.commitClosed = true;
    closeSync(this.commitFd);
  }
}

/** Bounds of the remembered newest entries (see DiskStorage.recent). */
const recent_entries_max = 8192;
const recent_bytes_max = 16 * 1024 * 1024;

/**
 * Writes the meta of a checkpoint into a data directory no member has opened yet (a restore): the
 * directory then opens as a group whose membership is `membership`, its log continuing after `index`.
 */
export function writeSnapshotMeta(dir: string, meta: SnapshotMeta, membership: MembershipSnapshot): void {
  mkdirSync(join(dir, 'raft-snapshots'), { recursive: true });
  const file: SnapshotFile = { index: meta.index, term: meta.term, conf_state: meta.conf_state, membership };
  writeFileAtomic(snapshotPath(dir, meta.index), Buffer.from(JSON.stringify(file)));
}

/**
 * Whether the log holds an entry at the snapshot's index of another term than the snapshot's. A
 * checkpoint of this member's own was taken from its log and agrees; one received from a leader
 * agrees whenever the log does up to there (Raft's log matching).
 */
function divergesAt(log: SegmentLog, snap: SnapshotFile): boolean {
  if (snap.index === 0 || snap.index < log.firstIndex || snap.index > log.lastIndex) return false;
  return log.read(snap.index, snap.index)[0]!.term !== snap.term;
}

/** The commit index in `raft-commit`; 0 when the file is short (never written, or torn). */
function readCommitFile(path: string): number {
  const bytes = readFileSync(path);
  if (bytes.byteLength < 8) return 0;
  const commit = bytes.readDoubleLE(0);
  return Number.isSafeInteger(commit) && commit > 0 ? commit : 0;
}

function snapshotPath(dir: string, index: number): string {
  return join(dir, 'raft-snapshots', `snapshot-${String(index).padStart(20, '0')}.json`);
}

function readSnapshotFile(dir: string, options: DiskStorageOptions): SnapshotFile {
  const index = options.checkpoint_index;
  const path = snapshotPath(dir, index);
  if (existsSync(path)) return JSON.parse(readFileSync(path, 'utf8')) as SnapshotFile;
  // Index 0 without a file: a member waiting to be joined, which knows no membership yet.
  if (index === 0) return { index: 0, term: 0, conf_state: EMPTY_MEMBERSHIP.conf_state, membership: EMPTY_MEMBERSHIP };
  // A checkpoint written before membership was logged: its log still holds the checkpoint's entry.
  const log = SegmentLog.open(join(dir, 'log'), options.segment);
  try {
    if (index < log.firstIndex || index > log.lastIndex) {
      throw new WeftError('DATA_LOSS', `checkpoint ${index} has no membership record and its log entry is gone`);
    }
    const term = log.read(index, index)[0]!.term;
    const membership = options.legacy_membership;
    return { index, term, conf_state: membership.conf_state, membership };
  } finally {
    void log.close();
  }
}

/** Moves the old log aside, starts an empty one at `first_index`, then removes the old one. */
function resetLog(dir: string, old: SegmentLog | undefined, segment: SegmentLogOptions, first_index: number): SegmentLog {
  if (old !== undefined) void old.close();
  const path = join(dir, 'log');
  const aside = join(dir, 'log.replaced');
  rmSync(aside, { recursive: true, force: true });
  if (existsSync(path)) renameSync(path, aside);
  const log = SegmentLog.open(path, segment, first_index);
  rmSync(aside, { recursive: true, force: true });
  return log;
}
