import type { AdjacencyRows, TypeAdjacency } from '../../../projections/graph/adjacency.js';
import type { NodeState } from '../../../projections/graph/records.js';
import { keepDerived, keptForm } from '../../../projections/graph/scan-cache.js';
import type { LogicalOp } from '../../plan/logical.js';
import type { Row } from '../context.js';
import { propertyEquals, type OpEnv } from '../read-ops.js';
import type { Value } from '../../../common/values/value.js';
import { Batch, BATCH_ROWS, NULL_ID } from './batch.js';
import { noteWalked } from './adjacency-columns.js';
import { typedColumn } from './typed-columns.js';
import { typedEquality } from './scan-candidates.js';
import type { BatchPlan } from './batch-plan.js';

/**
 * The stages of a batched pipeline, each a consumer of batches that pushes its own on: the scan's
 * inline equalities, filters, expands over a CSR, and the counted expand of a degree ranking.
 */
type Op<K extends LogicalOp['op']> = Extract<LogicalOp, { op: K }>;

/** Receives each batch a pipeline makes; `weights` (when the last expand is counted) holds each row's count. */
export type BatchConsumer = (b: Batch, weights: Float64Array | undefined) => void;

/**
 * The scan's inline equalities (`(a:L {k: v})`, `a.k = v` folded into the scan) as a test of one
 * node, reading the column by id where the store keeps one; undefined when there are none.
 */
export function scanEqualities(scan: BatchPlan['scan'], env: OpEnv, arg: Row, demand: number): ((node: NodeState) => boolean) | undefined {
  if (scan.props.length === 0) return undefined;
  const tests = scan.props.map((p) => ({ key: p.key, wanted: env.exprs.compile(p.value)(arg), column: env.access.nodeColumn(p.key, demand) }));
  const typed = tests.map((t) => (t.column === undefined ? undefined : typedEquality(typedColumn(t.column), t.wanted)));
  if (typed.every((f) => f !== undefined)) {
    // Every equality on a typed column: doubles or dictionary codes compared by node id, nothing boxed.
    const fs = typed as ((id: number) => boolean)[];
    return (node) => {
      for (let i = 0; i < fs.length; i++) if (!(fs[i] as (id: number) => boolean)(node.id)) return false;
      return true;
    };
  }
  return (node) => {
    for (const t of tests) {
      const v = t.column === undefined ? node.props.get(t.key) : t.column[node.id];
      if (v === undefined || v === null || !propertyEquals(v, t.wanted)) return false;
    }
    return true;
  };
}

/** Keeps the rows whose predicate is TRUE, compacting the batch's bound columns in place. */
export function filterStage(predicate: (b: Batch) => Uint8Array, next: BatchConsumer): BatchConsumer {
  return (b, weights) => {
    const keep = predicate(b);
    const cols = b.columns;
    let w = 0;
    for (let i = 0, n = b.length; i < n; i++) {
      if (keep[i] !== 1) continue;
      if (w !== i) {
        for (let c = 0; c < cols.length; c++) (cols[c] as Int32Array)[w] = (cols[c] as Int32Array)[i] as number;
        if (weights !== undefined) weights[w] = weights[i] as number;
      }
      w++;
    }
    b.length = w;
    if (w > 0) next(b, weights);
  };
}

/** Whether node `end` has every label of `bitmaps`. */
export function hasAll(bitmaps: readonly Uint8Array[], end: number): boolean {
  for (let l = 0; l < bitmaps.length; l++) if ((bitmaps[l] as Uint8Array)[end] !== 1) return false;
  return true;
}

