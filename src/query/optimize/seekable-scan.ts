import type { BinaryOperator } from '../ast/expression.js';
import type { BoundExpression } from '../bind/bound-expression.js';
import { conjuncts, freeSlots, UNMOVABLE } from '../plan/expressions.js';
import { transformUp, type LogicalOp, type SeekablePredicate, type SeekBound } from '../plan/logical.js';

/**
 * A filter right above a label scan that compares a property of the scanned node with `<`, `<=`,
 * `>`, `>=`, STARTS WITH or IN (against an expression that does not read the node) marks that
 * comparison on the scan, so an index of the label can answer it at run time. The filter stays as
 * it is: the index only narrows what the scan reads, and every row is still checked. One property
 * is marked, the first compared; its bounds from several conjuncts combine (`a > 1 AND a < 9`).
 */
export function seekableScan(plan: LogicalOp): LogicalOp {
  return transformUp(plan, (op) => {
    if (op.op !== 'filter' || op.input.op !== 'node_scan') return op;
    const scan = op.input;
    if (scan.label === undefined || scan.seekable !== undefined) return op;
    const seekable = seekableOf(conjuncts(op.predicate), scan.variable);
    return seekable === undefined ? op : { ...op, input: { ...scan, seekable } };
  });
}

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

function seekableOf(list: readonly BoundExpression[], slot: number): SeekablePredicate | undefined {
  let key: string | undefined;
  let lower: SeekBound | undefined;
  let upper: SeekBound | undefined;
  for (const c of list) {
    const cmp = comparisonOf(c, slot);
    if (cmp === undefined || (key !== undefined && cmp.key !== key)) continue;
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
