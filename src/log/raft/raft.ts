import { assert, assertNever } from '../../common/assert.js';
import type { RaftConfig, ResolvedConfig } from './config.js';
import { resolveConfig } from './config.js';
import { RaftLog } from './raft-log.js';
import { ReadOnly } from './read-only.js';
import { stepCandidate } from './step-candidate.js';
import { stepFollower } from './step-follower.js';
import { stepLeader } from './step-leader.js';
import type { Storage } from './storage.js';
import { ProgressTracker } from './tracker.js';
import type { Entry, EntryType, HardState, Message, NodeId, ReadState, Refusal, Role } from './types.js';
import { NONE, entryBytes } from './types.js';

type CampaignKind = 'pre_election' | 'election' | 'transfer';

/**
 * One member's Raft state machine. Pure: it only changes its fields and queues messages; the
 * RawNode hands the results to the driver. Role-specific handling lives in step-leader.ts,
 * step-candidate.ts and step-follower.ts; this file holds state, role changes and shared helpers.
 */
export class Raft {
  readonly id: NodeId;
  readonly cfg: ResolvedConfig;
  readonly log: RaftLog;
  readonly tracker: ProgressTracker;
  readonly read_only = new ReadOnly();

  term = 0;
  /** Invariant: once set in a term, never changes within that term (one vote per term). */
  vote: NodeId = NONE;
  role: Role = 'follower';
  /** The leader of `term` as far as this member knows, or NONE. */
  lead: NodeId = NONE;
  /** While set, this leader is handing over to that member and refuses proposals. */
  lead_transferee: NodeId = NONE;
  /** Index of the newest conf change this leader appended; a new one waits until it is applied. */
  pending_conf_index = 0;
  /** ReadIndex requests that arrived before this leader committed an entry of its own term. */
  pending_reads: string[] = [];

  /** Ticks since the last valid leader contact (follower) or since the last quorum check (leader). */
  election_elapsed = 0;
  heartbeat_elapsed = 0;
  /** Invariant: election_ticks <= randomized_election_timeout < 2 * election_ticks. */
  randomized_election_timeout: number;

  /** Outgoing messages, taken by the next Ready. */
  msgs: Message[] = [];
  read_states: ReadState[] = [];

  constructor(config: RaftConfig, storage: Storage) {
    this.cfg = resolveConfig(config);
    this.id = this.cfg.id;
    this.log = new RaftLog(storage);
    this.tracker = new ProgressTracker(this.cfg.inflight_msgs_max, this.cfg.inflight_bytes_max);
    const { hard_state, conf_state } = storage.initialState();
    this.tracker.reset(conf_state, this.log.lastIndex() + 1);
    // Entries are persisted before the hard state that commits them, so storage holds them all.
    assert(hard_state.commit <= this.log.lastIndex(), `persisted commit ${hard_state.commit} beyond last index ${this.log.lastIndex()}`);
    this.log.commitTo(hard_state.commit);
    this.term = hard_state.term;
    this.vote = hard_state.vote;
    if (this.cfg.applied > this.log.applied) this.log.appliedTo(Math.min(this.cfg.applied, this.log.committed));
    this.randomized_election_timeout = this.cfg.election_ticks;
    this.becomeFollower(this.term, NONE);
  }

  hardState(): HardState {
    return { term: this.term, vote: this.vote, commit: this.log.committed };
  }

  /** A member may campaign only as a voter, and not while a received snapshot awaits persisting. */
  promotable(): boolean {
    return this.tracker.isVoter(this.id) && this.log.unstableSnapshot() === undefined;
  }

  // ---- role changes -------------------------------------------------------------------------

  private reset(term: number): void {
    if (term !== this.term) {
      this.term = term;
      this.vote = NONE;
    }
    this.lead = NONE;
    this.election_elapsed = 0;
    this.heartbeat_elapsed = 0;
    this.randomized_election_timeout = this.cfg.election_ticks + this.cfg.random_int(this.cfg.election_ticks);
    this.lead_transferee = NONE;
    this.tracker.resetVotes();
    const next = this.log.lastIndex() + 1;
    for (const [id, pr] of this.tracker.progress) {
      const learner = pr.is_learner;
      const fresh = this.tracker.newProgress(next, learner);
      if (id === this.id) fresh.match = this.log.lastIndex();
      this.tracker.progress.set(id, fresh);
    }
    this.pending_conf_index = 0;
    this.pending_reads = [];
    this.read_only.reset();
  }

