import type { BoundExpression } from '../bind/bound-expression.js';
import { conjunction, conjuncts, hasLabels } from '../plan/expressions.js';
import { transformUp, type LogicalOp } from '../plan/logical.js';

/**
 * `MATCH (n) WHERE n:Label` right above a scan of every node becomes a scan of the label. It runs
 * before the property pass so that property predicates land on the narrower scan.
 */
export function labelScan(plan: LogicalOp): LogicalOp {
  return transformUp(plan, (op) => {
    if (op.op !== 'filter' || op.input.op !== 'node_scan' || op.input.label !== undefined) return op;
    const scan = op.input;
    const rest: BoundExpression[] = [];
    let label: string | undefined;
    for (const c of conjuncts(op.predicate)) {
      if (label === undefined && c.kind === 'has_labels' && c.subject.kind === 'variable' && c.subject.variable.id === scan.variable) {
        label = c.labels[0];
        if (c.labels.length > 1) rest.push(hasLabels(c.subject.variable, c.labels.slice(1), c.span));
        continue;
      }
      rest.push(c);
    }
    if (label === undefined) return op;
    const input: LogicalOp = { ...scan, label };
    const predicate = conjunction(rest);
    return predicate === undefined ? input : { op: 'filter', input, predicate };
  });
}
