import type { Value } from '../../../common/values/value.js';

/**
 * Batches of rows held as typed columns: each entity slot a batched pipeline binds (the scanned
 * node, each expand's relationship and end node) is one Int32Array of ids, and row `i` of the batch
 * is position `i` of every column. Operators fill a batch up to BATCH_ROWS, push it on, and reuse it.
 */

/** Rows per batch: large enough that a loop's set-up is paid rarely, small enough to stay in cache. */
export const BATCH_ROWS = 1024;

export type EntityKind = 'node' | 'relationship';

/**
 * Which slot each column of a batch holds: a node's or a relationship's ids, or (`position`) where each
 * row's relationship sits in the CSR its expand walked, the index its properties are read at in
 * adjacency order (adjacency-columns.ts). A position column follows its relationship's column.
 */
export interface LayoutColumn {
  readonly slot: number;
  readonly entity: EntityKind | 'position';
  /** Bound by an OPTIONAL MATCH: NULL_ID marks a row where it found nothing. */
  readonly nullable?: boolean;
  /** A relationship column's one type (a batched expand has exactly one), whose property columns it reads. */
  readonly type?: string;
  /**
   * A position column's expand: its index among the plan's expands (`expandsOf`, so `Forms.csrs[expand]` is the
   * CSR it walked) and the direction it walked it in. A position indexes `out`, `into`, or for `both` the two
   * one after the other (a position in `into` is offset by the length of `out`).
   */
  readonly expand?: { readonly index: number; readonly direction: AdjacencyDirection };
}

/** Which side of a type's CSR an expand walks: `both` is `out`, then `into` (a self-loop once). */
export type AdjacencyDirection = 'out' | 'in' | 'both';

/** The id an optional column holds where its OPTIONAL MATCH found nothing (ids are never negative). */
export const NULL_ID = -1;

export class Batch {
  /** Invariant: 0 <= length <= BATCH_ROWS; positions at or past it hold stale ids. */
  length = 0;
  readonly columns: Int32Array[];

  constructor(width: number) {
    this.columns = [];
    for (let c = 0; c < width; c++) this.columns.push(new Int32Array(BATCH_ROWS));
  }
}

/**
 * A vector: one expression's values over the rows of a batch, in the first `length` positions.
 * `num` holds INTEGERs (exact: every value's magnitude is below 2^53, so no operation that made
 * it could overflow) or FLOATs; `bool` holds 0 (false), 1 (true) or NULL_BOOL; `code` holds strings
 * as indexes into a dictionary (-1 for null); `any` holds boxed values.
 */
export type Vec =
  | { readonly kind: 'num'; readonly values: Float64Array; readonly nulls: Uint8Array }
  | { readonly kind: 'bool'; readonly values: Uint8Array }
  | { readonly kind: 'code'; readonly codes: Int32Array }
  | { readonly kind: 'any'; readonly values: Value[] };

export const NULL_BOOL = 2;

/** A boxed buffer of BATCH_ROWS values, made by pushing (so V8 keeps it a packed array). */
export function valueBuffer(): Value[] {
  const out: Value[] = [];
  for (let i = 0; i < BATCH_ROWS; i++) out.push(null);
  return out;
}
