import type { TypeAdjacency } from '../../../projections/graph/adjacency.js';
import type { LogicalOp } from '../../plan/logical.js';
import { BATCH_ROWS, NULL_ID } from './batch.js';
import type { BatchPlan } from './batch-plan.js';
import { countedWeight, hasAll, type BatchConsumer } from './stages.js';

/**
 * The last two expands of a count, both from nodes the pipeline holds and neither read above
 * (`MATCH (a)-[:KNOWS]->(b)-[:KNOWS]->(c) WHERE b.age = 40 RETURN count(*)`, planned from `b` both ways):
 * the rows they would make are every pair of one relationship from each slice, so a row's weight is the
 * product of the two slices' counts, less the pairs that would use one relationship twice when the MATCH
 * asks for distinct relationships. Those are the relationships in both slices, found by walking the first
 * slice. So a path through a selective middle node is counted with no row per relationship of either hop.
 */
type Op<K extends LogicalOp['op']> = Extract<LogicalOp, { op: K }>;

export function countedPair(
  lower: Op<'expand'>,
  top: Op<'expand'>,
  plan: BatchPlan,
  lowerCsr: TypeAdjacency,
  lowerBitmaps: readonly Uint8Array[],
  topCsr: TypeAdjacency,
  topBitmaps: readonly Uint8Array[],
  next: BatchConsumer,
): BatchConsumer {
  const column = (slot: number, entity: 'node' | 'relationship'): number => plan.layout.findIndex((c) => c.slot === slot && c.entity === entity);
  const lowerFrom = column(lower.from, 'node');
  const topFrom = column(top.from, 'node');
  // The relationships bound before the pair, which neither may follow again.
  const earlier = lower.unique_from;
  const distinct = top.unique_from.includes(lower.rel);
  const lowerWeight = countedWeight(lower, plan, lowerCsr, lowerBitmaps, earlier);
  const topWeight = countedWeight(top, plan, topCsr, topBitmaps, earlier);
  const unique = earlier.map((s) => column(s, 'relationship'));
  const weights = new Float64Array(BATCH_ROWS);
  const topDirection = top.direction;
  // Both expands walk one type's CSR: one relationship is in both slices only when the types agree.
  const sameType = lower.types[0] === top.types[0];

  /** Whether the relationship x -> y is in the top expand's slice from `f` (its far end labelled as asked). */
  const inTop = (x: number, y: number, f: number): boolean =>
    (topDirection !== 'in' && x === f && (topBitmaps.length === 0 || hasAll(topBitmaps, y))) ||
    (topDirection !== 'out' && y === f && (topBitmaps.length === 0 || hasAll(topBitmaps, x)));

  /**
   * How many relationships of one side of row i's lower slice (labelled, not bound earlier) the top slice
   * holds too. Made once, not per row: a closure per row costs more than the walk it makes.
   */
  const sharedOnSide = (rows: TypeAdjacency['out'], outgoing: boolean, skipSelf: boolean, i: number, f1: number, f2: number, cols: readonly Int32Array[]): number => {
    if (f1 >= rows.offsets.length - 1) return 0;
    let k = 0;
    for (let j = rows.offsets[f1] as number, hi = rows.offsets[f1 + 1] as number; j < hi; j++) {
      const end = rows.ends[j] as number;
      if (skipSelf && end === f1) continue;
      if (lowerBitmaps.length > 0 && !hasAll(lowerBitmaps, end)) continue;
      const edge = rows.edges[j] as number;
      let bound = false;
      for (let u = 0; u < unique.length && !bound; u++) bound = (cols[unique[u] as number] as Int32Array)[i] === edge;
      if (bound) continue;
      if (outgoing ? inTop(f1, end, f2) : inTop(end, f1, f2)) k++;
    }
    return k;
  };
  /** The relationships of row i's lower slice that the top slice holds too. */
  const shared = (i: number, f1: number, f2: number, cols: readonly Int32Array[]): number =>
    (lower.direction !== 'in' ? sharedOnSide(lowerCsr.out, true, false, i, f1, f2, cols) : 0) +
    (lower.direction !== 'out' ? sharedOnSide(lowerCsr.into, false, lower.direction === 'both', i, f1, f2, cols) : 0);

  return (b) => {
    const cols = b.columns;
    const src1 = cols[lowerFrom] as Int32Array;
    const src2 = cols[topFrom] as Int32Array;
    let w = 0;
    for (let i = 0, n = b.length; i < n; i++) {
      const f1 = src1[i] as number;
      const f2 = src2[i] as number;
      if (f1 === NULL_ID || f2 === NULL_ID) continue;
      const k1 = lowerWeight(i, f1, cols);
      if (k1 === 0) continue;
      const k2 = topWeight(i, f2, cols);
      let k = k1 * k2;
      if (k > 0 && distinct && sameType) k -= shared(i, f1, f2, cols);
      if (k === 0) continue;
      if (w !== i) for (let c = 0; c < cols.length; c++) (cols[c] as Int32Array)[w] = (cols[c] as Int32Array)[i] as number;
      weights[w++] = k;
    }
    b.length = w;
    if (w > 0) next(b, weights);
  };
}
