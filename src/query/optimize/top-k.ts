import { transformUp, type LogicalOp } from '../plan/logical.js';

/**
 * ORDER BY followed by LIMIT (with or without SKIP) keeps only the rows that can still make the cut
 * while it reads, instead of sorting everything: memory bounded by LIMIT + SKIP rows. It runs last
 * because it only looks at the shape of the projection, which the other passes do not change.
 */
export function topK(plan: LogicalOp): LogicalOp {
  return transformUp(plan, (op) => {
    if (op.op !== 'limit') return op;
    const below = op.input;
    const skip = below.op === 'skip' ? below : undefined;
    const sort = skip ? skip.input : below;
    if (sort.op !== 'sort') return op;
    const top: LogicalOp = { op: 'top', input: sort.input, keys: sort.keys, limit: op.count, ...(skip && { skip: skip.count }) };
    return { ...op, input: skip ? { ...skip, input: top } : top };
  });
}
