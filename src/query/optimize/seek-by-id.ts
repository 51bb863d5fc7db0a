import type { BoundExpression } from '../bind/bound-expression.js';
import { conjunction, conjuncts, freeSlots } from '../plan/expressions.js';
import { transformUp, type LogicalOp } from '../plan/logical.js';

/**
 * `MATCH (n) WHERE id(n) = $x` (or `id(n) IN [...]`) right above a scan of n becomes a lookup by id.
 * It runs before the label and property passes because a lookup beats any scan, and a scan that has
 * already taken property predicates would no longer be a plain scan to replace.
 */
export function seekById(plan: LogicalOp): LogicalOp {
  return transformUp(plan, (op) => {
    if (op.op !== 'filter' || op.input.op !== 'node_scan' || op.input.props.length > 0) return op;
    const scan = op.input;
    const rest: BoundExpression[] = [];
    let seek: LogicalOp | undefined;
    for (const c of conjuncts(op.predicate)) {
      const ids = seek === undefined ? idOperand(c, scan.variable) : undefined;
      if (ids === undefined) {
        rest.push(c);
        continue;
      }
      seek = {
        op: 'node_by_id',
        input: scan.input,
        variable: scan.variable,
        ids: ids.expression,
        many: ids.many,
        ...(scan.label !== undefined && { label: scan.label }),
      };
    }
    if (seek === undefined) return op;
    const predicate = conjunction(rest);
    return predicate === undefined ? seek : { op: 'filter', input: seek, predicate };
  });
}

function isIdOf(e: BoundExpression, slot: number): boolean {
  return e.kind === 'function' && e.name === 'id' && e.args.length === 1 && e.args[0]?.kind === 'variable' && e.args[0].variable.id === slot;
}

function idOperand(c: BoundExpression, slot: number): { expression: BoundExpression; many: boolean } | undefined {
  if (c.kind !== 'binary') return undefined;
  if (c.op === 'eq') {
    if (isIdOf(c.left, slot) && !freeSlots(c.right).has(slot)) return { expression: c.right, many: false };
    if (isIdOf(c.right, slot) && !freeSlots(c.left).has(slot)) return { expression: c.left, many: false };
  }
  if (c.op === 'in' && isIdOf(c.left, slot) && !freeSlots(c.right).has(slot)) return { expression: c.right, many: true };
  return undefined;
}
