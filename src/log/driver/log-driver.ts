import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../storage/atomic-file.js';
import { assert } from '../../common/assert.js';
import { WeftError, deadlineExceeded, invalidArgument, unavailable } from '../../common/errors.js';
import { encodePayload } from '../codec.js';
import type { Entry, Event, MembershipChanged } from '../events.js';
import type { HybridClock } from '../hlc.js';
import { RawNode, type Ready } from '../raft/raw-node.js';
import { decodeConfChange, encodeConfChange, type ConfChange } from '../raft/conf-change.js';
import type { Message, NodeId, Entry as RaftEntry, RandomInt, Role, Snapshot } from '../raft/types.js';
import { NONE } from '../raft/types.js';
import type { PeerAddress, PeerTransport } from '../transport/peer-transport.js';
import type { SegmentLogOptions, SpaceListener } from '../storage/segment-log.js';
import { DiskStorage } from './disk-storage.js';
import { toEvent, toEvents } from './entry-map.js';
import { MembershipDirectory } from './membership-directory.js';
import type { MemberRecord, MembershipSnapshot } from './membership.js';
import { decodeSnapshotRef, encodeSnapshotRef } from './shipped-snapshot.js';
import { SnapshotFileStore } from './snapshot-file-store.js';
import { ConcernWaiters } from './concern-waiters.js';
import { RemovalCheck } from './removed-member.js';
import { sendsBeforePersist } from './send-order.js';
import { ProposedEntries } from './proposed-entries.js';

/**
 * The member driver: runs the Raft core (RawNode) over the disk storage. It carries out each Ready in
 * the order the core requires (persist, then send, then apply), ticks the core from a timer, steps
 * messages from the peer transport into it, and answers write concerns from the storage watermarks
 * and the leader's view of its followers.
 */
export type JournalLevel = 'memory' | 'cache' | 'journal';

/** What a caller waits for before it is answered (SPEC WriteConcern, resolved to numbers). */
export interface ConcernWait {
  /** Members, leader included, that must hold the entry at `level`; 0 answers at once. */
  readonly acks: number;
  readonly level: JournalLevel;
  /** Give up waiting after this long; 0 waits without limit. The write is not undone. */
  readonly timeout_ms: number;
}

/** What the driver asks of the member's state machine. */
export interface ApplyTarget {
  /** Committed entries in log order (the leader's own were applied already as pending). */
  apply(entries: readonly Entry[]): void;
  /** This member stopped leading: entries applied as pending after `committed` must be undone. */
  leadershipLost(): void;
  /**
   * A snapshot from the leader: the state as of `index` is the checkpoint file at `path`, received
   * whole, CRC-checked and fsynced, with the files saved beside it (`companions`, vector graphs). The
   * target takes the files (moves them among its checkpoints) and replaces its state with them;
   * resolves when done.
   */
  installSnapshot(index: number, path: string, companions: readonly string[]): Promise<void>;
}

export interface RaftTiming {
  readonly tick_ms: number;
  readonly election_ticks: number;
  readonly heartbeat_ticks: number;
  /** Appends in flight per follower (flow control). */
  readonly inflight_msgs_max?: number;
  /** Bytes of entries in one append message. */
  readonly msg_bytes_max?: number;
}

export interface LogDriverOptions {
  readonly node_id: number;
  readonly clock: HybridClock;
  readonly segment: SegmentLogOptions;
  /** SegmentLogOptions.follower_inline_fsync_entries_max, when `segment` does not set it; absent: 0. */
  readonly follower_inline_fsync_entries_max?: number;
  /** SegmentLogOptions.single_member_inline_fsync_entries_max, when `segment` does not set it; absent: 0. */
  readonly single_member_inline_fsync_entries_max?: number;
  /** The index of the checkpoint the state machine was loaded from, and its last commit_ts. */
  readonly checkpoint_index: number;
  readonly checkpoint_ts: number;
  readonly timing: RaftTiming;
  /** Form nothing: wait to be joined by a group's leader (a new member). */
  readonly join_wait: boolean;
  /** This member's own peer address and identity, recorded when it founds a group. */
  readonly self: MemberRecord;
  readonly transport?: PeerTransport;
  readonly random_int?: RandomInt;
  /** Largest interval between fsyncs of a snapshot being received; snapshot_sync_bytes when absent. */
  readonly snapshot_sync_bytes_max?: number;
}

/** The unary peer call by which a leader introduces the group to a member it is about to join. */
const INTRODUCE_METHOD = 'weft.member.introduce';
/** The unary peer call by which a leader tells a member its removal committed. */
const REMOVED_METHOD = 'weft.member.removed';
/**
 * The unary peer call by which a member that hears no leader asks its peers whether it is still one
 * of them: a peer admits it and answers nothing, or refuses it MEMBER_REMOVED (removed-member.ts).
 */
const MEMBERSHIP_METHOD = 'weft.member.membership';

