import { assert } from '../../common/assert.js';

/**
 * The consensus core of a group of one, with the same contract as the Raft core (DESIGN 6): the driver
 * proposes, hands back what storage made durable, and takes a Ready of entries to persist and entries
 * committed, then calls `advance`. With one voter an entry commits once it is fsynced.
 */
export interface CoreEntry {
  readonly index: number;
  readonly term: number;
  readonly data: Uint8Array;
}

export interface HardState {
  readonly term: number;
  readonly vote: number;
  readonly commit: number;
}

export interface CoreReady {
  readonly hard_state: HardState;
  /** Entries to append to storage before anything that depends on them. */
  readonly entries: readonly CoreEntry[];
  /** Entries known committed, in log order, to apply. */
  readonly committed_entries: readonly CoreEntry[];
}

export class SingleMemberCore {
  private unstable: CoreEntry[] = [];
  /** Entries handed out for persistence, kept until applied. Invariant: indexes ascend without gaps. */
  private unapplied: CoreEntry[] = [];
  private lastIndex: number;
  /** Invariant: applied <= commit <= persisted <= lastIndex. */
  private persisted: number;
  private commit: number;
  private applied: number;

  constructor(
    readonly id: number,
    private readonly term: number,
    last_index: number,
    applied: number,
  ) {
    this.lastIndex = last_index;
    this.persisted = last_index;
    this.commit = last_index;
    this.applied = applied;
    assert(applied <= last_index, 'applied beyond the log');
  }

  get lastLogIndex(): number {
    return this.lastIndex;
  }

  get committed(): number {
    return this.commit;
  }

  propose(data: Uint8Array): CoreEntry {
    const entry = { index: ++this.lastIndex, term: this.term, data };
    this.unstable.push(entry);
    return entry;
  }

  /** Storage reports entries up to `index` fsynced. */
  persistedTo(index: number): void {
    if (index <= this.persisted) return;
    assert(index <= this.lastIndex, 'persisted beyond the log');
    this.persisted = index;
    // A group of one: the fsynced watermark is the commit quorum.
    this.commit = index;
  }

  hasReady(): boolean {
    return this.unstable.length > 0 || this.commit > this.applied;
  }

  ready(): CoreReady {
    const entries = this.unstable;
    this.unstable = [];
    this.unapplied.push(...entries);
    const upTo = this.unapplied.findIndex((e) => e.index > this.commit);
    const committed = upTo === -1 ? this.unapplied : this.unapplied.slice(0, upTo);
    return {
      hard_state: { term: this.term, vote: this.id, commit: this.commit },
      entries,
      committed_entries: committed,
    };
  }

  /** Entries up to `index` were applied outside a Ready (replayed from storage at start). */
  appliedTo(index: number): void {
    assert(index <= this.commit, 'applied beyond commit');
    this.applied = Math.max(this.applied, index);
    this.unapplied = this.unapplied.filter((e) => e.index > index);
  }

  advance(ready: CoreReady): void {
    const last = ready.committed_entries[ready.committed_entries.length - 1];
    if (last === undefined) return;
    this.applied = last.index;
    this.unapplied = this.unapplied.filter((e) => e.index > last.index);
  }
}
