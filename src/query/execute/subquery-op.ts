import type { LogicalOp } from '../plan/logical.js';
import type { PhysicalOp, Row } from './context.js';
import { after } from './slices.js';

type Op<K extends LogicalOp['op']> = Extract<LogicalOp, { op: K }>;

/**
 * A CALL subquery or a FOREACH: the inner plan runs once per input row, with that row as its
 * argument, so each run sees the writes of the runs before it (the manual's per-row semantics).
 * The inner plan writes only its own slots, so the outer row is passed in as it is; an inner row
 * may be another array (after an aggregation or a barrier), so the returned columns are copied
 * from it onto the outer row before the outer row continues.
 */
export function subquery(op: Op<'subquery'>, input: PhysicalOp, inner: PhysicalOp): PhysicalOp {
  const columns = op.columns;
  if (op.mode === 'unit') {
    return (arg, sink) =>
      input(arg, (row) =>
        after(
          inner(row, () => true),
          (ok) => ok && sink(row),
        ),
      );
  }
  const optional = op.optional;
  return (arg, sink) =>
    input(arg, (row) => {
      let matched = false;
      const flow = inner(row, (r: Row) => {
        matched = true;
        if (r !== row) for (const s of columns) row[s] = r[s] ?? null;
        return sink(row);
      });
      return after(flow, (ok) => {
        if (!ok || matched || !optional) return ok;
        for (const s of columns) row[s] = null;
        return sink(row);
      });
    });
}
