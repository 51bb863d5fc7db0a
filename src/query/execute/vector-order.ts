import { orderCompare } from '../../common/values/order.js';
import type { Value } from '../../common/values/value.js';
import type { NodeState } from '../../projections/graph/records.js';
import type { Row } from './context.js';

/**
 * A row an ordered vector search collected, with its hit's distance as the index computed it and
 * how far that may be from the exact `vector_distance` (0: it is exact; Infinity: unknown).
 */
export interface Collected {
  readonly row: Row;
  /** The node the row's search variable holds, as the reader sees it, when the search emitted it itself. */
  readonly node: NodeState | undefined;
  readonly distance: number;
  readonly tolerance: number;
  /** Position in arrival order: the exact top-k keeps the earlier of two rows at equal distances. */
  readonly at: number;
}

/** A run of rows whose distance intervals overlap: their order needs the exact distances. */
interface Measured {
  readonly c: Collected;
  readonly exact: Value;
}

/**
 * The first `k` rows in the order an exact top-k by `vector_distance` gives them (ascending, ties in
 * arrival order), computing exact distances only where the index's cannot decide.
 *
 * Each row's exact distance lies in [distance - tolerance, distance + tolerance]. Sorted by the
 * intervals' starts, rows whose intervals overlap (directly or through others) form runs, and the
 * runs' spans are disjoint and ascending: a row alone in its run is placed there (every other row's
 * exact distance lies strictly before or after it), and a run is ordered by exact distances
 * (`exact`, the compiled `vector_distance` of the top), then by arrival. Runs that start at k or
 * later are never measured. Any distance or bound that is not finite (NaN, an infinite component,
 * a metric without a bound) makes the whole set one run.
 */
export function orderedRows(collected: readonly Collected[], k: number, exact: (row: Row) => Value): Collected[] {
  const n = collected.length;
  if (n === 0 || k <= 0) return [];
  let bounded = true;
  for (const c of collected) if (!Number.isFinite(c.distance) || !Number.isFinite(c.tolerance)) bounded = false;
  if (!bounded) return measureRun(collected, exact).slice(0, k);
  const sorted = collected.slice().sort((a, b) => a.distance - a.tolerance - (b.distance - b.tolerance) || a.at - b.at);
  const out: Collected[] = [];
  let i = 0;
  while (i < n && out.length < k) {
    const first = sorted[i]!;
    let hi = first.distance + first.tolerance;
    let j = i + 1;
    while (j < n && sorted[j]!.distance - sorted[j]!.tolerance <= hi) {
      hi = Math.max(hi, sorted[j]!.distance + sorted[j]!.tolerance);
      j++;
    }
    if (j === i + 1) out.push(first);
    else for (const c of measureRun(sorted.slice(i, j), exact)) out.push(c);
    i = j;
  }
  out.length = Math.min(out.length, k);
  return out;
}

/** The rows of a run by exact distance (Cypher's order: nulls last), then arrival. */
function measureRun(run: readonly Collected[], exact: (row: Row) => Value): Collected[] {
  const measured: Measured[] = run.map((c) => ({ c, exact: exact(c.row) }));
  measured.sort((a, b) => orderCompare(a.exact, b.exact) || a.c.at - b.c.at);
  return measured.map((m) => m.c);
}
