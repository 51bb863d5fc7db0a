import type { BoundExpression } from '../bind/bound-expression.js';
import { freeSlots, UNMOVABLE } from '../plan/expressions.js';
import { transformUp, type LogicalOp } from '../plan/logical.js';

/**
 * A top-k whose first key is `vector_distance(n.key, q)` ascending, over (a projection of) filters
 * over a label scan of `n` straight from the argument, gets a vector search under it: at run time a
 * vector index of the label and key, with the same metric, offers the nearest nodes first and the
 * scan and filters run over those candidates only (see vector-search-op.ts). `q` must not read `n`.
 * Runs after top-k (it looks for the top that pass made) and before late-projection (which moves the
 * projection this pass looks through).
 */
export function vectorSearch(plan: LogicalOp): LogicalOp {
  return transformUp(plan, (op) => {
    if (op.op !== 'top') return op;
    const first = op.keys[0];
    if (first === undefined || first.direction !== 'asc') return op;
    const project = op.input.op === 'project' ? op.input : undefined;
    const chain = project !== undefined ? project.input : op.input;
    const call = resolve(first.expression, project);
    const scan = scanOf(chain);
    if (call === undefined || scan === undefined || scan.label === undefined) return op;
    const target = distanceCall(call, scan.variable);
    if (target === undefined) return op;
    const search: LogicalOp = {
      op: 'vector_search',
      input: chain,
      variable: scan.variable,
      label: scan.label,
      key: target.key,
      query: target.query,
      metric: target.metric,
      limit: op.limit,
      ...(op.skip !== undefined && { skip: op.skip }),
      // With no other key, the order is the distance's alone: the search can give it.
      ...(op.keys.length === 1 && { order: call }),
    };
    return { ...op, input: project !== undefined ? { ...project, input: search } : search };
  });
}

/** A sort key naming a projected column stands for the column's expression. */
function resolve(e: BoundExpression, project: Extract<LogicalOp, { op: 'project' }> | undefined): BoundExpression | undefined {
  if (e.kind !== 'variable' || project === undefined) return e;
  return project.items.find((i) => i.variable === e.variable.id)?.expression ?? e;
}

/** The label scan under filters, reading from the argument (nothing else produces its rows). */
function scanOf(op: LogicalOp): Extract<LogicalOp, { op: 'node_scan' }> | undefined {
  let o = op;
  while (o.op === 'filter') o = o.input;
  return o.op === 'node_scan' && o.input.op === 'argument' && o.variable_unused !== true ? o : undefined;
}

const metrics = new Set(['cosine', 'euclidean', 'manhattan', 'dot']);

function distanceCall(e: BoundExpression, slot: number): { key: string; query: BoundExpression; metric: string } | undefined {
  if (e.kind !== 'function' || e.name !== 'vector_distance' || e.args.length < 2) return undefined;
  const [a, b, m] = e.args as [BoundExpression, BoundExpression, BoundExpression | undefined];
  let metric = 'cosine';
  if (m !== undefined) {
    if (m.kind !== 'literal' || typeof m.value !== 'string' || !metrics.has(m.value.toLowerCase())) return undefined;
    metric = m.value.toLowerCase();
  }
  const independent = (x: BoundExpression): boolean => {
    const s = freeSlots(x);
    return !s.has(slot) && !s.has(UNMOVABLE);
  };
  const keyOf = (x: BoundExpression): string | undefined =>
    x.kind === 'property' && x.object.kind === 'variable' && x.object.variable.id === slot ? x.key : undefined;
  const ka = keyOf(a);
  if (ka !== undefined && independent(b)) return { key: ka, query: b, metric };
  const kb = keyOf(b);
  if (kb !== undefined && independent(a)) return { key: kb, query: a, metric };
  return undefined;
}
