import { assertNever } from '../../common/assert.js';
import type { BoundClause, BoundPath, BoundProjection, BoundQuery, BoundSingleQuery } from '../bind/bound-clause.js';
import type { BoundExpression } from '../bind/bound-expression.js';
import type { GraphCounts } from './cardinality.js';
import { isSlot } from './expressions.js';
import type { LogicalOp, ProjectItem } from './logical.js';
import { planPattern, type JoinPolicy } from './plan-match.js';
import { planValueJoin } from './value-join.js';
import { clauseFootprint, clauseWrites, emptyFootprint, needsBarrier, widen } from './write-barriers.js';

/**
 * Turns a bound query into a logical plan, clause by clause. Clauses stream; an `eager` barrier goes
 * before a clause that reads or writes what an earlier clause of the same streamed stretch writes (or
 * writes what it reads), so that a clause sees the whole effect of the clauses before it (openCypher
 * runs clauses one after the other over the whole table) and a scan never meets the nodes the same
 * statement is creating (write-barriers.ts).
 */
export function planQuery(query: BoundQuery, counts: GraphCounts, joins: JoinPolicy = 'cost'): LogicalOp {
  if (query.parts.length === 1) return planSingle(query.parts[0] as BoundSingleQuery, counts, true, joins);
  const parts = query.parts.map((p) => planSingle(p, counts, false, joins));
  const first = query.parts[0] as BoundSingleQuery;
  const union: LogicalOp = {
    op: 'union',
    parts,
    part_columns: query.parts.map((p) => p.columns.map((c) => c.variable.id)),
    all: query.union_all,
  };
  return { op: 'produce', input: union, columns: first.columns.map((c) => ({ name: c.name, slot: c.variable.id })) };
}

/**
 * The body of an EXISTS, COUNT or COLLECT subquery, asked for its rows: a part that ends without
 * RETURN (`EXISTS { MATCH ... }`, `COUNT { MATCH ... UNION ALL MATCH ... }`) streams its rows instead of
 * discarding them as a statement that ends that way does.
 */
export function planExpressionBody(query: BoundQuery, counts: GraphCounts, joins: JoinPolicy = 'cost'): LogicalOp {
  const open = (p: BoundSingleQuery, produce: boolean): LogicalOp => {
    const plan = planSingle(p, counts, produce, joins);
    return plan.op === 'discard' ? plan.input : plan;
  };
  if (query.parts.length === 1) return open(query.parts[0] as BoundSingleQuery, true);
  const first = query.parts[0] as BoundSingleQuery;
  const union: LogicalOp = {
    op: 'union',
    parts: query.parts.map((p) => open(p, false)),
    part_columns: query.parts.map((p) => p.columns.map((c) => c.variable.id)),
    all: query.union_all,
  };
  return { op: 'produce', input: union, columns: first.columns.map((c) => ({ name: c.name, slot: c.variable.id })) };
}

/**
 * Plans a single query; with `produce` false the plan ends at its last projection (a UNION part).
 * `imported`: the slots its argument row holds (a CALL subquery's outer row), kept across barriers.
 */
export function planSingle(
  query: BoundSingleQuery,
  counts: GraphCounts,
  produce = true,
  joins: JoinPolicy = 'cost',
  imported: ReadonlySet<number> = new Set(),
): LogicalOp {
  const bound = new Set<number>(imported);
  let plan: LogicalOp = { op: 'argument' };
  // The clauses since the last barrier, streamed together (write-barriers.ts says when that is safe).
  let stretch = emptyFootprint();
  let wrote = false;
  for (const clause of query.clauses) {
    const footprint = clauseFootprint(clause);
    // IN TRANSACTIONS after clauses that only read streams its input from the statement's first
    // snapshot, which no batch changes: the rows are those a barrier would hold, in bounded memory.
    const streamed = clause.kind === 'call_subquery' && clause.in_transactions !== undefined && !wrote;
    if (needsBarrier(stretch, footprint) && !streamed) {
      plan = eager(plan, bound);
      stretch = emptyFootprint();
    }
    widen(stretch, footprint);
    plan = planClause(plan, clause, bound, counts, joins, streamed);
    wrote ||= clauseWrites(clause);
  }
  const last = query.clauses[query.clauses.length - 1];
  const returns = last !== undefined && (last.kind === 'return' || (last.kind === 'call' && last.standalone));
  if (!returns) return { op: 'discard', input: plan };
  if (!produce) return plan;
  return { op: 'produce', input: plan, columns: query.columns.map((c) => ({ name: c.name, slot: c.variable.id })) };
}

