import { assert } from '../../common/assert.js';
import { Progress } from './progress.js';
import type { ConfState, NodeId } from './types.js';

export type VoteResult = 'won' | 'lost' | 'pending';

/**
 * Membership and the leader's per-member progress, plus the votes of an election. Quorums are
 * majorities of voters only; learners never count.
 *
 * Invariant: voters and learners are disjoint, and progress has exactly their members.
 */
export class ProgressTracker {
  readonly voters = new Set<NodeId>();
  readonly learners = new Set<NodeId>();
  readonly progress = new Map<NodeId, Progress>();
  /** Votes of the current election (or pre-election): granted or rejected, by voter. */
  readonly votes = new Map<NodeId, boolean>();

  constructor(
    readonly inflight_count_max: number,
    readonly inflight_bytes_max: number,
  ) {}

  confState(): ConfState {
    return { voters: sorted(this.voters), learners: sorted(this.learners) };
  }

  /** Members in a fixed order, so message order (and so every trace) is deterministic. */
  members(): NodeId[] {
    return sorted(this.progress.keys());
  }

  isVoter(id: NodeId): boolean {
    return this.voters.has(id);
  }

  /** Sets membership as a whole (restart, snapshot). Keeps the progress of members that stay. */
  reset(cs: ConfState, next: number): void {
    this.voters.clear();
    this.learners.clear();
    for (const id of cs.voters) this.voters.add(id);
    for (const id of cs.learners) {
      assert(!this.voters.has(id), `member ${id} is both voter and learner`);
      this.learners.add(id);
    }
    for (const id of [...this.progress.keys()]) {
      if (!this.voters.has(id) && !this.learners.has(id)) this.progress.delete(id);
    }
    for (const id of [...this.voters, ...this.learners]) {
      const pr = this.progress.get(id);
      if (pr) pr.is_learner = this.learners.has(id);
      else this.progress.set(id, this.newProgress(next, this.learners.has(id)));
    }
  }

  newProgress(next: number, is_learner: boolean): Progress {
    const pr = new Progress(next, is_learner, this.inflight_count_max, this.inflight_bytes_max);
    // A new member gets a full election timeout before CheckQuorum may count it as silent.
    pr.recent_active = true;
    return pr;
  }

  /** The highest index held by a majority of voters. */
  committed(): number {
    const n = this.voters.size;
    if (n === 0) return 0;
    const matches: number[] = [];
    for (const id of this.voters) matches.push(this.progress.get(id)?.match ?? 0);
    matches.sort((a, b) => b - a);
    return matches[Math.floor(n / 2)]!;
  }

  resetVotes(): void {
    this.votes.clear();
  }

  recordVote(id: NodeId, granted: boolean): void {
    if (!this.votes.has(id)) this.votes.set(id, granted);
  }

  voteResult(): VoteResult {
    return this.quorumOf((id) => this.votes.get(id));
  }

  /** Whether a majority of voters were heard from recently (the leader counts itself). */
  quorumActive(self: NodeId): boolean {
    return this.quorumOf((id) => (id === self ? true : this.progress.get(id)?.recent_active === true ? true : undefined)) === 'won';
  }

  /** Majority decision over voters: yes answers, no answers, or still open. */
  quorumOf(answer: (id: NodeId) => boolean | undefined): VoteResult {
    const n = this.voters.size;
    if (n === 0) return 'won'; // an empty configuration agrees with everything (etcd's convention)
    const q = Math.floor(n / 2) + 1;
    let yes = 0;
    let no = 0;
    for (const id of this.voters) {
      const a = answer(id);
      if (a === true) yes++;
      else if (a === false) no++;
    }
    if (yes >= q) return 'won';
    if (n - no < q) return 'lost';
    return 'pending';
  }
}

function sorted(ids: Iterable<NodeId>): NodeId[] {
  return [...ids].sort((a, b) => a - b);
}
