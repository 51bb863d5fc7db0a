import type { Value } from '../../../common/values/value.js';
import type { LabelMembers } from '../../../projections/graph/records.js';
import { keepDerived } from '../../../projections/graph/scan-cache.js';
import { EXACT_INTEGER_MAX, typedColumn, type TypedColumn } from './typed-columns.js';

/**
 * A label scan's inline equalities answered from typed columns before any node is touched.
 *
 * A kept list (LabelMembers) holds its nodes as objects scattered over the heap, so a scan that reads
 * `node.id` or `node.props` per member pays a cache miss per node even when one in a hundred passes.
 * Here the list's ids are copied once into an `Int32Array` (kept beside the list and dropped with it),
 * and each equality on a typed column (GraphStore.nodeColumn, classified by typed-columns.ts) becomes
 * a loop over that array and the column's doubles or dictionary codes: the positions that pass all
 * of them, in list order, are the only members the scan then reads.
 */

const ids_of = new WeakMap<LabelMembers['nodes'], Int32Array>();

/** The ids of a kept list's members, in list order; made once per list. */
export function memberIds(members: LabelMembers): Int32Array {
  let ids = ids_of.get(members.nodes);
  if (ids === undefined) {
    const nodes = members.nodes;
    ids = new Int32Array(nodes.length);
    for (let i = 0; i < nodes.length; i++) ids[i] = (nodes[i] as LabelMembers['nodes'][number]).id;
    if (keepDerived(members.nodes, ids, ids.byteLength, 'list ids')) ids_of.set(members.nodes, ids);
  }
  return ids;
}

/**
 * `n.key = wanted` on a typed column, by node id: numbers by value (an INTEGER equals the FLOAT of the
 * same value, as `=` has them), strings by dictionary code; undefined when the pair is not typed so.
 * Exact: it holds for a node exactly when Cypher's `=` between the stored value and `wanted` is true.
 */
export function typedEquality(column: TypedColumn, wanted: Value): ((id: number) => boolean) | undefined {
  if ((column.kind === 'int' || column.kind === 'float') && (typeof wanted === 'bigint' || typeof wanted === 'number')) {
    if (typeof wanted === 'bigint' && (wanted > BigInt(EXACT_INTEGER_MAX) || wanted < -BigInt(EXACT_INTEGER_MAX))) return undefined;
    const x = Number(wanted);
    if (Number.isNaN(x)) return undefined;
    const { values, nulls } = column;
    return (id) => nulls[id] !== 1 && values[id] === x;
  }
  if (column.kind === 'string' && typeof wanted === 'string') {
    const code = column.index.get(wanted);
    const codes = column.codes;
    return code === undefined ? () => false : (id) => codes[id] === code;
  }
  return undefined;
}

/** One inline equality of a scan: the store's column of its key by node id (when kept) and the value wanted. */
export interface ScanEquality {
  readonly column: readonly (Value | undefined)[] | undefined;
  readonly wanted: Value;
}

/** Positions in a kept list, ascending: the members a scan reads. */
export interface Candidates {
  readonly positions: Int32Array;
  /** How many of `positions` are set. */
  readonly length: number;
  /** Whether every equality was answered by its column, so a member at a position passes all of them. */
  readonly exact: boolean;
}

/**
 * The positions of `members` whose typed columns pass every equality that has one; undefined when none
 * has (the scan reads every member). `exact` says whether the others were all typed too; when it is
 * false the scan must still check each member it reads.
 */
export function typedCandidates(members: LabelMembers, equalities: readonly ScanEquality[]): Candidates | undefined {
  const tests: TypedTest[] = [];
  for (const e of equalities) {
    const t = e.column === undefined ? undefined : typedTest(typedColumn(e.column), e.wanted);
    if (t !== undefined) tests.push(t);
  }
  if (tests.length === 0) return undefined;
  const ids = memberIds(members);
  const positions = new Int32Array(ids.length);
  let w = 0;
  // The first test over every member, the others over the positions it kept: loops over typed arrays
  // with no call per member.
  const first = tests[0] as TypedTest;
  if (first.kind === 'none') w = 0;
  else if (first.kind === 'number') {
    const { values, nulls, x } = first;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i] as number;
      if (values[id] === x && nulls[id] !== 1) positions[w++] = i;
    }
  } else {
    const { codes, code } = first;
    for (let i = 0; i < ids.length; i++) if (codes[ids[i] as number] === code) positions[w++] = i;
  }
  for (let t = 1; t < tests.length; t++) {
    const test = tests[t] as TypedTest;
    let kept = 0;
    for (let j = 0; j < w; j++) {
      const p = positions[j] as number;
      const id = ids[p] as number;
      const pass = test.kind === 'number' ? test.values[id] === test.x && test.nulls[id] !== 1 : test.kind === 'code' ? test.codes[id] === test.code : false;
      if (pass) positions[kept++] = p;
    }
    w = kept;
  }
  return { positions, length: w, exact: tests.length === equalities.length };
}

/** An equality on a typed column as data, so a loop can test it without a call: the same pairs `typedEquality` takes. */
type TypedTest =
  | { readonly kind: 'number'; readonly values: Float64Array; readonly nulls: Uint8Array; readonly x: number }
  | { readonly kind: 'code'; readonly codes: Int32Array; readonly code: number }
  /** A string no node of the column holds: nothing passes. */
  | { readonly kind: 'none' };

function typedTest(column: TypedColumn, wanted: Value): TypedTest | undefined {
  if ((column.kind === 'int' || column.kind === 'float') && (typeof wanted === 'bigint' || typeof wanted === 'number')) {
    if (typeof wanted === 'bigint' && (wanted > BigInt(EXACT_INTEGER_MAX) || wanted < -BigInt(EXACT_INTEGER_MAX))) return undefined;
    const x = Number(wanted);
    if (Number.isNaN(x)) return undefined;
    return { kind: 'number', values: column.values, nulls: column.nulls, x };
  }
  if (column.kind === 'string' && typeof wanted === 'string') {
    const code = column.index.get(wanted);
    return code === undefined ? { kind: 'none' } : { kind: 'code', codes: column.codes, code };
  }
  return undefined;
}
