import type { GraphOp, GraphWritePart } from '../log/events.js';

/** What the part a member just applied asks of it. */
export type PartOutcome =
  | { readonly kind: 'held' }
  | { readonly kind: 'commit'; readonly parts: readonly (readonly GraphOp[])[] }
  /** A commit or a later part of a write this member does not hold (dropped by a new term). */
  | { readonly kind: 'lost' };

/**
 * Graph writes in parts (GraphWritePart) that have not reached their last part, by the index of their
 * first one. Holding a part changes nothing a reader sees; the commit hands back every part's ops, in order.
 * Other entries may come between parts, so several writes may be open at once (each from a statement
 * of the leader that proposed them).
 */
export class GraphWriteParts {
  /** Invariant: every key is the index of a first part, and each list holds parts 0..n-1 in order. */
  private readonly open = new Map<number, { readonly indexes: number[]; readonly parts: (readonly GraphOp[])[] }>();

  accept(index: number, event: GraphWritePart): PartOutcome {
    if (event.part === 0) {
      if (event.end === 'abandon') return { kind: 'held' };
      if (event.end === 'commit') return { kind: 'commit', parts: [event.ops] };
      this.open.set(index, { indexes: [index], parts: [event.ops] });
      return { kind: 'held' };
    }
    const write = this.open.get(event.first);
    if (write === undefined || write.parts.length !== event.part) {
      // Its start was dropped (a new term began) or this is not its next part: the write is gone.
      this.open.delete(event.first);
      return { kind: 'lost' };
    }
    if (event.end === 'abandon') {
      this.open.delete(event.first);
      return { kind: 'held' };
    }
    write.indexes.push(index);
    write.parts.push(event.ops);
    if (event.end === undefined) return { kind: 'held' };
    this.open.delete(event.first);
    return { kind: 'commit', parts: write.parts };
  }

  /** A new term began: the writers of open writes lost their lead, and no part of them will follow. */
  dropAll(): void {
    this.open.clear();
  }

  /** Pending entries after `index` were undone: so are the parts among them. */
  rollbackAfter(index: number): void {
    for (const [first, write] of this.open) {
      if (first > index) {
        this.open.delete(first);
        continue;
      }
      while (write.indexes.length > 0 && write.indexes[write.indexes.length - 1]! > index) {
        write.indexes.pop();
        write.parts.pop();
      }
    }
  }

  /** Writes holding parts. A checkpoint is not taken while one is open: its parts live only here. */
  get size(): number {
    return this.open.size;
  }
}
