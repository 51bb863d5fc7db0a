import type { BinaryOperator } from '../ast/expression.js';
import type { BoundExpression } from '../bind/bound-expression.js';
import { bounded_seek_fraction_max, labelRows, seek_fraction_max, seek_nodes_min, type GraphCounts } from '../plan/cardinality.js';
import { conjunction, conjuncts, freeSlots, UNMOVABLE } from '../plan/expressions.js';
import { isRunValue } from '../plan/parameter-values.js';
import { filterSelectivity } from '../plan/selectivity.js';
import { transformUp, type LogicalOp, type SeekablePredicate, type SeekBound } from '../plan/logical.js';

/**
 * A filter right above a label scan that compares a property of the scanned node with `<`, `<=`,
 * `>`, `>=`, STARTS WITH or IN (against an expression that does not read the node) marks that
 * comparison on the scan, so an index of the label can answer it at run time. The filter stays as
 * it is: the index only narrows what the scan reads, and every row is still checked. One property
 * is marked; its bounds from several conjuncts combine (`a > 1 AND a < 9`).
 *
 * Which one: without statistics, the first compared. With them (`counts`, when the plan is made for a
 * graph), the indexed property whose comparisons keep fewest nodes by its histogram; and none when
 * those bounds are literals that keep more than a seek is worth (seek_fraction_max of the label, at
 * least seek_nodes_min nodes; bounded_seek_fraction_max when the filter only bounds properties, which
 * the scan answers from columns), so the scan reads the label's columns rather than asking the index
 * first. A parameter counts as a literal when the counts offer its value (see GraphCounts.parameter); bounds
 * the plan cannot see leave that to the index's count at run time.
 */
export function seekableScan(plan: LogicalOp, counts?: GraphCounts): LogicalOp {
  return transformUp(plan, (op) => {
    if (op.op !== 'filter' || op.input.op !== 'node_scan') return op;
    const scan = op.input;
    if (scan.label === undefined || scan.seekable !== undefined) return op;
    const list = conjuncts(op.predicate);
    const seekable = (counts === undefined ? undefined : weighed(list, scan.variable, scan.label, scan.props.length > 0, counts)) ?? seekableOf(list, scan.variable);
    if (seekable === 'scan') return op;
    return seekable === undefined ? op : { ...op, input: { ...scan, seekable } };
  });
}

/**
 * The range of the indexed property whose comparisons keep fewest of the label's nodes; 'scan' when
 * even that keeps more than a seek is worth; undefined when no compared property is indexed (then the
 * first compared is marked, as without statistics).
 */
function weighed(list: readonly BoundExpression[], slot: number, label: string, inline: boolean, counts: GraphCounts): SeekablePredicate | 'scan' | undefined {
  const keys = new Set<string>();
  for (const c of list) {
    const cmp = comparisonOf(c, slot);
    if (cmp !== undefined && RANGE_OPS.has(cmp.op)) keys.add(cmp.key);
  }
  let best: { key: string; kept: number; literal: boolean } | undefined;
  for (const key of keys) {
    if (counts.indexed?.(label, key) !== true) continue;
    const mine = list.filter((c) => {
      const cmp = comparisonOf(c, slot);
      return cmp !== undefined && cmp.key === key && RANGE_OPS.has(cmp.op);
    });
    const kept = filterSelectivity(conjunction(mine) as BoundExpression, counts, (s) => (s === slot ? label : undefined));
    // Known when planning: literals, and run values ($lo, $lo + 1) whose values the counts offer (the plan then holds for values in the same buckets).
    const knownNow = (e: BoundExpression): boolean => e.kind === 'literal' || (isRunValue(e) && counts.parameter?.(e, 'range', label, key) !== undefined);
    const literal = counts.histogram?.(label, key) !== undefined && mine.every((c) => c.kind === 'binary' && (knownNow(c.left) || knownNow(c.right)));
    if (best === undefined || kept < best.kept) best = { key, kept, literal };
  }
  if (best === undefined) return undefined;
  const rows = labelRows(counts, label);
  // A scan whose filters only bound properties by constants picks its members from columns (column-scan.ts):
  // its break-even with a seek is a far smaller share than a scan that evaluates the filter per member.
  const bounded = !inline && list.every((c) => {
    const cmp = comparisonOf(c, slot);
    return cmp !== undefined && BOUND_OPS.has(cmp.op) && (cmp.other.kind === 'literal' || cmp.other.kind === 'parameter');
  });
  const most = bounded ? bounded_seek_fraction_max * rows : Math.max(seek_nodes_min, seek_fraction_max * rows);
  if (best.literal && best.kept * rows > most) return 'scan';
  return seekableOf(list, slot, best.key);
}

const RANGE_OPS: ReadonlySet<BinaryOperator> = new Set(['lt', 'lte', 'gt', 'gte']);
const BOUND_OPS: ReadonlySet<BinaryOperator> = new Set(['eq', 'lt', 'lte', 'gt', 'gte']);

/** `<` read from the property's side: `x < n.p` is `n.p > x`. */
const flipped: Partial<Record<BinaryOperator, BinaryOperator>> = { lt: 'gt', gt: 'lt', lte: 'gte', gte: 'lte' };

interface Comparison {
  readonly key: string;
  readonly op: BinaryOperator;
  readonly other: BoundExpression;
}

function comparisonOf(c: BoundExpression, slot: number): Comparison | undefined {
  if (c.kind !== 'binary') return undefined;
  const independent = (e: BoundExpression): boolean => {
    const slots = freeSlots(e);
    return !slots.has(slot) && !slots.has(UNMOVABLE);
  };
  const l = propertyOf(c.left, slot);
  if (l !== undefined && independent(c.right)) return { key: l, op: c.op, other: c.right };
  const r = propertyOf(c.right, slot);
  const op = flipped[c.op];
  if (r !== undefined && op !== undefined && independent(c.left)) return { key: r, op, other: c.left };
  return undefined;
}

/** The seekable comparison of `only`'s bounds when given, else of the first property compared. */
function seekableOf(list: readonly BoundExpression[], slot: number, only?: string): SeekablePredicate | undefined {
  let key: string | undefined = only;
  let lower: SeekBound | undefined;
  let upper: SeekBound | undefined;
  for (const c of list) {
    const cmp = comparisonOf(c, slot);
    if (cmp === undefined || (key !== undefined && cmp.key !== key)) continue;
    if (only !== undefined && !RANGE_OPS.has(cmp.op)) continue;
    switch (cmp.op) {
      case 'gt':
      case 'gte':
        key = cmp.key;
        lower ??= { value: cmp.other, inclusive: cmp.op === 'gte' };
        break;
      case 'lt':
      case 'lte':
        key = cmp.key;
        upper ??= { value: cmp.other, inclusive: cmp.op === 'lte' };
        break;
      case 'starts_with':
        if (key === undefined) return { kind: 'prefix', key: cmp.key, prefix: cmp.other };
        break;
      case 'in':
        if (key === undefined) return { kind: 'in', key: cmp.key, list: cmp.other };
        break;
      default:
        break;
    }
  }
  if (key === undefined) return undefined;
  return { kind: 'range', key, ...(lower !== undefined && { lower }), ...(upper !== undefined && { upper }) };
}

function propertyOf(e: BoundExpression, slot: number): string | undefined {
  return e.kind === 'property' && e.object.kind === 'variable' && e.object.variable.id === slot ? e.key : undefined;
}
