import { randomBytes } from 'node:crypto';
import { WeftError, aborted, unavailable } from '../common/errors.js';
import { assert } from '../common/assert.js';
import type { ConcernWait, RaftTiming } from '../log/driver/log-driver.js';
import { LogDriver } from '../log/driver/log-driver.js';
import type { MemberRecord } from '../log/driver/membership.js';
import type { PeerTransport } from '../log/transport/peer-transport.js';
import { ENGINE_FORMAT } from '../log/engine-format.js';
import type { Entry, Event, ExpectedVersion, GraphOp, GraphWrite, GraphWritePart, ReadCheck } from '../log/events.js';
import { HybridClock, systemClockMicros, type PhysicalClock } from '../log/hlc.js';
import { withComputedValues } from '../projections/computed/computed-view.js';
import { checkpointFiles, installCheckpointFile, loadCheckpoint, writeCheckpoint } from '../projections/checkpoint.js';
import type { Refusal } from '../projections/graph/graph-store.js';
import type { SnapshotView } from '../projections/graph/view.js';
import type { GraphReader } from '../projections/graph/view.js';
import type { BatchCommits, ProposedBatch } from '../query/execute/context.js';
import { WriteSet, type IdAllocator } from '../projections/graph/write-set.js';
import type { ApplyOutcome, CheckedWrite, StateMachine } from '../projections/state-machine.js';
import { DataDir } from './data-dir.js';
import { SnapshotPins } from './snapshot-pins.js';
import { runStepped } from './stepped.js';
import { isNoSpace } from '../log/storage/no-space.js';

/**
 * One member: its data directory, its log, its projections, and the write path of DESIGN 3. A write
 * is executed synchronously against the latest state (the leader's pending entries included), so its
 * outcome is known when it is proposed; it is applied at once as pending and answered once its write
 * concern holds.
 */
export interface DatabaseOptions {
  readonly data_dir: string;
  readonly node_id: number;
  readonly mvcc_retention_secs: number;
  readonly checkpoint_interval_entries: number;
  /** Longest time between checkpoints while entries arrive; absent: entries alone decide. */
  readonly checkpoint_interval_secs?: number;
  readonly log_segment_bytes_max: number;
  /** See SegmentLogOptions.inline_fsync_entries_max; absent: 0, every fsync in the thread pool. */
  readonly log_inline_fsync_entries_max?: number;
  /** See SegmentLogOptions.follower_inline_fsync_entries_max; absent: 0. */
  readonly log_follower_inline_fsync_entries_max?: number;
  /** See SegmentLogOptions.single_member_inline_fsync_entries_max; absent: 0. */
  readonly log_single_member_inline_fsync_entries_max?: number;
  /** Largest interval between fsyncs of a snapshot being received (snapshot-file-store.ts). */
  readonly snapshot_sync_bytes_max?: number;
  /**
   * What every form built for scanning and derived from one may hold, in MiB (`scan_cache_mb`); absent or
   * SCAN_CACHE_BY_GRAPH: sized by the graph (GraphStore.scanCache).
   */
  readonly scan_cache_mb?: number;
  readonly clock?: PhysicalClock;
  /** Raft timing and flow control; absent: the defaults of docs/configuration.md. */
  readonly raft?: RaftTiming;
  /** Form no group on a fresh data directory: wait to be joined by a leader (`join_wait`). */
  readonly join_wait?: boolean;
  /** This member's peer address and identity as recorded in the membership. */
  readonly self?: Omit<MemberRecord, 'node_id'>;
  /** The channel to the other members; absent: a member of one. */
  readonly transport?: PeerTransport;
  /** The engine format this member runs; absent: the release's own (docs/upgrades.md). */
  readonly engine_format?: number;
  /**
   * Whether close() checkpoints what committed since the last checkpoint; absent: it does. An
   * offline import leaves it to the next open (its entries are durable in the log; docs/import.md).
   */
  readonly checkpoint_at_close?: boolean;
}

const DEFAULT_TIMING: RaftTiming = { tick_ms: 100, election_ticks: 10, heartbeat_ticks: 1 };

export interface Receipt {
  /** Log index of the entry; 0 when nothing was written. */
  readonly index: number;
  /** commit_ts of the entry; 0 when nothing was written. */
  readonly commit_ts: number;
}

export interface WriteOptions {
  readonly concern: ConcernWait;
  readonly operation?: GraphWrite['operation'];
  readonly expect?: GraphWrite['expect'];
  readonly read_check?: GraphWrite['read_check'];
  /** Propose even when the write set is empty (a settled operation with nothing to create). */
  readonly always_propose?: boolean;
  /**
   * Epoch microseconds computed properties are evaluated at when the write reads nodes (a Cypher
   * statement that writes); absent: it reads stored values only (docs/computed-properties.md).
   */
  readonly computed_at_us?: number;
}

/** A write answered before its concern holds (Database.writeHeld). */
export interface HeldWrite<T> {
  readonly value: T;
  readonly receipt: Receipt;
  /**
   * Resolves once the write concern holds; rejects as `write` would then (leadership lost, the log
   * failed, the wait timed out). Nothing may be told of the write as done before it resolves.
   */
  readonly settled: Promise<void>;
}

const settled_already: Promise<void> = Promise.resolve();

export type CommitListener = (entries: readonly Entry[]) => void;

