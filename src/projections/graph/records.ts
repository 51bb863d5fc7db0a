import type { PropertyMap, PropertyValue } from '../../common/property-value.js';
import { nodeRef, relationshipRef, type NodeRef, type RelationshipRef } from '../../common/values/value.js';
import { chargeDerived, keptForm, SLOT_BYTES } from './scan-cache.js';

/**
 * The graph keeps every node and edge as a record holding a chain of versions, newest first. A version
 * is tagged with the log index and commit_ts of the entry that wrote it, so one store serves two
 * visibility rules (DESIGN 3.2): readers see versions at or below a read index (committed, or pinned
 * in the past), and the leader's writer sees everything, its own pending entries included.
 */
/** A node as a reader sees it at one point of the log. */
export interface NodeState {
  readonly id: number;
  /**
   * The node as a query value, one object per node for the life of the store: scans and expands put
   * it in rows without allocating.
   */
  readonly ref: NodeRef;
  readonly labels: readonly string[];
  readonly props: PropertyMap;
  /**
   * A node of a temporal label: its valid-time versions older than `props` (which is the one with the
   * latest valid_from), ordered by valid_from; absent for every other node (docs/temporal.md).
   */
  readonly earlier?: readonly PropertyMap[];
  /** commit_ts of the entry that last wrote the node (SPEC Node.version); 0 for a write not yet committed. */
  readonly ts: number;
}

/** An edge as a reader sees it. */
export interface EdgeState {
  readonly id: number;
  /** The edge as a query value, one object per edge (as NodeState.ref). */
  readonly ref: RelationshipRef;
  readonly type: string;
  readonly source: number;
  readonly target: number;
  readonly props: PropertyMap;
  readonly ts: number;
}

export interface NodeVersion extends NodeState {
  readonly record: NodeRecord;
  /** Log index of the entry that wrote this version. */
  readonly index: number;
  /** A deletion is a version too, so a snapshot older than it still sees the node. */
  readonly deleted: boolean;
  /** Invariant: prev.index < index. */
  prev: NodeVersion | undefined;
}

export class NodeRecord {
  head!: NodeVersion;
  /** Every edge ever attached here, whatever its visibility; readers check each edge's versions. */
  readonly out: EdgeRecord[] = [];
  readonly in: EdgeRecord[] = [];
  readonly ref: NodeRef;
  constructor(readonly id: number) {
    this.ref = nodeRef(id);
  }
}

export interface EdgeVersion extends EdgeState {
  readonly record: EdgeRecord;
  readonly index: number;
  readonly deleted: boolean;
  prev: EdgeVersion | undefined;
}

/** An edge's type and endpoints never change; only its properties and existence are versioned. */
export class EdgeRecord {
  head!: EdgeVersion;
  readonly ref: RelationshipRef;
  constructor(
    readonly id: number,
    readonly type: string,
    readonly source: NodeRecord,
    readonly target: NodeRecord,
  ) {
    this.ref = relationshipRef(id);
  }
}

/**
 * The nodes of one label as every reader past `written` sees them (see GraphStore.members), with
 * the values of the properties scans have read, one column per key in member order, so a scan reads
 * a property from an array instead of each node's map.
 */
export class LabelMembers {
  private readonly columns = new Map<string, readonly (PropertyValue | undefined)[]>();
  /** Per key, its column's dictionary, or null when the column is not one of few strings. */
  private readonly dictionaries = new Map<string, ColumnDictionary | null>();
  /** Per key, its column as doubles, or null when the column is not all exact integers. */
  private readonly integerColumns = new Map<string, Float64Array | null>();
  constructor(
    readonly written: number,
    readonly nodes: readonly NodeVersion[],
  ) {}

  /**
   * The value of `key` of every member, in member order (undefined where absent); built on first
   * use and charged to the list's entry in the scan cache, or undefined when it has no room for it.
   */
  column(key: string): readonly (PropertyValue | undefined)[] | undefined {
    let c = this.columns.get(key);
    if (c === undefined) {
      if (!keptForm(this.nodes)) return undefined;
      c = this.nodes.map((n) => n.props.get(key));
      if (!chargeDerived(this.nodes, c, SLOT_BYTES * this.nodes.length, 'list column')) return undefined;
      this.columns.set(key, c);
    }
    return c;
  }

