import type { GraphStore } from '../graph/graph-store.js';
import { visibleNode, type NodeRecord } from '../graph/records.js';
import { IndexGeneration, hashKey, type IndexShape } from './index-generation.js';
import { compareKeys, type IndexKey } from './sorted-entries.js';
import { KeyHashTable } from './key-hash-table.js';


/**
 * Every B-tree index generation on this member, kept current at apply. A generation exists from the
 * entry that admits its build until the entry that drops or withdraws it; while its build runs it is
 * maintained for every write, and the build's backfill visits the records written before.
 */
export interface Duplicate {
  readonly key: IndexKey;
  /** The node the backfill was visiting, and one other node holding the same key. */
  readonly node_id: number;
  readonly other_id: number;
}

export class IndexStore {
  private readonly generations = new Map<number, IndexGeneration>();
  private readonly byLabel = new Map<string, Set<IndexGeneration>>();

  constructor(private readonly graph: GraphStore) {}

  create(generation: number, shape: IndexShape): IndexGeneration {
    const gen = new IndexGeneration(generation, shape);
    gen.born_next_id = this.graph.nextNodeId;
    this.generations.set(generation, gen);
    let set = this.byLabel.get(shape.label);
    if (set === undefined) this.byLabel.set(shape.label, (set = new Set()));
    set.add(gen);
    return gen;
  }

  drop(generation: number): void {
    const gen = this.generations.get(generation);
    if (gen === undefined) return;
    this.generations.delete(generation);
    this.byLabel.get(gen.shape.label)?.delete(gen);
  }

  get(generation: number): IndexGeneration | undefined {
    return this.generations.get(generation);
  }

  all(): IterableIterator<IndexGeneration> {
    return this.generations.values();
  }

  /**
   * Refreshes the entries of nodes a write touched. `labelsBefore` are the labels each had before
   * the write, so a label removed by it still finds the generations holding the node.
   */
  nodesWritten(touched: ReadonlyMap<number, readonly string[]>): void {
    if (this.generations.size === 0) return;
    for (const [id, before] of touched) {
      const record = this.graph.nodeRecord(id);
      const gens = new Set<IndexGeneration>();
      for (const l of before) for (const g of this.byLabel.get(l) ?? []) gens.add(g);
      if (record !== undefined) {
        for (let v: NodeRecord['head'] | undefined = record.head; v !== undefined; v = v.prev) {
          for (const l of v.labels) for (const g of this.byLabel.get(l) ?? []) gens.add(g);
        }
      }
      for (const g of gens) {
        if (record === undefined) g.forget(id);
        else g.refresh(record);
      }
    }
  }

  /**
   * Visits up to `budget` records after the generation's backfill position, in id order, adding
   * their entries. For a unique generation it stops at the first duplicate and reports it, leaving
   * the position on the duplicated record so that it is visited again once the duplicate is resolved.
   */
  backfill(
    gen: IndexGeneration,
    budget: number,
    unique: boolean,
    requireAll = false,
    /** Asked every few records: the executor bounds a slice in time too (apply never passes one). */
    enough?: () => boolean,
  ): { visited: number; duplicate?: Duplicate; missing?: number } {
    const end = gen.born_next_id;
    let visited = 0;
    let id = gen.filled_through + 1;
    for (; id < end && visited < budget; id++) {
      if ((visited & 63) === 63 && enough?.() === true) break;
      const record = this.graph.nodeRecord(id);
      if (record === undefined) continue;
      visited++;
      gen.refresh(record);
      if (requireAll && this.lacksKey(gen, record)) {
        gen.filled_through = id - 1;
        return { visited, missing: id };
      }
      if (unique) {
        const dup = this.duplicateOf(gen, record);
        if (dup !== undefined) {
          gen.filled_through = id - 1;
          return { visited, duplicate: dup };
        }
      }
    }
    gen.filled_through = id - 1;
    if (id >= end) {
      gen.complete = true;
      gen.probe = undefined;
    }
    return { visited };
  }