export class Database {
  private closing = false;
  private inflight = 0;
  private readonly drained: (() => void)[] = [];
  private lastCheckpointIndex: number;
  private lastCheckpointAt = Date.now();
  /** Checkpoints not written because the disk was full, since start (graphdb_checkpoints_refused_total). */
  checkpointsRefused = 0;
  /** After a checkpoint refused for space, none is tried before this time (ms since the epoch). */
  private checkpointRetryAt = 0;
  /**
   * Entries from this index on are in the log but not applied here (see appendUnapplied); infinite
   * while this member applies everything. Invariant: finite only once this member takes no writes.
   */
  private unappliedFrom = Number.POSITIVE_INFINITY;
  private readonly commitListeners: CommitListener[] = [];
  /** Sources of read indexes still in use (open transactions); the MVCC horizon stays below them. */
  private readonly pinSources: (() => number | undefined)[] = [];
  /** Leader-local id allocation: ids handed to write sets that have not committed yet are never reused. */
  private nextNodeId: number;
  private nextEdgeId: number;
  readonly ids: IdAllocator;
  /** Snapshots that sliced writes still read (writeSliced), held from collection like a paused read's. */
  private readonly writePins = new SnapshotPins();
  /** Inner transactions of `CALL { } IN TRANSACTIONS` begun on this member, for their names. */
  private innerTransactions = 0;
  /**
   * Refuses a write this member may not take though it leads (a member that does not run its group's
   * version, SPEC 9.4) by throwing; the event is the one about to be proposed, absent for a graph write.
   */
  writeGate: (event: Event | undefined) => void = () => {};
  /**
   * Set while the commit of a write in parts applies in steps (applyCommitPart): the state is then
   * half-applied, so no write executes and no entry applies until it settles. Invariant: `deferred`
   * is empty whenever this is undefined.
   */
  private stepping: Promise<void> | undefined;
  /** Log callbacks (commits, a lost lead) that came while `stepping`, run in order once it settles. */
  private readonly deferred: (() => void)[] = [];
  /**
   * False while `open` replays the log: every entry then applies in one go, so the state is whole
   * when `open` returns. After it, a commit part this member did not propose applies in steps.
   */
  private serving = false;

  /** Replaced whole when a snapshot from the leader is installed; read it through `sm`. */
  private machine: StateMachine;

  private constructor(
    readonly dataDir: DataDir,
    sm: StateMachine,
    readonly log: LogDriver,
    private readonly options: DatabaseOptions,
  ) {
    this.machine = sm;
    this.lastCheckpointIndex = sm.committedIndex;
    this.nextNodeId = sm.graph.nextNodeId;
    this.nextEdgeId = sm.graph.nextEdgeId;
    this.pinSources.push(() => this.writePins.oldest());
    sm.graph.oldestPinned = () => this.oldestPinned();
    this.ids = {
      nodeId: () => {
        this.nextNodeId = Math.max(this.nextNodeId, this.sm.graph.nextNodeId);
        return this.nextNodeId++;
      },
      edgeId: () => {
        this.nextEdgeId = Math.max(this.nextEdgeId, this.sm.graph.nextEdgeId);
        return this.nextEdgeId++;
      },
    };
  }

  get sm(): StateMachine {
    return this.machine;
  }

  static async open(options: DatabaseOptions): Promise<Database> {
    const dataDir = DataDir.open(options.data_dir, options.engine_format ?? ENGINE_FORMAT);
    try {
      const sm = loadCheckpoint(dataDir.checkpointDir);
      const clock = new HybridClock(options.clock ?? systemClockMicros);
      clock.observe(sm.clock.lastTs);
      const log = await LogDriver.open(dataDir.logDir, {
        node_id: options.node_id,
        clock,
        segment: { segment_bytes_max: options.log_segment_bytes_max, inline_fsync_entries_max: options.log_inline_fsync_entries_max ?? 0 },
        follower_inline_fsync_entries_max: options.log_follower_inline_fsync_entries_max ?? 0,
        single_member_inline_fsync_entries_max: options.log_single_member_inline_fsync_entries_max ?? 0,
        checkpoint_index: sm.committedIndex,
        checkpoint_ts: sm.clock.lastTs,
        timing: options.raft ?? DEFAULT_TIMING,
        join_wait: options.join_wait ?? false,
        self: { node_id: options.node_id, address: options.self?.address ?? '', identity: options.self?.identity ?? '' },
        ...(options.transport !== undefined ? { transport: options.transport } : {}),
        ...(options.snapshot_sync_bytes_max !== undefined ? { snapshot_sync_bytes_max: options.snapshot_sync_bytes_max } : {}),
      });
      assert(log.firstIndex <= sm.committedIndex + 1, `the log starts at ${log.firstIndex}, after checkpoint ${sm.committedIndex}`);
      sm.graph.scanCache.limit_bytes = scanCacheBytes(options.scan_cache_mb);
      const db = new Database(dataDir, sm, log, options);
      log.setSnapshotSource((index) => checkpointFiles(dataDir.checkpointDir, index));
      log.snapshotTs = () => db.sm.clock.lastTs;
      // Committed entries after the checkpoint replay through the driver (membership changes too); a
      // member that is its group's only voter leads before start() returns, its term's no-op applied.
      await log.start({
        apply: (entries) => db.onCommitted(entries),
        leadershipLost: () => db.onLeadershipLost(),
        installSnapshot: (index, path, companions) => db.installSnapshot(index, path, companions),
      });
      db.nextNodeId = db.sm.graph.nextNodeId;
      db.nextEdgeId = db.sm.graph.nextEdgeId;
      db.serving = true;
      if (db.sm.deployment === undefined && log.acceptsWrites) {
        await db.submit({ kind: 'deployment_formed', deployment: randomBytes(16), engine_format: options.engine_format ?? ENGINE_FORMAT }, journaled);
      }
      return db;
    } catch (e) {
      dataDir.release();
      throw e;
    }
  }

