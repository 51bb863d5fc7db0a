import { assert } from '../../common/assert.js';
import type { BoundNodePattern, BoundPath } from '../bind/bound-clause.js';
import type { BoundExpression } from '../bind/bound-expression.js';
import { averageDegree, equalitySelectivity, estimateRows, labelRows, type GraphCounts } from './cardinality.js';
import { conjunction, conjuncts, freeSlots, hasLabels, propertyConjuncts } from './expressions.js';
import { inputsOf, withInputs, type LogicalOp } from './logical.js';
import { isRunValue } from './parameter-values.js';
import { filterSelectivity, propertyEqualitySelectivity } from './selectivity.js';

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

function withFilters(plan: LogicalOp, filters: readonly BoundExpression[]): LogicalOp {
  const predicate = conjunction(filters);
  return predicate === undefined ? plan : { op: 'filter', input: plan, predicate };
}

/**
 * Per node slot, what WHERE conjuncts pin it by: `id(n) = ...` (0: one node), `n.p = ...` /
 * `n.p IN ...` (the property's key, weighed once the node's label is known), or a bound of a property by
 * a literal or a parameter (`n.p > 70`, `n.p > $min`, weighed by the property's histogram when the label has one
 * and, for a parameter, the planner's counts offer its value; else not at all).
 */
type SelectivityHint = 0 | string | { readonly bound: BoundExpression; readonly key: string; readonly value: BoundExpression };
type Hints = ReadonlyMap<number, readonly SelectivityHint[]>;

function selectivityHints(list: readonly BoundExpression[]): Map<number, SelectivityHint[]> {
  const hints = new Map<number, SelectivityHint[]>();
  for (const c of list) {
    const bound = literalBound(c);
    if (bound !== undefined) hints.set(bound.slot, [...(hints.get(bound.slot) ?? []), { bound: c, key: bound.key, value: bound.value }]);
    if (c.kind !== 'binary' || (c.op !== 'eq' && c.op !== 'in')) continue;
    for (const [side, other] of [
      [c.left, c.right],
      [c.right, c.left],
    ] as const) {
      if (c.op === 'in' && side !== c.left) continue;
      let slot: number | undefined;
      let hint: SelectivityHint | undefined;
      if (side.kind === 'function' && side.name === 'id' && side.args[0]?.kind === 'variable') {
        slot = side.args[0].variable.id;
        hint = 0;
      } else if (side.kind === 'property' && side.object.kind === 'variable') {
        slot = side.object.variable.id;
        hint = side.key;
      }
      if (slot === undefined || hint === undefined || freeSlots(other).has(slot)) continue;
      hints.set(slot, [...(hints.get(slot) ?? []), hint]);
    }
  }
  return hints;
}

function nodeEstimate(n: BoundNodePattern, counts: GraphCounts, hints: Hints): number {
  // The label with the fewest nodes is where a scan would start; its statistics weigh the equalities.
  let label: string | undefined;
  for (const l of n.labels) if (label === undefined || labelRows(counts, l) < labelRows(counts, label)) label = l;
  let rows = label === undefined ? counts.nodes : labelRows(counts, label);
  if (n.properties?.kind === 'map') for (const e of n.properties.entries) rows *= propertyEqualitySelectivity(counts, label, e.key, e.value);
  const pins = hints.get(n.variable.id) ?? [];
  if (pins.includes(0)) return 1;
  // Several conjuncts on one node: the most selective is counted (they are rarely independent).
  const keys = pins.filter((p): p is string => typeof p === 'string');
  const kept = keys.map((key) => equalitySelectivity(counts, label, key));
  // Bounds only where a histogram weighs them: a fixed guess for a range would move where patterns start.
  // A parameter weighs as a literal when the counts offer its value (the plan is then kept for values in its buckets).
  const known = (p: { readonly key: string; readonly value: BoundExpression }, l: string): boolean =>
    p.value.kind === 'literal' || (isRunValue(p.value) && counts.parameter?.(p.value, 'range', l, p.key) !== undefined);
  const bounds = pins.flatMap((p) => (typeof p === 'object' && label !== undefined && counts.histogram?.(label, p.key) !== undefined && known(p, label) ? [p.bound] : []));
  if (bounds.length > 0) {
    const share = filterSelectivity(conjunction(bounds) as BoundExpression, counts, (slot) => (slot === n.variable.id ? label : undefined));
    // A range that keeps a large share does not move the start: on an expand's end it folds into the expand
    // as a test per relationship (batch/end-filters.ts), about what starting there would save.
    if (share <= RANGE_START_SHARE_MAX) kept.push(share);
  }
  if (kept.length > 0) rows *= Math.min(...kept);
  return rows;
}

/** The most a node's literal bounds may keep, by its histogram, for them to weigh where a pattern starts. */
const RANGE_START_SHARE_MAX = 0.1;

/**
 * `n.p < literal` or `n.p < $param` or `n.p < $param + 1` (a run value; or `<=`, `>`, `>=`, either way round), or `n.p STARTS WITH / ENDS WITH /
 * CONTAINS 'literal'`: the node's slot, the property's key, the value.
 */
