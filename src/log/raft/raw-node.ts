import { assert } from '../../common/assert.js';
import type { RaftConfig } from './config.js';
import type { ConfChange } from './conf-change.js';
import { Raft } from './raft.js';
import { applyConfChange, propose, proposeBatch, proposeConfChange, reportSnapshot, reportUnreachable, transferLeader } from './requests.js';
import type { Storage } from './storage.js';
import type { ConfState, Entry, HardState, Message, NodeId, ProposeResult, ReadState, Refusal, Role, Snapshot, SoftState } from './types.js';

/**
 * What the driver must do, in this order, before calling advance():
 * 1. persist `snapshot` (if any), then `entries` (replacing any stored suffix from entries[0].index),
 *    then `hard_state` (if any); fsync first when `must_sync`;
 * 2. only then send `messages` (votes and acknowledgements promise what step 1 persisted);
 * 3. apply `snapshot` then `committed_entries` to the state machine, calling applyConfChange for each
 *    'conf_change' entry; serve `read_states` once their index is applied.
 */
export interface Ready {
  /** Present when leader or role changed since the last Ready. */
  readonly soft_state?: SoftState;
  /** Present when term, vote or commit changed since the last Ready. */
  readonly hard_state?: HardState;
  readonly entries: readonly Entry[];
  readonly snapshot?: Snapshot;
  readonly committed_entries: readonly Entry[];
  readonly messages: readonly Message[];
  readonly read_states: readonly ReadState[];
  /** Entries, term or vote changed: they must reach stable storage before messages leave. A commit-only change need not. */
  readonly must_sync: boolean;
}

export interface Status {
  readonly id: NodeId;
  readonly role: Role;
  readonly lead: NodeId;
  readonly hard_state: HardState;
  readonly applied: number;
  readonly last_index: number;
  readonly conf_state: ConfState;
  readonly lead_transferee: NodeId;
}

/**
 * The driver's handle on one member's Raft core: feed it ticks, messages and requests; take a Ready,
 * carry it out, and advance. Nothing here waits, reads a clock or does I/O.
 */
export class RawNode {
  readonly raft: Raft;
  private prev_soft: SoftState;
  private prev_hard: HardState;
  /** The Ready handed out and not yet advanced. Invariant: at most one at a time. */
  private outstanding: Ready | undefined;

  constructor(config: RaftConfig, storage: Storage) {
    this.raft = new Raft(config, storage);
    this.prev_soft = this.softState();
    this.prev_hard = this.raft.hardState();
  }

  tick(): void {
    this.raft.tick();
  }

  /** Starts an election now (pre-vote first when enabled). */
  campaign(): void {
    this.raft.hup('pre_election');
  }

  /** Appends an application entry if this member leads; the returned index is where it will commit, if it does. */
  propose(data: Uint8Array): ProposeResult {
    return propose(this.raft, 'normal', data);
  }

  /**
   * Group commit: appends all payloads at once (consecutive indexes ending at the returned index),
   * so they travel in one append per follower and are persisted by one Ready.
   */
  proposeBatch(payloads: readonly Uint8Array[]): ProposeResult {
    return proposeBatch(this.raft, payloads);
  }

  proposeConfChange(cc: ConfChange): ProposeResult {
    return proposeConfChange(this.raft, cc);
  }

  /** Applies a committed conf change entry; the result is the membership to save with the next snapshot. */
  applyConfChange(cc: ConfChange): ConfState {
    return applyConfChange(this.raft, cc);
  }

  /** This member's log is fsynced up to `index` (see RaftConfig.leader_self_ack). */
  persisted(index: number): void {
    this.raft.persisted(index);
  }

  step(m: Message): void {
    // A message for another member is a routing bug in the driver.
    assert(m.to === this.raft.id, `message for ${m.to} stepped into ${this.raft.id}`);
    this.raft.step(m);
  }

  transferLeader(to: NodeId): Refusal | undefined {
    return transferLeader(this.raft, to);
  }

  /** Asks for a linearizable read point; the answer arrives as a ReadState carrying request_ctx. */
  readIndex(request_ctx: string): Refusal | undefined {
    return this.raft.readIndex(request_ctx);
  }

  reportUnreachable(id: NodeId): void {
    reportUnreachable(this.raft, id);
  }

  reportSnapshot(id: NodeId, ok: boolean): void {
    reportSnapshot(this.raft, id, ok);
  }

  confState(): ConfState {
    return this.raft.tracker.confState();
  }

  status(): Status {
    const r = this.raft;
    return {
      id: r.id,
      role: r.role,
      lead: r.lead,
      hard_state: r.hardState(),
      applied: r.log.applied,
      last_index: r.log.lastIndex(),
      conf_state: r.tracker.confState(),
      lead_transferee: r.lead_transferee,
    };
  }

  private softState(): SoftState {
    return { lead: this.raft.lead, role: this.raft.role };
  }

  hasReady(): boolean {
    const r = this.raft;
    const soft = this.softState();
    const hard = r.hardState();
    return (
      soft.lead !== this.prev_soft.lead ||
      soft.role !== this.prev_soft.role ||
      !sameHardState(hard, this.prev_hard) ||
      r.log.unstableEntries().length > 0 ||
      r.log.unstableSnapshot() !== undefined ||
      r.msgs.length > 0 ||
      r.read_states.length > 0 ||
      r.log.hasNextCommitted()
    );
  }

  ready(): Ready {
    assert(this.outstanding === undefined, 'ready() called again before advance()');
    const r = this.raft;
    const soft = this.softState();
    const hard = r.hardState();
    const entries = r.log.unstableEntries().slice();
    const snapshot = r.log.unstableSnapshot();
    const hard_changed = !sameHardState(hard, this.prev_hard);
    const rd: { -readonly [K in keyof Ready]: Ready[K] } = {
      entries,
      committed_entries: r.log.nextCommitted(r.cfg.committed_bytes_max),
      messages: r.msgs,
      read_states: r.read_states,
      must_sync: entries.length > 0 || snapshot !== undefined || hard.term !== this.prev_hard.term || hard.vote !== this.prev_hard.vote,
    };
    if (soft.lead !== this.prev_soft.lead || soft.role !== this.prev_soft.role) rd.soft_state = soft;
    if (hard_changed) rd.hard_state = hard;
    if (snapshot) rd.snapshot = snapshot;
    r.msgs = [];
    r.read_states = [];
    if (rd.soft_state) this.prev_soft = rd.soft_state;
    this.outstanding = rd;
    return rd;
  }

  /** The driver carried out the Ready: drop what it persisted from the unstable tail and mark what it applied. */
  advance(): void {
    const rd = this.outstanding;
    assert(rd !== undefined, 'advance() without ready()');
    this.outstanding = undefined;
    const r = this.raft;
    if (rd.hard_state) this.prev_hard = rd.hard_state;
    if (rd.snapshot) {
      r.log.stableSnapTo(rd.snapshot.meta.index);
      r.log.appliedTo(rd.snapshot.meta.index);
    }
    const last = rd.entries[rd.entries.length - 1];
    if (last) r.log.stableTo(last.index, last.term);
    const applied = rd.committed_entries[rd.committed_entries.length - 1];
    if (applied) r.log.appliedTo(applied.index);
  }
}

function sameHardState(a: HardState, b: HardState): boolean {
  return a.term === b.term && a.vote === b.vote && a.commit === b.commit;
}
