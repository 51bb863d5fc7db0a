import { assertNever } from '../../common/assert.js';
import { compareValues, equals, orderCompare, type Value } from '../../common/values/index.js';
import type { Catalog } from '../catalog/catalog.js';
import type { IndexIntegrity, IndexRecord } from '../catalog/types.js';
import type { NodeState } from '../graph/records.js';
import type { GraphReader } from '../graph/view.js';
import type { IndexGeneration } from './index-generation.js';
import type { IndexStore } from './index-store.js';
import { compareKeys, type IndexEntry, type IndexKey } from './sorted-entries.js';

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
      .filter((i) => i.serving !== undefined && i.scope === undefined && i.search === undefined && properties.every((p, k) => i.properties[k] === p))
      .sort((a, b) => a.properties.length - b.properties.length || a.index_id - b.index_id);
    const best = all[0];
    return best === undefined ? undefined : describe(best);
  }

  /** Nodes whose leading key columns equal `values` (Cypher `=`: 1 equals 1.0; null matches nothing). */
  equal(index_id: number, values: readonly Value[], order: ScanOrder = 'asc'): Iterable<NodeState> {
    const walk = equalWalk(values, order);
    return walk === undefined ? [] : this.run(index_id, walk);
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
    return this.run(index_id, rangeWalk(prefix, lower, upper, order));
  }

  /** Nodes whose column after `prefix` is a string starting with `text` (Cypher STARTS WITH). */
  startsWith(index_id: number, prefix: readonly Value[], text: string, order: ScanOrder = 'asc'): Iterable<NodeState> {
    const hits = [...this.run(index_id, prefixWalk(prefix, text))];
    return order === 'asc' ? hits : hits.reverse();
  }

  /** Every node of the index in key order (ORDER BY on the leading columns). */
  scan(index_id: number, order: ScanOrder = 'asc'): Iterable<NodeState> {
    return this.run(index_id, { start: [], test: () => true, order, within: [] });
  }

  /** The nodes a lookup on the leading column finds: `equal`, `range`, `startsWith` or `in` by its kind. */
  lookup(index_id: number, lookup: LookupKind): Iterable<NodeState> {
    switch (lookup.kind) {
      case 'equal':
        return this.equal(index_id, [lookup.value]);
      case 'range':
        return this.range(index_id, [], lookup.lower, lookup.upper);
      case 'prefix':
        return this.startsWith(index_id, [], lookup.text);
      case 'in':
        return this.in(index_id, lookup.values.map((v) => [v]));
      default:
        return assertNever(lookup, 'index lookup');
    }
  }

  /**
   * How many nodes the entries a lookup walks name, counted up to `limit` (past it the answer is
   * limit + 1): an upper bound of what the lookup returns, since entries of every retained version
   * count, read without touching a node. Counting stops once past `limit`, so it reads at most that
   * many matching entries. Undefined when the index answers from the label's records (not built, or
   * SUSPECT).
   */
  countAtMost(index_id: number, lookup: LookupKind, limit: number): number | undefined {
    const gen = this.servingGeneration(index_id);
    if (gen === undefined) return undefined;
    let n = 0;
    for (const walk of walksOf(lookup)) {
      for (const entry of this.entriesOf(gen, walk)) {
        n += entry.ids.size;
        if (n > limit) return limit + 1;
      }
    }
    return n;
  }

  /** The generation that answers `index_id`'s lookups from entries, if one does. */
  private servingGeneration(index_id: number): IndexGeneration | undefined {
    const index = this.catalog.indexes.get(index_id);
    if (index === undefined || index.serving === undefined || index.integrity === 'SUSPECT') return undefined;
    return this.store.get(index.serving);
  }

  /** The entries of `gen` a walk passes, in its order. */
  private *entriesOf(gen: IndexGeneration, walk: Walk): Iterable<IndexEntry> {
    const { start, test, order, within, stop } = walk;
    const entries = order === 'asc' ? gen.entries.ascending(start) : gen.entries.descending(start.length === 0 ? undefined : start);
    for (const entry of entries) {
      if (!startsWithKey(entry.key, within) || stop?.(entry.key) === true) break;
      if (test(entry.key)) yield entry;
    }
  }
  /** The nodes whose visible version holds the key of an entry the walk passes. */
  private *run(index_id: number, walk: Walk): Iterable<NodeState> {
    const index = this.catalog.indexes.get(index_id);
    if (index === undefined) return;
    const gen = this.servingGeneration(index_id);
    if (gen === undefined) {
      yield* this.fromRecords(index, this.store.get(index.serving ?? index.filling ?? -1), walk.test, walk.order);
      return;
    }
    for (const entry of this.entriesOf(gen, walk)) {
      const ids = entry.ids.size === 1 ? entry.ids : [...entry.ids].sort((a, b) => (walk.order === 'asc' ? a - b : b - a));
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

/**
 * How a lookup walks the entries: from `start` in `order` while keys keep `within` as a prefix and
 * `stop` is false, taking the entries that pass `test`.
 */
interface Walk {
  readonly start: IndexKey;
  readonly test: (key: IndexKey) => boolean;
  readonly order: ScanOrder;
  readonly within: IndexKey;
  readonly stop?: (key: IndexKey) => boolean;
}

/** A lookup on the leading column, as `lookup` and `countAtMost` take it. */
export type LookupKind =
  | { readonly kind: 'equal'; readonly value: Value }
  | { readonly kind: 'range'; readonly lower?: RangeBound; readonly upper?: RangeBound }
  | { readonly kind: 'prefix'; readonly text: string }
  | { readonly kind: 'in'; readonly values: readonly Value[] };

/** The walks of a lookup, whose entries do not overlap: none when it can match nothing (a null key). */
function walksOf(lookup: LookupKind): Walk[] {
  switch (lookup.kind) {
    case 'equal': {
      const walk = equalWalk([lookup.value], 'asc');
      return walk === undefined ? [] : [walk];
    }
    case 'range':
      return [rangeWalk([], lookup.lower, lookup.upper, 'asc')];
    case 'prefix':
      return [prefixWalk([], lookup.text)];
    case 'in': {
      // One equality walk per distinct key (1 and 1.0 are one key, as `=` has them).
      const walks: Walk[] = [];
      const keys = lookup.values.filter((v) => v !== null).sort(orderCompare);
      keys.forEach((v, i) => {
        const walk = equalWalk([v], 'asc');
        if (walk !== undefined && (i === 0 || equals(keys[i - 1] as Value, v) !== true)) walks.push(walk);
      });
      return walks;
    }
    default:
      return assertNever(lookup, 'index lookup');
  }
}

function equalWalk(values: readonly Value[], order: ScanOrder): Walk | undefined {
  if (values.some((v) => v === null)) return undefined;
  return { start: values as IndexKey, test: (key) => values.every((v, i) => equals(key[i]!, v) === true), order, within: values as IndexKey };
}

function rangeWalk(prefix: readonly Value[], lower: RangeBound | undefined, upper: RangeBound | undefined, order: ScanOrder): Walk {
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
  const stop =
    far === undefined
      ? undefined
      : (key: IndexKey): boolean => {
          const c = orderCompare(key[col]!, far.value);
          return order === 'asc' ? c > 0 : c < 0;
        };
  return { start: order === 'asc' ? from : to, test, order, within: prefix as IndexKey, ...(stop !== undefined && { stop }) };
}

function prefixWalk(prefix: readonly Value[], text: string): Walk {
  const col = prefix.length;
  return {
    start: [...prefix, text] as IndexKey,
    test: (key) => {
      const v = key[col];
      return prefix.every((p, i) => equals(key[i]!, p) === true) && typeof v === 'string' && v.startsWith(text);
    },
    order: 'asc',
    within: prefix as IndexKey,
    stop: (key) => {
      const v = key[col];
      return typeof v !== 'string' || (v > text && !v.startsWith(text));
    },
  };
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

