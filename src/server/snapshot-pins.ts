/**
 * Read indexes that statements paused between time slices still read. Before slicing, a statement ran
 * in one go and no commit could move the MVCC horizon under it; now commits happen during its pauses,
 * so the database keeps every version at or above the oldest pinned index (`Database.pinSource`).
 */
export class SnapshotPins {
  /** How many running statements read at each index. Invariant: every count is >= 1. */
  private readonly counts = new Map<number, number>();

  /** Pins `read_index` until the answer is called (once). */
  pin(read_index: number): () => void {
    this.counts.set(read_index, (this.counts.get(read_index) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.counts.get(read_index) ?? 1) - 1;
      if (left === 0) this.counts.delete(read_index);
      else this.counts.set(read_index, left);
    };
  }

  /** The oldest pinned index, or undefined when nothing is pinned. */
  oldest(): number | undefined {
    let out: number | undefined;
    for (const index of this.counts.keys()) if (out === undefined || index < out) out = index;
    return out;
  }
}
