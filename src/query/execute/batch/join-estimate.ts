import { degreeSummary, meanDegreeOf } from '../../../projections/graph/degree-summary.js';
import { expandsOf, type BatchPlan, type Forms } from './batch-plan.js';
import { memberIds } from './scan-candidates.js';

/**
 * The rows a batched pipeline makes, estimated from the forms a run reads, for a value join's choice of the
 * side that makes its table (value-join-batches.ts): the scan's members, times the mean degree of the first
 * expand over exactly those members, times for each later expand the mean degree of the nodes its type reaches
 * (relationships over nodes with any, from the CSR's degree summary). An OPTIONAL MATCH keeps at least one
 * row per input row. Filters are not weighed: the estimate bounds the rows from above, which is the side it
 * errs on when it leaves the table to the left side.
 */
export function estimatedRows(plan: BatchPlan, forms: Forms): number {
  let rows = forms.members.nodes.length;
  const expands = expandsOf(plan);
  expands.forEach((e, j) => {
    const csr = forms.csrs[j];
    if (csr === undefined) return;
    let degree: number;
    if (j === 0 && e.from === plan.scan.variable) degree = meanDegreeOf(csr, e.direction, memberIds(forms.members));
    else {
      const summary = degreeSummary(csr, e.direction);
      degree = summary.nodes_with_any === 0 ? 0 : summary.relationships / summary.nodes_with_any;
    }
    const optional = plan.stages.some((s) => s.kind === 'optional' && s.expand === e);
    rows *= optional ? Math.max(1, degree) : degree;
  });
  return rows;
}
