import { assert } from '../../common/assert.js';
import type { BoundNodePattern, BoundPath } from '../bind/bound-clause.js';
import type { BoundExpression } from '../bind/bound-expression.js';
import type { GraphCounts } from './cardinality.js';
import { conjunction, conjuncts, freeSlots } from './expressions.js';
import type { LogicalOp } from './logical.js';
import { SEARCHED_END_ROWS_MAX, searchedPath } from './plan-searched-path.js';
import { nodeEstimate, planPath, repeat, scanOrFilter, withFilters, withPathVariables, type Hints } from './plan-path.js';

/**
 * A path with a selective selector, below the MATCH's WHERE (a post-filter). SHORTEST 1, ANY 1 and
 * ALL SHORTEST over one variable-length relationship whose pre-filters read only its end nodes are the
 * breadth-first shortest path search; one quantified part whose pre-filters read only its ends is a
 * repeat searched by length; any other path the search by length takes (plan-searched-path.ts) is
 * searched so; the rest find all matches of the path (with its pre-filters) per input row and keep what
 * the selector picks of each partition.
 */
export function planSelected(input: LogicalOp, path: BoundPath, bound: Set<number>, counts: GraphCounts, hints: Hints): LogicalOp {
  const selector = path.selector!;
  const first = path.nodes[0]!;
  const last = path.nodes[path.nodes.length - 1]!;
  const pre = path.where !== undefined ? conjuncts(path.where) : [];
  const ends = new Set([...bound, first.variable.id, last.variable.id]);
  const only = path.relationships.length === 1 ? path.relationships[0]! : undefined;
  const searchable =
    only !== undefined &&
    only.quantified === undefined &&
    only.range !== undefined &&
    (only.range.min ?? 1) <= 1 &&
    path.selector_count === undefined &&
    selector.count === 1 &&
    pre.every((c) => [...freeSlots(c)].every((s) => ends.has(s)));
  if (searchable) {
    const filters: BoundExpression[] = [...pre];
    // ANY 1 takes whichever path comes first, and the first the search finds is a shortest one.
    const shortest = selector.kind === 'shortest_groups' ? 'all' : 'one';
    // No WHERE conjunct steers the search: the MATCH's WHERE filters after the selection.
    const plan = planShortestPath(input, { ...path, shortest }, bound, filters, counts, hints, []);
    return withFilters(plan, filters);
  }
  // A variable-length relationship the bidirectional search cannot select for is searched as the
  // quantified path pattern of one hop it equals, when its property map reads only earlier clauses.
  const repeated = only?.quantified ?? only?.searched_as;
  const hopProps = only?.quantified === undefined ? only?.properties : undefined;
  if (
    repeated !== undefined &&
    pre.every((c) => [...freeSlots(c)].every((s) => ends.has(s))) &&
    (hopProps === undefined || [...freeSlots(hopProps)].every((s) => bound.has(s)))
  ) {
    return searchedRepeat(input, only!.quantified !== undefined ? path : { ...path, relationships: [{ ...only!, quantified: repeated }] }, pre, bound, counts, hints);
  }
  const searched = searchedPath(input, path, pre, bound, counts, hints);
  if (searched !== undefined) return searched;
  const innerBound = new Set(bound);
  const filters: BoundExpression[] = [];
  const inner = withFilters(planPath({ op: 'argument' }, path, innerBound, [], filters, counts, hints, false), [...filters, ...pre]);
  const slots = [...innerBound].filter((s) => !bound.has(s));
  for (const s of slots) bound.add(s);
  return {
    op: 'select_paths',
    input,
    inner,
    selector,
    ...(path.selector_count !== undefined && { count: path.selector_count }),
    start: first.variable.id,
    end: last.variable.id,
    rels: path.relationships.map((r) => r.variable.id),
    slots,
  };
}

/**
 * `(a) (inner){m,n} (b)` under a selector whose pre-filters read only its end nodes (and what earlier
 * clauses bound): a repeat that searches breadth first by length and selects as it goes, from the end
 * with fewer candidates. The far end is scanned first, for a search into it that stops once its one
 * partition is settled, when it is bound or has few candidates; otherwise its filters are tested
 * where the search reaches a node, before the selection.
 */
function searchedRepeat(input: LogicalOp, path: BoundPath, pre: readonly BoundExpression[], bound: Set<number>, counts: GraphCounts, hints: Hints): LogicalOp {
  const first = path.nodes[0]!;
  const last = path.nodes[1]!;
  const estimate = (n: BoundNodePattern): number => (bound.has(n.variable.id) ? 0 : nodeEstimate(n, counts, hints));
  const leftwards = estimate(last) < estimate(first);
  const [start, far] = leftwards ? [last, first] : [first, last];
  const filters: BoundExpression[] = [];
  let plan = scanOrFilter(input, start, bound, filters, counts);
  if (bound.has(far.variable.id) || estimate(far) <= SEARCHED_END_ROWS_MAX) plan = scanOrFilter(plan, far, bound, filters, counts);
  const into = bound.has(far.variable.id);
  // Pre-filters over bound slots alone hold per partition: they filter the rows the search starts from.
  const readsBound = (c: BoundExpression): boolean => [...freeSlots(c)].every((s) => bound.has(s));
  const atEnd: BoundExpression[] = [...filters, ...pre].filter((c) => !readsBound(c));
  plan = withFilters(plan, [...filters, ...pre].filter(readsBound));
  const farFilters: BoundExpression[] = [];
  const searched = repeat(plan, path, 0, leftwards, bound, [], farFilters, counts);
  assert(searched.op === 'repeat', 'a quantified path pattern plans as a repeat');
  const accept = conjunction(into ? atEnd : [...farFilters, ...atEnd]);
  plan = {
    ...searched,
    select: { selector: path.selector!, ...(path.selector_count !== undefined && { count: path.selector_count }), ...(accept !== undefined && { accept }) },
  };
  return withPathVariables(plan, path, bound);
}

