import type { Value } from '../../common/values/value.js';
import type { BoundExpression } from '../bind/bound-expression.js';
import { EQUALITY_SELECTIVITY, equalitySelectivity, labelRows, PREDICATE_SELECTIVITY, type GraphCounts, type ParameterUse } from './cardinality.js';
import { conjuncts } from './expressions.js';
import { equalityShare, rangeShare, type HistogramValue, type RangeBound } from './histogram.js';
import type { LogicalOp } from './logical.js';
import { isRunValue, runValue } from './parameter-values.js';

/**
 * Fractions of rows a filter keeps, from the histograms of the properties it compares (GraphCounts.histogram)
 * where the compared node's label is known and the other side is a literal; fixed guesses otherwise. The
 * bounds of one property of one node combine into one range first (`p.age >= 25 AND p.age <= 27` is one
 * stretch of the histogram, not the product of two half-lines); everything else multiplies as if independent.
 */

/** The label a slot's node is known to have in a plan's rows, when one is. */
export type LabelOf = (slot: number) => string | undefined;

/** Labels known of the node slots an operator's rows hold: from the scans that bound them and the end labels of expands. */
export function knownLabels(op: LogicalOp): LabelOf {
  const labels = new Map<number, string>();
  const walk = (o: LogicalOp): void => {
    if (o.op === 'node_scan' && o.label !== undefined) labels.set(o.variable, o.label);
    if (o.op === 'node_by_id' && o.label !== undefined) labels.set(o.variable, o.label);
    if (o.op === 'expand' && !o.into && o.to_labels !== undefined && o.to_labels[0] !== undefined) labels.set(o.to, o.to_labels[0]);
    if ('input' in o) walk(o.input);
  };
  walk(op);
  return (slot) => labels.get(slot);
}

/**
 * A comparison of `slot.key` with a value known when planning (a literal, or a parameter the counts offer the
 * value of), or unknown (another parameter, a row's value).
 */
interface Compared {
  readonly slot: number;
  readonly key: string;
  readonly op: 'eq' | 'lt' | 'lte' | 'gt' | 'gte';
  /** null: the value is null, so the comparison keeps no row. */
  readonly value: HistogramValue | null | undefined;
}

const FLIPPED = { eq: 'eq', lt: 'gt', lte: 'gte', gt: 'lt', gte: 'lte' } as const;

function comparedOf(e: BoundExpression, counts: GraphCounts, labelOf: LabelOf): Compared | undefined {
  if (e.kind !== 'binary' || !(e.op === 'eq' || e.op === 'lt' || e.op === 'lte' || e.op === 'gt' || e.op === 'gte')) return undefined;
  const side = (p: BoundExpression, other: BoundExpression, op: Compared['op']): Compared | undefined => {
    if (p.kind !== 'property' || p.object.kind !== 'variable' || other.kind === 'property') return undefined;
    const slot = p.object.variable.id;
    return { slot, key: p.key, op, value: known(other, counts, labelOf(slot), p.key, op === 'eq' ? 'equality' : 'range') };
  };
  return side(e.left, e.right, e.op) ?? side(e.right, e.left, FLIPPED[e.op]);
}

/**
 * A literal's value as a histogram compares it (INTEGERs as doubles), or a run value's (a parameter, or an
 * expression of parameters and literals: `$min + 1`) when the counts offer it for `label.key`; undefined for
 * anything else.
 */
function known(e: BoundExpression, counts: GraphCounts, label: string | undefined, key: string, use: ParameterUse): HistogramValue | null | undefined {
  if (e.kind === 'literal') return e.value === null ? null : histogramValue(e.value as Value);
  if (label === undefined || !isRunValue(e)) return undefined;
  const v = counts.parameter?.(e, use, label, key);
  return v === undefined ? undefined : v === null ? null : histogramValue(v);
}

/**
 * The values of the list of `n.key IN list` when the plan may know them: a list of literals, or a run value
 * (`$ids`, `[$a, $b]`) the counts offer; undefined otherwise. A value that is not a list (null) is `[]`'s
 * equivalent for an estimate: IN keeps no row.
 */
function knownList(e: BoundExpression, counts: GraphCounts, label: string, key: string): readonly Value[] | undefined {
  const v = isRunValue(e) ? counts.parameter?.(e, 'in', label, key) : e.kind === 'list' || e.kind === 'literal' ? runValue(e, NO_PARAMETERS) : undefined;
  if (v === undefined) return undefined;
  return Array.isArray(v) ? (v as readonly Value[]) : [];
}