  /**
   * The column of `key` as codes into its distinct values, when every value is a string or absent
   * and there are at most DICTIONARY_VALUES_MAX of them; undefined otherwise, or when the scan
   * cache has no room. Built on first use from the column.
   */
  dictionary(key: string): ColumnDictionary | undefined {
    return this.derived(this.dictionaries, key, DICTIONARY_CODE_BYTES, encode, 'list dictionary');
  }

  /**
   * The column of `key` as doubles, when every member has the key as an INTEGER of magnitude at most
   * 2^53 - 1 (so the doubles are exact and order as the integers do); undefined otherwise, or when
   * the scan cache has no room. Built on first use from the column.
   */
  integers(key: string): Float64Array | undefined {
    return this.derived(this.integerColumns, key, SLOT_BYTES, asDoubles, 'list doubles');
  }

  /**
   * A form of `key`'s column kept in `cache`, made by `build` on first use and charged to the list's entry
   * (`slot_bytes` a member); a column `build` refuses is remembered as null, holding nothing.
   */
  private derived<T extends object>(
    cache: Map<string, T | null>,
    key: string,
    slot_bytes: number,
    build: (column: readonly (PropertyValue | undefined)[]) => T | undefined,
    kind: string,
  ): T | undefined {
    const known = cache.get(key);
    if (known !== undefined) return known ?? undefined;
    const column = this.column(key);
    if (column === undefined) return undefined;
    const made = build(column);
    if (made === undefined) {
      cache.set(key, null);
      return undefined;
    }
    if (!chargeDerived(this.nodes, made, slot_bytes * column.length, kind)) return undefined;
    cache.set(key, made);
    return made;
  }
}

/** INTEGERs within this magnitude are exact as doubles, so doubles order them as the integers are ordered. */
const EXACT_INTEGER_MAX = BigInt(Number.MAX_SAFE_INTEGER);

function asDoubles(column: readonly (PropertyValue | undefined)[]): Float64Array | undefined {
  const out = new Float64Array(column.length);
  for (let i = 0; i < column.length; i++) {
    const v = column[i];
    if (typeof v !== 'bigint' || v > EXACT_INTEGER_MAX || v < -EXACT_INTEGER_MAX) return undefined;
    out[i] = Number(v);
  }
  return out;
}

/**
 * A column of few distinct strings, dictionary-encoded: `values[codes[i]]` is member i's value,
 * null where it has none. Codes follow first appearance in member order.
 */
export interface ColumnDictionary {
  readonly codes: Uint16Array;
  readonly values: readonly (string | null)[];
}

/** The most distinct values a dictionary holds (its codes are 16-bit). */
export const DICTIONARY_VALUES_MAX = 4096;
const DICTIONARY_CODE_BYTES = 2;

function encode(column: readonly (PropertyValue | undefined)[]): ColumnDictionary | undefined {
  const codes = new Uint16Array(column.length);
  const values: (string | null)[] = [];
  const codeOf = new Map<string | null, number>();
  for (let i = 0; i < column.length; i++) {
    const v = column[i];
    if (v !== undefined && typeof v !== 'string') return undefined;
    const key = v ?? null;
    let code = codeOf.get(key);
    if (code === undefined) {
      if (values.length === DICTIONARY_VALUES_MAX) return undefined;
      code = values.length;
      values.push(key);
      codeOf.set(key, code);
    }
    codes[i] = code;
  }
  return { codes, values };
}

/** The version of a record visible at `readIndex`, or undefined when none is (or it is a deletion). */
export function visibleNode(record: NodeRecord, readIndex: number): NodeVersion | undefined {
  let v: NodeVersion | undefined = record.head;
  while (v !== undefined && v.index > readIndex) v = v.prev;
  return v === undefined || v.deleted ? undefined : v;
}

export function visibleEdge(record: EdgeRecord, readIndex: number): EdgeVersion | undefined {
  let v: EdgeVersion | undefined = record.head;
  while (v !== undefined && v.index > readIndex) v = v.prev;
  return v === undefined || v.deleted ? undefined : v;
}
