import { assert } from '../../common/assert.js';
import type { Storage } from './storage.js';
import { limitBytes } from './storage.js';
import type { Entry, Snapshot } from './types.js';

/**
 * The log as the core sees it: the persisted part (Storage) plus an unstable tail of entries (and
 * possibly a snapshot) the driver has not yet persisted.
 *
 * Invariant: applied <= committed <= lastIndex().
 * Invariant: unstable entries start at unstable_offset and are contiguous; if an unstable snapshot is
 * present, unstable_offset === snapshot.meta.index + 1.
 */
export class RaftLog {
  committed: number;
  applied: number;
  private unstable_entries: Entry[] = [];
  private unstable_offset: number;
  private unstable_snapshot: Snapshot | undefined;

  constructor(readonly storage: Storage) {
    const first = storage.firstIndex();
    this.unstable_offset = storage.lastIndex() + 1;
    // Everything up to the snapshot is committed and applied by definition.
    this.committed = first - 1;
    this.applied = first - 1;
  }

  firstIndex(): number {
    if (this.unstable_snapshot) return this.unstable_snapshot.meta.index + 1;
    return this.storage.firstIndex();
  }

  lastIndex(): number {
    if (this.unstable_entries.length > 0) return this.unstable_offset + this.unstable_entries.length - 1;
    if (this.unstable_snapshot) return this.unstable_snapshot.meta.index;
    return this.storage.lastIndex();
  }

  /** The term of entry i, or undefined when it is compacted or beyond the end. */
  term(i: number): number | undefined {
    if (i === 0) return 0;
    if (i >= this.unstable_offset && i < this.unstable_offset + this.unstable_entries.length) {
      return this.unstable_entries[i - this.unstable_offset]!.term;
    }
    if (this.unstable_snapshot && i === this.unstable_snapshot.meta.index) return this.unstable_snapshot.meta.term;
    if (i >= this.unstable_offset) return undefined;
    if (this.unstable_snapshot) return undefined; // older than the pending snapshot: gone
    return this.storage.term(i);
  }

  lastTerm(): number {
    const t = this.term(this.lastIndex());
    assert(t !== undefined, 'the last entry always has a known term');
    return t;
  }

  matchTerm(i: number, term: number): boolean {
    return this.term(i) === term;
  }

  /** Raft's "at least as up to date" rule for granting votes. */
  isUpToDate(last_index: number, last_term: number): boolean {
    const my_term = this.lastTerm();
    return last_term > my_term || (last_term === my_term && last_index >= this.lastIndex());
  }

  /**
   * Entries [lo, hi) up to bytes_max (at least one), or undefined if lo is compacted.
   * Requires lo <= hi <= lastIndex()+1.
   */
  slice(lo: number, hi: number, bytes_max: number): Entry[] | undefined {
    assert(lo <= hi && hi <= this.lastIndex() + 1, `slice [${lo}, ${hi}) out of bounds (last ${this.lastIndex()})`);
    if (lo < this.firstIndex()) return undefined;
    if (lo === hi) return [];
    const out: Entry[] = [];
    if (lo < this.unstable_offset) {
      const stored = this.storage.entries(lo, Math.min(hi, this.unstable_offset), bytes_max);
      for (const e of stored) out.push(e);
      // Stop early when storage returned fewer than asked (the byte limit bit).
      if (lo + stored.length < Math.min(hi, this.unstable_offset)) return out;
    }
    if (hi > this.unstable_offset) {
      const from = Math.max(lo, this.unstable_offset);
      for (let i = from - this.unstable_offset; i < hi - this.unstable_offset; i++) out.push(this.unstable_entries[i]!);
    }
    return limitBytes(out, bytes_max);
  }

  /** Entries from i to the end, up to bytes_max; undefined if i is compacted. */
  entriesFrom(i: number, bytes_max: number): Entry[] | undefined {
    if (i > this.lastIndex()) return [];
    return this.slice(i, this.lastIndex() + 1, bytes_max);
  }

  /** The index of the first entry whose term conflicts with the log, or 0 if all match (new ones may follow). */
  findConflict(entries: readonly Entry[]): number {
    for (const e of entries) {
      if (!this.matchTerm(e.index, e.term)) return e.index;
    }
    return 0;
  }

  /**
   * The largest index <= index whose term is <= term, with that term: where a rejected append from a
   * leader with `term` at `index` can match, skipping a whole term of entries per round trip.
   */
  findConflictByTerm(index: number, term: number): { index: number; term: number } {
    for (let i = index; ; i--) {
      const t = this.term(i);
      if (t === undefined) return { index: i, term: 0 };
      if (t <= term) return { index: i, term: t };
    }
  }

