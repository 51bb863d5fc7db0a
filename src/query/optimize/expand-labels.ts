import type { BoundExpression } from '../bind/bound-expression.js';
import { conjunction, conjuncts } from '../plan/expressions.js';
import { transformUp, type LogicalOp } from '../plan/logical.js';

/**
 * `(a)-[:T]->(b:Label)`: the label test on the end of a single-hop expand, which pushdown leaves in
 * a filter right above it, moves into the expand (`to_labels`). The expand then tests the end node
 * by id before it writes the row, from the label's bitmap on a quiet graph, so a whole-graph expand
 * that only counts (`RETURN count(*)`) never makes a reference to the end node: unused-slots, which
 * runs later, sees no reader of it.
 */
export function expandLabels(plan: LogicalOp): LogicalOp {
  return transformUp(plan, (op) => {
    if (op.op !== 'filter' || op.input.op !== 'expand') return op;
    const expand = op.input;
    if (expand.into || expand.rel_bound || expand.range !== undefined || expand.shortest !== undefined) return op;
    const rest: BoundExpression[] = [];
    const labels: string[] = [...(expand.to_labels ?? [])];
    for (const c of conjuncts(op.predicate)) {
      if (c.kind === 'has_labels' && c.subject.kind === 'variable' && c.subject.variable.id === expand.to) {
        for (const l of c.labels) if (!labels.includes(l)) labels.push(l);
        continue;
      }
      rest.push(c);
    }
    if (labels.length === (expand.to_labels?.length ?? 0)) return op;
    const input: LogicalOp = { ...expand, to_labels: labels };
    const predicate = conjunction(rest);
    return predicate === undefined ? input : { op: 'filter', input, predicate };
  });
}
