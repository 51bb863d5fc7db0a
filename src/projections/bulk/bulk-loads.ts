import type { BulkLoad } from '../../log/events.js';

/**
 * The parts of the bulk import under way, in log order. Apply is deferred to the last part, so an
 * import whose writer died before writing it leaves nothing in the projections (docs/import.md).
 */
export class BulkLoads {
  /** Invariant: consecutive parts of one import, part numbers 0, 1, ...; indexes increasing. */
  private parts: { readonly index: number; readonly event: BulkLoad }[] = [];

  /**
   * Takes one part; answers the whole import when it is the last one. A part that does not continue
   * the import under way starts over from it (the earlier import was abandoned).
   */
  accept(index: number, event: BulkLoad): readonly BulkLoad[] | undefined {
    const prev = this.parts[this.parts.length - 1];
    const continues = prev !== undefined && sameLoad(prev.event.load, event.load) && prev.event.part + 1 === event.part;
    if (!continues) this.parts = [];
    if (event.part !== this.parts.length) return undefined; // a tail of an import whose start is lost
    this.parts.push({ index, event });
    if (!event.last) return undefined;
    const all = this.parts.map((p) => p.event);
    this.parts = [];
    return all;
  }

  /** Any other entry ends an import that has not completed: its writer is gone. */
  interrupt(): void {
    if (this.parts.length > 0) this.parts = [];
  }

  /** Pending entries after `index` were undone. */
  rollbackAfter(index: number): void {
    this.parts = this.parts.filter((p) => p.index <= index);
  }

  /** Parts held, waiting for their last one. */
  get waiting(): number {
    return this.parts.length;
  }
}

function sameLoad(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return false;
  return true;
}
