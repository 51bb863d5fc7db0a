import { compareValues, equals, orderCompare, type Value } from '../../common/values/index.js';
import type { Catalog } from '../catalog/catalog.js';
import type { IndexIntegrity, IndexRecord } from '../catalog/types.js';
import type { NodeState } from '../graph/records.js';
import type { GraphReader } from '../graph/view.js';
import type { IndexGeneration } from './index-generation.js';
import type { IndexStore } from './index-store.js';
import { compareKeys, type IndexKey } from './sorted-entries.js';

/**
 * The planner's entry to B-tree indexes: which indexes a label has, and lookups that answer nodes as
 * one reader sees them. An index entry only names a candidate (entries exist for every retained
 * version, pending ones included), so every answer is re-checked against the node's version visible
 * to the reader: a lookup never shows a node its snapshot should not see, and never shows one twice.
 *
 * A SUSPECT index (SPEC 3.3) or one whose first build has not published answers from the records of
 * the label instead, in the same order. Answers come in key order (ascending unless asked otherwise),
 * ties by node id.
 *
 * The reader must be a snapshot of the store (SnapshotView); a write set's own buffered nodes are not
 * in any index, so a plan over a write set adds them itself.
 */
export interface IndexDescriptor {
  readonly index_id: number;
  readonly name: string;
  readonly label: string;
  /** Column order of the key. */
  readonly properties: readonly string[];
  readonly unique: boolean;
  /** The first build has published: lookups are answered from entries (unless SUSPECT). */
  readonly ready: boolean;
  readonly integrity: IndexIntegrity;
}

export interface RangeBound {
  readonly value: Value;
  readonly inclusive: boolean;
}

export type ScanOrder = 'asc' | 'desc';

export class IndexLookup {
  constructor(
    private readonly catalog: Catalog,
    private readonly store: IndexStore,
    private readonly reader: GraphReader,
  ) {}

  /** Every index of `label`, ready or not. */
  indexesOf(label: string): IndexDescriptor[] {
    return this.catalog.indexesOfLabel(label).map(describe);
  }

  /**
   * A ready index of `label` whose leading columns are `properties` (in that order), if any. A scoped
   * index (a UNIQUE constraint's `WHERE`) is never chosen: it holds only the nodes its scope admits,
   * so it cannot answer a predicate on the property alone.
   */
  find(label: string, properties: readonly string[]): IndexDescriptor | undefined {
    const all = this.catalog
      .indexesOfLabel(label)
      .filter((i) => i.serving !== undefined && i.scope === undefined && properties.every((p, k) => i.properties[k] === p))
      .sort((a, b) => a.properties.length - b.properties.length || a.index_id - b.index_id);
    const best = all[0];
    return best === undefined ? undefined : describe(best);
  }

  /** Nodes whose leading key columns equal `values` (Cypher `=`: 1 equals 1.0; null matches nothing). */
  equal(index_id: number, values: readonly Value[], order: ScanOrder = 'asc'): Iterable<NodeState> {
    if (values.some((v) => v === null)) return [];
    const test = (key: IndexKey): boolean => values.every((v, i) => equals(key[i]!, v) === true);
    return this.run(index_id, values as IndexKey, test, order, values as IndexKey);
  }

  /** Nodes whose leading key equals any of `keys` (Cypher IN), each node once, in key order. */
  *in(index_id: number, keys: readonly (readonly Value[])[]): Iterable<NodeState> {
    const sorted = keys.filter((k) => !k.some((v) => v === null)).sort((a, b) => compareKeys(a as IndexKey, b as IndexKey));
    const seen = new Set<number>();
    for (const k of sorted) {
      for (const n of this.equal(index_id, k)) {
        if (seen.has(n.id)) continue;
        seen.add(n.id);
        yield n;
      }
    }
  }

