import type { AdjacencyRows, TypeAdjacency } from './adjacency.js';
import { keepDerived } from './scan-cache.js';

/**
 * Degree statistics of one relationship type in one direction, for the planner's expand estimates and a
 * join's choice of table side. Made lazily from the type's CSR (adjacency.ts), once per CSR and direction,
 * and kept beside it (a WeakMap keyed by its rows), so they are a picture of the same point of the log and
 * are made again only after a write of the type drops the CSR: the way column-statistics.ts keeps
 * histograms beside a label's kept list. A pass over the offsets costs what a scan of the node ids costs
 * (no edge is read), and the mean over a label's nodes is one more pass over the label's ids.
 */
export interface DegreeSummary {
  readonly relationships: number;
  /** Nodes with at least one relationship of the type in the direction. */
  readonly nodes_with_any: number;
  /** Node ids the CSR spans (its offsets' length - 1): nodes with none count as degree 0. */
  readonly nodes: number;
  /**
   * Degrees of the nodes with any at the quantiles of DEGREE_QUANTILES, in that order: how skewed the
   * type is (a median far below the mean says a few nodes hold most of the relationships).
   */
  readonly quantiles: readonly number[];
  readonly max: number;
}

/** The quantiles a summary keeps. */
export const DEGREE_QUANTILES: readonly number[] = [0.5, 0.9, 0.99];

/** Largest degree counted exactly for the quantiles; larger ones are counted at it (the maximum stays exact). */
const degree_counted_max = 1 << 16;

const summaries = new WeakMap<AdjacencyRows, DegreeSummary>();
/** Bytes a summary holds (a few numbers and its quantiles), charged to its CSR's entry in the scan cache. */
const SUMMARY_BYTES = 128;
/** Bytes a kept mean over a label holds: its WeakMap entry and number. */
const LABEL_MEAN_BYTES = 48;
const label_means = new WeakMap<AdjacencyRows, WeakMap<Int32Array, number>>();

/** The rows of a direction: 'both' reads each side (a self-loop then counts on both). */
export function directionRows(csr: TypeAdjacency, direction: 'out' | 'in' | 'both'): readonly AdjacencyRows[] {
  return direction === 'both' ? [csr.out, csr.into] : [direction === 'in' ? csr.into : csr.out];
}

/** The summary of `csr` in `direction`. */
export function degreeSummary(csr: TypeAdjacency, direction: 'out' | 'in' | 'both'): DegreeSummary {
  if (direction !== 'both') return summaryOf(direction === 'in' ? csr.into : csr.out);
  const out = summaryOf(csr.out);
  const into = summaryOf(csr.into);
  // Per node, the sum of both sides: counted again, since the quantiles of a sum are not the sums of quantiles.
  return measure([csr.out, csr.into], out.relationships + into.relationships);
}

function summaryOf(rows: AdjacencyRows): DegreeSummary {
  let known = summaries.get(rows);
  if (known === undefined) {
    known = measure([rows], rows.ends.length);
    if (keepDerived(rows, known, SUMMARY_BYTES, 'degree summary')) summaries.set(rows, known);
  }
  return known;
}

function measure(sides: readonly AdjacencyRows[], relationships: number): DegreeSummary {
  const nodes = Math.min(...sides.map((s) => s.offsets.length - 1));
  const counts = new Int32Array(degree_counted_max + 1);
  let withAny = 0;
  let max = 0;
  for (let n = 0; n < nodes; n++) {
    let d = 0;
    for (const s of sides) d += (s.offsets[n + 1] as number) - (s.offsets[n] as number);
    if (d === 0) continue;
    withAny++;
    if (d > max) max = d;
    const at = Math.min(d, degree_counted_max);
    counts[at] = (counts[at] as number) + 1;
  }
  const quantiles = DEGREE_QUANTILES.map((q) => {
    const rank = Math.ceil(q * withAny);
    let seen = 0;
    for (let d = 1; d <= degree_counted_max; d++) {
      seen += counts[d] as number;
      if (seen >= rank) return d;
    }
    return max;
  });
  return { relationships, nodes_with_any: withAny, nodes, quantiles, max };
}

/**
 * The mean degree (of `csr` in `direction`) over the nodes whose ids `ids` lists: a label's kept list, so the
 * mean is exact for the label rather than sampled. Kept per CSR side and list while both are.
 */
export function meanDegreeOf(csr: TypeAdjacency, direction: 'out' | 'in' | 'both', ids: Int32Array): number {
  let total = 0;
  for (const rows of directionRows(csr, direction)) total += sideMean(rows, ids);
  return total;
}

function sideMean(rows: AdjacencyRows, ids: Int32Array): number {
  let byList = label_means.get(rows);
  if (byList === undefined) label_means.set(rows, (byList = new WeakMap()));
  let known = byList.get(ids);
  if (known === undefined) {
    const offsets = rows.offsets;
    const bound = offsets.length - 1;
    let edges = 0;
    for (let i = 0; i < ids.length; i++) {
      const n = ids[i] as number;
      if (n < bound) edges += (offsets[n + 1] as number) - (offsets[n] as number);
    }
    known = ids.length === 0 ? 0 : edges / ids.length;
    if (keepDerived(rows, byList, LABEL_MEAN_BYTES, 'degree mean over a label')) byList.set(ids, known);
  }
  return known;
}