export class LogDriver {
  private readonly node: RawNode;
  private applyTarget: ApplyTarget | undefined;
  private appliedIndex: number;
  /** commit_ts of the entry at appliedIndex: the no-op after it is stamped from it. */
  private appliedTs: number;
  private readonly applyWaiters = new Map<number, (() => void)[]>();
  private readonly concerns = new ConcernWaiters(() => ({
    failure: this.failure,
    leading_term: this.isLeader ? this.node.raft.term : undefined,
    cache_index: this.storage.segmentLog.cacheIndex,
    applied_index: this.appliedIndex,
    durable_desc: this.durableDesc(),
  }));
  private readonly leaderWaiters: { resolve: () => void; reject: (e: Error) => void }[] = [];
  private running = false;
  private closed = false;
  private ticker: NodeJS.Timeout | undefined;
  /** The term this member leads in as the last Ready reported, and the index of that term's no-op. */
  private ledTerm = 0;
  /** What this leader proposed, not applied yet: applied as is when it commits. */
  private readonly proposed = new ProposedEntries();
  private termStart = 0;
  /** The role as the last Ready reported it (the core's own may have moved on since). */
  private role: Role = 'follower';
  readonly members: MembershipDirectory;
  /**
   * Where a client should retry at member `id`, as refusals name it (`leader_addr`). A server sets it
   * to the member's client (gRPC) address, '' while it does not know it; without a server (an
   * embedded group) the peer address is all there is.
   */
  clientAddressOf: (id: NodeId) => string = (id) => this.members.get(id)?.address ?? '';
  /** Why the Ready loop stopped, if it failed; every later write fails with it. */
  private failure: Error | undefined;

  private constructor(
    private readonly storage: DiskStorage,
    private readonly options: LogDriverOptions,
    /** Snapshots sent and received, streamed through files (snapshot-file-store.ts). */
    private readonly snapshotFiles: SnapshotFileStore,
    /** Where a leader's introduction is kept (`introduced`). */
    private readonly introducedPath: string,
  ) {
    this.introduced = readIntroduced(introducedPath);
    this.appliedIndex = Math.max(options.checkpoint_index, storage.snapshotMeta.index);
    this.appliedTs = options.checkpoint_ts;
    this.members = new MembershipDirectory(storage.snapshotMeta.membership);
    this.node = new RawNode(
      {
        id: options.node_id,
        election_ticks: options.timing.election_ticks,
        heartbeat_ticks: options.timing.heartbeat_ticks,
        random_int: options.random_int ?? ((n) => Math.floor(Math.random() * n)),
        applied: this.appliedIndex,
        pre_vote: true,
        check_quorum: true,
        // The leader counts its own entries only once fsynced, so its Ready loop never waits on its
        // own fsync: appends for new writes leave, and commits are applied, while it runs.
        leader_self_ack: 'on_persist',
        // A commit notice to a member holding the whole log goes unanswered: at one write at a time
        // the answers were a quarter of the leader's frames (docs/raft.md, "Quiet commit notices").
        quiet_commit_notices: true,
        ...(options.timing.inflight_msgs_max !== undefined ? { inflight_msgs_max: options.timing.inflight_msgs_max } : {}),
        ...(options.timing.msg_bytes_max !== undefined ? { msg_bytes_max: options.timing.msg_bytes_max } : {}),
      },
      storage,
    );
    storage.onDurable(({ journal }) => {
      this.node.persisted(journal);
      this.kick();
    });
  }

  /**
   * Opens the member's log under `dir`. A fresh directory founds a group of one (this member the
   * only voter) unless `join_wait` is set, in which case it forms nothing and waits for a leader.
   */
  static async open(dir: string, options: LogDriverOptions): Promise<LogDriver> {
    const legacy: MembershipSnapshot = {
      conf_state: { voters: [options.node_id], learners: [] },
      members: [options.self],
      departed: [],
    };
    const segment: SegmentLogOptions = {
      follower_inline_fsync_entries_max: options.follower_inline_fsync_entries_max ?? 0,
      single_member_inline_fsync_entries_max: options.single_member_inline_fsync_entries_max ?? 0,
      ...options.segment,
    };
    const storage = DiskStorage.open(dir, { segment, checkpoint_index: options.checkpoint_index, legacy_membership: legacy });
    if (storage.lastIndex() === 0 && storage.hardState.term === 0 && !options.join_wait) {
      await LogDriver.found(storage, options);
    } else if (storage.lastIndex() > 0 && storage.snapshotMeta.index === 0 && storage.hardState.term > 0) {
      // A log written before membership was logged starts without a membership entry: the member alone.
      const first = storage.entries(storage.firstIndex(), storage.firstIndex() + 1, 1)[0];
      if (first !== undefined && first.type === 'normal') {
        storage.recordCheckpoint(0, legacy);
      }
    }
    const last = storage.lastIndex();
    if (last >= storage.firstIndex()) {
      const entry = storage.entries(last, last + 1, Number.MAX_SAFE_INTEGER)[0]!;
      const mapped = toEvent(entry, options.checkpoint_ts);
      options.clock.observe(mapped.commit_ts);
    }
    return new LogDriver(storage, options, SnapshotFileStore.open(join(dir, 'snapshot-incoming'), options.snapshot_sync_bytes_max), join(dir, 'introduced.json'));
  }

