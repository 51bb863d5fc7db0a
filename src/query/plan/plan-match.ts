import type { BoundNodePattern, BoundPath } from '../bind/bound-clause.js';
import type { BoundExpression } from '../bind/bound-expression.js';
import { averageDegree, estimateRows, type GraphCounts } from './cardinality.js';
import { conjuncts } from './expressions.js';
import { inputsOf, withInputs, type LogicalOp } from './logical.js';
import { nodeEstimate, planPath, selectivityHints, withFilters, type Hints } from './plan-path.js';
import { planSelected, planShortestPath } from './plan-selected.js';

/**
 * Plans a pattern (of MATCH, OPTIONAL MATCH, MERGE, or a pattern in an expression) on top of `input`.
 * Each comma-separated path starts at a node and expands along its chain both ways. Paths touching
 * nodes bound already are planned first; a path that meets the plan so far either expands from the
 * shared node or, when it has a much more selective start of its own, is planned apart and hash
 * joined on the shared nodes. Predicates (labels, inline properties, WHERE) are filters placed after
 * the pattern; the rewrite passes push them down into scans and expands.
 *
 * `bound` holds the slots bound before the pattern; it is updated with the slots the pattern binds.
 */
export interface PatternPlanOptions {
  readonly counts: GraphCounts;
  /**
   * 'cost' joins where the estimates favour it; 'never' plans every path by expansion (patterns that
   * must see their argument row: OPTIONAL MATCH, MERGE, patterns in expressions); 'always' joins
   * wherever paths meet (tests compare it with 'never').
   */
  readonly joins: JoinPolicy;
}

export type JoinPolicy = 'cost' | 'never' | 'always';

export function planPattern(
  input: LogicalOp,
  paths: readonly BoundPath[],
  where: BoundExpression | undefined,
  bound: Set<number>,
  options: PatternPlanOptions,
): LogicalOp {
  // Elements bound outside (an enclosing query's variables in EXISTS) count as bound here too.
  for (const p of paths) {
    for (const n of p.nodes) if (n.bound) bound.add(n.variable.id);
    for (const r of p.relationships) if (r.bound) bound.add(r.variable.id);
  }
  const whereConjuncts = where ? conjuncts(where) : [];
  const hints = selectivityHints(whereConjuncts);
  // The binder lets a path with a selective selector be the only path of its pattern.
  const selected = paths.length === 1 && paths[0]!.selector !== undefined ? paths[0] : undefined;
  if (selected !== undefined) return withFilters(planSelected(input, selected, bound, options.counts, hints), whereConjuncts);
  const clauseRels: number[] = [];
  const filters: BoundExpression[] = [];
  let plan = input;
  // Shortest path parts search between end nodes the rest of the pattern binds, so they come last.
  const pending = paths.filter((p) => p.shortest === undefined);
  const shortest = paths.filter((p) => p.shortest !== undefined);
  let needUnique = false;
  while (pending.length > 0) {
    let index = pending.findIndex((p) => p.nodes.some((n) => bound.has(n.variable.id)));
    if (index < 0) index = cheapestPath(pending, options.counts, hints);
    const path = pending.splice(index, 1)[0] as BoundPath;
    const shared = path.nodes.filter((n) => bound.has(n.variable.id)).map((n) => n.variable.id);
    const connected = shared.length > 0;
    if (connected && options.joins !== 'never' && clauseRels.length + path.relationships.length > 0) {
      // Consider a hash join: the path planned from its own best start, joined on the shared nodes.
      const alone = new Set(bound);
      for (const s of shared) alone.delete(s);
      const leftRows = estimateRows(plan, options.counts);
      const sideRels: number[] = [];
      const sideFilters: BoundExpression[] = [];
      const side = planPath({ op: 'argument' }, path, alone, sideRels, sideFilters, options.counts, hints, true);
      const sideRows = estimateRows(side, options.counts);
      const expandCost = leftRows * pathFanout(path, options.counts, bound);
      const cheaper = options.joins === 'always' || sideRows + leftRows < expandCost / 4;
      if (input.op === 'argument' && plan !== input && cheaper) {
        const rightSlots = [...alone].filter((s) => !bound.has(s));
        plan = { op: 'hash_join', left: plan, right: withFilters(side, sideFilters), keys: shared, right_slots: rightSlots };
        for (const s of alone) bound.add(s);
        if (clauseRels.length > 0 && sideRels.length > 0) needUnique = true;
        clauseRels.push(...sideRels);
        continue;
      }
    }
    plan = planPath(plan, path, bound, clauseRels, filters, options.counts, hints, false);
  }
  for (const path of shortest) plan = planShortestPath(plan, path, bound, filters, options.counts, hints, whereConjuncts);
  if (needUnique) plan = { op: 'rel_unique', input: plan, slots: clauseRels };
  plan = markUnusedLists(plan, input, paths);
  plan = withFilters(plan, [...filters, ...whereConjuncts]);
  return plan;
}

/**
 * Variable-length expands of this pattern whose list no one reads: the relationship is unnamed, no
 * path variable covers it, and no uniqueness check of the pattern looks at it.
 */
function markUnusedLists(plan: LogicalOp, input: LogicalOp, paths: readonly BoundPath[]): LogicalOp {
  const read = new Set<number>();
  for (const p of paths) {
    for (const r of p.relationships) if (r.variable.visible || p.variable !== undefined) read.add(r.variable.id);
  }
  const visit = (op: LogicalOp): void => {
    if (op === input) return;
    if (op.op === 'expand') for (const s of op.unique_from) read.add(s);
    if (op.op === 'rel_unique') for (const s of op.slots) read.add(s);
    for (const i of inputsOf(op)) visit(i);
  };
  visit(plan);
  const mark = (op: LogicalOp): LogicalOp => {
    if (op === input) return op;
    const inputs = inputsOf(op);
    const next = inputs.length === 0 ? op : withInputs(op, inputs.map(mark));
    if (next.op === 'expand' && next.range !== undefined && !read.has(next.rel)) return { ...next, list_unused: true };
    return next;
  };
  return mark(plan);
}

function cheapestPath(paths: readonly BoundPath[], counts: GraphCounts, hints: Hints): number {
  let best = 0;
  let bestRows = Infinity;
  paths.forEach((p, i) => {
    const rows = Math.min(...p.nodes.map((n) => nodeEstimate(n, counts, hints)));
    if (rows < bestRows) {
      bestRows = rows;
      best = i;
    }
  });
  return best;
}

/** Rows one start row becomes along the path, walked from its first node bound in `bound`. */
function pathFanout(path: BoundPath, counts: GraphCounts, bound: ReadonlySet<number>): number {
  const start = Math.max(0, path.nodes.findIndex((n) => bound.has(n.variable.id)));
  let f = 1;
  path.relationships.forEach((r, i) => {
    const leftwards = i < start;
    const from = path.nodes[leftwards ? i + 1 : i] as BoundNodePattern;
    const direction = leftwards ? (r.direction === 'out' ? 'in' : r.direction === 'in' ? 'out' : 'both') : r.direction;
    f *= Math.max(1, averageDegree(counts, r.types, direction, from.labels[0]));
  });
  return f;
}
