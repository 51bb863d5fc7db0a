/**
 * Equi-depth histograms of one property of one label's nodes, for the planner's selectivities.
 *
 * Built from a sample of the values (numbers, or strings; one kind per histogram): sorted, then cut into
 * buckets of about equal counts, with a cut never falling between equal values, so a value that many nodes
 * share fills a bucket of its own and an equality on it is estimated by its true share. A range keeps the
 * buckets it covers whole and a linear share of the ones it cuts; an equality keeps its bucket's share over the
 * bucket's distinct values. Pure: the sample is the caller's (see execute/batch/column-statistics.ts).
 */

export type HistogramValue = number | string;

export interface Histogram {
  readonly kind: 'number' | 'string';
  /** The smallest value sampled: the first bucket starts here (inclusive). */
  readonly min: HistogramValue;
  /** Invariant: ascending and distinct; bucket i holds the values above uppers[i-1] (or min) up to uppers[i]. */
  readonly uppers: readonly HistogramValue[];
  /** Invariant: one per bucket, each in (0, 1], adding up to 1: the share of the sampled values in the bucket. */
  readonly shares: readonly number[];
  /** Invariant: one per bucket, each at least 1: distinct values the sample saw in the bucket. */
  readonly distinct: readonly number[];
}

/** Buckets a histogram has at most: 64 keeps a bucket near 1.6% of the values, finer than the sample can tell. */
export const HISTOGRAM_BUCKETS_MAX = 64;

/** A bound of a range: the value and whether it is included. */
export interface RangeBound {
  readonly value: HistogramValue;
  readonly inclusive: boolean;
}

/**
 * The histogram of `sample` (any order; it is sorted here), or undefined when it is empty. Every value must be
 * of `kind` (numbers not NaN).
 */
export function buildHistogram(kind: 'number' | 'string', sample: HistogramValue[], buckets_max: number = HISTOGRAM_BUCKETS_MAX): Histogram | undefined {
  const n = sample.length;
  if (n === 0) return undefined;
  const sorted = kind === 'number' ? (sample as number[]).sort((a, b) => a - b) : (sample as string[]).sort(compareStrings);
  const depth = Math.max(1, Math.ceil(n / buckets_max));
  const uppers: HistogramValue[] = [];
  const shares: number[] = [];
  const distinct: number[] = [];
  const bucket = (start: number, end: number): void => {
    let seen = 1;
    for (let i = start + 1; i < end; i++) if (sorted[i] !== sorted[i - 1]) seen++;
    uppers.push(sorted[end - 1] as HistogramValue);
    shares.push((end - start) / n);
    distinct.push(seen);
  };
  let start = 0;
  while (start < n) {
    let end = Math.min(n, start + depth);
    // Never cut between equal values: the bucket takes every copy of its last value.
    while (end < n && sorted[end] === sorted[end - 1]) end++;
    // A last value held by a quarter of the bucket or more gets a bucket of its own: spread over the
    // values below it, its share would make every range among them look as large.
    let run = end - 1;
    while (run > start && sorted[run - 1] === sorted[end - 1]) run--;
    if (run > start && 4 * (end - run) >= depth) bucket(start, run);
    bucket(run > start && 4 * (end - run) >= depth ? run : start, end);
    start = end;
  }
  return { kind, min: sorted[0] as HistogramValue, uppers, shares, distinct };
}

/** Code-unit order, as Cypher compares strings. */
function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Share of the histogram's values that `=` `value` keeps; 0 outside the sampled span. */
export function equalityShare(h: Histogram, value: HistogramValue): number {
  if (typeof value !== (h.kind === 'number' ? 'number' : 'string')) return 0;
  if (value < h.min) return 0;
  const b = bucketOf(h, value);
  if (b === undefined) return 0;
  return (h.shares[b] as number) / (h.distinct[b] as number);
}

/**
 * Share of the histogram's values within the range (either bound may be absent); a bound of another kind than
 * the histogram's keeps nothing, as a comparison across kinds is null.
 */
export function rangeShare(h: Histogram, lower: RangeBound | undefined, upper: RangeBound | undefined): number {
  const want = h.kind === 'number' ? 'number' : 'string';
  if ((lower !== undefined && typeof lower.value !== want) || (upper !== undefined && typeof upper.value !== want)) return 0;
  const below = (b: RangeBound | undefined, fallback: number): number => (b === undefined ? fallback : shareBelow(h, b.value, b.inclusive));
  return Math.max(0, below(upper, 1) - below(lower === undefined ? undefined : { value: lower.value, inclusive: !lower.inclusive }, 0));
}

