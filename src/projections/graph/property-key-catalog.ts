import { assert } from '../../common/assert.js';
import type { PropertyMap } from '../../common/property-value.js';

/**
 * How many live nodes and relationships hold each property key, over the store's newest versions
 * (pending entries included), kept as versions are pushed and undone and so rebuilt by a replay or a
 * checkpoint restore like every other fold of the log. `db.propertyKeys()` answers from it rather
 * than walking the whole graph on each call.
 */
export class PropertyKeyCatalog {
  /**
   * Per key, the live nodes and relationships holding it. Invariant: every count >= 0. A key whose
   * count fell to 0 keeps its entry, so keys stay in the order they first appeared.
   */
  private readonly counts = new Map<string, number>();
  /**
   * The newest log index of a version counted or uncounted here. A reader at or past it sees every
   * record's newest version, so the counts are exactly its own; an undo leaves it where it was, which
   * only sends some readers to walk the graph instead.
   */
  private newest = 0;

  /** A version at `index` became (+1) or stopped being (-1) the live one of its record. */
  count(props: PropertyMap, delta: 1 | -1, index: number): void {
    for (const key of props.keys()) {
      const n = (this.counts.get(key) ?? 0) + delta;
      // The message is built only on failure: this runs for every key of every version written.
      if (n < 0) assert(false, `property key ${key} counted below zero`);
      this.counts.set(key, n);
    }
    if (this.newest < index) this.newest = index;
  }

  /** The counts, when a reader at `readIndex` sees exactly them; undefined when it must walk. */
  at(readIndex: number): ReadonlyMap<string, number> | undefined {
    return readIndex >= this.newest ? this.counts : undefined;
  }
}

/** Adds `delta` to the count of each key of `props` (none when `props` is undefined). */
export function countKeys(counts: Map<string, number>, props: PropertyMap | undefined, delta: 1 | -1): void {
  if (props === undefined) return;
  for (const key of props.keys()) counts.set(key, (counts.get(key) ?? 0) + delta);
}

/** Per property key, how many of `nodes` and `edges` hold it, in the order keys are met: the walk the catalog saves. */
export function walkPropertyKeys(nodes: Iterable<{ readonly props: PropertyMap }>, edges: Iterable<{ readonly props: PropertyMap }>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const n of nodes) countKeys(counts, n.props, +1);
  for (const e of edges) countKeys(counts, e.props, +1);
  return counts;
}
