import type { BoundExpression } from '../bind/bound-expression.js';
import { conjunction, conjuncts, hasLabels } from '../plan/expressions.js';
import { transformUp, type DynamicLabels, type LogicalOp } from '../plan/logical.js';

/**
 * `MATCH (n) WHERE n:Label` right above a scan of every node becomes a scan of the label. It runs
 * before the property pass so that property predicates land on the narrower scan. Without a written
 * label, a dynamic one whose value reads no row (`MATCH (n:$($label))`) marks the scan to take its
 * labels from that value when it runs; the filter stays, so the plan holds for any parameter value.
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
    if (label === undefined) {
      const dynamic = op.input.dynamic_labels === undefined ? dynamicLabels(op.predicate, scan.variable) : undefined;
      return dynamic === undefined ? op : { ...op, input: { ...scan, dynamic_labels: dynamic } };
    }
    const input: LogicalOp = { ...scan, label };
    const predicate = conjunction(rest);
    return predicate === undefined ? input : { op: 'filter', input, predicate };
  });
}

/**
 * `('has names', 'names of'(n), x, mode)`, the parser's form of `n:$(x)` / `n:$any(x)`, among the
 * conjuncts, for the scanned variable, with an `x` that is the same whenever it is evaluated.
 */
function dynamicLabels(predicate: BoundExpression, variable: number): DynamicLabels | undefined {
  for (const c of conjuncts(predicate)) {
    if (c.kind !== 'function' || c.name !== 'has names') continue;
    const [have, names, mode] = c.args;
    if (have?.kind !== 'function' || (have.name !== 'names of' && have.name !== 'labels')) continue;
    const subject = have.args[0];
    if (subject?.kind !== 'variable' || subject.variable.id !== variable) continue;
    if (names === undefined || !constant(names)) continue;
    if (mode?.kind !== 'literal' || (mode.value !== 'all' && mode.value !== 'any')) continue;
    return { names, mode: mode.value };
  }
  return undefined;
}

/** Literals, parameters and lists of them: what the scan and the filter above evaluate alike. */
function constant(e: BoundExpression): boolean {
  if (e.kind === 'literal' || e.kind === 'parameter') return true;
  return e.kind === 'list' && e.items.every(constant);
}
