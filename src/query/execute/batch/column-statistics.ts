import type { Value } from '../../../common/values/value.js';
import type { LabelMembers } from '../../../projections/graph/records.js';
import { keepDerived } from '../../../projections/graph/scan-cache.js';
import { SnapshotView, type GraphReader } from '../../../projections/graph/view.js';
import { estimateDistinct, type DistinctEstimate } from '../../plan/cardinality.js';
import { buildHistogram, type Histogram, type HistogramValue } from '../../plan/histogram.js';
import type { TypedColumn } from './typed-columns.js';

/**
 * Statistics of a property for the planner (per label) and for the choice of per-value evaluation (per column).
 *
 * Per label: from the label's kept list (GraphStore.members), which is a picture of the label's nodes at one
 * point of the log, made again after a write of the label. Statistics are kept beside it (a WeakMap keyed by
 * the list's array of nodes, then by property), so they are made lazily, at most once per list and property,
 * and live and die with the list. Their cost is bounded: a strided sample of at most STATISTICS_SAMPLE_MAX
 * members, read from their own maps (no column is built for it) and sorted once, whatever the label's size.
 * One member per stride rather than the first members, so a property that grows with insertion order (`id`)
 * is sampled over its whole span.
 *
 * Per column: the same sample over a typed column by node id (typed-columns.ts), for its distinct values.
 */

/** Members sampled per (list, property): enough to place a bound within about 2% (one standard error near 1%). */
export const STATISTICS_SAMPLE_MAX = 2048;

export interface PropertyStatistics {
  readonly distinct: DistinctEstimate;
  /** Of the property's values when they are all numbers or all strings; undefined for a mix or other kinds. */
  readonly histogram: Histogram | undefined;
  /**
   * The sampled values (sorted by the histogram), when they are all strings: what STARTS WITH, ENDS WITH and CONTAINS
   * keep is their share of it (a histogram orders strings, which tells nothing of a suffix or an infix).
   */
  readonly strings: readonly string[] | undefined;
}

const by_list = new WeakMap<LabelMembers['nodes'], Map<string, PropertyStatistics>>();
const by_column = new WeakMap<TypedColumn, DistinctEstimate>();

/** Statistics of `key` among the members of a kept list. */
export function labelPropertyStatistics(members: LabelMembers, key: string): PropertyStatistics {
  let byKey = by_list.get(members.nodes);
  if (byKey === undefined) by_list.set(members.nodes, (byKey = new Map()));
  let known = byKey.get(key);
  if (known === undefined) {
    const nodes = members.nodes;
    known = measure(nodes.length, (i) => nodes[i]?.props.get(key), true);
    if (keepDerived(nodes, known, statisticsBytes(known), 'statistics')) byKey.set(key, known);
  }
  return known;
}

/** Bytes statistics hold: per bucket a bound, a share and a count; per sampled string a slot (the strings are the nodes'). */
function statisticsBytes(s: PropertyStatistics): number {
  return 64 + 24 * (s.histogram?.uppers.length ?? 0) + 8 * (s.strings?.length ?? 0);
}

/**
 * Statistics of `property` among the nodes of `label` as `graph` sees them, when its snapshot keeps the label's
 * list (made on demand by scans); undefined otherwise.
 */
export function snapshotStatistics(graph: GraphReader, label: string, property: string): PropertyStatistics | undefined {
  if (!(graph instanceof SnapshotView)) return undefined;
  const members = graph.keptMembers(label);
  return members === undefined ? undefined : labelPropertyStatistics(members, property);
}

/** Distinct values among the nodes of a typed column (by node id) that have one, estimated from a sample. */
export function columnDistinct(column: TypedColumn): DistinctEstimate {
  let known = by_column.get(column);
  if (known === undefined) {
    known = measure(columnLength(column), (id) => valueAt(column, id), false).distinct;
    if (keepDerived(column, known, 64, 'distinct estimate')) by_column.set(column, known);
  }
  return known;
}

function columnLength(column: TypedColumn): number {
  return column.kind === 'string' ? column.codes.length : column.values.length;
}

function valueAt(column: TypedColumn, id: number): Value | undefined {
  switch (column.kind) {
    case 'int':
    case 'float':
      return column.nulls[id] === 1 ? undefined : column.values[id];
    case 'string': {
      const c = column.codes[id] as number;
      return c < 0 ? undefined : column.dictionary[c];
    }
    case 'any':
      return column.values[id];
  }
}

/** Samples `n` positions with a stride (`at` reads one; undefined or null where absent), at most STATISTICS_SAMPLE_MAX. */
function measure(n: number, at: (i: number) => Value | undefined, histogram: boolean): PropertyStatistics {
  const stride = Math.max(1, Math.floor(n / STATISTICS_SAMPLE_MAX));
  const numbers: number[] = [];
  const strings: string[] = [];
  let other = 0;
  let looked = 0;
  for (let start = 0; start < n; start += stride) {
    // One member per stride, at an offset that varies from stride to stride (a fixed hash, so the same list
    // gives the same sample): a fixed offset would alias with a property periodic in creation order
    // (`i % 60` sampled every 9th member sees a third of the values).
    const i = Math.min(n - 1, start + (Math.imul(start + 1, 0x9e3779b1) >>> 0) % stride);
    looked++;
    const v = at(i);
    if (v === undefined || v === null) continue;
    if (typeof v === 'bigint') numbers.push(Number(v));
    else if (typeof v === 'number' && !Number.isNaN(v)) numbers.push(v);
    else if (typeof v === 'string') strings.push(v);
    else other++;
  }
  const present = numbers.length + strings.length + other;
  if (looked === 0 || present === 0) return { distinct: { values: 0, present: 0 }, histogram: undefined, strings: undefined };
  // Distinct values by kind (an INTEGER and a FLOAT of one value count once, as `=` has them); other
  // values (lists, maps, temporals, NaN) are counted as if each differed.
  const counts = new Map<HistogramValue, number>();
  for (const v of numbers) counts.set(v, (counts.get(v) ?? 0) + 1);
  // A Map tells the number 1 from the string '1'.
  for (const v of strings) counts.set(v, (counts.get(v) ?? 0) + 1);
  let once = other;
  for (const c of counts.values()) if (c === 1) once++;
  const share = present / looked;
  const distinct = { values: estimateDistinct(present, counts.size + other, once, Math.round(n * share)), present: share };
  if (!histogram || other > 0 || (numbers.length > 0 && strings.length > 0)) return { distinct, histogram: undefined, strings: undefined };
  if (numbers.length > 0) return { distinct, histogram: buildHistogram('number', numbers), strings: undefined };
  return { distinct, histogram: buildHistogram('string', strings), strings };
}