  get deployment(): Uint8Array {
    if (this.sm.deployment === undefined) {
      throw unavailable('this member has not joined a group yet; call JoinNode on the group\'s leader', 'NOT_JOINED');
    }
    return this.sm.deployment;
  }

  get committedIndex(): number {
    return this.sm.committedIndex;
  }

  /** Calls `listener` with every batch of committed entries, after they are applied; returns the unsubscribe. */
  onCommit(listener: CommitListener): () => void {
    this.commitListeners.push(listener);
    return () => {
      const i = this.commitListeners.indexOf(listener);
      if (i >= 0) this.commitListeners.splice(i, 1);
    };
  }

  get logFirstIndex(): number {
    return this.log.firstIndex;
  }

  readEntry(index: number): Entry {
    return this.log.read(index, index)[0]!;
  }

  /** The oldest read index any source holds pinned, or undefined when none does. */
  private oldestPinned(): number | undefined {
    let oldest: number | undefined;
    for (const source of this.pinSources) {
      const pinned = source();
      if (pinned !== undefined && (oldest === undefined || pinned < oldest)) oldest = pinned;
    }
    return oldest;
  }

  /** Registers a source of pinned read indexes that must stay readable. */
  pinSource(source: () => number | undefined): void {
    this.pinSources.push(source);
  }

