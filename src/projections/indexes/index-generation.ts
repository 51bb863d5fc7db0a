import type { PropertyMap } from '../../common/property-value.js';
import type { ConstraintScopeSpec, SearchIndexSpec } from '../../log/events.js';
import { createSearchIndex, type SearchIndex } from '../search/search-index.js';
import type { NodeRecord, NodeVersion } from '../graph/records.js';
import { sameValue } from '../graph/write-set.js';
import { SortedEntries, compareKeys, type IndexKey } from './sorted-entries.js';
import { KeyHashTable } from './key-hash-table.js';
import { hashValue, orderCompare } from '../../common/values/index.js';

/**
 * One generation of a B-tree index: the entries of every node of `label` holding all of
 * `properties` (and admitted by `scope`), maintained at apply.
 *
 * MVCC: a record has an entry for the key of every version still retained (pending ones included),
 * so a reader at any retained snapshot finds the node under the value it sees. An entry therefore
 * names a candidate, never an answer: readers re-check the node's version visible to them.
 */
export interface IndexShape {
  readonly label: string;
  readonly properties: readonly string[];
  readonly scope?: ConstraintScopeSpec;
  /** A vector or text index: its nodes go to `search`, never to the B-tree entries. */
  readonly search?: SearchIndexSpec;
}

export class IndexGeneration {
  readonly entries = new SortedEntries();
  /** Keys each node currently has entries under. Invariant: mirrors `entries` exactly. */
  private readonly recordKeys = new Map<number, IndexKey[]>();
  /**
   * Backfill progress on this member (not a log fact): every record with id <= filled_through was
   * visited. Records written since the generation was admitted are maintained at apply whatever this is.
   */
  filled_through = 0;
  complete = false;
  /**
   * One past the highest node id stored when the generation was created. Every record with a higher
   * id was created later, through apply, so it has its entries already: the backfill, the hashing
   * pass and the uniqueness scans stop here.
   */
  born_next_id = 0;
  /**
   * While the backfill runs, a hash of the key of every record visited by a quick first pass, so a
   * write's uniqueness check finds a holder among records the backfill has not reached without
   * scanning them. Candidates only: each is re-checked against the record. Dropped at completion.
   */
  probe: KeyHashTable | undefined;
  hashed_through = 0;
  hashed = false;

  /** The vector or text index this generation fills; the B-tree entries then stay empty. */
  readonly search: SearchIndex | undefined;

  constructor(
    readonly generation: number,
    readonly shape: IndexShape,
  ) {
    this.search = shape.search === undefined ? undefined : createSearchIndex(shape.search, shape.label, shape.properties);
  }

  /** The key a node state gives, or undefined when the node is not in this index. */
  keyOf(labels: readonly string[], props: PropertyMap): IndexKey | undefined {
    if (this.search !== undefined || !labels.includes(this.shape.label)) return undefined;
    if (!scopeAdmits(this.shape.scope, props)) return undefined;
    const key = new Array(this.shape.properties.length) as IndexKey & unknown[];
    for (let i = 0; i < this.shape.properties.length; i++) {
      const v = props.get(this.shape.properties[i]!);
      if (v === undefined) return undefined;
      (key as unknown[])[i] = v;
    }
    return key;
  }

  /** `hashKey` of the key a node state gives, without building the key; undefined when not indexed. */
  hashOf(labels: readonly string[], props: PropertyMap): number | undefined {
    const cols = this.shape.properties;
    let h = KEY_HASH_SEED;
    for (let i = 0; i < cols.length; i++) {
      const v = props.get(cols[i]!);
      if (v === undefined) return undefined;
      h = mixKeyHash(h, hashValue(v));
    }
    return labels.includes(this.shape.label) && scopeAdmits(this.shape.scope, props) ? h : undefined;
  }

  /** Whether a node state has exactly `key` here; allocates nothing (uniqueness scans call it often). */
  holds(labels: readonly string[], props: PropertyMap, key: IndexKey): boolean {
    const cols = this.shape.properties;
    for (let i = 0; i < cols.length; i++) {
      const v = props.get(cols[i]!);
      if (v === undefined) return false;
      const k = key[i]!;
      if (typeof v === 'string' || typeof k === 'string' ? v !== k : orderCompare(v, k) !== 0) return false;
    }
    return labels.includes(this.shape.label) && scopeAdmits(this.shape.scope, props);
  }

  /** Recomputes a record's entries from the versions it retains. */
  refresh(record: NodeRecord): void {
    if (this.search !== undefined) {
      this.search.refresh(record);
      return;
    }
    const want: IndexKey[] = [];
    for (let v: NodeVersion | undefined = record.head; v !== undefined; v = v.prev) {
      if (v.deleted) continue;
      const k = this.keyOf(v.labels, v.props);
      if (k !== undefined && !want.some((w) => compareKeys(w, k) === 0)) want.push(k);
    }
    this.setKeys(record.id, want);
  }

  /** Removes every entry of a node (its record is gone, e.g. an undone creation). */
  forget(id: number): void {
    if (this.search !== undefined) this.search.forget(id);
    else this.setKeys(id, []);
  }

  /** Nodes holding entries: the build's progress count (`indexed`). */
  filled_through_count(): number {
    return this.search?.count() ?? this.recordKeys.size;
  }

  keysOf(id: number): readonly IndexKey[] {
    return this.recordKeys.get(id) ?? [];
  }

  /** Node ids with an entry, for the entry half of a check. */
  indexedIds(): IterableIterator<number> {
    return this.recordKeys.keys();
  }

  private setKeys(id: number, want: IndexKey[]): void {
    const have = this.recordKeys.get(id);
    if (have !== undefined) {
      for (const k of have) if (!want.some((w) => compareKeys(w, k) === 0)) this.entries.remove(k, id);
    }
    for (const k of want) if (have === undefined || !have.some((h) => compareKeys(h, k) === 0)) this.entries.add(k, id);
    if (want.length === 0) this.recordKeys.delete(id);
    else this.recordKeys.set(id, want);
  }

  /** Test hook: damages the index on purpose so that a check has something to find. */
  corruptForTest(id: number, how: 'drop_entry' | 'bogus_entry', bogus?: IndexKey): void {
    if (how === 'drop_entry') {
      for (const k of this.recordKeys.get(id) ?? []) this.entries.remove(k, id);
      this.recordKeys.delete(id);
    } else if (bogus !== undefined) {
      this.entries.add(bogus, id);
      this.recordKeys.set(id, [...(this.recordKeys.get(id) ?? []), bogus]);
    }
  }

  /** Test hook: an entry in the tree with no trace in the per-record keys (an orphan entry). */
  plantOrphanForTest(key: IndexKey, id: number): void {
    this.entries.add(key, id);
  }
}

export function scopeAdmits(scope: ConstraintScopeSpec | undefined, props: PropertyMap): boolean {
  if (scope === undefined) return true;
  const v = props.get(scope.property);
  if (scope.test === 'present') return v !== undefined;
  return v !== undefined && sameValue(v, scope.value);
}

export const KEY_HASH_SEED = 0x2545f491;

export function mixKeyHash(h: number, v: number): number {
  return (Math.imul(h ^ v, 0x01000193) + 0x9e3779b9) | 0;
}

/** A hash of a key consistent with key equality (1 and 1.0 hash alike). */
export function hashKey(key: IndexKey): number {
  let h = KEY_HASH_SEED;
  for (const v of key) h = mixKeyHash(h, hashValue(v));
  return h;
}
