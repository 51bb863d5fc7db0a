import type { Value } from '../../common/values/value.js';
import { CypherError } from '../errors.js';
import type { LogicalOp } from '../plan/logical.js';
import type { PhysicalOp } from './context.js';
import type { ProcedureContext } from './procedures.js';
import type { OpEnv } from './read-ops.js';
import { loopIterable } from './slices.js';

type Op<K extends LogicalOp['op']> = Extract<LogicalOp, { op: K }>;

/** CALL of a registered procedure: one row per row the procedure yields, outputs in the YIELD slots. */
export function call(op: Op<'call'>, input: PhysicalOp, env: OpEnv): PhysicalOp {
  const args = op.args.map((a) => env.exprs.compile(a));
  const outputs = op.procedure.outputs.map((o) => o.name);
  const yields = op.yields.map((y) => ({ slot: y.variable.id, index: outputs.indexOf(y.field) }));
  const name = op.procedure.name;
  const standalone = op.standalone;
  return (arg, sink) => {
    const proc = env.cx.procedures.lookup(name);
    if (proc === undefined) throw new CypherError('ProcedureError', 'compile time', 'ProcedureNotFound', `there is no procedure ${name}`);
    const schema = env.cx.indexes.schemaObjects?.();
    const transactions = env.cx.transactions;
    const context: ProcedureContext = { graph: env.cx.graph, ...(schema !== undefined && { schema }), ...(transactions !== undefined && { transactions }) };
    return input(arg, (row) => {
      const values = args.map((f) => f(row));
      if (outputs.length === 0) {
        // A procedure without outputs is called for its effect; inside a query each row passes through once.
        for (const _ of proc.call(values, context)) void _;
        return standalone ? true : sink(row);
      }
      return loopIterable(
        proc.call(values, context),
        (out) => {
          for (const y of yields) row[y.slot] = y.index < 0 ? null : ((out[y.index] as Value | undefined) ?? null);
          return sink(row);
        },
        env.cx.deadline,
      );
    });
  };
}