  /** The founding entry of a new group: this member as its only voter, with its address. */
  private static async found(storage: DiskStorage, options: LogDriverOptions): Promise<void> {
    const event: MembershipChanged = {
      kind: 'membership_changed',
      change: 'add_voter',
      node_id: options.node_id,
      address: options.self.address,
      identity: options.self.identity,
    };
    const cc: ConfChange = { kind: 'add_voter', node: options.node_id, context: encodePayload({ commit_ts: options.clock.next(), event }) };
    // The membership before entry 1 applies, so the core counts this member as the voter it elects.
    storage.recordCheckpoint(0, { conf_state: { voters: [options.node_id], learners: [] }, members: [options.self], departed: [] });
    await storage.append([{ index: 1, term: 1, type: 'conf_change', data: encodeConfChange(cc) }]);
    await storage.sync();
    storage.setHardState({ term: 1, vote: 0, commit: 1 });
  }

  /**
   * Starts applying: committed entries after the checkpoint are replayed through `target` (membership
   * changes included), then the member follows the group. A member that is its group's only voter
   * campaigns at once, so it leads before this returns.
   */
  async start(target: ApplyTarget): Promise<void> {
    assert(this.applyTarget === undefined, 'the driver starts once');
    this.applyTarget = target;
    const t = this.options.transport;
    if (t !== undefined) {
      t.onRaftMessage((m) => this.step(m));
      t.onUnreachable((to) => {
        this.node.reportUnreachable(to);
        this.kick();
      });
      t.useSnapshotFiles(this.snapshotFiles);
      t.onSnapshotSent((to, ok) => {
        this.node.reportSnapshot(to, ok);
        this.kick();
      });
      t.handle(INTRODUCE_METHOD, async (_from, payload) => {
        // A member waiting to be joined knows nobody: the leader names the group's members so this
        // member can answer it before the log has taught it the membership.
        if (!this.knowsItself()) {
          this.introduced = JSON.parse(Buffer.from(payload).toString('utf8')) as MemberRecord[];
          // Kept on disk: a restart before the join entry applies must still admit the group.
          writeFileAtomic(this.introducedPath, Buffer.from(JSON.stringify(this.introduced)));
          this.bindPeers();
        }
        return new Uint8Array();
      });
      t.handle(REMOVED_METHOD, async () => {
        this.removedSelf = true;
        return new Uint8Array();
      });
      t.handle(MEMBERSHIP_METHOD, async () => new Uint8Array());
      this.bindPeers();
    }
    // Committed entries first: a member does not campaign with a membership change unapplied.
    this.kick();
    await this.idle();
    const cs = this.node.confState();
    const alone = cs.voters.length === 1 && cs.voters[0] === this.options.node_id;
    if (alone) {
      this.node.campaign();
      this.kick();
      await this.idle();
    }
    this.ticker = setInterval(() => {
      // A removed member is no longer counted by anyone: it campaigns and times out no more.
      if (this.removedSelf) return;
      this.node.tick();
      this.kick();
      this.removalCheck.tick();
      this.handOverIfDiskFull();
    }, this.options.timing.tick_ms);
    this.ticker.unref();
    if (alone) await this.whenAcceptsWrites();
    else if (t !== undefined) this.removalCheck.askNow();
  }

  private step(m: Message): void {
    if (this.closed || m.to !== this.options.node_id) {
      if (m.type === 'snap') void this.snapshotFiles.discard(m.snapshot.data);
      return;
    }
    this.node.step(m);
    // A snapshot the core did not take (not newer than what this member holds) leaves no file behind.
    if (m.type === 'snap' && this.node.raft.log.unstableSnapshot() !== m.snapshot) void this.snapshotFiles.discard(m.snapshot.data);
    else if (m.type === 'snap') this.snapshotTaken(m.snapshot.data);
    this.kick();
  }

  // ---- state ----

  get nodeId(): NodeId {
    return this.options.node_id;
  }

  get firstIndex(): number {
    return this.storage.firstIndex();
  }

  get lastIndex(): number {
    return this.storage.lastIndex();
  }

  get committedIndex(): number {
    return this.node.raft.log.committed;
  }

  get applied(): number {
    return this.appliedIndex;
  }

  get term(): number {
    return this.node.raft.term;
  }

  get leaderId(): NodeId {
    return this.node.raft.lead;
  }

  get isLeader(): boolean {
    return this.node.raft.role === 'leader';
  }

  get raftRole(): Role {
    return this.node.raft.role;
  }

  /** Leads, and has applied its term's first entry, so its state includes every committed write (DESIGN 3.3). */
  get acceptsWrites(): boolean {
    return this.isLeader && this.role === 'leader' && this.ledTerm === this.node.raft.term && this.appliedIndex >= this.termStart;
  }

  /** The log's counters for this process's lifetime (a snapshot install replaces the log, not them). */
  get storageStats(): DiskStorage['stats'] {
    return this.storage.stats;
  }

