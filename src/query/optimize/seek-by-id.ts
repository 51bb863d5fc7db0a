import type { BoundExpression } from '../bind/bound-expression.js';
import { conjunction, conjuncts, freeSlots } from '../plan/expressions.js';
import { transformUp, type LogicalOp } from '../plan/logical.js';

/**
 * `MATCH (n) WHERE id(n) = $x` (or `id(n) IN [...]`, or `elementId(n) = $e`) right above a scan of n
 * becomes a lookup by id.
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
        element: ids.element,
        ...(scan.label !== undefined && { label: scan.label }),
      };
    }
    if (seek === undefined) return op;
    const predicate = conjunction(rest);
    return predicate === undefined ? seek : { op: 'filter', input: seek, predicate };
  });
}

/** 'id' for `id(n)`, 'element' for `elementId(n)`, undefined for anything else. */
function idKind(e: BoundExpression, slot: number): 'id' | 'element' | undefined {
  if (e.kind !== 'function' || e.args.length !== 1 || e.args[0]?.kind !== 'variable' || e.args[0].variable.id !== slot) return undefined;
  return e.name === 'id' ? 'id' : e.name === 'elementid' ? 'element' : undefined;
}

function idOperand(c: BoundExpression, slot: number): { expression: BoundExpression; many: boolean; element: boolean } | undefined {
  if (c.kind !== 'binary') return undefined;
  const sides: [BoundExpression, BoundExpression][] = c.op === 'eq' ? [[c.left, c.right], [c.right, c.left]] : c.op === 'in' ? [[c.left, c.right]] : [];
  for (const [fn, other] of sides) {
    const kind = idKind(fn, slot);
    if (kind !== undefined && !freeSlots(other).has(slot)) return { expression: other, many: c.op === 'in', element: kind === 'element' };
  }
  return undefined;
}