/** One expand: per input row, its CSR slice (out, then in for an undirected pattern, a self-loop once). */
export function expandStage(
  op: Op<'expand'>,
  plan: BatchPlan,
  csr: TypeAdjacency,
  bitmaps: readonly Uint8Array[],
  width: number,
  check: () => void,
  next: BatchConsumer,
): BatchConsumer {
  const column = (slot: number): number => plan.layout.findIndex((c) => c.slot === slot);
  const from = column(op.from);
  const relAt = op.rel_unused === true ? -1 : plan.layout.findIndex((c) => c.slot === op.rel && c.entity === 'relationship');
  const posAt = positionColumn(op, plan);
  const toAt = op.to_unused === true || op.into ? -1 : plan.layout.findIndex((c) => c.slot === op.to && c.entity === 'node');
  // Into: the end must be the node the row already holds in `to`.
  const targetAt = op.into ? column(op.to) : -1;
  // Columns bound below this expand: a prefix of the layout.
  const bound = Math.min(...[relAt, posAt, toAt].filter((x) => x >= 0), width);
  const unique = op.unique_from.map((s) => plan.layout.findIndex((c) => c.slot === s && c.entity === 'relationship'));
  const parts = op.direction === 'both' ? [csr.out, csr.into] : [op.direction === 'in' ? csr.into : csr.out];
  const shifts = partShifts(op, csr);
  const out = new Batch(width);
  const flush = (): void => {
    // Rows whose relationship is bound count towards reading its properties in adjacency order.
    if (posAt >= 0) noteWalked(csr, op.direction, out.length);
    next(out, undefined);
    out.length = 0;
    check();
  };
  return (b) => {
    const src = b.columns[from] as Int32Array;
    const inCols = b.columns;
    const outCols = out.columns;
    const rels = relAt >= 0 ? (outCols[relAt] as Int32Array) : undefined;
    const positions = posAt >= 0 ? (outCols[posAt] as Int32Array) : undefined;
    const tos = toAt >= 0 ? (outCols[toAt] as Int32Array) : undefined;
    const targets = targetAt >= 0 ? (inCols[targetAt] as Int32Array) : undefined;
    for (let i = 0, n = b.length; i < n; i++) {
      const at = src[i] as number;
      // A node an OPTIONAL MATCH did not find has no relationships.
      if (at === NULL_ID) continue;
      const target = targets === undefined ? -1 : (targets[i] as number);
      for (let p = 0; p < parts.length; p++) {
        const rows = parts[p] as TypeAdjacency['out'];
        const { offsets, ends, edges } = rows;
        const shift = shifts[p] as number;
        if (at >= offsets.length - 1) continue;
        for (let j = offsets[at] as number, hi = offsets[at + 1] as number; j < hi; j++) {
          const end = ends[j] as number;
          const edge = edges[j] as number;
          if (p === 1 && end === at) continue;
          if (targets !== undefined && end !== target) continue;
          let used = false;
          for (let u = 0; u < unique.length; u++) if ((inCols[unique[u] as number] as Int32Array)[i] === edge) used = true;
          if (used || (bitmaps.length > 0 && !hasAll(bitmaps, end))) continue;
          const w = out.length;
          for (let c = 0; c < bound; c++) (outCols[c] as Int32Array)[w] = (inCols[c] as Int32Array)[i] as number;
          if (rels !== undefined) rels[w] = edge;
          if (positions !== undefined) positions[w] = j + shift;
          if (tos !== undefined) tos[w] = end;
          out.length = w + 1;
          if (out.length === BATCH_ROWS) flush();
        }
      }
    }
    if (out.length > 0) flush();
  };
}

/** The batch column of `op`'s positions in its CSR (see LayoutColumn), or -1 when it binds no relationship. */
function positionColumn(op: Op<'expand'>, plan: BatchPlan): number {
  return op.rel_unused === true ? -1 : plan.layout.findIndex((c) => c.slot === op.rel && c.entity === 'position');
}

/** Per part an expand walks (out, then in for `both`), what its positions are offset by: `into` follows `out`. */
function partShifts(op: Op<'expand'>, csr: TypeAdjacency): readonly number[] {
  return op.direction === 'both' ? [0, csr.out.edges.length] : [0];
}

/**
 * Per node, how many of its CSR slice's ends have the label of `bitmap`: counted once per pair of
 * forms and kept while both are (a WeakMap keyed by them, both pictures of one point of the log), so
 * a degree ranking with an end label reads one array per node instead of testing every relationship.
 */
const labelledDegrees = new WeakMap<AdjacencyRows, WeakMap<Uint8Array, Int32Array>>();

function degreesWithLabel(rows: AdjacencyRows, bitmap: Uint8Array): Int32Array {
  // A bitmap made for one run (end filters folded into the expand) is no kept form: its counts are not kept either.
  const kept = keptForm(bitmap);
  let byBitmap = labelledDegrees.get(rows);
  if (byBitmap === undefined && kept) labelledDegrees.set(rows, (byBitmap = new WeakMap()));
  let degrees = byBitmap?.get(bitmap);
  if (degrees === undefined) {
    const { offsets, ends } = rows;
    degrees = new Int32Array(offsets.length - 1);
    for (let at = 0; at < degrees.length; at++) {
      let k = 0;
      for (let j = offsets[at] as number, hi = offsets[at + 1] as number; j < hi; j++) k += bitmap[ends[j] as number] === 1 ? 1 : 0;
      degrees[at] = k;
    }
    // Charged to the CSR's entry: it goes with the CSR (and, being keyed by the bitmap too, with the bitmap).
    if (byBitmap !== undefined && keepDerived(rows, degrees, degrees.byteLength, 'degrees with a label')) byBitmap.set(bitmap, degrees);
  }
  return degrees;
}

