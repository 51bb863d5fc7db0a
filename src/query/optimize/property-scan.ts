import type { BoundExpression } from '../bind/bound-expression.js';
import { conjunction, conjuncts, freeSlots } from '../plan/expressions.js';
import { transformUp, type LogicalOp, type PropertyPredicate } from '../plan/logical.js';

/**
 * `n.p = expr` right above a scan of n is checked inside the scan, on the stored values, before a
 * row is ever built. It is also where an index seek will take over once indexes exist: EXPLAIN
 * reads these predicates to suggest one.
 */
export function propertyScan(plan: LogicalOp): LogicalOp {
  return transformUp(plan, (op) => {
    if (op.op !== 'filter' || op.input.op !== 'node_scan') return op;
    const scan = op.input;
    const props: PropertyPredicate[] = [...scan.props];
    const rest: BoundExpression[] = [];
    for (const c of conjuncts(op.predicate)) {
      const p = propertyEquality(c, scan.variable);
      if (p === undefined) rest.push(c);
      else props.push(p);
    }
    if (props.length === scan.props.length) return op;
    const input: LogicalOp = { ...scan, props };
    const predicate = conjunction(rest);
    return predicate === undefined ? input : { op: 'filter', input, predicate };
  });
}

function propertyOf(e: BoundExpression, slot: number): string | undefined {
  return e.kind === 'property' && e.object.kind === 'variable' && e.object.variable.id === slot ? e.key : undefined;
}

function propertyEquality(c: BoundExpression, slot: number): PropertyPredicate | undefined {
  if (c.kind !== 'binary' || c.op !== 'eq') return undefined;
  const l = propertyOf(c.left, slot);
  if (l !== undefined && !freeSlots(c.right).has(slot)) return { key: l, value: c.right };
  const r = propertyOf(c.right, slot);
  if (r !== undefined && !freeSlots(c.left).has(slot)) return { key: r, value: c.left };
  return undefined;
}