  /**
   * The quick first pass of a build: hashes the latest key of up to `budget` records into the
   * generation's probe. It runs well ahead of the backfill, so the records a uniqueness check must
   * scan one by one (those beyond both passes) are few for a short time only.
   */
  prehash(gen: IndexGeneration, budget: number): void {
    const probe = (gen.probe ??= new KeyHashTable(this.graph.stats().label_counts.get(gen.shape.label) ?? 0));
    const end = gen.born_next_id;
    let id = gen.hashed_through + 1;
    for (let n = 0; id < end && n < budget; id++) {
      const record = this.graph.nodeRecord(id);
      if (record === undefined || record.head.deleted) continue;
      n++;
      const h = gen.hashOf(record.head.labels, record.head.props);
      if (h !== undefined) probe.add(h, id);
    }
    gen.hashed_through = id - 1;
    if (id >= end) gen.hashed = true;
  }

  /** A live node of the label without every key property (a NODE_KEY build refuses it). */
  private lacksKey(gen: IndexGeneration, record: NodeRecord): boolean {
    const v = visibleNode(record, Number.POSITIVE_INFINITY);
    return v !== undefined && v.labels.includes(gen.shape.label) && gen.shape.properties.some((p) => v.props.get(p) === undefined);
  }

  /** Finishes a generation's backfill at once (replay of a publication, restart of a published index). */
  fill(gen: IndexGeneration): void {
    while (!gen.complete) this.backfill(gen, Number.MAX_SAFE_INTEGER, false);
  }

  /** Another live node holding the latest key of `record` in a unique generation. */
  duplicateOf(gen: IndexGeneration, record: NodeRecord): Duplicate | undefined {
    const latest = visibleNode(record, Number.POSITIVE_INFINITY);
    if (latest === undefined) return undefined;
    const key = gen.keyOf(latest.labels, latest.props);
    if (key === undefined) return undefined;
    // Entries alone: a duplicate among records not visited yet is found when the later one is.
    const other = this.holderOf(gen, key, (id) => id !== record.id, false);
    return other === undefined ? undefined : { key, node_id: record.id, other_id: other };
  }

  /**
   * A node (pending writes included) whose latest version holds `key` in `gen`, found through the
   * entries plus, while the backfill has not finished, the records it has not visited yet.
   */
  holderOf(gen: IndexGeneration, key: IndexKey, accept: (id: number) => boolean, unvisited = true): number | undefined {
    const entry = gen.entries.get(key);
    for (const id of entry?.ids ?? []) {
      if (accept(id) && this.latestHolds(gen, id, key)) return id;
    }
    if (unvisited && !gen.complete) {
      if (gen.probe !== undefined) {
        for (const id of gen.probe.idsOf(hashKey(key))) {
          if (id > gen.filled_through && accept(id) && this.latestHolds(gen, id, key)) return id;
        }
      }
      // Beyond both passes, among the records stored before the generation: the records themselves
      // (only until the hashing pass has run, right after admission).
      const end = gen.born_next_id;
      for (let id = Math.max(gen.filled_through, gen.hashed_through) + 1; id < end; id++) {
        if (accept(id) && this.latestHolds(gen, id, key)) return id;
      }
    }
    return undefined;
  }

  /** A holder found from the records alone (a SUSPECT index proves nothing). */
  holderFromRecords(gen: IndexGeneration, key: IndexKey, accept: (id: number) => boolean): number | undefined {
    for (const record of this.graph.recordsWithLabel(gen.shape.label)) {
      if (accept(record.id) && this.latestHolds(gen, record.id, key)) return record.id;
    }
    return undefined;
  }

  private latestHolds(gen: IndexGeneration, id: number, key: IndexKey): boolean {
    const record = this.graph.nodeRecord(id);
    if (record === undefined) return false;
    const head = record.head;
    // Fast path: the newest version is the latest one (pending included) unless it is a deletion.
    if (head.deleted) return false;
    return gen.holds(head.labels, head.props, key);
  }

}