/**
 * A shortest path part: both end nodes bound (scanned here when the rest of the pattern does not
 * bind them), then a breadth-first search between them. Its relationships are not checked for
 * uniqueness against the clause's other relationships, and WHERE filters the paths it finds.
 */
export function planShortestPath(
  input: LogicalOp,
  path: BoundPath,
  bound: Set<number>,
  filters: BoundExpression[],
  counts: GraphCounts,
  hints: Hints,
  where: readonly BoundExpression[] = [],
): LogicalOp {
  let plan = input;
  const ends = [path.nodes[0]!, path.nodes[1]!];
  // The end with fewer candidates is scanned first, so the cross product runs its cheap side outside.
  const order = [...ends].sort((a, b) => (bound.has(a.variable.id) ? 0 : nodeEstimate(a, counts, hints)) - (bound.has(b.variable.id) ? 0 : nodeEstimate(b, counts, hints)));
  const seen = new Set<number>();
  for (const n of order) {
    if (seen.has(n.variable.id)) continue;
    seen.add(n.variable.id);
    plan = scanOrFilter(plan, n, bound, filters, counts);
  }
  const rel = path.relationships[0]!;
  // A WHERE over the path or its relationships that the search cannot test per step picks which paths
  // are shortest (Neo4j evaluates it before deciding): the path is searched by length, that WHERE on
  // each whole path, the shortest that pass kept. It still filters afterwards, where it always holds.
  const test = path.variable === undefined ? undefined : relationshipTest(where, path.variable.id, bound);
  const pathSlots = new Set([rel.variable.id, ...(path.variable !== undefined ? [path.variable.id] : [])]);
  const readsPath = (c: BoundExpression): boolean => {
    const free = [...freeSlots(c)];
    return free.some((s) => pathSlots.has(s)) && free.every((s) => pathSlots.has(s) || bound.has(s));
  };
  const steps = (c: BoundExpression): boolean => test !== undefined && c.kind === 'quantifier' && c.where === test.predicate;
  if (rel.searched_as !== undefined && where.some((c) => readsPath(c) && !steps(c))) {
    const selector = { kind: path.shortest === 'all' ? ('shortest_groups' as const) : ('shortest' as const), count: 1, span: path.span };
    const searched = searchedPath(plan, { ...path, selector }, where.filter(readsPath), bound, counts, hints);
    if (searched !== undefined) return searched;
  }
  const range = rel.range ?? { min: 1, max: 1 };
  plan = {
    op: 'expand',
    input: plan,
    from: ends[0]!.variable.id,
    rel: rel.variable.id,
    to: ends[1]!.variable.id,
    direction: rel.direction,
    types: rel.types,
    ...(ends[0]!.labels[0] !== undefined && { from_label: ends[0]!.labels[0] }),
    into: true,
    rel_bound: false,
    range: { min: range.min ?? 1, max: range.max ?? Infinity },
    leftwards: false,
    unique_from: [],
    ...(rel.properties !== undefined && { rel_props: rel.properties }),
    shortest: path.shortest!,
  };
  if (test !== undefined) plan = { ...plan, shortest_rel_test: test };
  bound.add(rel.variable.id);
  return withPathVariables(plan, path, bound);
}

/**
 * The test of a conjunct `all(r IN relationships(p) WHERE test)` of the WHERE over path `p`, when `test` reads
 * nothing but `r` and slots bound before the search: a shortest path search can apply it to each step.
 */
function relationshipTest(filters: readonly BoundExpression[], pathSlot: number, bound: ReadonlySet<number>): { variable: number; predicate: BoundExpression } | undefined {
  for (const f of filters) {
    if (f.kind !== 'quantifier' || f.quantifier !== 'all' || f.where === undefined) continue;
    const src = f.source;
    if (src.kind !== 'function' || src.name !== 'relationships' || src.args.length !== 1) continue;
    const arg = src.args[0] as BoundExpression;
    if (arg.kind !== 'variable' || arg.variable.id !== pathSlot) continue;
    const free = freeSlots(f.where);
    free.delete(f.variable.id);
    if ([...free].every((s) => s >= 0 && s !== pathSlot && bound.has(s))) return { variable: f.variable.id, predicate: f.where };
  }
  return undefined;
}