/**
 * How many relationships `op` would follow from row i's node `at`: its CSR slice (out, then in for an
 * undirected pattern, a self-loop once), ends with the wanted labels only, less the relationships bound
 * earlier in the MATCH (the layout slots `unique_from`) that sit in it.
 */
export function countedWeight(
  op: Op<'expand'>,
  plan: BatchPlan,
  csr: TypeAdjacency,
  bitmaps: readonly Uint8Array[],
  unique_from: readonly number[],
): (i: number, at: number, cols: readonly Int32Array[]) => number {
  const direction = op.direction;
  const count = (offsets: Int32Array, ends: Int32Array, at: number, skipSelf: boolean): number => {
    if (at >= offsets.length - 1) return 0;
    const lo = offsets[at] as number;
    const hi = offsets[at + 1] as number;
    if (bitmaps.length === 0 && !skipSelf) return hi - lo;
    let k = 0;
    for (let j = lo; j < hi; j++) {
      const end = ends[j] as number;
      if (skipSelf && end === at) continue;
      if (bitmaps.length === 0 || hasAll(bitmaps, end)) k++;
    }
    return k;
  };
  // One end label and one side: the per-node counts of ends with the label, made once.
  const single = bitmaps.length === 1 && direction !== 'both' ? degreesWithLabel(direction === 'in' ? csr.into : csr.out, bitmaps[0] as Uint8Array) : undefined;
  // Relationships bound earlier in the MATCH may not be followed again: each one found in the row's
  // counted slice takes one off its weight (it sits at most once per side; a self-loop once in all).
  const unique = unique_from.map((s) => plan.layout.findIndex((c) => c.slot === s && c.entity === 'relationship'));
  const holds = (rows: TypeAdjacency['out'], at: number, edge: number, skipSelf: boolean): boolean => {
    if (at >= rows.offsets.length - 1) return false;
    for (let j = rows.offsets[at] as number, hi = rows.offsets[at + 1] as number; j < hi; j++) {
      if ((rows.edges[j] as number) !== edge) continue;
      const end = rows.ends[j] as number;
      return !(skipSelf && end === at) && (bitmaps.length === 0 || hasAll(bitmaps, end));
    }
    return false;
  };
  const excluded = (i: number, at: number, cols: readonly Int32Array[]): number => {
    let x = 0;
    for (let u = 0; u < unique.length; u++) {
      const edge = (cols[unique[u] as number] as Int32Array)[i] as number;
      if (direction !== 'in' && holds(csr.out, at, edge, false)) x++;
      else if (direction !== 'out' && holds(csr.into, at, edge, direction === 'both')) x++;
    }
    return x;
  };
  return (i, at, cols) => {
    let k = 0;
    if (single !== undefined) k = at < single.length ? (single[at] as number) : 0;
    else if (direction !== 'in') k += count(csr.out.offsets, csr.out.ends, at, false);
    if (single === undefined && direction !== 'out') k += count(csr.into.offsets, csr.into.ends, at, direction === 'both');
    if (unique.length > 0 && k > 0) k -= excluded(i, at, cols);
    return k;
  };
}

/** The top expand, counted: each row's weight is how many rows it would make. Rows that would make none go. */
export function countedExpand(op: Op<'expand'>, plan: BatchPlan, csr: TypeAdjacency, bitmaps: readonly Uint8Array[], next: BatchConsumer): BatchConsumer {
  const from = plan.layout.findIndex((c) => c.slot === op.from && c.entity === 'node');
  const weights = new Float64Array(BATCH_ROWS);
  const weight = countedWeight(op, plan, csr, bitmaps, op.unique_from);
  return (b) => {
    const src = b.columns[from] as Int32Array;
    const cols = b.columns;
    let w = 0;
    for (let i = 0, n = b.length; i < n; i++) {
      const at = src[i] as number;
      if (at === NULL_ID) continue;
      const k = weight(i, at, cols);
      if (k === 0) continue;
      if (w !== i) for (let c = 0; c < cols.length; c++) (cols[c] as Int32Array)[w] = (cols[c] as Int32Array)[i] as number;
      weights[w++] = k;
    }
    b.length = w;
    if (w > 0) next(b, weights);
  };
}

/**
 * OPTIONAL MATCH of one hop (see Stage in batch-plan.ts), as a left outer expand: each row's CSR
 * slice goes into `found`, with the input row it came from in `source`; the WHERE's filters run over
 * `found` a batch at a time; then rows go on in input order, each input row's matches or, when none
 * passed, the input row once with NULL_ID in the relationship and end node columns.
 */