  /** Committed entries reach here in log order: the leader's own were applied already as pending. */
  private onCommitted(committed: readonly Entry[]): void {
    if (this.stepping !== undefined) {
      this.deferred.push(() => this.onCommitted(committed));
      return;
    }
    const entries = committed[committed.length - 1]!.index < this.unappliedFrom ? committed : committed.filter((e) => e.index < this.unappliedFrom);
    if (entries.length === 0) return;
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i]!;
      if (entry.index <= this.sm.appliedIndex) this.sm.commit(entry.index);
      else if (this.serving && isCommitPart(entry)) {
        // A follower's commit part (the leader applied its own as pending already): in steps, as
        // the leader did, with the entries before it reported now and those after it once it ends.
        const before = entries.slice(0, i);
        if (before.length > 0) for (const listener of this.commitListeners) listener(before);
        void this.applyCommittedInSteps(entry, entries.slice(i + 1));
        return;
      } else this.sm.apply(entry, true);
    }
    for (const listener of this.commitListeners) listener(entries);
    this.maintain();
  }

  /**
   * Applies a committed commit part in steps, holding writes and log callbacks as applyCommitPart
   * does; readers read committed state, which moves to the entry's index only after its last step.
   * Then the entries after it in the same batch, then the callbacks that came meanwhile, in order.
   */
  private async applyCommittedInSteps(entry: Entry, after: readonly Entry[]): Promise<void> {
    let settled = (): void => {};
    this.stepping = new Promise<void>((resolve) => (settled = resolve));
    try {
      await runStepped(this.sm.applyInSteps(entry, true), commit_slice_ms);
    } finally {
      this.stepping = undefined;
      settled();
    }
    for (const listener of this.commitListeners) listener([entry]);
    if (after.length > 0) this.onCommitted(after);
    else this.maintain();
    // If `after` began another commit part, these defer themselves again behind it, in order.
    for (const callback of this.deferred.splice(0)) callback();
  }

  /**
   * This member stopped leading: its pending entries are undone. Those that reached the new leader
   * commit later and are applied again then; their callers were told the outcome is unknown.
   */
  private onLeadershipLost(): void {
    if (this.stepping !== undefined) {
      this.deferred.push(() => this.onLeadershipLost());
      return;
    }
    if (this.sm.appliedIndex > this.sm.committedIndex) this.sm.rollbackAfter(this.sm.committedIndex);
  }

  /** Replaces the whole state with a checkpoint shipped by the leader (this member fell behind compaction). */
  private async installSnapshot(index: number, path: string, companions: readonly string[]): Promise<void> {
    // Not under a commit part applying in steps: it would go on changing the state being replaced.
    while (this.stepping !== undefined) await this.stepping;
    installCheckpointFile(this.dataDir.checkpointDir, index, path, companions);
    const sm = loadCheckpoint(this.dataDir.checkpointDir);
    assert(sm.committedIndex === index, `installed checkpoint ${index} loaded as ${sm.committedIndex}`);
    sm.graph.scanCache.limit_bytes = scanCacheBytes(this.options.scan_cache_mb);
    sm.graph.oldestPinned = () => this.oldestPinned();
    this.machine = sm;
    this.lastCheckpointIndex = index;
    await Promise.resolve();
  }

  /** Moves the MVCC horizon with the retention window and checkpoints every so many entries. */
  private maintain(): void {
    const committed = this.sm.committedIndex;
    const retention_us = this.options.mvcc_retention_secs * 1_000_000;
    let horizon = this.sm.clock.indexAt(this.sm.clock.lastTs - retention_us, committed);
    for (const source of this.pinSources) {
      const pinned = source();
      if (pinned !== undefined && pinned < horizon) horizon = pinned;
    }
    // Forms superseded by writes go once no pinned reader is older than the write.
    this.sm.graph.sweepSuperseded();
    if (horizon > this.sm.graph.horizonIndex) {
      this.sm.advanceHorizon(horizon);
      this.sm.clock.forgetBefore(horizon);
    }
    const behind = committed - this.lastCheckpointIndex;
    const interval_ms = (this.options.checkpoint_interval_secs ?? Number.POSITIVE_INFINITY) * 1000;
    if (behind >= this.options.checkpoint_interval_entries || (behind > 0 && Date.now() - this.lastCheckpointAt >= interval_ms)) {
      this.checkpointUnlessFull();
    }
  }

  /**
   * Writes a checkpoint of committed state. Log segments are dropped only up to the previous
   * checkpoint, so a damaged newest checkpoint still has an older one and the log after it.
   */
  checkpoint(): void {
    // The parts of an open write live only in memory: a checkpoint past them would lose them at restart.
    if (this.sm.writeParts.size > 0) return;
    const previous = this.lastCheckpointIndex;
    this.log.recordCheckpoint(this.sm.committedIndex);
    writeCheckpoint(this.dataDir.checkpointDir, this.sm);
    this.lastCheckpointIndex = this.sm.committedIndex;
    this.lastCheckpointAt = Date.now();
    if (previous > 0) this.log.compactTo(previous);
  }

  /**
   * checkpoint(), except that a disk too full to hold it is not a failure of the member: the
   * checkpoint is given up whole (no compaction, the log keeps every entry since the last one, a
   * restart replays them), reported on stderr and counted, and not tried again for
   * checkpoint_no_space_retry_ms unless `now`.
   */
  private checkpointUnlessFull(now = false): void {
    if (!now && Date.now() < this.checkpointRetryAt) return;
    try {
      this.checkpoint();
    } catch (e) {
      if (!isNoSpace(e)) throw e;
      this.checkpointsRefused++;
      this.checkpointRetryAt = Date.now() + checkpoint_no_space_retry_ms;
      const detail = e instanceof Error ? e.message : String(e);
      process.stderr.write(`weft: checkpoint at index ${this.sm.committedIndex} not written, the disk is full (${detail}); the log keeps every entry since index ${this.lastCheckpointIndex}\n`);
    }
  }

  // ---- reads ----

  /** Committed state as of now (LOCAL and MAJORITY on a member of one). */
  latestCommitted(): SnapshotView {
    return this.sm.committedView();
  }

  /**
   * The committed state as of `ts` (SNAPSHOT reads, AS OF TIMESTAMP). A time before the retention
   * horizon fails UNAVAILABLE.
   */
  viewAtTimestamp(ts: number): SnapshotView {
    const oldest = this.oldestReadableTs();
    if (ts < oldest) {
      throw unavailable(`timestamp ${ts} is older than the MVCC retention window (oldest readable ${oldest})`, 'SNAPSHOT_TOO_OLD', {
        oldest_readable_ts: String(oldest),
      });
    }
    return this.sm.viewAt(this.sm.clock.indexAt(ts, this.sm.committedIndex));
  }

  /** The oldest commit_ts a time-travel read may name: the retention window, or what collection left. */
  oldestReadableTs(): number {
    const horizon = this.sm.graph.horizonIndex;
    const collected = horizon > 0 ? (this.sm.clock.tsOf(horizon) ?? 0) : 0;
    return Math.max(collected, this.sm.clock.lastTs - this.options.mvcc_retention_secs * 1_000_000);
  }

  /** The committed state at a past read index (a pinned page of results), if still retained. */
  viewAtIndex(index: number): SnapshotView {
    if (index < this.sm.graph.horizonIndex || index > this.sm.committedIndex) {
      throw unavailable(`log index ${index} is outside the MVCC retention window`, 'SNAPSHOT_TOO_OLD');
    }
    return this.sm.viewAt(index);
  }

  /** The commit_ts of the last committed entry: a snapshot anchor. */
  get lastCommittedTs(): number {
    return this.sm.clock.tsOf(this.sm.committedIndex) ?? 0;
  }

  // ---- writes ----

  /**
   * Runs `build` against the latest state in a fresh write set, proposes the net effect as one entry,
   * and resolves when the write concern holds. `build` runs synchronously: no other write interleaves.
   */
  async write<T>(build: (ws: WriteSet) => T, options: WriteOptions): Promise<{ value: T; receipt: Receipt }> {
    const held = await this.writeHeld(build, options);
    await held.settled;
    return { value: held.value, receipt: held.receipt };
  }

  /**
   * write(), answered before its concern holds: once the write is proposed and its entry written to
   * this member's log file (its fsync under way), or its concern held, whichever is first. The
   * caller builds its reply during the fsync and sends it only once `settled` resolves. A refused
   * write throws here, as write() does.
   */
  async writeHeld<T>(build: (ws: WriteSet) => T, options: WriteOptions): Promise<HeldWrite<T>> {
    // Looked at again after the await: a commit may have begun to apply in steps since admitWrite did.
    do await this.admitWrite();
    while (this.stepping !== undefined);
    const latest = this.sm.latestView();
    const ws = new WriteSet(options.computed_at_us === undefined ? latest : withComputedValues(latest, this.sm.schema.catalog, options.computed_at_us), this.ids, false);
    // The write is executed against state that may include entries not yet committed (DESIGN 3.2).
    // An answer that writes nothing (a refusal, a compare that did not match, a failed statement)
    // still tells the caller what it saw: it is given only once what it saw committed, so a read
    // that comes after it sees at least as much (what the chaos harness's compare-and-set found).
    const seen = this.sm.appliedIndex;
    let value: T;
    try {
      value = build(ws);
    } catch (e) {
      await this.settleSeen(seen, options.concern);
      throw e;
    }
    const ops = ws.ops();
    if (ops.length === 0 && options.always_propose !== true && options.operation === undefined && options.expect === undefined) {
      await this.settleSeen(seen, options.concern);
      return { value, receipt: { index: 0, commit_ts: 0 }, settled: settled_already };
    }
    const event: GraphWrite = {
      kind: 'graph_write',
      ops,
      ...(options.operation !== undefined ? { operation: options.operation } : {}),
      ...(options.expect !== undefined ? { expect: options.expect } : {}),
      ...(options.read_check !== undefined ? { read_check: options.read_check } : {}),
    };
    const proposed = this.proposeAdmitted(event, options.concern);
    // A refusal is known now: it is this call's error.
    if (proposed.refused) await proposed.settled;
    const settled = proposed.settled.then(() => undefined);
    // A caller that fails before it awaits this (its reply could not be built) has told nobody the
    // write is done; the rejection is then nobody's to handle.
    settled.catch(() => {});
    // The entry's write to the file is the last step before its fsync starts (SegmentLog.persist).
    await Promise.race([this.log.whenWritten(proposed.index), settled]);
    return { value, receipt: { index: proposed.index, commit_ts: proposed.commit_ts }, settled };
  }

  /**
   * A write whose `build` may pause between time slices (a Cypher statement that writes): it reads the
   * latest state as of its start, pinned, with its reads recorded. Other writes commit during its
   * pauses; when one did, its entry carries a read check, so it is refused whole (ABORTED,
   * TRANSACTION_CONFLICT) if a node or relationship it read was written after its snapshot, as a
   * transaction's commit is. A build that fails, passes its deadline or is cancelled proposes nothing.
   */
  async writeSliced<T>(build: (ws: WriteSet) => Promise<T>, options: Pick<WriteOptions, 'concern' | 'computed_at_us'>): Promise<{ value: T; receipt: Receipt }> {
    do await this.admitWrite();
    while (this.stepping !== undefined);
    const seen = this.sm.appliedIndex;
    const seen_ts = this.sm.clock.tsOf(seen) ?? 0;
    const base = this.sm.viewAt(seen);
    const ws = new WriteSet(options.computed_at_us === undefined ? base : withComputedValues(base, this.sm.schema.catalog, options.computed_at_us), this.ids, true);
    const unpin = this.writePins.pin(seen);
    let value: T;
    let ops: GraphOp[];
    try {
      value = await build(ws);
      // Still pinned: turning updates into ops reads the snapshot's versions.
      ops = await runStepped(ws.opsInSteps(ops_step_items), commit_slice_ms);
    } catch (e) {
      unpin();
      await this.settleSeen(seen, options.concern);
      throw e;
    }
    unpin();
    if (ops.length === 0) {
      await this.settleSeen(seen, options.concern);
      return { value, receipt: { index: 0, commit_ts: 0 } };
    }
    if (ops.length > write_part_ops_max) {
      const commitCheck = (): ReadCheck | undefined => {
        const interleaved = this.sm.appliedIndex !== seen || (this.sm.clock.tsOf(seen) ?? 0) !== seen_ts;
        if (!interleaved) return undefined;
        const phantom = this.sm.graph.writtenSince(ws.scans, seen);
        if (phantom !== undefined) throw pausedConflict(phantom, seen);
        return { read_ts: seen_ts, node_ids: [...ws.readNodes], edge_ids: [...ws.readEdges] };
      };
      return { value, receipt: await this.submitInParts(ops, commitCheck, options.concern) };
    }
    // Nothing applied since the snapshot (its index and that entry's timestamp unchanged): the write
    // ran as if in one go, and needs no check.
    const interleaved = this.sm.appliedIndex !== seen || (this.sm.clock.tsOf(seen) ?? 0) !== seen_ts;
    if (interleaved) {
      // What it found by scanning a label or a type, or by walking a node's edges, may have grown or
      // shrunk meanwhile (a MERGE that found no node while another write created one): refused here,
      // at the leader, before anything is proposed. Ids it read are checked at apply (read_check).
      const phantom = this.sm.graph.writtenSince(ws.scans, seen);
      if (phantom !== undefined) {
        await this.settleSeen(this.sm.appliedIndex, options.concern);
        throw pausedConflict(phantom, seen);
      }
    }
    const event: GraphWrite = {
      kind: 'graph_write',
      ops,
      ...(interleaved ? { read_check: { read_ts: seen_ts, node_ids: [...ws.readNodes], edge_ids: [...ws.readEdges] } } : {}),
    };
    if (this.closing) throw unavailable('the server is shutting down; retry on another member or after restart', 'SHUTTING_DOWN');
    const receipt = await this.submitAdmitted(event, options.concern);
    return { value, receipt };
  }

  /**
   * A statement that commits in batches while it runs (`CALL { } IN TRANSACTIONS`, docs/cypher.md
   * 2.1). `build` runs as in writeSliced; `batches.commit()` proposes what the write set holds so far
   * as an entry of its own, checked as writeSliced checks a write that paused (a read check when
   * another write came between), waits for `concern`, and starts the write set over on the newest
   * state. What is left when `build` ends is the last entry. A failure leaves the batches committed
   * before it as they are: each is an entry of its own.
   */
  async writeInBatches<T>(build: (ws: WriteSet, batches: BatchCommits) => Promise<T>, options: Pick<WriteOptions, 'concern' | 'computed_at_us'>): Promise<{ value: T; receipt: Receipt }> {
    do await this.admitWrite();
    while (this.stepping !== undefined);
    const at = options.computed_at_us;
    const baseAt = (index: number): GraphReader => (at === undefined ? this.sm.viewAt(index) : withComputedValues(this.sm.viewAt(index), this.sm.schema.catalog, at));
    let seen = this.sm.appliedIndex;
    let seen_ts = this.sm.clock.tsOf(seen) ?? 0;
    // The statement's outer part may read its first snapshot to the end: pinned as long as it runs.
    const unpinFirst = this.writePins.pin(seen);
    let unpinBatch = (): void => {};
    const ws = new WriteSet(baseAt(seen), this.ids, true);
    let receipt: Receipt = { index: 0, commit_ts: 0 };
    const restart = (): void => {
      unpinBatch();
      seen = this.sm.appliedIndex;
      seen_ts = this.sm.clock.tsOf(seen) ?? 0;
      unpinBatch = this.writePins.pin(seen);
      ws.restart(baseAt(seen));
    };
    const check = (): ReadCheck | undefined => {
      if (this.sm.appliedIndex === seen && (this.sm.clock.tsOf(seen) ?? 0) === seen_ts) return undefined;
      const phantom = this.sm.graph.writtenSince(ws.scans, seen);
      if (phantom !== undefined) throw pausedConflict(phantom, seen);
      return { read_ts: seen_ts, node_ids: [...ws.readNodes], edge_ids: [...ws.readEdges] };
    };
    const propose = async (): Promise<ProposedBatch> => {
      try {
        const ops = await runStepped(ws.opsInSteps(ops_step_items), commit_slice_ms);
        if (ops.length === 0) return { index: 0, committed: Promise.resolve(0) };
        do await this.admitWrite();
        while (this.stepping !== undefined);
        if (ops.length > write_part_ops_max) {
          // A write in parts proposes its parts as it goes: it is committed before the next batch runs.
          receipt = await this.submitInParts(ops, check, options.concern);
          return { index: receipt.index, committed: Promise.resolve(receipt.index) };
        }
        const read_check = check();
        const proposed = this.proposeAdmitted({ kind: 'graph_write', ops, ...(read_check !== undefined ? { read_check } : {}) }, options.concern);
        // A refusal is known now, at the leader: it is this batch's error, not a later wait's.
        if (proposed.refused) await proposed.settled;
        const committed = proposed.settled.then((r) => {
          if (r.index > receipt.index) receipt = r;
          return r.index;
        });
        // Until the batch's owner waits for it, a failed wait must not go unhandled.
        committed.catch(() => {});
        return { index: proposed.index, committed };
      } finally {
        // The next batch reads the newest state, this batch's pending entry included.
        restart();
      }
    };
    const commit = async (): Promise<number> => (await propose()).committed;
    const batches: BatchCommits = {
      propose,
      rollback: async () => restart(),
      transactionId: () => `weft-transaction-${++this.innerTransactions}`,
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      now: () => Date.now(),
    };
    try {
      const value = await build(ws, batches);
      await commit();
      return { value, receipt };
    } catch (e) {
      await this.settleSeen(this.sm.appliedIndex, options.concern);
      throw e;
    } finally {
      unpinBatch();
      unpinFirst();
    }
  }

  /** Proposes one event, applies it as pending, and waits for the concern. A refused write throws. */
  async submit(event: Event, concern: ConcernWait): Promise<Receipt> {
    do await this.admitWrite(event);
    while (this.stepping !== undefined);
    return this.submitAdmitted(event, concern);
  }

  /**
   * Commits an interactive transaction's write set, checked at apply against `read_check` (and
   * `expect`). Its ops are built in steps, giving the event loop back every `commit_slice_ms`; the
   * caller keeps the write set's snapshot pinned until `built` is called. Past `write_part_ops_max` ops
   * and with nothing expected, it is proposed in parts like a large auto-committed write, so its
   * encoding, append and apply hold the event loop a step at a time; the commit part carries the
   * read check. A write with `expect` stays one entry: a part does not carry expectations.
   */
  async commitWriteSet(ws: WriteSet, read_check: ReadCheck, expect: readonly ExpectedVersion[], concern: ConcernWait, built: () => void): Promise<Receipt | undefined> {
    let ops: GraphOp[];
    try {
      ops = await runStepped(ws.opsInSteps(ops_step_items), commit_slice_ms);
    } finally {
      built();
    }
    if (ops.length === 0 && expect.length === 0) return undefined;
    if (ops.length > write_part_ops_max && expect.length === 0) return this.submitInParts(ops, () => read_check, concern);
    return this.submit({ kind: 'graph_write', ops, expect, read_check }, concern);
  }

  /**
   * Appends `event` to the log and waits for `concern` without applying it on this member, which
   * takes no writes after it: its state then stops short of its log, so it must be closed, and it
   * checkpoints only what it applied. The entry applies at the next open, by replay. An offline
   * import ends so (docs/import.md): the graph it would build here would only be thrown away. The
   * caller has checked that the entry applies (`apply` is deterministic, and nothing else writes).
   */
  async appendUnapplied(event: Event, concern: ConcernWait): Promise<Receipt> {
    do await this.admitWrite(event);
    while (this.stepping !== undefined);
    this.log.checkConcern(concern);
    const entry = this.log.propose(event);
    // Set before this turn ends: the entry commits (and would apply) no sooner than the log's next turn.
    this.unappliedFrom = entry.index;
    await this.log.awaitConcern(entry.index, concern);
    return { index: entry.index, commit_ts: entry.commit_ts };
  }

  /** submit() once admitted. */
  private async submitAdmitted(event: Event, concern: ConcernWait): Promise<Receipt> {
    return this.proposeAdmitted(event, concern).settled;
  }

  /**
   * Proposes an admitted event and applies it as pending, synchronously; `settled` waits for the
   * concern, or rejects with the refusal when the checks or the apply refused it (`refused`).
   */
  private proposeAdmitted(event: Event, concern: ConcernWait): { refused: boolean; index: number; commit_ts: number; settled: Promise<Receipt> } {
    this.log.checkConcern(concern);
    let checked: CheckedWrite | undefined;
    if (event.kind === 'graph_write') {
      const check = this.sm.checkProposal(event);
      if (check.status === 'refused') {
        const settled = this.settleSeen(this.sm.appliedIndex, concern).then((): never => {
          throw refusalError(check.refusal);
        });
        return { refused: true, index: 0, commit_ts: 0, settled };
      }
      checked = check.checked;
    }
    const entry = this.log.propose(event);
    const outcome = this.sm.apply(entry, false, checked);
    return { refused: outcome.status === 'refused', index: entry.index, commit_ts: entry.commit_ts, settled: this.settleProposed(entry, outcome, concern) };
  }

  /** A proposed entry applied here as pending: refused, it throws; else it waits for `concern`. */
  private async settleProposed(entry: Entry, outcome: ApplyOutcome, concern: ConcernWait): Promise<Receipt> {
    if (outcome.status === 'refused') {
      await this.settleSeen(entry.index, concern);
      throw refusalError(outcome.refusal);
    }
    await this.untilConcern(entry.index, concern);
    return { index: entry.index, commit_ts: entry.commit_ts };
  }

  /** Waits for `concern` on a proposed entry; counted in `inflight` from the call on, for close's drain. */
  private async untilConcern(index: number, concern: ConcernWait): Promise<void> {
    this.inflight++;
    try {
      await this.log.awaitConcern(index, concern);
      // A commit that applies in steps holds back the log's commits (`deferred`): answered before
      // they are applied, a caller's next read of committed state might not see its own write.
      while (this.stepping !== undefined) await this.stepping;
    } finally {
      this.inflight--;
      if (this.inflight === 0) for (const resolve of this.drained.splice(0)) resolve();
    }
  }

  /**
   * Waits until the entries up to `seen` hold the caller's concern, when some of them are still
   * pending; a leadership lost meanwhile fails the call (what it saw may be undone).
   */
  private async settleSeen(seen: number, concern: ConcernWait): Promise<void> {
    if (seen <= this.sm.committedIndex) return;
    await this.log.awaitConcern(seen, concern);
    while (this.stepping !== undefined) await this.stepping;
  }

  /** Writes enter only at a leader that applied its term's first entry; elsewhere they fail NOT_LEADER. */
  private async admitWrite(event?: Event): Promise<void> {
    if (this.closing) throw unavailable('the server is shutting down; retry on another member or after restart', 'SHUTTING_DOWN');
    if (this.unappliedFrom !== Number.POSITIVE_INFINITY) throw unavailable('this database stops short of its log (an import ended); open it again', 'SHUTTING_DOWN');
    this.writeGate(event);
    if (!this.log.acceptsWrites) await this.log.whenAcceptsWrites();
    while (this.stepping !== undefined) await this.stepping;
  }

  /**
   * Proposes a write set's ops as a write in parts of `write_part_ops_max` ops (GraphWritePart), giving
   * the event loop back between parts: each part is encoded and appended alone, and held by every
   * member without touching the graph, so writes that arrive meanwhile execute and commit before it
   * (on the state without it; the last part checks what the statement read, as writeSliced does for a
   * statement that paused). The last part commits the whole, applied here in steps (applyCommitPart).
   */
  private async submitInParts(ops: readonly GraphOp[], commitCheck: () => ReadCheck | undefined, concern: ConcernWait): Promise<Receipt> {
    this.log.checkConcern(concern);
    const parts = Math.ceil(ops.length / write_part_ops_max);
    let first = 0;
    let slice_end = performance.now() + commit_slice_ms;
    for (let part = 0; part < parts - 1; part++) {
      if (performance.now() >= slice_end) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        slice_end = performance.now() + commit_slice_ms;
      }
      // A write that stops here (shutdown, a lost lead) leaves its parts open: the next term drops them.
      do await this.admitWrite();
      while (this.stepping !== undefined);
      const entry = this.log.propose({ kind: 'graph_write_part', first, part, ops: ops.slice(part * write_part_ops_max, (part + 1) * write_part_ops_max) });
      this.sm.apply(entry, false);
      if (part === 0) first = entry.index;
    }
    do await this.admitWrite();
    while (this.stepping !== undefined);
    const last = parts - 1;
    let read_check: ReadCheck | undefined;
    try {
      read_check = commitCheck();
    } catch (e) {
      this.sm.apply(this.log.propose({ kind: 'graph_write_part', first, part: last, ops: [], end: 'abandon' }), false);
      await this.settleSeen(this.sm.appliedIndex, concern);
      throw e;
    }
    const event: GraphWritePart = {
      kind: 'graph_write_part',
      first,
      part: last,
      ops: ops.slice(last * write_part_ops_max),
      end: 'commit',
      ...(read_check !== undefined ? { read_check } : {}),
    };
    const entry = this.log.propose(event);
    return this.settleProposed(entry, await this.applyCommitPart(entry), concern);
  }

  /** Applies the commit of a write in parts in steps, holding writes and log callbacks until it ends. */
  private async applyCommitPart(entry: Entry): Promise<ApplyOutcome> {
    let settled = (): void => {};
    this.stepping = new Promise<void>((resolve) => (settled = resolve));
    try {
      return await runStepped(this.sm.applyInSteps(entry, false), commit_slice_ms);
    } finally {
      this.stepping = undefined;
      settled();
      for (const callback of this.deferred.splice(0)) callback();
    }
  }

  async enrollIssuer(issuer: Uint8Array, concern: ConcernWait): Promise<{ incarnation: number; next_sequence: number }> {
    await this.admitWrite();
    if (issuer.byteLength !== 16) {
      throw new WeftError('INVALID_ARGUMENT', `issuer must be 16 bytes, got ${issuer.byteLength}`);
    }
    while (this.stepping !== undefined) await this.admitWrite();
    const incarnation = this.sm.operations.nextIncarnation(issuer);
    await this.submitAdmitted({ kind: 'issuer_enrolled', issuer, incarnation }, concern);
    return { incarnation, next_sequence: 1 };
  }

  /**
   * Stops taking writes, lets the ones under way reach their concern (up to `drain_ms`), then
   * checkpoints and closes the log.
   */
  async close(drain_ms = 10_000): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    if (this.inflight > 0) {
      await Promise.race([
        new Promise<void>((resolve) => this.drained.push(resolve)),
        new Promise<void>((resolve) => setTimeout(resolve, drain_ms).unref()),
      ]);
    }
    // A commit part applying in steps ends first: the checkpoint below must not see it half-applied.
    while (this.stepping !== undefined) await this.stepping;
    await this.log.close();
    if (this.sm.committedIndex > this.lastCheckpointIndex && this.options.checkpoint_at_close !== false) this.checkpointUnlessFull(true);
    this.dataDir.release();
  }
}

