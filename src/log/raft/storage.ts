import { assert } from '../../common/assert.js';
import type { ConfState, Entry, HardState, Snapshot } from './types.js';
import { EMPTY_HARD_STATE, entryBytes } from './types.js';

/**
 * What the core reads of the persisted log. The driver writes it (from each Ready) and the core
 * only reads it. Indexes below firstIndex() were compacted into the snapshot.
 */
export interface Storage {
  /** The hard state and membership saved before a restart. */
  initialState(): { hard_state: HardState; conf_state: ConfState };
  /** Entries [lo, hi), at least one even if it alone passes bytes_max. Requires firstIndex() <= lo <= hi <= lastIndex()+1. */
  entries(lo: number, hi: number, bytes_max: number): Entry[];
  /** The term of entry i, for firstIndex()-1 <= i <= lastIndex(); undefined outside (compacted or not yet written). */
  term(i: number): number | undefined;
  firstIndex(): number;
  lastIndex(): number;
  /** The newest snapshot, or undefined if it is being built and the caller should try again later. */
  snapshot(): Snapshot | undefined;
}

/** Reads up to bytes_max of entries, always at least one, so a single large entry still moves. */
export function limitBytes(entries: Entry[], bytes_max: number): Entry[] {
  if (entries.length === 0) return entries;
  let size = entryBytes(entries[0]!);
  let n = 1;
  for (; n < entries.length; n++) {
    size += entryBytes(entries[n]!);
    if (size > bytes_max) break;
  }
  return n === entries.length ? entries : entries.slice(0, n);
}

/**
 * An in-memory Storage for tests, the simulator and a single process. It keeps the snapshot's
 * (index, term) as a dummy first position so term(firstIndex()-1) is always known.
 */
export class MemoryStorage implements Storage {
  private hard_state: HardState = EMPTY_HARD_STATE;
  private snap: Snapshot = { meta: { index: 0, term: 0, conf_state: { voters: [], learners: [] } }, data: new Uint8Array() };
  /** Invariant: ents[0] is the dummy at snap.meta.index; ents[k].index === ents[0].index + k. */
  private ents: Entry[] = [{ index: 0, term: 0, type: 'normal', data: new Uint8Array() }];

  initialState(): { hard_state: HardState; conf_state: ConfState } {
    return { hard_state: this.hard_state, conf_state: this.snap.meta.conf_state };
  }

  /** Membership before any snapshot exists (set once, at bootstrap). */
  setInitialConfState(cs: ConfState): void {
    assert(this.snap.meta.index === 0, 'initial membership is set before any snapshot');
    this.snap = { meta: { ...this.snap.meta, conf_state: cs }, data: this.snap.data };
  }

  hardState(): HardState {
    return this.hard_state;
  }

  setHardState(hs: HardState): void {
    this.hard_state = hs;
  }

  private offset(): number {
    return this.ents[0]!.index;
  }

  firstIndex(): number {
    return this.offset() + 1;
  }

  lastIndex(): number {
    return this.offset() + this.ents.length - 1;
  }

  term(i: number): number | undefined {
    const off = this.offset();
    if (i < off || i > this.lastIndex()) return undefined;
    return this.ents[i - off]!.term;
  }

  entries(lo: number, hi: number, bytes_max: number): Entry[] {
    const off = this.offset();
    assert(lo > off, `entries(${lo}) compacted: first index is ${off + 1}`);
    assert(hi <= this.lastIndex() + 1, `entries(..${hi}) beyond last index ${this.lastIndex()}`);
    return limitBytes(this.ents.slice(lo - off, hi - off), bytes_max);
  }

  snapshot(): Snapshot {
    return this.snap;
  }

  /** Replaces everything with a snapshot received from the leader. */
  applySnapshot(s: Snapshot): void {
    if (s.meta.index <= this.snap.meta.index) return;
    this.snap = s;
    this.ents = [{ index: s.meta.index, term: s.meta.term, type: 'normal', data: new Uint8Array() }];
  }

  /** Records the application's own snapshot at `index` (already applied); does not drop entries. */
  createSnapshot(index: number, conf_state: ConfState, data: Uint8Array): Snapshot {
    assert(index > this.snap.meta.index, `snapshot ${index} is not newer than ${this.snap.meta.index}`);
    assert(index <= this.lastIndex(), `snapshot ${index} beyond last index ${this.lastIndex()}`);
    const term = this.term(index);
    assert(term !== undefined, `no term for snapshot index ${index}`);
    this.snap = { meta: { index, term, conf_state }, data };
    return this.snap;
  }

  /** Drops entries up to and including `index`. Invariant: index <= applied (the driver knows). */
  compact(index: number): void {
    const off = this.offset();
    if (index <= off) return;
    assert(index <= this.lastIndex(), `compact ${index} beyond last index ${this.lastIndex()}`);
    const dummy = this.ents[index - off]!;
    this.ents = [{ index: dummy.index, term: dummy.term, type: 'normal', data: new Uint8Array() }, ...this.ents.slice(index - off + 1)];
  }

  /** Appends entries, truncating any conflicting suffix first. */
  append(entries: readonly Entry[]): void {
    if (entries.length === 0) return;
    const first = entries[0]!.index;
    const off = this.offset();
    assert(first <= this.lastIndex() + 1, `append at ${first} leaves a gap after ${this.lastIndex()}`);
    // Entries already compacted are committed and equal; skip them.
    const skip = Math.max(0, off + 1 - first);
    if (skip >= entries.length) return;
    const from = first + skip;
    this.ents.length = from - off;
    for (let k = skip; k < entries.length; k++) this.ents.push(entries[k]!);
  }

  /** A copy holding only what survives a crash; the simulator uses it to restart a member. */
  clone(): MemoryStorage {
    const c = new MemoryStorage();
    c.hard_state = this.hard_state;
    c.snap = this.snap;
    c.ents = this.ents.slice();
    return c;
  }
}
