import type { BoundPath } from '../bind/bound-clause.js';
import type { BoundExpression } from '../bind/bound-expression.js';
import { equalitySelectivity, estimateRows, labelRows, type GraphCounts } from './cardinality.js';
import { conjunction, conjuncts, freeSlots } from './expressions.js';
import { inputsOf, type LogicalOp } from './logical.js';
import { planPattern, type JoinPolicy } from './plan-match.js';

/**
 * Whether a MATCH is planned as a value hash join (logical.ts, `value_hash_join`) instead of a pattern run
 * once per input row. It qualifies when its pattern shares no variable with the rows before it and its
 * WHERE ties it to them only through equalities `<pattern expression> = <earlier variable or property>`
 * (`q.city = city AND q.age = oldest`); every other conjunct must read the pattern alone. The pattern
 * is then planned on its own, with those other conjuncts, and run once; the estimates choose it when
 * that run plus one probe per input row costs less than a run per input row: the whole plan of the
 * pattern, or an index seek on one of the joined properties where the catalog has one.
 */

/** Estimated input rows below which the per-row plan is kept: a table is not worth it for a few rows. */
export const value_join_input_rows_min = 4;

export function planValueJoin(
  input: LogicalOp,
  pattern: readonly BoundPath[],
  where: BoundExpression | undefined,
  bound: Set<number>,
  counts: GraphCounts,
  joins: JoinPolicy,
): LogicalOp | undefined {
  if (joins === 'never' || input.op === 'argument' || where === undefined) return undefined;
  const own = patternSlots(pattern);
  if (own === undefined) return undefined;
  for (const s of own) if (bound.has(s)) return undefined;
  const leftKeys: BoundExpression[] = [];
  const rightKeys: BoundExpression[] = [];
  const rest: BoundExpression[] = [];
  for (const c of conjuncts(where)) {
    const reads = freeSlots(c);
    if (subset(reads, own)) {
      rest.push(c);
      continue;
    }
    const key = joinKey(c, own, bound);
    if (key === undefined) return undefined;
    leftKeys.push(key.left);
    rightKeys.push(key.right);
  }
  if (leftKeys.length === 0) return undefined;
  const leftRows = estimateRows(input, counts);
  if (joins === 'cost' && leftRows < value_join_input_rows_min) return undefined;
  const right = planPattern({ op: 'argument' }, pattern, conjunction(rest), new Set<number>(), { counts, joins });
  if (joins === 'cost') {
    const build = planCost(right, counts);
    const perRow = Math.min(build, seekCost(rightKeys, pattern, counts));
    if (build + leftRows >= leftRows * perRow) return undefined;
  }
  for (const s of own) bound.add(s);
  return { op: 'value_hash_join', left: input, right, left_keys: leftKeys, right_keys: rightKeys, right_slots: [...own] };
}

/** Every slot the pattern binds; undefined when a part of it reads other slots (an inline map `{k: x}`, a dynamic label). */
function patternSlots(pattern: readonly BoundPath[]): Set<number> | undefined {
  const own = new Set<number>();
  for (const p of pattern) {
    for (const n of p.nodes) {
      if (n.bound || n.dynamic_labels !== undefined) return undefined;
      own.add(n.variable.id);
    }
    for (const r of p.relationships) {
      if (r.bound || r.dynamic_type !== undefined) return undefined;
      own.add(r.variable.id);
    }
    if (p.variable !== undefined) own.add(p.variable.id);
    for (const v of p.also ?? []) own.add(v.id);
  }
  for (const p of pattern) {
    for (const n of p.nodes) if (n.properties !== undefined && !subset(freeSlots(n.properties), own)) return undefined;
    for (const r of p.relationships) if (r.properties !== undefined && !subset(freeSlots(r.properties), own)) return undefined;
  }
  return own;
}

/**
 * `a = b` with one side reading the pattern alone and the other an earlier variable or a property of
 * one: expressions that cannot fail, so evaluating them for rows the nested loop would not (the table
 * is probed even for a row the pattern has no match for) raises no error the query would not.
 */
function joinKey(c: BoundExpression, own: ReadonlySet<number>, bound: ReadonlySet<number>): { left: BoundExpression; right: BoundExpression } | undefined {
  if (c.kind !== 'binary' || c.op !== 'eq') return undefined;
  for (const [mine, theirs] of [
    [c.left, c.right],
    [c.right, c.left],
  ] as const) {
    const m = freeSlots(mine);
    const t = freeSlots(theirs);
    if (m.size === 0 || !subset(m, own) || t.size === 0 || !subset(t, bound)) continue;
    const simple = theirs.kind === 'variable' || (theirs.kind === 'property' && theirs.object.kind === 'variable');
    if (simple) return { left: theirs, right: mine };
  }
  return undefined;
}

/** Rows every operator of a plan handles: the work of one run. */
function planCost(op: LogicalOp, counts: GraphCounts): number {
  return estimateRows(op, counts) + inputsOf(op).reduce((n, i) => n + planCost(i, counts), 0);
}

/** Work of one run when an index answers an equality on a joined property; Infinity when none does. */
function seekCost(rightKeys: readonly BoundExpression[], pattern: readonly BoundPath[], counts: GraphCounts): number {
  let best = Infinity;
  for (const k of rightKeys) {
    if (k.kind !== 'property' || k.object.kind !== 'variable') continue;
    const slot = k.object.variable.id;
    const node = pattern.flatMap((p) => p.nodes).find((n) => n.variable.id === slot);
    for (const label of node?.labels ?? []) {
      if (counts.indexed?.(label, k.key) !== true) continue;
      best = Math.min(best, 1 + labelRows(counts, label) * equalitySelectivity(counts, label, k.key));
    }
  }
  return best;
}

function subset(a: ReadonlySet<number>, b: ReadonlySet<number>): boolean {
  for (const s of a) if (!b.has(s)) return false;
  return true;
}
