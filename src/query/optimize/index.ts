import type { LogicalOp } from '../plan/logical.js';
import type { GraphCounts } from '../plan/cardinality.js';
import { conjunctOrder } from './conjunct-order.js';
import { expandLabels } from './expand-labels.js';
import { labelScan } from './label-scan.js';
import { lateProjection } from './late-projection.js';
import { propertyScan } from './property-scan.js';
import { pushDownFilters } from './push-down-filters.js';
import { seekById } from './seek-by-id.js';
import { seekableScan } from './seekable-scan.js';
import { textSearch } from './text-search.js';
import { topK } from './top-k.js';
import { vectorSearch } from './vector-search.js';
import { unusedSlots } from './unused-slots.js';

/**
 * The rewrite passes, in the order they run. Each takes a plan and returns an equivalent one.
 *
 * 1. push-down-filters first: every later pass matches a filter sitting right above a scan, and
 *    only pushdown puts predicates there.
 * 2. seek-by-id before the scan passes: a lookup by id replaces the scan outright, and the scan
 *    passes would otherwise fold predicates into a scan that is about to disappear.
 * 3. label-scan before property-scan: property predicates should land on the narrowest scan.
 * 4. expand-labels beside label-scan: it moves the label test of an expand's end node into the
 *    expand, so unused-slots may find no reader of the end node.
 * 4b. property-scan.
 * 5. conjunct-order after property-scan: the filter's conjuncts that cannot fail, fewest rows kept
 *    first (by the statistics, when the plan is made for a graph).
 * 5b. seekable-scan after property-scan: equalities have left the filter for the scan, so what it
 *    marks is a comparison, STARTS WITH or IN that only an index could answer better than a scan;
 *    with statistics, the indexed property whose bounds keep fewest nodes, and none when a scan is cheaper.
 * 6. text-search beside seekable-scan: it marks a text_match on the scan the same way.
 * 7. top-k: it rewrites ORDER BY + LIMIT, which no other pass touches.
 * 8. vector-search after top-k: it puts a vector search under the top-k that top-k made, and
 *    before late-projection, which would move the projection it looks through.
 * 9. late-projection after top-k: it moves a projection above the top-k that top-k made.
 * 10. unused-slots last: it needs the final set of operators that read each slot.
 */
export interface RewritePass {
  readonly name: string;
  run(plan: LogicalOp, context: PassContext): LogicalOp;
}

export interface PassContext {
  /** Slots the plan's argument row holds (the enclosing row of a nested pattern). */
  readonly outer: ReadonlySet<number>;
  /** Slots read from the plan's rows by someone outside it (a pattern comprehension's projection). */
  readonly read_outside: ReadonlySet<number>;
  /** The graph's counts and statistics, when the plan is made for a graph (passes that weigh choices use them). */
  readonly counts?: GraphCounts;
}

export const rewrite_passes: readonly RewritePass[] = [
  { name: 'push-down-filters', run: (p, c) => pushDownFilters(p, c.outer) },
  { name: 'seek-by-id', run: seekById },
  { name: 'label-scan', run: labelScan },
  { name: 'expand-labels', run: expandLabels },
  { name: 'property-scan', run: propertyScan },
  { name: 'conjunct-order', run: (p, c) => conjunctOrder(p, c.counts) },
  { name: 'seekable-scan', run: (p, c) => seekableScan(p, c.counts) },
  { name: 'text-search', run: textSearch },
  { name: 'top-k', run: topK },
  { name: 'vector-search', run: vectorSearch },
  { name: 'late-projection', run: lateProjection },
  { name: 'unused-slots', run: (p, c) => unusedSlots(p, c.read_outside) },
];

const none: ReadonlySet<number> = new Set();

/**
 * Runs the passes in order; `skip` names passes to leave out (the differential test compares plans
 * with and without each).
 */
export function optimize(plan: LogicalOp, context: Partial<PassContext> = {}, skip: ReadonlySet<string> = new Set()): LogicalOp {
  const c: PassContext = { outer: context.outer ?? none, read_outside: context.read_outside ?? none, ...(context.counts !== undefined && { counts: context.counts }) };
  let p = plan;
  for (const pass of rewrite_passes) if (!skip.has(pass.name)) p = pass.run(p, c);
  return p;
}
