import { alreadyExists, failedPrecondition, invalidArgument, isWeftError, notFound } from '../../common/errors.js';
import type { ConcernWait } from '../../log/driver/log-driver.js';
import type { MembershipChanged } from '../../log/events.js';
import type { Database } from '../database.js';

/**
 * Growing and shrinking the group (SPEC 4.5) on the leader. A joining member enters as a learner
 * (it receives the log but neither votes nor counts for commit); a background monitor promotes it to
 * voter once its lag is below `promote_lag_entries`. The monitor adopts every learner it finds, so a
 * join survives a change of leader: the new leader's monitor finishes it.
 */
export type JoinPhase = 'LEARNER' | 'READY_CHECK' | 'PROMOTING' | 'COMPLETE' | 'FAILED';

export interface JoinState {
  readonly node_id: number;
  readonly phase: JoinPhase;
  readonly lag_entries: number;
  readonly message: string;
}

export interface JoinRequest {
  readonly node_id: number;
  readonly address: string;
  readonly identity: string;
  readonly pre_seeded: boolean;
}

export interface MembershipAdminOptions {
  /** How often the monitor polls each learner's lag. */
  readonly poll_ms: number;
  /** A learner whose log is fewer than this many entries behind the leader's is promoted. */
  readonly promote_lag_entries: number;
  readonly concern: () => ConcernWait;
  readonly log: (line: string) => void;
}

/** How long JoinNode or RemoveNode waits for a membership change under way to complete. */
const CONF_CHANGE_WAIT_MS = 10_000;

/** How long JoinNode waits for the target to answer its introduction. */
const INTRODUCE_TIMEOUT_MS = 5000;

/** How long RemoveNode waits for the removed member to hear of it (it may be down). */
const TELL_REMOVED_TIMEOUT_MS = 2000;

/** SPEC 4.5 rule 1: the promotion threshold. */
export const PROMOTE_LAG_ENTRIES = 1000;

type JoinListener = (state: JoinState) => void;

export class MembershipAdmin {
  private readonly joins = new Map<number, JoinState>();
  /** Index of each learner's own add_learner entry: it is promoted only once it holds that entry. */
  private readonly joinIndex = new Map<number, number>();
  private readonly listeners = new Set<JoinListener>();
  private readonly timer: NodeJS.Timeout;
  private polling = false;

  constructor(
    private readonly db: Database,
    private readonly options: MembershipAdminOptions,
  ) {
    this.timer = setInterval(() => void this.poll(), options.poll_ms);
    this.timer.unref();
  }

  /** Adds `req.node_id` as a learner; returns once the change is committed. Called on the leader. */
  async join(req: JoinRequest): Promise<void> {
    if (!Number.isSafeInteger(req.node_id) || req.node_id <= 0) throw invalidArgument(`node_id must be a positive integer, got ${req.node_id}`);
    if (req.address === '') throw invalidArgument('address is required: the host:port of the joining member\'s peer transport');
    if (req.identity === '') throw invalidArgument('node_identity is required: the SPIFFE ID the joining member proves');
    const log = this.db.log;
    if (!log.isLeader) throw log.notLeader();
    const directory = log.members;
    const cs = log.membership.conf_state;
    if (cs.voters.includes(req.node_id) || cs.learners.includes(req.node_id)) {
      throw alreadyExists(`node_id ${req.node_id} is already a member of the group`, 'NODE_ID_IN_USE', { node_id: String(req.node_id) });
    }
    const holder = directory.byIdentity(req.identity);
    if (holder !== undefined) {
      throw alreadyExists(`identity ${req.identity} is already bound to member ${holder.node_id}`, 'IDENTITY_IN_USE', {
        node_id: String(holder.node_id),
      });
    }
    if (directory.hasDeparted(req.identity)) {
      throw failedPrecondition(`identity ${req.identity} already left this deployment; a returning member joins under a new identity`, 'IDENTITY_DEPARTED');
    }
    if (req.pre_seeded) this.options.log(`weft: member ${req.node_id} joins pre-seeded from a backup`);
    // The target must be running and reachable (SPEC 4.5): it is told who the members are first.
    await log.introduce({ node_id: req.node_id, address: req.address, identity: req.identity }, INTRODUCE_TIMEOUT_MS);
    const event: MembershipChanged = { kind: 'membership_changed', change: 'add_learner', node_id: req.node_id, address: req.address, identity: req.identity };
    const receipt = await this.submitWhenFree(event);
    this.joinIndex.set(req.node_id, receipt.index);
    this.set({ node_id: req.node_id, phase: 'LEARNER', lag_entries: this.lagOf(req.node_id), message: 'receiving the log as a learner' });
  }