export function optionalStage(
  op: Op<'expand'>,
  filters: readonly ((b: Batch) => Uint8Array)[],
  plan: BatchPlan,
  csr: TypeAdjacency,
  bitmaps: readonly Uint8Array[],
  width: number,
  check: () => void,
  next: BatchConsumer,
): BatchConsumer {
  const from = plan.layout.findIndex((c) => c.slot === op.from && c.entity === 'node');
  const relAt = op.rel_unused === true ? -1 : plan.layout.findIndex((c) => c.slot === op.rel && c.entity === 'relationship');
  const posAt = positionColumn(op, plan);
  const toAt = op.to_unused === true ? -1 : plan.layout.findIndex((c) => c.slot === op.to && c.entity === 'node');
  const bound = Math.min(...[relAt, posAt, toAt].filter((x) => x >= 0), width);
  const unique = op.unique_from.map((s) => plan.layout.findIndex((c) => c.slot === s && c.entity === 'relationship'));
  const parts = op.direction === 'both' ? [csr.out, csr.into] : [op.direction === 'in' ? csr.into : csr.out];
  const shifts = partShifts(op, csr);
  const found = new Batch(width);
  const source = new Int32Array(BATCH_ROWS);
  const out = new Batch(width);
  const matched = new Uint8Array(BATCH_ROWS);
  let input: Batch = found;
  /** Input rows before this one have gone on (matched or as a null row). */
  let resolved = 0;
  const flushOut = (): void => {
    next(out, undefined);
    out.length = 0;
    check();
  };
  const emitNull = (i: number): void => {
    const w = out.length;
    for (let c = 0; c < bound; c++) (out.columns[c] as Int32Array)[w] = (input.columns[c] as Int32Array)[i] as number;
    if (relAt >= 0) (out.columns[relAt] as Int32Array)[w] = NULL_ID;
    if (posAt >= 0) (out.columns[posAt] as Int32Array)[w] = NULL_ID;
    if (toAt >= 0) (out.columns[toAt] as Int32Array)[w] = NULL_ID;
    out.length = w + 1;
    if (out.length === BATCH_ROWS) flushOut();
  };
  /** Filters `found`, then sends its rows on in order, with the null rows of the input rows before them. */
  const drain = (): void => {
    if (posAt >= 0) noteWalked(csr, op.direction, found.length);
    for (const f of filters) {
      const keep = f(found);
      let w = 0;
      for (let r = 0, n = found.length; r < n; r++) {
        if (keep[r] !== 1) continue;
        if (w !== r) {
          for (let c = 0; c < width; c++) (found.columns[c] as Int32Array)[w] = (found.columns[c] as Int32Array)[r] as number;
          source[w] = source[r] as number;
        }
        w++;
      }
      found.length = w;
    }
    for (let r = 0, n = found.length; r < n; r++) {
      const s = source[r] as number;
      for (let k = resolved; k < s; k++) if (matched[k] === 0) emitNull(k);
      resolved = s;
      matched[s] = 1;
      const w = out.length;
      for (let c = 0; c < width; c++) (out.columns[c] as Int32Array)[w] = (found.columns[c] as Int32Array)[r] as number;
      out.length = w + 1;
      if (out.length === BATCH_ROWS) flushOut();
    }
    found.length = 0;
  };
  return (b) => {
    input = b;
    resolved = 0;
    matched.fill(0, 0, b.length);
    const src = b.columns[from] as Int32Array;
    const inCols = b.columns;
    const fCols = found.columns;
    for (let i = 0, n = b.length; i < n; i++) {
      const at = src[i] as number;
      if (at === NULL_ID) continue;
      for (let p = 0; p < parts.length; p++) {
        const { offsets, ends, edges } = parts[p] as TypeAdjacency['out'];
        const shift = shifts[p] as number;
        if (at >= offsets.length - 1) continue;
        for (let j = offsets[at] as number, hi = offsets[at + 1] as number; j < hi; j++) {
          const end = ends[j] as number;
          const edge = edges[j] as number;
          if (p === 1 && end === at) continue;
          let used = false;
          for (let u = 0; u < unique.length; u++) if ((inCols[unique[u] as number] as Int32Array)[i] === edge) used = true;
          if (used || (bitmaps.length > 0 && !hasAll(bitmaps, end))) continue;
          const w = found.length;
          for (let c = 0; c < bound; c++) (fCols[c] as Int32Array)[w] = (inCols[c] as Int32Array)[i] as number;
          if (relAt >= 0) (fCols[relAt] as Int32Array)[w] = edge;
          if (posAt >= 0) (fCols[posAt] as Int32Array)[w] = j + shift;
          if (toAt >= 0) (fCols[toAt] as Int32Array)[w] = end;
          source[w] = i;
          found.length = w + 1;
          if (found.length === BATCH_ROWS) drain();
        }
      }
    }
    if (found.length > 0) drain();
    for (let k = resolved, n = b.length; k < n; k++) if (matched[k] === 0) emitNull(k);
    if (out.length > 0) flushOut();
  };
}
