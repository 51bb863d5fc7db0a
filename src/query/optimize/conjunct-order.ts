import type { BoundExpression } from '../bind/bound-expression.js';
import type { GraphCounts } from '../plan/cardinality.js';
import { conjunction, conjuncts } from '../plan/expressions.js';
import { transformUp, type LogicalOp } from '../plan/logical.js';
import { filterSelectivity, knownLabels } from '../plan/selectivity.js';

/**
 * The conjuncts of a filter in order of what they keep, fewest rows first, where the order cannot show: AND
 * stops at its first false, so the conjunct that drops most rows should be asked first, and a scan that picks
 * its members by bounds (column-scan.ts) loops over the whole list for its first bound only.
 *
 * Only conjuncts that can never fail move: comparisons and equalities of a property with a literal or a
 * parameter, IS [NOT] NULL of a property, label tests. They move within each run of such conjuncts, never
 * across one that might fail, so a row meets the same failing conjuncts, in the same order, as written. With
 * no statistics (no counts given) the filter is left as written.
 */
export function conjunctOrder(plan: LogicalOp, counts: GraphCounts | undefined): LogicalOp {
  if (counts === undefined) return plan;
  return transformUp(plan, (op) => {
    if (op.op !== 'filter') return op;
    const parts = conjuncts(op.predicate);
    if (parts.length < 2) return op;
    const labelOf = knownLabels(op.input);
    const ordered: BoundExpression[] = [];
    let run: BoundExpression[] = [];
    const flush = (): void => {
      // Stable: equal estimates keep their written order.
      const keyed = run.map((e, i) => ({ e, i, kept: filterSelectivity(e, counts, labelOf) }));
      keyed.sort((a, b) => a.kept - b.kept || a.i - b.i);
      for (const k of keyed) ordered.push(k.e);
      run = [];
    };
    for (const c of parts) {
      if (cannotFail(c)) run.push(c);
      else {
        flush();
        ordered.push(c);
      }
    }
    flush();
    if (ordered.every((e, i) => e === parts[i])) return op;
    return { ...op, predicate: conjunction(ordered) as BoundExpression };
  });
}

const COMPARISONS: ReadonlySet<string> = new Set(['eq', 'neq', 'lt', 'lte', 'gt', 'gte']);

/**
 * A comparison of a pattern node's or relationship's property with a literal or parameter (null when
 * incomparable or absent, never an error), a test of such a property for null, or a label test of a node.
 */
function cannotFail(e: BoundExpression): boolean {
  if (e.kind === 'binary' && COMPARISONS.has(e.op)) {
    const constant = (x: BoundExpression): boolean => x.kind === 'literal' || x.kind === 'parameter';
    return (entityProperty(e.left) && constant(e.right)) || (constant(e.left) && entityProperty(e.right));
  }
  if (e.kind === 'is_null') return entityProperty(e.operand);
  return e.kind === 'has_labels' && e.subject.kind === 'variable' && e.subject.variable.kind === 'node';
}

/** `x.key` where `x` is bound by a pattern to a node or a relationship (or null), so reading it cannot fail. */
function entityProperty(e: BoundExpression): boolean {
  return e.kind === 'property' && e.object.kind === 'variable' && (e.object.variable.kind === 'node' || e.object.variable.kind === 'relationship');
}