  /**
   * Proposes a membership change, waiting (up to conf_change_wait_ms) while another one is under
   * way: one change at a time, and a promotion the monitor just proposed must not fail a join.
   */
  private async submitWhenFree(event: MembershipChanged): Promise<{ index: number }> {
    const deadline = Date.now() + CONF_CHANGE_WAIT_MS;
    for (;;) {
      try {
        return await this.db.submit(event, this.options.concern());
      } catch (e) {
        if (!isWeftError(e) || e.reason !== 'CONF_CHANGE_PENDING' || Date.now() > deadline) throw e;
        await new Promise((r) => setTimeout(r, 20));
      }
    }
  }

  /** The join of `node_id` while it is under way; NOT_FOUND when none was started or it completed. */
  progress(node_id: number): JoinState {
    const state = this.joins.get(node_id);
    if (state === undefined) throw notFound(`no join of member ${node_id} is under way on this member`, 'JOIN_NOT_FOUND');
    if (state.phase === 'COMPLETE') throw notFound(`the join of member ${node_id} has completed`, 'JOIN_NOT_FOUND');
    return state;
  }

  /** Calls `listener` at every phase change and poll; returns the unsubscribe. */
  watch(listener: JoinListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Removes a member (voter or learner) from the group. */
  async remove(node_id: number): Promise<void> {
    const log = this.db.log;
    if (!log.isLeader) throw log.notLeader();
    const cs = log.membership.conf_state;
    if (!cs.voters.includes(node_id) && !cs.learners.includes(node_id)) {
      throw notFound(`member ${node_id} is not in the group`, 'MEMBER_NOT_FOUND', { node_id: String(node_id) });
    }
    if (node_id === log.nodeId) throw failedPrecondition('the leader cannot remove itself; decommission it instead (leadership moves first)', 'LEADER_SELF_REMOVE');
    const record = log.membership.members.find((m) => m.node_id === node_id);
    await this.submitWhenFree({ kind: 'membership_changed', change: 'remove', node_id, address: '', identity: '' });
    this.joins.delete(node_id);
    if (record !== undefined) {
      await log.tellRemoved(record, TELL_REMOVED_TIMEOUT_MS).catch((e: unknown) => {
        this.options.log(`weft: member ${node_id} was removed but could not be told (${e instanceof Error ? e.message : String(e)}); it stops serving once it learns`);
      });
    }
  }

  private lagOf(node_id: number): number {
    const pr = this.db.log.progress().get(node_id);
    return pr === undefined ? this.db.log.lastIndex : Math.max(0, this.db.log.lastIndex - pr.match);
  }

  private set(state: JoinState): void {
    const before = this.joins.get(state.node_id);
    this.joins.set(state.node_id, state);
    if (before?.phase !== state.phase || before.lag_entries !== state.lag_entries) for (const l of this.listeners) l(state);
  }

  /** One round of the monitor: adopt learners, promote those close enough, mark completed ones. */
  private async poll(): Promise<void> {
    if (this.polling || !this.db.log.isLeader) return;
    this.polling = true;
    try {
      const cs = this.db.log.membership.conf_state;
      for (const [id, state] of this.joins) {
        if (state.phase === 'PROMOTING' && cs.voters.includes(id)) {
          this.set({ node_id: id, phase: 'COMPLETE', lag_entries: this.lagOf(id), message: 'promoted to voter' });
        }
      }
      for (const id of cs.learners) {
        const state = this.joins.get(id);
        if (state?.phase === 'PROMOTING') continue;
        const lag = this.lagOf(id);
        const match = this.db.log.progress().get(id)?.match ?? 0;
        const caught_up = match >= (this.joinIndex.get(id) ?? 1);
        if (lag >= this.options.promote_lag_entries || !caught_up) {
          this.set({ node_id: id, phase: 'LEARNER', lag_entries: lag, message: `catching up: ${lag} entries behind` });
          continue;
        }
        this.set({ node_id: id, phase: 'READY_CHECK', lag_entries: lag, message: `${lag} entries behind; promoting` });
        try {
          this.set({ node_id: id, phase: 'PROMOTING', lag_entries: lag, message: 'promotion to voter proposed' });
          await this.db.submit({ kind: 'membership_changed', change: 'add_voter', node_id: id, address: '', identity: '' }, this.options.concern());
        } catch (e) {
          // Another membership change was under way, or leadership moved: the next poll tries again.
          this.set({ node_id: id, phase: 'LEARNER', lag_entries: lag, message: `promotion deferred: ${e instanceof Error ? e.message : String(e)}` });
        }
      }
    } finally {
      this.polling = false;
    }
  }

  stop(): void {
    clearInterval(this.timer);
    this.listeners.clear();
  }
}