/** How long after a checkpoint refused for space the next is tried (checkpointUnlessFull). */
const checkpoint_no_space_retry_ms = 5_000;
/** Entries of a write set turned into ops between two looks at the clock (writeSliced). */
const ops_step_items = 1024;
/** How long turning a write set into ops holds the event loop at a time, in ms (the statements' slice). */
const commit_slice_ms = 2;

/**
 * Ops of one part of a large write (submitInParts): a write set with more is proposed in parts. A part
 * takes a few ms to encode (a million ops took 2.9 s as one entry on a loaded 2-core machine), so
 * encoding and appending one holds the event loop for no longer.
 */
const write_part_ops_max = 2048;

const journaled: ConcernWait = { acks: 1, level: 'journal', timeout_ms: 0 };

/** The last part of a write in parts, whose apply checks and applies the whole write. */
function isCommitPart(entry: Entry): boolean {
  return entry.event.kind === 'graph_write_part' && entry.event.end === 'commit';
}

/**
 * The refusal of a statement that paused (time slices) while another write changed a label or type it
 * scanned (`phantom`) after its snapshot `seen`: the caller runs it again on a new snapshot.
 */
function pausedConflict(phantom: string, seen: number): WeftError {
  return aborted(`the statement paused and another write changed the nodes or relationships of ${phantom} it had read; retry it`, 'TRANSACTION_CONFLICT', {
    snapshot_index: String(seen),
    written: phantom,
  });
}

export function refusalError(refusal: Refusal): WeftError {
  return new WeftError(refusal.code, refusal.message, refusal.reason, refusal.metadata);
}

/** `scan_cache_mb` with this value (its default) sizes the scan cache by the graph. */
export const SCAN_CACHE_BY_GRAPH = -1;

/** The scan cache's limit in bytes for `scan_cache_mb`, or undefined to size it by the graph. */
function scanCacheBytes(mb: number | undefined): number | undefined {
  return mb === undefined || mb === SCAN_CACHE_BY_GRAPH ? undefined : mb * 1024 * 1024;
}