  becomeFollower(term: number, lead: NodeId): void {
    this.reset(term);
    this.lead = lead;
    this.role = 'follower';
  }

  becomePreCandidate(): void {
    assert(this.role !== 'leader', 'a leader cannot become pre-candidate');
    // Neither the term nor the vote change: a pre-election must leave no trace if it fails.
    this.tracker.resetVotes();
    this.lead = NONE;
    this.role = 'pre_candidate';
  }

  becomeCandidate(): void {
    assert(this.role !== 'leader', 'a leader cannot become candidate');
    this.reset(this.term + 1);
    this.vote = this.id;
    this.role = 'candidate';
  }

  becomeLeader(): void {
    assert(this.role === 'candidate', `only a candidate becomes leader, not a ${this.role}`);
    this.reset(this.term);
    this.lead = this.id;
    this.role = 'leader';
    const self = this.tracker.progress.get(this.id);
    if (self) {
      self.becomeReplicate();
      self.recent_active = true;
    }
    // The empty entry commits the previous terms' entries (they cannot be committed by counting).
    this.appendEntries([{ type: 'normal', data: new Uint8Array() }]);
    // No membership change until this leader has applied an entry of its own term, and with it
    // everything earlier leaders appended (which may hold a change of their own).
    this.pending_conf_index = this.log.lastIndex();
  }

  // ---- elections ----------------------------------------------------------------------------

  hup(kind: CampaignKind): void {
    if (this.role === 'leader') return;
    if (!this.promotable()) return;
    // A committed, unapplied membership change may make this member a non-voter; wait for it.
    if (this.log.hasUnappliedConfChange()) return;
    this.campaign(kind === 'pre_election' && !this.cfg.pre_vote ? 'election' : kind);
  }

  private campaign(kind: CampaignKind): void {
    const pre = kind === 'pre_election';
    if (pre) this.becomePreCandidate();
    else this.becomeCandidate();
    const term = pre ? this.term + 1 : this.term;
    if (this.poll(this.id, true) === 'won') {
      if (pre) this.campaign('election');
      else this.becomeLeader();
      return;
    }
    for (const id of [...this.tracker.voters].sort((a, b) => a - b)) {
      if (id === this.id) continue;
      this.send({
        type: pre ? 'pre_vote' : 'vote',
        from: this.id,
        to: id,
        term,
        index: this.log.lastIndex(),
        log_term: this.log.lastTerm(),
        force: kind === 'transfer',
      });
    }
  }

  poll(id: NodeId, granted: boolean): 'won' | 'lost' | 'pending' {
    this.tracker.recordVote(id, granted);
    return this.tracker.voteResult();
  }

  /** After a won pre-election, the real one; after a won election, leadership. */
  wonElection(): void {
    if (this.role === 'pre_candidate') this.campaign('election');
    else {
      this.becomeLeader();
      this.bcastAppend();
    }
  }

  // ---- messages -----------------------------------------------------------------------------

  send(m: Message): void {
    assert(m.to !== this.id, `message ${m.type} to self`);
    this.msgs.push(m);
  }

  tick(): void {
    if (this.role === 'leader') this.tickHeartbeat();
    else this.tickElection();
  }

  private tickElection(): void {
    this.election_elapsed++;
    if (this.promotable() && this.election_elapsed >= this.randomized_election_timeout) {
      this.election_elapsed = 0;
      this.hup('pre_election');
    }
  }

  private tickHeartbeat(): void {
    this.heartbeat_elapsed++;
    this.election_elapsed++;
    if (this.election_elapsed >= this.cfg.election_ticks) {
      this.election_elapsed = 0;
      if (this.cfg.check_quorum) {
        if (!this.tracker.quorumActive(this.id)) {
          this.becomeFollower(this.term, NONE);
          return;
        }
        for (const [id, pr] of this.tracker.progress) pr.recent_active = id === this.id;
      }
      // A transfer that did not finish within an election timeout is abandoned.
      this.lead_transferee = NONE;
    }
    if (this.heartbeat_elapsed >= this.cfg.heartbeat_ticks) {
      this.heartbeat_elapsed = 0;
      this.bcastHeartbeat();
    }
  }