  /**
   * Nodes whose columns before the range equal `prefix` and whose next column lies between the bounds
   * (Cypher `<`, `<=`, `>`, `>=`: only values comparable with a bound match, so a string bound never
   * yields numbers).
   */
  range(index_id: number, prefix: readonly Value[], lower: RangeBound | undefined, upper: RangeBound | undefined, order: ScanOrder = 'asc'): Iterable<NodeState> {
    const col = prefix.length;
    const test = (key: IndexKey): boolean => {
      if (!prefix.every((v, i) => equals(key[i]!, v) === true)) return false;
      const v = key[col];
      if (v === undefined) return false;
      if (lower !== undefined) {
        const c = compareValues(v, lower.value);
        if (c === null || Number.isNaN(c) || c < 0 || (c === 0 && !lower.inclusive)) return false;
      }
      if (upper !== undefined) {
        const c = compareValues(v, upper.value);
        if (c === null || Number.isNaN(c) || c > 0 || (c === 0 && !upper.inclusive)) return false;
      }
      return true;
    };
    const from = order === 'asc' && lower !== undefined ? ([...prefix, lower.value] as IndexKey) : (prefix as IndexKey);
    const to = order === 'desc' && upper !== undefined ? ([...prefix, upper.value] as IndexKey) : (prefix as IndexKey);
    // Past the far bound in walking order, no later key can match (the total order agrees with `<` on comparable values).
    const far = order === 'asc' ? upper : lower;
    const stop = far === undefined ? undefined : (key: IndexKey): boolean => {
      const c = orderCompare(key[col]!, far.value);
      return order === 'asc' ? c > 0 : c < 0;
    };
    return this.run(index_id, order === 'asc' ? from : to, test, order, prefix as IndexKey, stop);
  }

  /** Nodes whose column after `prefix` is a string starting with `text` (Cypher STARTS WITH). */
  startsWith(index_id: number, prefix: readonly Value[], text: string, order: ScanOrder = 'asc'): Iterable<NodeState> {
    const col = prefix.length;
    const test = (key: IndexKey): boolean => {
      const v = key[col];
      return prefix.every((p, i) => equals(key[i]!, p) === true) && typeof v === 'string' && v.startsWith(text);
    };
    const stop = (key: IndexKey): boolean => {
      const v = key[col];
      return typeof v !== 'string' || (v > text && !v.startsWith(text));
    };
    const hits = [...this.run(index_id, [...prefix, text] as IndexKey, test, 'asc', prefix as IndexKey, stop)];
    return order === 'asc' ? hits : hits.reverse();
  }

  /** Every node of the index in key order (ORDER BY on the leading columns). */
  scan(index_id: number, order: ScanOrder = 'asc'): Iterable<NodeState> {
    return this.run(index_id, [], () => true, order, []);
  }

  /**
   * Walks entries from `start` in `order` while their keys keep `within` as a prefix, yielding the
   * nodes whose visible version holds the entry's key and passes `test`.
   */
  private *run(
    index_id: number,
    start: IndexKey,
    test: (key: IndexKey) => boolean,
    order: ScanOrder,
    within: IndexKey,
    stop?: (key: IndexKey) => boolean,
  ): Iterable<NodeState> {
    const index = this.catalog.indexes.get(index_id);
    if (index === undefined) return;
    const gen = index.serving === undefined ? undefined : this.store.get(index.serving);
    if (gen === undefined || index.integrity === 'SUSPECT') {
      yield* this.fromRecords(index, gen ?? this.store.get(index.filling ?? -1), test, order);
      return;
    }
    const walk = order === 'asc' ? gen.entries.ascending(start) : gen.entries.descending(start.length === 0 ? undefined : start);
    for (const entry of walk) {
      if (!startsWithKey(entry.key, within) || stop?.(entry.key) === true) break;
      if (!test(entry.key)) continue;
      const ids = entry.ids.size === 1 ? entry.ids : [...entry.ids].sort((a, b) => (order === 'asc' ? a - b : b - a));
      for (const id of ids) {
        const node = this.reader.node(id);
        if (node !== undefined && gen.holds(node.labels, node.props, entry.key)) yield node;
      }
    }
  }

  private *fromRecords(index: IndexRecord, gen: IndexGeneration | undefined, test: (key: IndexKey) => boolean, order: ScanOrder): Iterable<NodeState> {
    if (gen === undefined) return;
    const hits: { node: NodeState; key: IndexKey }[] = [];
    for (const node of this.reader.nodesWithLabel(index.label)) {
      const key = gen.keyOf(node.labels, node.props);
      if (key !== undefined && test(key)) hits.push({ node, key });
    }
    hits.sort((a, b) => compareKeys(a.key, b.key) || a.node.id - b.node.id);
    if (order === 'desc') hits.reverse();
    for (const h of hits) yield h.node;
  }
}

function startsWithKey(key: IndexKey, prefix: IndexKey): boolean {
  for (let i = 0; i < prefix.length; i++) {
    const k = key[i];
    if (k === undefined || orderCompare(k, prefix[i]!) !== 0) return false;
  }
  return true;
}

function describe(i: IndexRecord): IndexDescriptor {
  return {
    index_id: i.index_id,
    name: i.name,
    label: i.label,
    properties: i.properties,
    unique: i.unique,
    ready: i.serving !== undefined,
    integrity: i.integrity,
  };
}