function eager(plan: LogicalOp, bound: ReadonlySet<number>): LogicalOp {
  return plan.op === 'eager' || plan.op === 'argument' ? plan : { op: 'eager', input: plan, live: [...bound].sort((a, b) => a - b) };
}

function planClause(plan: LogicalOp, clause: BoundClause, bound: Set<number>, counts: GraphCounts, joins: JoinPolicy, streamed = false): LogicalOp {
  switch (clause.kind) {
    case 'match': {
      if (!clause.optional) {
        const joined = planValueJoin(plan, clause.pattern, clause.where, bound, counts, joins);
        if (joined !== undefined) return joined;
        return planPattern(plan, clause.pattern, clause.where, bound, { counts, joins });
      }
      const inner = planPattern({ op: 'argument' }, clause.pattern, clause.where, bound, { counts, joins: 'never' });
      for (const v of clause.introduced) bound.add(v.id);
      return { op: 'optional', input: plan, inner, nulls: clause.introduced.map((v) => v.id) };
    }
    case 'unwind':
      bound.add(clause.variable.id);
      return { op: 'unwind', input: plan, expression: clause.expression, variable: clause.variable.id, ...(clause.lists_only === true && { lists_only: true as const }) };
    case 'load_csv':
      for (const v of [clause.variable, clause.line, clause.file]) bound.add(v.id);
      return {
        op: 'load_csv',
        input: plan,
        url: clause.url,
        headers: clause.headers,
        terminator: clause.terminator ?? ',',
        variable: clause.variable.id,
        line: clause.line.id,
        file: clause.file.id,
      };
    case 'call': {
      for (const y of clause.yields) bound.add(y.variable.id);
      const source: LogicalOp = clause.optional ? { op: 'argument' } : plan;
      const call: LogicalOp = { op: 'call', input: source, procedure: clause.procedure, args: clause.args, yields: clause.yields, standalone: clause.standalone };
      const filtered: LogicalOp = clause.where ? { op: 'filter', input: call, predicate: clause.where } : call;
      // OPTIONAL CALL runs the call (and its WHERE) per row as OPTIONAL MATCH runs its pattern.
      return clause.optional ? { op: 'optional', input: plan, inner: filtered, nulls: clause.yields.map((y) => y.variable.id) } : filtered;
    }
    case 'create':
      for (const p of clause.pattern) bindPath(p, bound);
      return { op: 'create', input: plan, pattern: clause.pattern };
    case 'merge': {
      const before = new Set(bound);
      const match = planPattern({ op: 'argument' }, [clause.path], undefined, new Set(before), { counts, joins: 'never' });
      bindPath(clause.path, bound);
      return { op: 'merge', input: plan, path: clause.path, match, on_create: clause.on_create, on_match: clause.on_match };
    }
    case 'set':
      return { op: 'set', input: plan, items: clause.items };
    case 'remove':
      return { op: 'remove', input: plan, items: clause.items };
    case 'delete':
      return { op: 'delete', input: plan, detach: clause.detach, expressions: clause.expressions };
    case 'with':
    case 'return':
      return planProjection(plan, clause.projection, bound);
    case 'call_subquery': {
      const inner = planBody(clause.query, counts, joins, bound);
      for (const v of clause.returns) bound.add(v.id);
      const mode = clause.returns.length > 0 ? 'returning' : 'unit';
      const columns = clause.returns.map((v) => v.id);
      const imports = clause.imports.map((v) => v.id);
      const tx = clause.in_transactions;
      if (tx?.report !== undefined) bound.add(tx.report.id);
      const batch =
        tx === undefined
          ? undefined
          : {
              ...(tx.rows !== undefined && { rows: tx.rows }),
              on_error: tx.on_error,
              ...(tx.retry !== undefined && { retry: tx.retry }),
              ...(tx.report !== undefined && { report: tx.report.id }),
              concurrent: tx.concurrent,
              ...(tx.concurrency !== undefined && { concurrency: tx.concurrency }),
              streamed,
            };
      return { op: 'subquery', input: plan, inner, mode, columns, imports, optional: clause.optional, form: 'call', ...(batch !== undefined && { batch }) };
    }
    case 'foreach': {
      // One inner run per row: UNWIND of the list, then the body's updates.
      const unwind: BoundClause = { kind: 'unwind', expression: clause.list, variable: clause.variable, lists_only: true, span: clause.span };
      const inner = planSingle({ clauses: [unwind, ...clause.clauses], columns: [] }, counts, false, joins, bound);
      return { op: 'subquery', input: plan, inner, mode: 'unit', columns: [], imports: [], optional: false, form: 'foreach' };
    }
    case 'finish':
      return plan;
    default:
      return assertNever(clause, 'clause');
  }
}