  /** Writes of the log or hard state that met a full disk, since start (DiskStorage.diskFullRefusals). */
  get diskFullRefusals(): number {
    return this.storage.diskFullRefusals;
  }

  /**
   * Set while this member's disk is full: its log or hard state waits for space, and it proposes
   * nothing (writes are refused with this error, RESOURCE_EXHAUSTED DISK_FULL). Undefined otherwise.
   */
  get diskFull(): WeftError | undefined {
    return this.storage.diskFull;
  }

  /** Told when the disk becomes full (the error) and when space returns (undefined). */
  onSpace(listener: SpaceListener): void {
    this.storage.onSpace(listener);
  }

  /** Why the Ready loop stopped (a failed fsync, say): the member takes no writes until restarted. */
  get failed(): Error | undefined {
    return this.failure;
  }

  /** Ticks left before a leader whose disk is full asks another voter to lead again. */
  private handOverWait = 0;

  /**
   * A leader whose disk is full cannot make its own log durable: the others still commit its
   * entries, but it takes no writes and would hold leadership for nothing. It hands leadership to
   * the most caught-up voter that answered lately, and asks again once per election timeout until
   * one takes it (a transfer refused or timed out ends by itself in the core).
   */
  private handOverIfDiskFull(): void {
    if (this.storage.diskFull === undefined || !this.isLeader) {
      this.handOverWait = 0;
      return;
    }
    if (this.handOverWait-- > 0) return;
    this.handOverWait = this.options.timing.election_ticks;
    let best: { id: NodeId; match: number } | undefined;
    for (const [id, pr] of this.progress()) {
      if (id === this.options.node_id || pr.is_learner || !pr.recent_active) continue;
      if (best === undefined || pr.match > best.match) best = { id, match: pr.match };
    }
    if (best === undefined) return;
    this.node.transferLeader(best.id);
    this.kick();
  }

  /** Voters and learners. */
  get membership(): MembershipSnapshot {
    return this.members.snapshot(this.node.confState());
  }

  /** The leader's view of each member's log: match index (fsynced there), and whether it answered lately. */
  progress(): ReadonlyMap<NodeId, { match: number; recent_active: boolean; is_learner: boolean }> {
    const out = new Map<NodeId, { match: number; recent_active: boolean; is_learner: boolean }>();
    if (!this.isLeader) return out;
    for (const [id, pr] of this.node.raft.tracker.progress) {
      const match = id === this.options.node_id ? this.storage.segmentLog.journalIndex : pr.match;
      out.set(id, { match, recent_active: pr.recent_active, is_learner: pr.is_learner });
    }
    return out;
  }

  /** Ticks since this member last heard from a leader (a follower's view of its leader's liveness). */
  get electionElapsedTicks(): number {
    return this.node.raft.election_elapsed;
  }

  /**
   * This member was removed from its group: it applied its own removal, or the leader that committed
   * it said so. It serves nothing more (the server refuses calls MEMBER_REMOVED); the others no
   * longer admit its identity. A member down while it was removed learns it from its peers when it
   * comes back (removed-member.ts).
   */
  get removed(): boolean {
    return this.removedSelf;
  }

  /** A member of more than one voter cannot answer from its own state alone. */
  get voterCount(): number {
    return this.node.confState().voters.length;
  }

  // ---- writes ----

  /** Resolves when this member leads and accepts writes; rejects NOT_LEADER when another member leads. */
  whenAcceptsWrites(): Promise<void> {
    if (this.acceptsWrites) return Promise.resolve();
    if (this.failure) return Promise.reject(this.failure);
    if (!this.isLeader) return Promise.reject(this.notLeader());
    return new Promise((resolve, reject) => this.leaderWaiters.push({ resolve, reject }));
  }

  notLeader(): WeftError {
    const lead = this.node.raft.lead;
    return unavailable(
      lead === NONE ? 'no leader is known; retry shortly' : `member ${this.options.node_id} does not lead; member ${lead} does`,
      'NOT_LEADER',
      { leader_id: String(lead), leader_addr: lead === NONE ? '' : this.clientAddressOf(lead) },
    );
  }

  /**
   * Stamps `event` with the next commit_ts and appends it through the core. The returned entry is the
   * proposer's to apply speculatively at once (DESIGN 3.2); it reaches the apply target again when it
   * commits. Refused (NOT_LEADER) unless this member accepts writes.
   */
  propose(event: Event): Entry {
    if (this.failure) throw this.failure;
    if (!this.acceptsWrites) throw this.notLeader();
    // Nothing is proposed that this member could not make durable: the caller may retry elsewhere.
    const full = this.storage.diskFull;
    if (full !== undefined) throw full;
    const commit_ts = this.options.clock.next();
    const data = encodePayload({ commit_ts, event });
    const result =
      event.kind === 'membership_changed'
        ? this.node.proposeConfChange({ kind: event.change, node: event.node_id, context: data })
        : this.node.propose(data);
    if (!result.ok) {
      if (result.refusal === 'conf_change_pending') throw unavailable('another membership change is under way; retry when it completes', 'CONF_CHANGE_PENDING');
      if (result.refusal === 'conf_change_invalid') throw invalidArgument(`membership change refused: ${event.kind === 'membership_changed' ? `${event.change} ${event.node_id}` : ''}`);
      throw this.notLeader();
    }
    this.kick();
    const entry: Entry = { index: result.index, term: result.term, commit_ts, event };
    // Kept for a group of one only for now: the replicated path's apply is left as it was.
    if (event.kind !== 'membership_changed' && this.memberCount === 1) this.proposed.remember(entry);
    return entry;
  }

