import type { BoundExpression } from '../bind/bound-expression.js';
import { callsNonDeterministic } from '../bind/bound-walk.js';
import { conjunction, conjuncts, freeSlots } from '../plan/expressions.js';
import type { LogicalOp } from '../plan/logical.js';
import { boundAt } from './slots.js';

/**
 * Moves each conjunct of a filter down to the lowest operator after which every slot it reads is
 * bound, so rows are dropped as early as possible (a label or property test lands right above its
 * scan, where the next passes fold it into the scan). A conjunct never crosses an operator whose
 * row set it would change: aggregation, DISTINCT, ORDER BY/SKIP/LIMIT, the inner side of OPTIONAL
 * MATCH, eager barriers and writes (a predicate must read the values the writes left). A conjunct that
 * calls rand(), randomUUID() or a real-time clock stays where it was written: moved below a scan it
 * would be drawn once for many rows instead of once per row.
 */
export function pushDownFilters(plan: LogicalOp, outer: ReadonlySet<number>): LogicalOp {
  return visit(plan, outer);
}

function visit(op: LogicalOp, outer: ReadonlySet<number>): LogicalOp {
  const rebuilt = rebuildChildren(op, outer);
  if (rebuilt.op !== 'filter') return rebuilt;
  let input = rebuilt.input;
  const stay: BoundExpression[] = [];
  for (const c of conjuncts(rebuilt.predicate)) {
    const slots = freeSlots(c);
    const moved = callsNonDeterministic(c) ? undefined : sink(input, c, slots, outer);
    if (moved === undefined) stay.push(c);
    else input = moved;
  }
  const predicate = conjunction(stay);
  return predicate === undefined ? input : { op: 'filter', input, predicate };
}

function rebuildChildren(op: LogicalOp, outer: ReadonlySet<number>): LogicalOp {
  switch (op.op) {
    case 'argument':
      return op;
    case 'union':
      return { ...op, parts: op.parts.map((p) => visit(p, outer)) };
    case 'hash_join':
    case 'value_hash_join':
      return { ...op, left: visit(op.left, outer), right: visit(op.right, outer) };
    case 'optional':
    case 'subquery':
    case 'repeat':
    case 'select_paths': {
      const input = visit(op.input, outer);
      return { ...op, input, inner: visit(op.inner, boundAt(input, outer)) };
    }
    case 'merge': {
      const input = visit(op.input, outer);
      return { ...op, input, match: visit(op.match, boundAt(input, outer)) };
    }
    default:
      return { ...op, input: visit(op.input, outer) } as LogicalOp;
  }
}

function covers(bound: ReadonlySet<number>, slots: ReadonlySet<number>): boolean {
  for (const s of slots) if (!bound.has(s)) return false;
  return true;
}

/** Places `c` inside `op` as deep as it can go; undefined when it must stay above `op`. */
function sink(op: LogicalOp, c: BoundExpression, slots: ReadonlySet<number>, outer: ReadonlySet<number>): LogicalOp | undefined {
  switch (op.op) {
    case 'node_scan':
    case 'node_by_id':
    case 'expand':
    case 'path':
    case 'unwind':
    case 'project':
    case 'rel_unique':
    case 'call':
    case 'repeat':
    case 'optional': {
      if (!covers(boundAt(op.input, outer), slots)) return undefined;
      const input = sink(op.input, c, slots, outer) ?? { op: 'filter', input: op.input, predicate: c };
      return { ...op, input } as LogicalOp;
    }
    case 'filter': {
      const input = sink(op.input, c, slots, outer);
      if (input !== undefined) return { ...op, input };
      // Merge with the filter here: one filter per place keeps plans short.
      return { op: 'filter', input: op.input, predicate: conjunction([op.predicate, c]) as BoundExpression };
    }
    case 'hash_join': {
      if (covers(boundAt(op.left, outer), slots)) {
        return { ...op, left: sink(op.left, c, slots, outer) ?? { op: 'filter', input: op.left, predicate: c } };
      }
      if (covers(boundAt(op.right, outer), slots)) {
        return { ...op, right: sink(op.right, c, slots, outer) ?? { op: 'filter', input: op.right, predicate: c } };
      }
      return undefined;
    }
    case 'value_hash_join': {
      // Only into the probing side: the table's side runs once, apart from the left rows.
      if (!covers(boundAt(op.left, outer), slots)) return undefined;
      return { ...op, left: sink(op.left, c, slots, outer) ?? { op: 'filter', input: op.left, predicate: c } };
    }
    default:
      return undefined;
  }
}