const NO_PARAMETERS: ReadonlyMap<string, Value> = new Map();

/**
 * What `n.key IN list` keeps: with a histogram and values known when planning, the equality shares of its
 * distinct values added up (times the share of nodes that have the property); otherwise its length times an
 * equality, or the fixed guess for a list of unknown length.
 */
function inSelectivity(key: string, list: BoundExpression, label: string | undefined, counts: GraphCounts): number {
  const h = label === undefined ? undefined : counts.histogram?.(label, key);
  const values = label === undefined || h === undefined ? undefined : knownList(list, counts, label, key);
  if (label !== undefined && h !== undefined && values !== undefined) {
    const seen = new Set<HistogramValue>();
    let share = 0;
    for (const v of values) {
      const x = histogramValue(v);
      if (x === undefined || seen.has(x)) continue;
      seen.add(x);
      share += equalityShare(h, x);
    }
    const present = counts.distinct?.(label, key).present ?? 1;
    return Math.min(1, Math.max(floor(counts, label), present * share));
  }
  if (list.kind !== 'list') return PREDICATE_SELECTIVITY;
  const each = label === undefined ? EQUALITY_SELECTIVITY : equalitySelectivity(counts, label, key);
  return Math.min(1, list.items.length * each);
}

/** A value as a histogram compares it: a number (INTEGERs as doubles, NaN excluded) or a string; undefined for anything else. */
export function histogramValue(v: Value): HistogramValue | undefined {
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'number') return Number.isNaN(v) ? undefined : v;
  return typeof v === 'string' ? v : undefined;
}

interface Range {
  readonly slot: number;
  readonly key: string;
  lower?: RangeBound;
  upper?: RangeBound;
  /** Bounds whose value is not known when planning: each keeps PREDICATE_SELECTIVITY. */
  unknown: number;
}

/** Fraction of rows `e` keeps when the nodes of its slots have the labels `labelOf` knows. */
export function filterSelectivity(e: BoundExpression, counts: GraphCounts, labelOf: LabelOf): number {
  const ranges = new Map<string, Range>();
  let kept = 1;
  for (const c of conjuncts(e)) {
    const cmp = comparedOf(c, counts, labelOf);
    if (cmp !== undefined && cmp.value === null) {
      // A comparison with null keeps no row: the least an estimate keeps.
      const label = labelOf(cmp.slot);
      kept *= label === undefined ? EQUALITY_SELECTIVITY : floor(counts, label);
      continue;
    }
    if (cmp === undefined || cmp.op === 'eq') {
      kept *= conjunctSelectivity(c, cmp, counts, labelOf);
      continue;
    }
    const id = `${cmp.slot}\u0000${cmp.key}`;
    let r = ranges.get(id);
    if (r === undefined) ranges.set(id, (r = { slot: cmp.slot, key: cmp.key, unknown: 0 }));
    if (cmp.value === undefined || cmp.value === null) r.unknown++;
    else if (cmp.op === 'gt' || cmp.op === 'gte') r.lower = tighter(r.lower, { value: cmp.value, inclusive: cmp.op === 'gte' }, 1);
    else r.upper = tighter(r.upper, { value: cmp.value, inclusive: cmp.op === 'lte' }, -1);
  }
  for (const r of ranges.values()) kept *= rangeSelectivity(r, counts, labelOf);
  return kept;
}

/** Of two bounds on one side, the one that keeps less (`sign` 1: the larger lower bound; -1: the smaller upper). */
function tighter(a: RangeBound | undefined, b: RangeBound, sign: 1 | -1): RangeBound {
  if (a === undefined || typeof a.value !== typeof b.value) return a ?? b;
  if (a.value === b.value) return { value: a.value, inclusive: a.inclusive && b.inclusive };
  return (sign === 1 ? b.value > a.value : b.value < a.value) ? b : a;
}

function rangeSelectivity(r: Range, counts: GraphCounts, labelOf: LabelOf): number {
  const guessed = Math.pow(PREDICATE_SELECTIVITY, r.unknown);
  if (r.lower === undefined && r.upper === undefined) return guessed;
  const label = labelOf(r.slot);
  const h = label === undefined ? undefined : counts.histogram?.(label, r.key);
  if (label === undefined || h === undefined) return guessed * Math.pow(PREDICATE_SELECTIVITY, (r.lower ? 1 : 0) + (r.upper ? 1 : 0));
  const present = counts.distinct?.(label, r.key).present ?? 1;
  return guessed * Math.max(floor(counts, label), present * rangeShare(h, r.lower, r.upper));
}

