import { assert } from '../../common/assert.js';
import type { BoundNodePattern, BoundPath, BoundRelationshipPattern } from '../bind/bound-clause.js';
import type { BoundExpression } from '../bind/bound-expression.js';
import type { GraphCounts } from './cardinality.js';
import { conjunction, freeSlots } from './expressions.js';
import type { LogicalOp, SearchPart } from './logical.js';
import { expand, nodeEstimate, repeat, scanOrFilter, withFilters, withPathVariables, type Hints } from './plan-path.js';

/** The most candidates the far end of a searched path may have for the search to go into each of them. */
export const SEARCHED_END_ROWS_MAX = 16;

/**
 * A path of several parts under a selector, searched by length (`search_paths`): fixed relationships,
 * quantified path patterns and variable-length relationships (as the one-hop pattern each equals), in
 * any number and order. Undefined when the path has a shape the search does not take: a node of the path
 * between its ends that is bound or named twice, a bound relationship, or a variable-length relationship
 * whose property map reads this MATCH.
 *
 * The search starts from the end with fewer candidates; the far end is scanned first, for a search into
 * it, when it is bound or has few candidates. Each pre-filter conjunct goes where it can first be decided:
 * before the search when it reads only the start (and what was bound), inside a fixed relationship's
 * plan when it reads only that relationship and its two nodes, on leaving a part when it reads only the
 * node the part ends at, and otherwise on each whole path (`accept`), over the path's variables.
 */
export function searchedPath(input: LogicalOp, path: BoundPath, pre: readonly BoundExpression[], bound: Set<number>, counts: GraphCounts, hints: Hints): LogicalOp | undefined {
  const nodes = path.nodes;
  const first = nodes[0]!;
  const last = nodes[nodes.length - 1]!;
  const between = nodes.slice(1, -1).map((n) => n.variable.id);
  const names = new Set([first.variable.id, last.variable.id]);
  for (const id of between) {
    if (bound.has(id) || names.has(id)) return undefined;
    names.add(id);
  }
  const searchable = (r: BoundRelationshipPattern): boolean =>
    !r.bound &&
    !bound.has(r.variable.id) &&
    (r.quantified !== undefined ||
      (r.range === undefined && r.dynamic_type === undefined) ||
      (r.searched_as !== undefined && (r.properties === undefined || [...freeSlots(r.properties)].every((s) => bound.has(s)))));
  if (!path.relationships.every(searchable)) return undefined;

  const estimate = (n: BoundNodePattern): number => (bound.has(n.variable.id) ? 0 : nodeEstimate(n, counts, hints));
  const leftwards = estimate(last) < estimate(first);
  const [start, far] = leftwards ? [last, first] : [first, last];
  const filters: BoundExpression[] = [];
  let plan = scanOrFilter(input, start, bound, filters, counts);
  if (bound.has(far.variable.id) || estimate(far) <= SEARCHED_END_ROWS_MAX) plan = scanOrFilter(plan, far, bound, filters, counts);
  const into = bound.has(far.variable.id);
  const known = new Set(bound);
  const reads = (c: BoundExpression, slots: ReadonlySet<number>): boolean => [...freeSlots(c)].every((s) => slots.has(s));

  // The parts in search order, each planned from the node it enters by, with the filters of the node it ends at.
  const order = path.relationships.map((_, i) => i);
  if (leftwards) order.reverse();
  const ends: BoundExpression[][] = [];
  const parts = order.map((i): Omit<SearchPart, 'exit_test'> => {
    const rel = path.relationships[i]!;
    const from = (leftwards ? nodes[i + 1] : nodes[i])!;
    const to = (leftwards ? nodes[i] : nodes[i + 1])!;
    const partBound = new Set(known);
    partBound.add(from.variable.id);
    const nodeTests: BoundExpression[] = [];
    ends.push(nodeTests);
    if (rel.quantified === undefined && rel.searched_as === undefined) {
      const hop = expand({ op: 'argument' }, path, i, leftwards, partBound, [], nodeTests);
      return { inner: hop, entry: from.variable.id, exit: to.variable.id, inner_rels: [rel.variable.id], groups: [], range: { min: 1, max: 1 }, single: true, rel: rel.variable.id, to: to.variable.id };
    }
    const quantified = rel.quantified ?? rel.searched_as!;
    const looped = repeat({ op: 'argument' }, { ...path, relationships: path.relationships.map((r, j) => (j === i ? { ...rel, quantified } : r)) }, i, leftwards, partBound, [], nodeTests, counts);
    assert(looped.op === 'repeat', 'a quantified path pattern plans as a repeat');
    return { inner: looped.inner, entry: looped.entry, exit: looped.exit, inner_rels: looped.inner_rels, groups: looped.groups, range: looped.range, single: false, rel: rel.variable.id, to: to.variable.id };
  });

  // Where each conjunct is decided (see above). A fixed relationship's plan binds its relationship and both its nodes.
  const before: BoundExpression[] = [];
  const inside: BoundExpression[][] = parts.map(() => []);
  const leaving: BoundExpression[][] = parts.map((_, j) => [...(ends[j] ?? [])]);
  const whole: BoundExpression[] = [];
  for (const c of [...filters, ...pre]) {
    if (reads(c, known)) {
      before.push(c);
      continue;
    }
    const j = parts.findIndex((p) => reads(c, new Set([...known, p.to])));
    if (j >= 0) {
      (leaving[j] as BoundExpression[]).push(c);
      continue;
    }
    const h = parts.findIndex((p) => p.single && reads(c, new Set([...known, p.entry, p.rel, p.to])));
    if (h >= 0) (inside[h] as BoundExpression[]).push(c);
    else whole.push(c);
  }
  plan = withFilters(plan, before);
  const searchParts = parts.map((p, j): SearchPart => {
    const exitTest = conjunction(into && j === parts.length - 1 ? (leaving[j] as BoundExpression[]).filter((c) => !reads(c, known)) : (leaving[j] as BoundExpression[]));
    return { ...p, inner: withFilters(p.inner, inside[j] as BoundExpression[]), ...(exitTest !== undefined && { exit_test: exitTest }) };
  });
  for (const p of searchParts) {
    bound.add(p.rel);
    bound.add(p.to);
    for (const g of p.groups) bound.add(g.group);
  }
  const accept = whole.length > 0 ? withFilters(withPathVariables({ op: 'argument' }, path, new Set(bound)), whole) : undefined;
  const searched: LogicalOp = {
    op: 'search_paths',
    input: plan,
    selector: path.selector!,
    ...(path.selector_count !== undefined && { count: path.selector_count }),
    from: start.variable.id,
    to: far.variable.id,
    into,
    leftwards,
    parts: searchParts,
    ...(accept !== undefined && { accept }),
  };
  return withPathVariables(searched, path, bound);
}
