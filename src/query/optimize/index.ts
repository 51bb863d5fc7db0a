import type { LogicalOp } from '../plan/logical.js';
import { labelScan } from './label-scan.js';
import { propertyScan } from './property-scan.js';
import { pushDownFilters } from './push-down-filters.js';
import { seekById } from './seek-by-id.js';
import { topK } from './top-k.js';
import { unusedSlots } from './unused-slots.js';

/**
 * The rewrite passes, in the order they run. Each takes a plan and returns an equivalent one.
 *
 * 1. push-down-filters first: every later pass matches a filter sitting right above a scan, and
 *    only pushdown puts predicates there.
 * 2. seek-by-id before the scan passes: a lookup by id replaces the scan outright, and the scan
 *    passes would otherwise fold predicates into a scan that is about to disappear.
 * 3. label-scan before property-scan: property predicates should land on the narrowest scan.
 * 4. property-scan.
 * 5. top-k: it rewrites ORDER BY + LIMIT, which no other pass touches.
 * 6. unused-slots last: it needs the final set of operators that read each slot.
 */
export interface RewritePass {
  readonly name: string;
  run(plan: LogicalOp, outer: ReadonlySet<number>): LogicalOp;
}

export const rewrite_passes: readonly RewritePass[] = [
  { name: 'push-down-filters', run: pushDownFilters },
  { name: 'seek-by-id', run: seekById },
  { name: 'label-scan', run: labelScan },
  { name: 'property-scan', run: propertyScan },
  { name: 'top-k', run: topK },
  { name: 'unused-slots', run: unusedSlots },
];

/**
 * Runs the passes in order; `skip` names passes to leave out (the differential test compares plans
 * with and without each). `outer` are the slots the plan's argument row holds.
 */
export function optimize(plan: LogicalOp, outer: ReadonlySet<number> = new Set(), skip: ReadonlySet<string> = new Set()): LogicalOp {
  let p = plan;
  for (const pass of rewrite_passes) if (!skip.has(pass.name)) p = pass.run(p, outer);
  return p;
}