  step(m: Message): void {
    if (m.term > this.term) {
      if (m.type === 'vote' || m.type === 'pre_vote') {
        // A member that heard from a leader within the election timeout ignores campaigns (unless a
        // transfer forces it): a partitioned member coming back cannot depose a healthy leader.
        const in_lease = this.cfg.check_quorum && this.lead !== NONE && this.election_elapsed < this.cfg.election_ticks;
        if (!m.force && in_lease) return;
      }
      if (m.type === 'pre_vote') {
        // A pre-vote never changes our term.
      } else if (m.type === 'pre_vote_resp' && !m.reject) {
        // The pre-candidate counts this; the term rises only when it campaigns for real.
      } else if (m.type === 'app' || m.type === 'heartbeat' || m.type === 'snap') {
        this.becomeFollower(m.term, m.from);
      } else if (m.type === 'vote') {
        // Only a granted vote restarts the election timer (Raft figure 2). Otherwise every losing
        // candidate would restart everyone's timer, and the one member able to win might wait
        // through many such rounds before its own timer fires.
        const elapsed = this.election_elapsed;
        this.becomeFollower(m.term, NONE);
        this.election_elapsed = elapsed;
      } else {
        this.becomeFollower(m.term, NONE);
      }
    } else if (m.term < this.term) {
      if ((this.cfg.check_quorum || this.cfg.pre_vote) && (m.type === 'app' || m.type === 'heartbeat')) {
        // A stale leader that this member ignores would never learn its term is over (with
        // CheckQuorum or PreVote this member will not campaign to tell it); answer so it steps down.
        this.send({ type: 'app_resp', from: this.id, to: m.from, term: this.term, index: 0, reject: false, reject_hint: 0, log_term: 0 });
      } else if (m.type === 'pre_vote') {
        this.send({ type: 'pre_vote_resp', from: this.id, to: m.from, term: this.term, reject: true });
      }
      return;
    }

    if (m.type === 'vote' || m.type === 'pre_vote') {
      this.stepVote(m.type, m.from, m.term, m.index, m.log_term);
      return;
    }
    switch (this.role) {
      case 'leader':
        stepLeader(this, m);
        return;
      case 'candidate':
      case 'pre_candidate':
        stepCandidate(this, m);
        return;
      case 'follower':
        stepFollower(this, m);
        return;
      default:
        assertNever(this.role, 'role');
    }
  }

  private stepVote(type: 'vote' | 'pre_vote', from: NodeId, term: number, index: number, log_term: number): void {
    const can_vote =
      this.vote === from ||
      (this.vote === NONE && this.lead === NONE) ||
      (type === 'pre_vote' && term > this.term) ||
      (this.cfg.unsafe_bugs.double_vote === true && type === 'vote' && this.role !== 'leader');
    const resp = type === 'vote' ? 'vote_resp' : 'pre_vote_resp';
    if (can_vote && this.log.isUpToDate(index, log_term)) {
      // Answer with the request's term so a pre-candidate can count it.
      this.send({ type: resp, from: this.id, to: from, term, reject: false });
      if (type === 'vote') {
        this.election_elapsed = 0;
        this.vote = from;
      }
    } else {
      this.send({ type: resp, from: this.id, to: from, term: this.term, reject: true });
    }
  }

  // ---- leader replication -------------------------------------------------------------------

  appendEntries(entries: readonly { type: EntryType; data: Uint8Array }[]): number {
    let index = this.log.lastIndex();
    const ents: Entry[] = entries.map((e) => ({ index: ++index, term: this.term, type: e.type, data: e.data }));
    const last = this.log.append(ents);
    if (this.cfg.leader_self_ack === 'on_append') {
      this.tracker.progress.get(this.id)?.maybeUpdate(last);
      this.maybeCommit();
    }
    return last;
  }

  /**
   * The driver fsynced this member's log up to `index` (leader_self_ack 'on_persist'): a leader now
   * counts those entries as its own acknowledgement, and tells the followers of a commit it makes.
   * The log a leader holds is never cut while it leads, so `index` names entries of this log.
   */
  persisted(index: number): void {
    if (this.role !== 'leader' || this.cfg.leader_self_ack !== 'on_persist') return;
    const self = this.tracker.progress.get(this.id);
    if (self === undefined || !self.maybeUpdate(Math.min(index, this.log.lastIndex()))) return;
    if (this.maybeCommit()) this.bcastCommit();
  }