  /** Members that can acknowledge a write: voters and learners. */
  get memberCount(): number {
    const cs = this.node.confState();
    return cs.voters.length + cs.learners.length;
  }

  /** Throws INVALID_ARGUMENT for a concern this group can never satisfy; called before proposing. */
  checkConcern(concern: ConcernWait): void {
    const members = this.memberCount;
    if (concern.acks > members) throw invalidArgument(`write concern acks ${concern.acks} exceeds the group's ${members} member(s)`);
  }

  /**
   * Resolves once entry `index` is written to this member's log file: the batch holding it has been
   * handed to the file and its fsync started. Never resolves for an entry this member's log loses
   * (a lost term's); callers race it with the entry's concern.
   */
  whenWritten(index: number): Promise<void> {
    return this.storage.segmentLog.whenDurable(index, 'cache');
  }

  /** Resolves when the concern holds for entry `index`; rejects DEADLINE_EXCEEDED on timeout. */
  awaitConcern(index: number, concern: ConcernWait): Promise<void> {
    if (concern.acks === 0 || concern.level === 'memory') return Promise.resolve();
    const voters = this.voterCount;
    try {
      this.checkConcern(concern);
    } catch (e) {
      return Promise.reject(e);
    }
    const needs_apply = concern.acks >= Math.floor(voters / 2) + 1;
    const waiter = this.concerns.add(index, concern, needs_apply, this.node.raft.term);
    if (concern.timeout_ms <= 0) return waiter;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(deadlineExceeded(`write concern not met within ${concern.timeout_ms} ms; the write is not undone and may still commit`)),
        concern.timeout_ms,
      );
    });
    return Promise.race([waiter, timeout]).finally(() => clearTimeout(timer));
  }

  /** Each member's fsynced log end as this leader knows it (its own included), highest first. */
  private durableDesc(): number[] {
    const out = [this.storage.segmentLog.journalIndex];
    for (const [id, pr] of this.node.raft.tracker.progress) if (id !== this.options.node_id) out.push(pr.match);
    return out.sort((a, b) => b - a);
  }

  private checkConcerns(): void {
    this.concerns.check();
  }

  // ---- the Ready loop ----

  /**
   * Runs the Ready loop at the end of the current task (a microtask), not at once: every message of
   * one peer frame, and every proposal made in one callback, is stepped into the core first, so
   * they leave as one Ready (one append, one fsync wait, one frame per peer) rather than one Ready
   * for the first and another for the rest. Nothing waits for another turn of the event loop.
   */
  private kick(): void {
    if (this.running || this.closed || this.kickQueued) return;
    this.kickQueued = true;
    queueMicrotask(this.kicked);
  }

  /** Whether a kick is queued as a microtask. */
  private kickQueued = false;

  private readonly kicked = (): void => {
    this.kickQueued = false;
    this.runReady();
  };

  private runReady(): void {
    if (this.running || this.closed) return;
    if (!this.node.hasReady()) {
      this.checkConcerns();
      for (const resolve of this.idleWaiters.splice(0)) resolve();
      return;
    }
    this.running = true;
    void this.loop().finally(() => {
      this.running = false;
      for (const resolve of this.idleWaiters.splice(0)) resolve();
      // Something may have arrived while the last Ready was being persisted.
      if (!this.closed && this.node.hasReady()) this.runReady();
    });
  }

  private readonly idleWaiters: (() => void)[] = [];

  /** Resolves once the Ready loop has nothing left to do. */
  private idle(): Promise<void> {
    if (this.closed || (!this.running && !this.node.hasReady())) return Promise.resolve();
    return new Promise((resolve) => {
      this.idleWaiters.push(resolve);
      this.kick();
    });
  }

  private async loop(): Promise<void> {
    try {
      while (!this.closed && this.node.hasReady()) {
        const rd = this.node.ready();
        await this.handle(rd);
        this.node.advance();
        this.afterReady();
      }
    } catch (e) {
      // A failed write or fsync leaves the log in an unknown state: stop, and fail every waiter.
      this.failure = e instanceof Error ? e : new Error(String(e));
      this.closed = true;
      for (const w of this.leaderWaiters.splice(0)) w.reject(this.failure);
      this.checkConcerns();
    }
  }

  private async handle(rd: Ready): Promise<void> {
    if (rd.soft_state !== undefined && rd.soft_state.role !== 'leader' && this.role === 'leader') this.stepDown();
    if (rd.soft_state !== undefined) this.role = rd.soft_state.role;
    // Before this Ready's append: a leader's fsyncs stay off the loop (SegmentLogOptions).
    if (rd.soft_state !== undefined) this.storage.segmentLog.setLeading(this.role === 'leader');
    // Membership changes outside soft state, so a leader's group size is looked at every Ready.
    if (this.role === 'leader') this.storage.segmentLog.setGroupOfOne(this.memberCount === 1);
    this.storage.setCommitWriteDeferred(this.role === 'leader' && this.memberCount === 1);
    if (this.role === 'leader' && this.ledTerm !== this.node.raft.term) {
      // This term's no-op is the newest entry: the core appended it on election, and writes wait for it.
      if (this.ledTerm !== 0 && this.ledTerm < this.node.raft.term) this.stepDown();
      this.ledTerm = this.node.raft.term;
      this.termStart = rd.entries.find((e) => e.term === this.ledTerm)?.index ?? this.node.raft.log.lastIndex();
    }
    // A leader's appends leave while its own fsync runs, so the followers' fsyncs overlap it
    // (docs/raft.md, "A leader sends before its own fsync").
    const send_first = sendsBeforePersist(this.role, rd, this.storage.hardState);
    if (send_first) this.options.transport?.send(rd.messages);
    // On a leader, committed entries already fsynced here are applied before this Ready's own fsync,
    // so a write whose quorum answered is not held back a whole fsync round by the writes that
    // followed it. A follower applies after it answered instead: when a commit notice rides with the
    // next append (peer-link.ts), applying first would put the apply between the leader's append and
    // its answer, on the path of every write in flight.
    const early = rd.snapshot === undefined && this.role === 'leader' ? durablePrefix(rd.committed_entries, this.storage.segmentLog.journalIndex) : 0;
    if (early > 0) {
      this.applyCommitted(rd.committed_entries.slice(0, early));
      this.checkConcerns();
    }
    // 1. persist: snapshot, entries, hard state; fsync when the core says so.
    if (rd.snapshot !== undefined) await this.installSnapshot(rd.snapshot);
    if (rd.entries.length > 0) await this.storage.append(rd.entries);
    // A full disk holds the Ready here until space returns: nothing it promises is sent before.
    if (rd.hard_state !== undefined) await this.storage.persistHardState(rd.hard_state);
    // A leader's replication Ready does not wait for its fsync: its own entries count toward a
    // commit only once fsynced (leader_self_ack 'on_persist'). Every other Ready waits for the whole
    // log, entries of earlier such Readies included: a vote or an acknowledgement promises all of it.
    if (!send_first && (rd.must_sync || this.storage.segmentLog.journalIndex < this.storage.lastIndex())) await this.storage.sync();
    // 2. send: what these messages promise is now on disk.
    if (!send_first && rd.messages.length > 0) this.options.transport?.send(rd.messages);
    // 3. apply.
    if (rd.committed_entries.length > early) this.applyCommitted(early === 0 ? rd.committed_entries : rd.committed_entries.slice(early));
    for (const rs of rd.read_states) this.readStates.get(rs.request_ctx)?.(rs.index);
  }

  /** Pending entries of a lost term are undone and their callers told the outcome is unknown. */
  private stepDown(): void {
    this.ledTerm = 0;
    this.proposed.forget();
    this.applyTarget?.leadershipLost();
    this.checkConcerns();
  }

  private applyCommitted(raftEntries: readonly RaftEntry[]): void {
    const entries = this.proposed.take(raftEntries, this.appliedTs);
    // Membership first, so a checkpoint taken at the end of this batch records the membership it has.
    for (let i = 0; i < raftEntries.length; i++) {
      const e = raftEntries[i]!;
      if (e.type !== 'conf_change') continue;
      const cc = decodeConfChange(e.data);
      const cs = this.node.applyConfChange(cc);
      const event = entries[i]!.event;
      if (event.kind === 'membership_changed') this.members.apply(event);
      // Removed is where the membership leaves this member now, not that it once was: a member wiped
      // and joined again under its old node id replays its own earlier removal before its new join.
      const self = this.options.node_id;
      if (cs.voters.includes(self) || cs.learners.includes(self)) this.removedSelf = false;
      else if (cc.kind === 'remove' && cc.node === self) this.removedSelf = true;
      this.members.retain(cs);
      this.forgetIntroductionOnceJoined();
      this.bindPeers();
    }
    for (const e of entries) this.options.clock.observe(e.commit_ts);
    const last = entries[entries.length - 1]!;
    this.applyTarget?.apply(entries);
    this.appliedIndex = last.index;
    this.appliedTs = last.commit_ts;
    this.wakeApplied();
  }

  private afterReady(): void {
    if (this.acceptsWrites) for (const w of this.leaderWaiters.splice(0)) w.resolve();
    else if (!this.isLeader) for (const w of this.leaderWaiters.splice(0)) w.reject(this.notLeader());
    this.checkConcerns();
  }

  /**
   * The received snapshot the core took and this member has not installed yet. Invariant: its files
   * are still in the snapshot store; a newer one taken before it is installed supersedes it.
   */
  private takenSnapshot: Uint8Array | undefined;

  /** The core took a received snapshot: one it took before and replaced with this one is removed now, not at the next restart. */
  private snapshotTaken(data: Uint8Array): void {
    const superseded = this.takenSnapshot;
    this.takenSnapshot = data;
    if (superseded !== undefined && superseded !== data) void this.snapshotFiles.discard(superseded);
  }

  private async installSnapshot(snap: Snapshot): Promise<void> {
    const { membership, path, companions } = decodeSnapshotRef(snap.data);
    if (this.takenSnapshot === snap.data) this.takenSnapshot = undefined;
    // A full disk holds the install here, as it holds a Ready's other writes (DiskStorage.untilSpace).
    await this.storage.untilSpace(() => this.storage.recordSnapshot(snap.meta, membership));
    await this.applyTarget?.installSnapshot(snap.meta.index, path, companions ?? []);
    // The target moved the files out: their emptied directory goes too.
    await this.snapshotFiles.discard(snap.data);
    await this.storage.installSnapshot(snap.meta, membership);
    this.members.reset(membership);
    this.bindPeers();
    this.appliedIndex = snap.meta.index;
    this.appliedTs = this.snapshotTs(snap.meta.index);
    this.wakeApplied();
  }

  /** The state machine tells the driver the commit_ts of the snapshot's last entry after installing it. */
  snapshotTs: (index: number) => number = () => 0;

  /**
   * Members named by a leader's introduction, bound until this member applies its own join. A new
   * member replays the log from its start when nothing was compacted, and the memberships it passes
   * through on the way are the group's past: bound alone, they refused the members that joined since,
   * the leader among them, and the learner never caught up (chaos seed 82112, a replaced member
   * joined on a leader that had itself joined by replacement).
   */
  private introduced: MemberRecord[];

  /** Its own join applied, the introduction has served: gone, so a later removal does not bring it back. */
  private forgetIntroductionOnceJoined(): void {
    if (this.introduced.length === 0 || !this.knowsItself()) return;
    this.introduced = [];
    rmSync(this.introducedPath, { force: true });
  }

  /** Whether the membership this member applied names it: its join entry applied, or it founded the group. */
  private knowsItself(): boolean {
    return this.members.get(this.options.node_id) !== undefined;
  }
  /** Members being joined by this leader: bound before the membership entry applies, so it can reach them. */
  private readonly joining = new Map<NodeId, MemberRecord>();
  /** Members this leader removed and is telling so: still bound until the call ends. */
  private readonly leaving = new Map<NodeId, MemberRecord>();
  private removedSelf = false;
  /** Asks the peers whether this member was removed while it could not hear (it was down or cut off). */
  private readonly removalCheck = new RemovalCheck({
    interval_ticks: () => this.options.timing.election_ticks,
    leaderless: () => this.node.raft.role !== 'leader' && (this.node.raft.role !== 'follower' || this.node.raft.election_elapsed >= this.options.timing.election_ticks),
    peers: () => this.members.records().filter((m) => m.node_id !== this.options.node_id).map((m) => m.node_id),
    ask: (id, timeout_ms) => this.options.transport!.call(id, MEMBERSHIP_METHOD, new Uint8Array(), timeout_ms).then(() => undefined),
    timeout_ms: () => this.options.timing.election_ticks * this.options.timing.tick_ms,
    removed: () => {
      this.removedSelf = true;
    },
  });

  /**
   * On the leader, once the removal of `record` committed: tells that member, which would otherwise
   * never hear it (the leader stops replicating to it as the removal applies), so it stops serving.
   * Best effort, bounded by `timeout_ms`: a member that is down is not told.
   */
  async tellRemoved(record: MemberRecord, timeout_ms: number): Promise<void> {
    const t = this.options.transport;
    if (t === undefined || record.address === '') return;
    this.leaving.set(record.node_id, record);
    this.bindPeers();
    try {
      await t.call(record.node_id, REMOVED_METHOD, new Uint8Array(), timeout_ms);
    } finally {
      this.leaving.delete(record.node_id);
      this.bindPeers();
    }
  }

  /**
   * On the leader, before a member is added: binds it as a peer and tells it who the members are,
   * so it can answer the leader's first messages. Rejects UNAVAILABLE when it cannot be reached.
   */
  async introduce(record: MemberRecord, timeout_ms: number): Promise<void> {
    const t = this.options.transport;
    if (t === undefined) throw unavailable('this member has no peer transport; start it with a peer_port to grow the group', 'NO_PEER_TRANSPORT');
    this.joining.set(record.node_id, record);
    this.bindPeers();
    const directory = this.members.records();
    await t.call(record.node_id, INTRODUCE_METHOD, Buffer.from(JSON.stringify(directory)), timeout_ms).catch((e: unknown) => {
      this.joining.delete(record.node_id);
      this.bindPeers();
      throw e;
    });
  }

  private bindPeers(): void {
    const t = this.options.transport;
    if (t === undefined) return;
    const peers = new Map<NodeId, PeerAddress>();
    const known = this.members.records();
    for (const [id] of this.joining) if (this.members.get(id) !== undefined) this.joining.delete(id);
    const sources = [...(this.knowsItself() ? [] : this.introduced), ...this.joining.values(), ...this.leaving.values(), ...known];
    for (const m of sources) {
      if (m.node_id !== this.options.node_id && m.address !== '') peers.set(m.node_id, { address: m.address, identity: m.identity });
    }
    t.setPeers(peers);
    t.setDeparted(this.members.snapshot(this.node.confState()).departed);
  }

  // ---- reads ----

  private readonly readStates = new Map<string, (index: number) => void>();
  private readSeq = 0;

  /**
   * ReadIndex: the leader confirms it still leads (a heartbeat round) and answers its commit index;
   * a read served once that index is applied is linearizable.
   */
  readIndex(timeout_ms: number): Promise<number> {
    const ctx = `r${this.options.node_id}-${++this.readSeq}`;
    return new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.readStates.delete(ctx);
        reject(unavailable('leadership could not be confirmed for a linearizable read; retry', 'READ_INDEX_TIMEOUT'));
      }, timeout_ms);
      timer.unref();
      this.readStates.set(ctx, (index) => {
        clearTimeout(timer);
        this.readStates.delete(ctx);
        resolve(index);
      });
      const refusal = this.node.readIndex(ctx);
      if (refusal !== undefined) {
        clearTimeout(timer);
        this.readStates.delete(ctx);
        reject(this.notLeader());
        return;
      }
      this.kick();
    });
  }

  /** Resolves once this member has applied entry `index`. */
  awaitApplied(index: number): Promise<void> {
    if (this.appliedIndex >= index) return Promise.resolve();
    return new Promise((resolve) => {
      const list = this.applyWaiters.get(index) ?? [];
      list.push(resolve);
      this.applyWaiters.set(index, list);
    });
  }

  private wakeApplied(): void {
    for (const [index, list] of this.applyWaiters) {
      if (index > this.appliedIndex) continue;
      this.applyWaiters.delete(index);
      for (const resolve of list) resolve();
    }
  }

  /** Reads entries [from, to] as events, e.g. for the change feed. */
  read(from: number, to: number): Entry[] {
    const lo = Math.max(from - 1, this.storage.firstIndex());
    const raw = this.storage.entries(lo, to + 1, Number.MAX_SAFE_INTEGER);
    const mapped = toEvents(raw, 0);
    return mapped.filter((e) => e.index >= from);
  }

  // ---- membership and leadership ----

  /** Hands leadership to `to` (a voter); the caller watches leaderId for the outcome. */
  transferLeadership(to: NodeId): void {
    const refusal = this.node.transferLeader(to);
    if (refusal !== undefined) throw refusal === 'not_leader' ? this.notLeader() : invalidArgument(`cannot transfer leadership to ${to}: ${refusal}`);
    this.kick();
  }

  /** Campaigns now (used when this member is the only voter left). */
  campaign(): void {
    this.node.campaign();
    this.kick();
  }

  // ---- checkpoints ----

  /** Records the meta (term, membership) of a checkpoint about to be written at `index`. */
  recordCheckpoint(index: number): void {
    this.storage.recordCheckpoint(index, this.membership);
  }

  /**
   * Names the checkpoint file shipped as a snapshot to a member behind compaction (undefined: gone),
   * and the files saved beside it that travel with it.
   */
  setSnapshotSource(source: (index: number) => { readonly path: string; readonly companions: readonly string[] } | undefined): void {
    this.storage.setSnapshotDataSource((meta) => {
      const files = source(meta.index);
      return files === undefined ? undefined : encodeSnapshotRef({ membership: meta.membership, path: files.path, companions: files.companions });
    });
  }

  /** Entries at or below `index` are in a checkpoint; whole segments below it may go. */
  compactTo(index: number): void {
    this.storage.compactTo(index);
  }

  async close(): Promise<void> {
    if (this.ticker !== undefined) clearInterval(this.ticker);
    // A Ready held by a full disk would never let idle() resolve.
    this.storage.stopWaitingForSpace();
    await this.idle();
    this.closed = true;
    for (const w of this.leaderWaiters.splice(0)) w.reject(unavailable('the member is stopping', 'SHUTTING_DOWN'));
    this.concerns.rejectAll(unavailable('the member is stopping before the write concern held', 'SHUTTING_DOWN'));
    await this.storage.close();
  }
}

/** The introduction a leader gave this member before a restart; none when there is no file. */
function readIntroduced(path: string): MemberRecord[] {
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as MemberRecord[]) : [];
}

/** How many of `committed`, from the first, are at or below `journal_index` (fsynced on this member). */
function durablePrefix(committed: readonly RaftEntry[], journal_index: number): number {
  let n = 0;
  while (n < committed.length && committed[n]!.index <= journal_index) n++;
  return n;
}
