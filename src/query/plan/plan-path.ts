import type { BoundNodePattern, BoundPath } from '../bind/bound-clause.js';
import type { BoundExpression } from '../bind/bound-expression.js';
import { equalitySelectivity, labelRows, type GraphCounts } from './cardinality.js';
import { conjunction, conjuncts, freeSlots, hasLabels, propertyConjuncts } from './expressions.js';
import type { LogicalOp } from './logical.js';
import { isRunValue } from './parameter-values.js';
import { filterSelectivity, propertyEqualitySelectivity } from './selectivity.js';

/*
 * The building blocks of pattern planning, shared by plan-match.ts (every path) and plan-selected.ts
 * (a path under a selector): where a path starts, scans, expands, repeats and their node filters.
 */

export function withFilters(plan: LogicalOp, filters: readonly BoundExpression[]): LogicalOp {
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
export type Hints = ReadonlyMap<number, readonly SelectivityHint[]>;

export function selectivityHints(list: readonly BoundExpression[]): Map<number, SelectivityHint[]> {
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

export function nodeEstimate(n: BoundNodePattern, counts: GraphCounts, hints: Hints): number {
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

/**
 * One path: scan its start node (unless bound), then expand right and left of it. Filters for
 * labels and inline properties of the nodes it reaches are appended to `filters`.
 */
export function planPath(
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
export function withPathVariables(input: LogicalOp, path: BoundPath, bound: Set<number>): LogicalOp {
  let plan = input;
  for (const v of [...(path.variable !== undefined ? [path.variable] : []), ...(path.also ?? [])]) {
    plan = { op: 'path', input: plan, variable: v.id, nodes: path.nodes.map((n) => n.variable.id), rels: path.relationships.map((r) => r.variable.id) };
    bound.add(v.id);
  }
  return plan;
}

/** A node of a pattern bound before (its labels and properties filter it) or scanned here by its rarest label. */
export function scanOrFilter(input: LogicalOp, n: BoundNodePattern, bound: Set<number>, filters: BoundExpression[], counts: GraphCounts): LogicalOp {
  if (bound.has(n.variable.id)) {
    nodeFilters(n, undefined, filters);
    return input;
  }
  const label = n.labels.length === 0 ? undefined : [...n.labels].sort((a, b) => labelRows(counts, a) - labelRows(counts, b))[0];
  bound.add(n.variable.id);
  nodeFilters(n, label, filters);
  return { op: 'node_scan', input, variable: n.variable.id, ...(label !== undefined && { label }), props: [] };
}

/** Label and property filters of a node reached by the plan; `scanLabel` is checked by the scan itself. */
export function nodeFilters(n: BoundNodePattern, scanLabel: string | undefined, filters: BoundExpression[]): void {
  const labels = n.labels.filter((l) => l !== scanLabel);
  if (labels.length > 0) filters.push(hasLabels(n.variable, labels, n.span));
  if (n.properties) filters.push(...propertyConjuncts(n.variable, n.properties, n.span));
}

/**
 * The quantified path pattern at relationship `i` of `path`: its inner path is planned once, as a
 * path of its own from the node an iteration enters by (its first node, or its last when walked
 * leftwards) with its WHERE on top, and the repeat operator loops over that plan.
 */
export function repeat(
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
export function expand(
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