  /** Commits what a majority holds (current-term entries only); on a first commit of the term, serves queued reads. */
  maybeCommit(): boolean {
    const advanced = this.log.maybeCommit(this.tracker.committed(), this.term, this.cfg.unsafe_bugs.commit_old_term_by_count === true);
    if (advanced && this.pending_reads.length > 0 && this.committedInTerm()) {
      const reads = this.pending_reads;
      this.pending_reads = [];
      for (const ctx of reads) this.readIndex(ctx);
    }
    return advanced;
  }

  committedInTerm(): boolean {
    return this.log.term(this.log.committed) === this.term;
  }

  /**
   * Sends what the member lacks: entries, an empty probe (if send_if_empty), or a snapshot. Returns
   * whether it sent. `commit_notice`: sent because the commit index moved (bcastCommit).
   */
  maybeSendAppend(to: NodeId, send_if_empty: boolean, commit_notice = false): boolean {
    const pr = this.tracker.progress.get(to);
    if (!pr || pr.isPaused()) return false;
    const prev_term = this.log.term(pr.next - 1);
    const ents = prev_term === undefined ? undefined : this.log.entriesFrom(pr.next, this.cfg.msg_bytes_max);
    if (ents !== undefined && ents.length === 0 && !send_if_empty) return false;
    if (prev_term === undefined || ents === undefined) {
      // The member needs entries already compacted: send the snapshot instead.
      if (!pr.recent_active) return false;
      const snapshot = this.log.snapshot();
      if (!snapshot) return false;
      assert(snapshot.meta.index > 0, 'a compacted log always has a snapshot');
      pr.becomeSnapshot(snapshot.meta.index);
      this.send({ type: 'snap', from: this.id, to, term: this.term, snapshot });
      return true;
    }
    let bytes = 0;
    for (const e of ents) bytes += entryBytes(e);
    const index = pr.next - 1;
    // A commit notice without entries to a member in replicate state: it was sent every entry, and
    // its answers to those appends (or its rejection of this one, should one be lost) tell the
    // leader all an answer to this one would. At one write at a time such answers were a quarter of
    // the frames a leader handled per write. An empty append sent for any other reason (a probe, a
    // heartbeat answer from a member whose match lags) is answered, so a lost answer is recovered.
    if (commit_notice && this.cfg.quiet_commit_notices && ents.length === 0 && pr.state === 'replicate') {
      this.send({ type: 'app', from: this.id, to, term: this.term, index, log_term: prev_term, entries: ents, commit: this.log.committed, quiet: true });
    } else this.send({ type: 'app', from: this.id, to, term: this.term, index, log_term: prev_term, entries: ents, commit: this.log.committed });
    pr.sentEntries(ents.length, bytes);
    return true;
  }

  sendAppend(to: NodeId): void {
    this.maybeSendAppend(to, true);
  }

  bcastAppend(): void {
    for (const id of this.tracker.members()) if (id !== this.id) this.sendAppend(id);
  }

  /** bcastAppend after the commit index moved: the appends without entries are commit notices (maybeSendAppend). */
  bcastCommit(): void {
    for (const id of this.tracker.members()) if (id !== this.id) this.maybeSendAppend(id, true, true);
  }

  sendHeartbeat(to: NodeId, request_ctx: string): void {
    const match = this.tracker.progress.get(to)?.match ?? 0;
    this.send({ type: 'heartbeat', from: this.id, to, term: this.term, commit: Math.min(match, this.log.committed), request_ctx });
  }

  bcastHeartbeat(): void {
    const ctx = this.read_only.lastPending();
    for (const id of this.tracker.members()) if (id !== this.id) this.sendHeartbeat(id, ctx);
  }

  sendTimeoutNow(to: NodeId): void {
    this.send({ type: 'timeout_now', from: this.id, to, term: this.term });
  }

  // ---- reads ------------------------------------------------------------------------------

  readIndex(request_ctx: string): Refusal | undefined {
    if (this.role !== 'leader') return 'not_leader';
    // Until this leader commits in its term, its commit index may lag what earlier leaders committed.
    if (!this.committedInTerm()) {
      this.pending_reads.push(request_ctx);
      return undefined;
    }
    if (this.tracker.voters.size === 1 && this.tracker.voters.has(this.id)) {
      this.read_states.push({ index: this.log.committed, request_ctx });
      return undefined;
    }
    this.read_only.add(this.log.committed, request_ctx);
    this.read_only.ack(this.id, request_ctx);
    for (const id of this.tracker.members()) if (id !== this.id) this.sendHeartbeat(id, request_ctx);
    return undefined;
  }
}