/** A CALL subquery's body, run with the outer row (slots `outer`) as its argument; a UNION renames its parts' columns to the first part's. */
function planBody(query: BoundQuery, counts: GraphCounts, joins: JoinPolicy, outer: ReadonlySet<number>): LogicalOp {
  const parts = query.parts.map((p) => planSingle(p, counts, false, joins, outer));
  if (parts.length === 1) return parts[0] as LogicalOp;
  return { op: 'union', parts, part_columns: query.parts.map((p) => p.columns.map((c) => c.variable.id)), all: query.union_all };
}

function bindPath(p: BoundPath, bound: Set<number>): void {
  for (const n of p.nodes) bound.add(n.variable.id);
  for (const r of p.relationships) bound.add(r.variable.id);
  if (p.variable) bound.add(p.variable.id);
  for (const v of p.also ?? []) bound.add(v.id);
}

/**
 * WITH and RETURN, in the binder's order: aggregation, columns, DISTINCT, ORDER BY, SKIP, LIMIT, WHERE.
 * A WHERE reading dropped input slots is applied while they are still in the row.
 */
function planProjection(input: LogicalOp, p: BoundProjection, bound: Set<number>): LogicalOp {
  let plan = input;
  if (p.aggregation !== undefined) plan = { op: 'aggregate', input: plan, aggregation: p.aggregation };
  const items: ProjectItem[] = p.columns
    .filter((c) => !isSlot(c.expression, c.variable.id))
    .map((c) => ({ variable: c.variable.id, expression: c.expression }));
  if (items.length > 0) plan = { op: 'project', input: plan, items };
  const whereEarly = p.where !== undefined && p.where_reads_input === true && p.distinct;
  if (whereEarly) plan = filter(plan, p.where as BoundExpression);
  if (p.distinct) plan = { op: 'distinct', input: plan, slots: p.columns.map((c) => c.variable.id) };
  if (p.order.length > 0) plan = { op: 'sort', input: plan, keys: p.order.map((o) => ({ expression: o.expression, direction: o.direction })) };
  if (p.skip !== undefined) plan = { op: 'skip', input: plan, count: p.skip };
  if (p.limit !== undefined) plan = { op: 'limit', input: plan, count: p.limit };
  if (p.where !== undefined && !whereEarly) plan = filter(plan, p.where);
  bound.clear();
  for (const c of p.columns) bound.add(c.variable.id);
  return plan;
}

function filter(input: LogicalOp, predicate: BoundExpression): LogicalOp {
  return { op: 'filter', input, predicate };
}
