import { assert } from '../../common/assert.js';

/**
 * How the leader replicates to one member:
 * - probe: one append at a time until the follower's log end is found;
 * - replicate: appends are pipelined, bounded by the inflight window;
 * - snapshot: a snapshot is on its way; nothing else is sent until it is reported.
 */
export type ProgressState = 'probe' | 'replicate' | 'snapshot';

/**
 * The window of appends sent but not yet acknowledged. Bounded both in messages and in bytes, so a
 * slow follower cannot make the leader buffer without limit.
 */
export class Inflights {
  /** Last index and byte size of each append in flight, oldest first. */
  private readonly indexes: number[] = [];
  private readonly sizes: number[] = [];
  private bytes = 0;

  constructor(
    readonly count_max: number,
    readonly bytes_max: number,
  ) {}

  add(last_index: number, bytes: number): void {
    assert(!this.full(), 'inflights: add while full');
    this.indexes.push(last_index);
    this.sizes.push(bytes);
    this.bytes += bytes;
  }

  /** Frees every append whose last index is <= index (acknowledged). */
  freeLE(index: number): void {
    let n = 0;
    while (n < this.indexes.length && this.indexes[n]! <= index) {
      this.bytes -= this.sizes[n]!;
      n++;
    }
    if (n > 0) {
      this.indexes.splice(0, n);
      this.sizes.splice(0, n);
    }
  }

  freeFirst(): void {
    if (this.indexes.length > 0) this.freeLE(this.indexes[0]!);
  }

  full(): boolean {
    return this.indexes.length >= this.count_max || (this.bytes_max > 0 && this.bytes >= this.bytes_max);
  }

  count(): number {
    return this.indexes.length;
  }

  reset(): void {
    this.indexes.length = 0;
    this.sizes.length = 0;
    this.bytes = 0;
  }
}

/** The leader's view of one member's log. Invariant: match < next. */
export class Progress {
  /** Highest index known to be on the member's log (persisted there). */
  match = 0;
  /** Next index to send. */
  next: number;
  state: ProgressState = 'probe';
  /** In probe state: an append was sent and the leader waits for its answer (or a heartbeat's) before the next. */
  probe_sent = false;
  /** In snapshot state: the index of the snapshot sent. */
  pending_snapshot = 0;
  /** Heard from within the last election timeout; CheckQuorum counts these. */
  recent_active = false;
  readonly inflights: Inflights;

  constructor(
    next: number,
    public is_learner: boolean,
    inflight_count_max: number,
    inflight_bytes_max: number,
  ) {
    this.next = next;
    this.inflights = new Inflights(inflight_count_max, inflight_bytes_max);
  }

  private resetState(state: ProgressState): void {
    this.probe_sent = false;
    this.pending_snapshot = 0;
    this.state = state;
    this.inflights.reset();
  }

  becomeProbe(): void {
    // After a snapshot the follower holds at least the snapshot's index.
    const after = this.state === 'snapshot' ? Math.max(this.match, this.pending_snapshot) : this.match;
    this.resetState('probe');
    this.next = after + 1;
  }

  becomeReplicate(): void {
    this.resetState('replicate');
    this.next = this.match + 1;
  }

  becomeSnapshot(snapshot_index: number): void {
    this.resetState('snapshot');
    this.pending_snapshot = snapshot_index;
  }

  /** An acknowledgement up to n. Returns whether match moved. */
  maybeUpdate(n: number): boolean {
    let updated = false;
    if (this.match < n) {
      this.match = n;
      updated = true;
      this.probe_sent = false;
    }
    this.next = Math.max(this.next, n + 1);
    return updated;
  }

  /** Records an append of `count` entries (`bytes` in total) just sent, starting at next. */
  sentEntries(count: number, bytes: number): void {
    if (this.state === 'replicate') {
      if (count > 0) {
        this.next += count;
        this.inflights.add(this.next - 1, bytes);
      }
    } else if (this.state === 'probe') {
      this.probe_sent = true;
    } else {
      assert(false, `sending entries in state ${this.state}`);
    }
  }

  /**
   * A rejection of the append at `rejected`; match_hint is where the follower's log may match.
   * Returns false when the rejection is stale (answers an older append).
   */
  maybeDecrTo(rejected: number, match_hint: number): boolean {
    if (this.state === 'replicate') {
      if (rejected <= this.match) return false;
      this.next = this.match + 1;
      return true;
    }
    if (this.next - 1 !== rejected) return false;
    this.next = Math.max(Math.min(rejected, match_hint + 1), this.match + 1);
    this.probe_sent = false;
    return true;
  }

  isPaused(): boolean {
    switch (this.state) {
      case 'probe':
        return this.probe_sent;
      case 'replicate':
        return this.inflights.full();
      case 'snapshot':
        return true;
    }
  }

  describe(): string {
    const extra = this.state === 'snapshot' ? ` pending_snap=${this.pending_snapshot}` : '';
    const paused = this.isPaused() ? ' paused' : '';
    const inflight = this.inflights.count() > 0 ? ` inflight=${this.inflights.count()}` : '';
    return `${this.state} match=${this.match} next=${this.next}${this.is_learner ? ' learner' : ''}${extra}${inflight}${paused}`;
  }
}