/** Share of values below `value` (`inclusive`: at or below). */
function shareBelow(h: Histogram, value: HistogramValue, inclusive: boolean): number {
  if (value < h.min || (!inclusive && value === h.min)) return 0;
  const b = bucketOf(h, value);
  if (b === undefined) return 1;
  let share = 0;
  for (let i = 0; i < b; i++) share += h.shares[i] as number;
  const lo = b === 0 ? h.min : (h.uppers[b - 1] as HistogramValue);
  const hi = h.uppers[b] as HistogramValue;
  const bucket = h.shares[b] as number;
  // One value in the bucket (or the bucket's top): the share of that value is all or nothing.
  if (value === hi) return share + (inclusive ? bucket : bucket - bucket / (h.distinct[b] as number));
  // At the smallest value, included: that value's own share.
  const at_min = inclusive && b === 0 && value === h.min ? bucket / (h.distinct[b] as number) : 0;
  return share + Math.min(bucket, bucket * position(lo, hi, value) + at_min);
}

/** The first bucket whose upper bound is at or above `value`; undefined above the last one. */
/**
 * Where `value` falls in `h`: -1 below its least value, a bucket's index, or the number of buckets above its
 * greatest. Two values in one band divide the histogram alike up to the linear share within the bucket, so a
 * plan weighed with one is weighed nearly as well with the other.
 */
export function valueBand(h: Histogram, value: HistogramValue): number {
  if (typeof value !== (h.kind === 'number' ? 'number' : 'string')) return -2;
  if (value < h.min) return -1;
  return bucketOf(h, value) ?? h.uppers.length;
}

/**
 * The band of `value` that keeps plans apart (valueBand, coarsened): bucket by bucket only near the ends, where a
 * bound keeps few rows and a seek or a start may turn on one bucket; by doubling widths towards the middle, where a
 * range keeps a large share either way. A 64-bucket histogram has 9 such bands, so one statement's plans over
 * every value fit the prepared-plan cache's variants instead of evicting each other run after run.
 */
export function planBand(h: Histogram, value: HistogramValue): number {
  const band = valueBand(h, value);
  const n = h.uppers.length;
  if (band < 0 || band >= n) return band;
  const fromLow = band;
  const fromHigh = n - 1 - band;
  const edge = Math.min(fromLow, fromHigh);
  // 0: the end bucket; 1: the next; 2: two to three buckets in; 3: four to seven; 4: eight or more from both
  // ends, one band whichever end is nearer: a bound there keeps an eighth of the values or more on either side.
  const width = edge === 0 ? 0 : Math.min(4, Math.floor(Math.log2(edge)) + 1);
  if (width === 4) return n + 1;
  return fromLow <= fromHigh ? width : 2 * n + 8 - width;
}

/**
 * The class of an equality's share that keeps plans apart: the share's power of two (a value twice as common
 * may move a seek or a start; one a few percent more common does not); 'none' for a value the histogram holds
 * none of, or one of another kind.
 */
export function equalityClass(h: Histogram, value: HistogramValue | undefined): string {
  const share = value === undefined ? 0 : equalityShare(h, value);
  return share <= 0 ? 'none' : `e${Math.round(Math.log2(share))}`;
}

/**
 * The class of `IN` a list that keeps plans apart: the power of two of its length and of the share its values
 * keep together (each distinct value's equality share), so lists of as many values as common keep one plan.
 */
export function listClass(h: Histogram, values: readonly (HistogramValue | undefined)[]): string {
  const seen = new Set<HistogramValue>();
  let share = 0;
  for (const v of values) {
    if (v === undefined || seen.has(v)) continue;
    seen.add(v);
    share += equalityShare(h, v);
  }
  const length = Math.ceil(Math.log2(values.length + 1));
  return `l${length}:${share <= 0 ? 'none' : Math.round(Math.log2(Math.min(1, share)))}`;
}

function bucketOf(h: Histogram, value: HistogramValue): number | undefined {
  let lo = 0;
  let hi = h.uppers.length - 1;
  if (value > (h.uppers[hi] as HistogramValue)) return undefined;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((h.uppers[mid] as HistogramValue) >= value) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Where `value` sits between `lo` and `hi`, 0..1: linear for numbers, by the first characters past the shared prefix for strings. */
function position(lo: HistogramValue, hi: HistogramValue, value: HistogramValue): number {
  if (typeof lo === 'number' && typeof hi === 'number' && typeof value === 'number') {
    return hi > lo ? Math.min(1, Math.max(0, (value - lo) / (hi - lo))) : 0.5;
  }
  const a = String(lo);
  const b = String(hi);
  const v = String(value);
  let p = 0;
  while (p < a.length && p < b.length && a[p] === b[p]) p++;
  const x = stringNumber(a, p);
  const y = stringNumber(b, p);
  return y > x ? Math.min(1, Math.max(0, (stringNumber(v, p) - x) / (y - x))) : 0.5;
}

/** Characters STRING_DIGITS past `from`, as a fraction in base 65,536 (a missing character counts as 0). */
const STRING_DIGITS = 3;
function stringNumber(s: string, from: number): number {
  let x = 0;
  let scale = 1;
  for (let i = 0; i < STRING_DIGITS; i++) {
    scale /= 65536;
    x += (from + i < s.length ? s.charCodeAt(from + i) : 0) * scale;
  }
  return x;
}