function literalBound(c: BoundExpression): { readonly slot: number; readonly key: string; readonly value: BoundExpression } | undefined {
  if (c.kind === 'binary' && (c.op === 'starts_with' || c.op === 'ends_with' || c.op === 'contains')) {
    const p = c.left;
    return p.kind === 'property' && p.object.kind === 'variable' && c.right.kind === 'literal' && typeof c.right.value === 'string' ? { slot: p.object.variable.id, key: p.key, value: c.right } : undefined;
  }
  if (c.kind !== 'binary' || !(c.op === 'lt' || c.op === 'lte' || c.op === 'gt' || c.op === 'gte')) return undefined;
  for (const [side, other] of [
    [c.left, c.right],
    [c.right, c.left],
  ] as const) {
    if (side.kind === 'property' && side.object.kind === 'variable' && (other.kind === 'literal' || isRunValue(other))) {
      return { slot: side.object.variable.id, key: side.key, value: other };
    }
  }
  return undefined;
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

/**
 * One path: scan its start node (unless bound), then expand right and left of it. Filters for
 * labels and inline properties of the nodes it reaches are appended to `filters`.
 */
function planPath(
  input: LogicalOp,
  path: BoundPath,
  bound: Set<number>,
  clauseRels: number[],
  filters: BoundExpression[],
  counts: GraphCounts,
  hints: Hints,
  forceScan: boolean,
): LogicalOp {
  let plan = input;
  const nodes = path.nodes;
  let start = nodes.findIndex((n) => bound.has(n.variable.id));
  if (start < 0 || forceScan) {
    start = 0;
    let bestRows = Infinity;
    nodes.forEach((n, i) => {
      if (bound.has(n.variable.id)) return;
      const rows = nodeEstimate(n, counts, hints);
      if (rows < bestRows) {
        bestRows = rows;
        start = i;
      }
    });
    const first = nodes[start] as BoundNodePattern;
    if (!bound.has(first.variable.id)) {
      const label = first.labels.length === 0 ? undefined : [...first.labels].sort((a, b) => labelRows(counts, a) - labelRows(counts, b))[0];
      plan = { op: 'node_scan', input: plan, variable: first.variable.id, ...(label !== undefined && { label }), props: [] };
      bound.add(first.variable.id);
      nodeFilters(first, label, filters);
    }
  } else {
    nodeFilters(nodes[start] as BoundNodePattern, undefined, filters);
  }
  const hop = (input: LogicalOp, i: number, leftwards: boolean): LogicalOp =>
    path.relationships[i]!.quantified !== undefined
      ? repeat(input, path, i, leftwards, bound, clauseRels, filters, counts)
      : expand(input, path, i, leftwards, bound, clauseRels, filters);
  for (let i = start; i < path.relationships.length; i++) plan = hop(plan, i, false);
  for (let i = start - 1; i >= 0; i--) plan = hop(plan, i, true);
  return withPathVariables(plan, path, bound);
}

/** The path's variable, and each other name of it (`p = SHORTEST 1 (q = ...)`), over the nodes and relationships the plan bound. */
function withPathVariables(input: LogicalOp, path: BoundPath, bound: Set<number>): LogicalOp {
  let plan = input;
  for (const v of [...(path.variable !== undefined ? [path.variable] : []), ...(path.also ?? [])]) {
    plan = { op: 'path', input: plan, variable: v.id, nodes: path.nodes.map((n) => n.variable.id), rels: path.relationships.map((r) => r.variable.id) };
    bound.add(v.id);
  }
  return plan;
}

/**
 * A path with a selective selector, below the MATCH's WHERE (a post-filter). SHORTEST 1, ANY 1 and
 * ALL SHORTEST over one variable-length relationship whose pre-filters read only its end nodes are the
 * breadth-first shortest path search; every other selection finds all matches of the path (with its
 * pre-filters) per input row and keeps what the selector picks of each partition.
 */
function planSelected(input: LogicalOp, path: BoundPath, bound: Set<number>, counts: GraphCounts, hints: Hints): LogicalOp {
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

/** The most candidates the far end of a searched repeat may have for the search to go into each of them. */
const SEARCHED_END_ROWS_MAX = 16;

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

/** A node of a pattern bound before (its labels and properties filter it) or scanned here by its rarest label. */
function scanOrFilter(input: LogicalOp, n: BoundNodePattern, bound: Set<number>, filters: BoundExpression[], counts: GraphCounts): LogicalOp {
  if (bound.has(n.variable.id)) {
    nodeFilters(n, undefined, filters);
    return input;
  }
  const label = n.labels.length === 0 ? undefined : [...n.labels].sort((a, b) => labelRows(counts, a) - labelRows(counts, b))[0];
  bound.add(n.variable.id);
  nodeFilters(n, label, filters);
  return { op: 'node_scan', input, variable: n.variable.id, ...(label !== undefined && { label }), props: [] };
}

/**
 * A shortest path part: both end nodes bound (scanned here when the rest of the pattern does not
 * bind them), then a breadth-first search between them. Its relationships are not checked for
 * uniqueness against the clause's other relationships, and WHERE filters the paths it finds.
 */
function planShortestPath(
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
  const test = path.variable === undefined ? undefined : relationshipTest(where, path.variable.id, bound);
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

/** Label and property filters of a node reached by the plan; `scanLabel` is checked by the scan itself. */
function nodeFilters(n: BoundNodePattern, scanLabel: string | undefined, filters: BoundExpression[]): void {
  const labels = n.labels.filter((l) => l !== scanLabel);
  if (labels.length > 0) filters.push(hasLabels(n.variable, labels, n.span));
  if (n.properties) filters.push(...propertyConjuncts(n.variable, n.properties, n.span));
}

/**
 * The quantified path pattern at relationship `i` of `path`: its inner path is planned once, as a
 * path of its own from the node an iteration enters by (its first node, or its last when walked
 * leftwards) with its WHERE on top, and the repeat operator loops over that plan.
 */
function repeat(
  input: LogicalOp,
  path: BoundPath,
  i: number,
  leftwards: boolean,
  bound: Set<number>,
  clauseRels: number[],
  filters: BoundExpression[],
  counts: GraphCounts,
): LogicalOp {
  const rel = path.relationships[i]!;
  const q = rel.quantified!;
  const from = (leftwards ? path.nodes[i + 1] : path.nodes[i]) as BoundNodePattern;
  const to = (leftwards ? path.nodes[i] : path.nodes[i + 1]) as BoundNodePattern;
  const innerNodes = q.path.nodes;
  const entry = (leftwards ? innerNodes[innerNodes.length - 1] : innerNodes[0]) as BoundNodePattern;
  const exit = (leftwards ? innerNodes[0] : innerNodes[innerNodes.length - 1]) as BoundNodePattern;
  const innerBound = new Set(bound);
  innerBound.add(entry.variable.id);
  const innerFilters: BoundExpression[] = [];
  let inner = planPath({ op: 'argument' }, q.path, innerBound, [], innerFilters, counts, new Map(), false);
  inner = withFilters(inner, [...innerFilters, ...(q.where !== undefined ? conjuncts(q.where) : [])]);
  const into = bound.has(to.variable.id);
  const op: LogicalOp = {
    op: 'repeat',
    input,
    from: from.variable.id,
    to: to.variable.id,
    into,
    rel: rel.variable.id,
    inner,
    entry: entry.variable.id,
    exit: exit.variable.id,
    inner_rels: q.path.relationships.map((r) => r.variable.id),
    groups: q.groups.map((g) => ({ inner: g.inner.id, group: g.group.id })),
    range: { min: rel.range?.min ?? 1, max: rel.range?.max ?? Infinity },
    leftwards,
    unique_from: [...clauseRels],
  };
  clauseRels.push(rel.variable.id);
  bound.add(rel.variable.id);
  for (const g of q.groups) bound.add(g.group.id);
  if (!into) bound.add(to.variable.id);
  if (to.labels.length > 0 || to.properties) nodeFilters(to, undefined, filters);
  return op;
}

/** Expands relationship `i` of `path` (leftwards: from nodes[i + 1] to nodes[i]). */
function expand(
  input: LogicalOp,
  path: BoundPath,
  i: number,
  leftwards: boolean,
  bound: Set<number>,
  clauseRels: number[],
  filters: BoundExpression[],
): LogicalOp {
  const rel = path.relationships[i]!;
  const from = (leftwards ? path.nodes[i + 1] : path.nodes[i]) as BoundNodePattern;
  const to = (leftwards ? path.nodes[i] : path.nodes[i + 1]) as BoundNodePattern;
  const direction = leftwards ? (rel.direction === 'out' ? 'in' : rel.direction === 'in' ? 'out' : 'both') : rel.direction;
  const into = bound.has(to.variable.id);
  const relBound = bound.has(rel.variable.id);
  const op: LogicalOp = {
    op: 'expand',
    input,
    from: from.variable.id,
    rel: rel.variable.id,
    to: to.variable.id,
    direction,
    types: rel.types,
    ...(from.labels[0] !== undefined && { from_label: from.labels[0] }),
    into,
    ...(rel.range !== undefined && { range: { min: rel.range.min ?? 1, max: rel.range.max ?? Infinity } }),
    // A relationship bound before the clause is checked to join the two nodes, not searched for.
    rel_bound: relBound,
    leftwards,
    unique_from: [...clauseRels],
    ...(rel.properties !== undefined && { rel_props: rel.properties }),
  };
  clauseRels.push(rel.variable.id);
  bound.add(rel.variable.id);
  if (!into) {
    bound.add(to.variable.id);
    nodeFilters(to, undefined, filters);
  } else if (to.labels.length > 0 || to.properties) {
    nodeFilters(to, undefined, filters);
  }
  return op;
}