/**
 * What `n.key = value` keeps of `label`'s nodes, for an equality checked inside a scan or written in a pattern
 * (`{key: value}`): weighed by the histogram when the value is a literal or a run value the counts offer, by
 * the distinct values otherwise.
 */
export function propertyEqualitySelectivity(counts: GraphCounts, label: string | undefined, key: string, value: BoundExpression): number {
  const x = label === undefined ? undefined : known(value, counts, label, key, 'equality');
  const h = label === undefined || x === undefined ? undefined : counts.histogram?.(label, key);
  if (label !== undefined && x === null) return floor(counts, label);
  if (label === undefined || x === undefined || x === null || h === undefined) return equalitySelectivity(counts, label, key);
  const present = counts.distinct?.(label, key).present ?? 1;
  return Math.max(floor(counts, label), present * equalityShare(h, x));
}

/** The least fraction an estimate keeps: one node of the label, so a plan never costs a side at zero rows. */
function floor(counts: GraphCounts, label: string): number {
  return 1 / Math.max(1, labelRows(counts, label));
}

function conjunctSelectivity(c: BoundExpression, cmp: Compared | undefined, counts: GraphCounts, labelOf: LabelOf): number {
  if (cmp !== undefined) {
    const label = labelOf(cmp.slot);
    if (label === undefined) return EQUALITY_SELECTIVITY;
    const h = cmp.value === undefined || cmp.value === null ? undefined : counts.histogram?.(label, cmp.key);
    if (h === undefined || cmp.value === undefined || cmp.value === null) return equalitySelectivity(counts, label, cmp.key);
    const present = counts.distinct?.(label, cmp.key).present ?? 1;
    return Math.max(floor(counts, label), present * equalityShare(h, cmp.value));
  }
  switch (c.kind) {
    case 'has_labels':
      return 0.5;
    case 'is_null': {
      const o = c.operand;
      const label = o.kind === 'property' && o.object.kind === 'variable' ? labelOf(o.object.variable.id) : undefined;
      const present = label === undefined || o.kind !== 'property' ? undefined : counts.distinct?.(label, o.key).present;
      if (present === undefined) return PREDICATE_SELECTIVITY;
      return c.negated ? present : 1 - present;
    }
    case 'binary':
      if (c.op === 'or') {
        const a = filterSelectivity(c.left, counts, labelOf);
        const b = filterSelectivity(c.right, counts, labelOf);
        return a + b - a * b;
      }
      if (c.op === 'starts_with' || c.op === 'ends_with' || c.op === 'contains') return textSelectivity(c, counts, labelOf);
      if (c.op === 'in' && c.left.kind === 'property' && c.left.object.kind === 'variable') {
        return inSelectivity(c.left.key, c.right, labelOf(c.left.object.variable.id), counts);
      }
      return PREDICATE_SELECTIVITY;
    case 'unary':
      return c.op === 'not' ? 1 - filterSelectivity(c.operand, counts, labelOf) : PREDICATE_SELECTIVITY;
    default:
      return PREDICATE_SELECTIVITY;
  }
}

/**
 * What `n.key STARTS WITH / ENDS WITH / CONTAINS 'literal'` keeps: the share of the label's sampled strings that
 * pass, times the share of nodes that have the property (a node without it, or with another kind, gives null).
 * A fixed guess without a label, a string literal or a sample of strings.
 */
function textSelectivity(c: BoundExpression & { kind: 'binary' }, counts: GraphCounts, labelOf: LabelOf): number {
  const p = c.left;
  const text = c.right.kind === 'literal' ? c.right.value : undefined;
  if (p.kind !== 'property' || p.object.kind !== 'variable' || typeof text !== 'string') return PREDICATE_SELECTIVITY;
  const label = labelOf(p.object.variable.id);
  const sample = label === undefined ? undefined : counts.strings?.(label, p.key);
  if (label === undefined || sample === undefined || sample.length === 0) return PREDICATE_SELECTIVITY;
  const test = c.op === 'starts_with' ? (s: string) => s.startsWith(text) : c.op === 'ends_with' ? (s: string) => s.endsWith(text) : (s: string) => s.includes(text);
  let kept = 0;
  for (const s of sample) if (test(s)) kept++;
  const present = counts.distinct?.(label, p.key).present ?? 1;
  return Math.max(floor(counts, label), (present * kept) / sample.length);
}