  /**
   * A follower's append: if entry (index, log_term) matches, append `entries` (truncating a conflicting
   * suffix), raise commit to min(commit, last new index) and return that last new index.
   */
  maybeAppend(index: number, log_term: number, commit: number, entries: readonly Entry[]): number | undefined {
    if (!this.matchTerm(index, log_term)) return undefined;
    const last_new = index + entries.length;
    const ci = this.findConflict(entries);
    if (ci !== 0) {
      assert(ci > this.committed, `entry ${ci} conflicts with committed entry (committed ${this.committed})`);
      this.append(entries.slice(ci - (index + 1)));
    }
    this.commitTo(Math.min(commit, last_new));
    return last_new;
  }

  /** Appends to the unstable tail, truncating whatever follows entries[0].index - 1. */
  append(entries: readonly Entry[]): number {
    if (entries.length === 0) return this.lastIndex();
    const after = entries[0]!.index - 1;
    assert(after >= this.committed, `append after ${after} would truncate committed entries (committed ${this.committed})`);
    assert(after <= this.lastIndex(), `append after ${after} leaves a gap (last ${this.lastIndex()})`);
    if (after + 1 === this.unstable_offset + this.unstable_entries.length) {
      // A loop, not push(...entries): spreading a long batch would overflow the stack.
      for (const e of entries) this.unstable_entries.push(e);
    } else if (after + 1 <= this.unstable_offset) {
      // Replaces the whole unstable tail; the driver will overwrite the stored suffix when persisting.
      this.unstable_offset = after + 1;
      this.unstable_entries = entries.slice();
    } else {
      this.unstable_entries = this.unstable_entries.slice(0, after + 1 - this.unstable_offset).concat(entries);
    }
    return this.lastIndex();
  }

  commitTo(i: number): void {
    if (i <= this.committed) return;
    assert(i <= this.lastIndex(), `commit ${i} beyond last index ${this.lastIndex()}`);
    this.committed = i;
  }

  /** The leader's commit: only an entry of the current term is committed by counting (Raft §5.4.2). */
  maybeCommit(index: number, term: number, ignore_term: boolean): boolean {
    if (index > this.committed && (ignore_term || this.term(index) === term)) {
      this.commitTo(index);
      return true;
    }
    return false;
  }

  appliedTo(i: number): void {
    if (i === 0) return;
    assert(i <= this.committed && i >= this.applied, `applied ${i} outside [${this.applied}, ${this.committed}]`);
    this.applied = i;
  }

  /** Committed entries not yet handed to the application, up to bytes_max. */
  nextCommitted(bytes_max: number): Entry[] {
    const lo = Math.max(this.applied + 1, this.firstIndex());
    if (this.committed < lo) return [];
    const ents = this.slice(lo, this.committed + 1, bytes_max);
    assert(ents !== undefined, `committed entries from ${lo} are compacted`);
    return ents;
  }

  hasNextCommitted(): boolean {
    return this.committed >= Math.max(this.applied + 1, this.firstIndex());
  }

  unstableEntries(): readonly Entry[] {
    return this.unstable_entries;
  }

  unstableSnapshot(): Snapshot | undefined {
    return this.unstable_snapshot;
  }

  /** The driver persisted entries up to (i, t): drop them from the unstable tail if it still holds them. */
  stableTo(i: number, t: number): void {
    const k = i - this.unstable_offset;
    if (k < 0 || k >= this.unstable_entries.length) return;
    if (this.unstable_entries[k]!.term !== t) return; // replaced since the Ready: keep the newer ones
    this.unstable_entries = this.unstable_entries.slice(k + 1);
    this.unstable_offset = i + 1;
  }

  stableSnapTo(i: number): void {
    if (this.unstable_snapshot && this.unstable_snapshot.meta.index === i) this.unstable_snapshot = undefined;
  }

  /** Replaces the whole log with a snapshot from the leader. */
  restore(s: Snapshot): void {
    this.committed = s.meta.index;
    this.unstable_offset = s.meta.index + 1;
    this.unstable_entries = [];
    this.unstable_snapshot = s;
  }

  /** The snapshot to send a lagging follower: the pending one, else storage's (undefined = not ready yet). */
  snapshot(): Snapshot | undefined {
    return this.unstable_snapshot ?? this.storage.snapshot();
  }

  /** Committed but unapplied entries include a membership change (a member must not campaign then). */
  hasUnappliedConfChange(): boolean {
    if (this.committed <= this.applied) return false;
    const ents = this.slice(Math.max(this.applied + 1, this.firstIndex()), this.committed + 1, Number.MAX_SAFE_INTEGER);
    return (ents ?? []).some((e) => e.type === 'conf_change');
  }
}
