import { orderCompare } from '../../../common/values/order.js';
import type { Value } from '../../../common/values/value.js';
import type { LogicalOp } from '../../plan/logical.js';
import { freeSlots } from '../../plan/expressions.js';
import { asRowCount } from '../../values/coerce.js';
import type { PhysicalOp, Row } from '../context.js';
import { rowBytes, type OpEnv } from '../read-ops.js';
import { directionSigns, keyComparator } from '../relational-ops.js';
import { after, holding, loopArray } from '../slices.js';
import { batchedRuns } from './batch-aggregate.js';
import { NULL_ID, type Batch } from './batch.js';
import { batchPlan, formsFor } from './batch-plan.js';
import { BatchScope, runBatches } from './pipeline.js';
import { boxed, compileVector, type Vectorized } from './vector-expressions.js';

/**
 * ORDER BY (and ORDER BY ... LIMIT, a top-k) straight over a batched pipeline: the sort keys are
 * evaluated a batch at a time, and a row becomes a row of references only when it can still make the
 * cut: once k rows are kept, a row whose keys sort at or after the k-th is dropped first, by comparing
 * doubles when the first key is a number. The kept rows, their order (a stable sort over rows in the
 * pipeline's order) and the buffer cut back to k whenever it reaches 2k + 64 are the row operator's.
 * Runs only when every key is typed (numbers, strings by code, booleans): such keys cannot fail, so
 * evaluating them for every row changes nothing the lazy row operator would not do.
 */
type Op<K extends LogicalOp['op']> = Extract<LogicalOp, { op: K }>;

interface Kept {
  readonly row: Row;
  readonly keys: Value[];
  readonly bytes: number;
}

/** Rows kept beyond k before the buffer is sorted and cut back (as the row operator does). */
const CUT_SLACK_ROWS = 64;

export function sortOverBatches(op: Op<'top'> | Op<'sort'>, rows: PhysicalOp, env: OpEnv): PhysicalOp | undefined {
  // The rows it keeps are made of references; only its keys read properties through the pipeline.
  const plan = batchPlan(op.input, false, undefined, false, false, new Set(op.keys.flatMap((k) => [...freeSlots(k.expression)])));
  if (plan === undefined) return undefined;
  const limit = op.op === 'top' ? env.exprs.compile(op.limit) : undefined;
  const skip = op.op === 'top' && op.skip !== undefined ? env.exprs.compile(op.skip) : undefined;
  const compareKeys = keyComparator(op.keys);
  const signs = directionSigns(op.keys);
  const nk = op.keys.length;
  const { memory, deadline } = env.cx;
  return (arg, sink) => {
    const k = limit === undefined ? Infinity : asRowCount(limit(arg), 'LIMIT') + (skip === undefined ? 0 : asRowCount(skip(arg), 'SKIP'));
    // LIMIT 0 runs its input up to the first row: the row operator does that.
    if (k === 0) return rows(arg, sink);
    const forms = formsFor(plan, env, arg);
    if (forms === undefined) return rows(arg, sink);
    const scope = new BatchScope(plan, env, arg, forms.members.nodes.length, forms.csrs);
    const keyVecs: Vectorized[] = op.keys.map((key) => compileVector(key.expression, scope));
    if (keyVecs.some((c) => c.kind === 'any')) return rows(arg, sink);
    batchedRuns.count++;
    // The entity columns make the row; a position column only serves property reads.
    const entities = plan.layout.flatMap((c, i) => (c.entity === 'position' ? [] : [i]));
    const refs = entities.map((c) => scope.entityRef(c));
    const slots = entities.map((c) => (plan.layout[c] as (typeof plan.layout)[number]).slot);
    const first = keyVecs[0] as Vectorized;
    const sign = signs[0] as number;
    const kept: Kept[] = [];
    let held = 0;
    let worst: Kept | undefined;
    /** The k-th row's first key as a double, when it is a number (NaN otherwise: no shortcut). */
    let worstNumber = Number.NaN;
    const scratch: Value[] = new Array<Value>(nk);
    const consume = (b: Batch): void => {
      const vecs = keyVecs.map((c) => c.run(b));
      const firstVec = vecs[0];
      for (let i = 0, n = b.length; i < n; i++) {
        if (worst !== undefined) {
          if (firstVec !== undefined && firstVec.kind === 'num' && firstVec.nulls[i] !== 1 && !Number.isNaN(worstNumber)) {
            const x = firstVec.values[i] as number;
            if ((x < worstNumber ? -1 : x > worstNumber ? 1 : 0) * sign > 0) continue;
          }
          let c = 0;
          for (let j = 0; j < nk && c === 0; j++) {
            scratch[j] = boxed(keyVecs[j] as Vectorized, vecs[j]!, i);
            c = orderCompare(scratch[j] as Value, worst.keys[j] as Value) * (signs[j] as number);
          }
          if (c >= 0) continue;
        }
        const keys: Value[] = [];
        for (let j = 0; j < nk; j++) keys.push(boxed(keyVecs[j] as Vectorized, vecs[j]!, i));
        const row = arg.slice();
        for (let c = 0; c < slots.length; c++) {
          const id = (b.columns[entities[c] as number] as Int32Array)[i] as number;
          row[slots[c] as number] = id === NULL_ID ? null : (refs[c] as (id: number) => Value)(id);
        }
        const bytes = rowBytes(row) + 16 * nk;
        memory.reserve(bytes);
        held += bytes;
        kept.push({ row, keys, bytes });
        if (kept.length >= 2 * k + CUT_SLACK_ROWS) {
          kept.sort((x, y) => compareKeys(x.keys, y.keys));
          let dropped = 0;
          for (let j = k; j < kept.length; j++) dropped += (kept[j] as Kept).bytes;
          kept.length = k;
          worst = kept[k - 1] as Kept;
          const w = worst.keys[0] as Value;
          worstNumber = first.kind === 'num' && (typeof w === 'bigint' || typeof w === 'number') ? Number(w) : Number.NaN;
          memory.release(dropped);
          held -= dropped;
        }
      }
    };
    const emit = () => {
      kept.sort((x, y) => compareKeys(x.keys, y.keys));
      deadline.check();
      kept.length = Math.min(k, kept.length);
      return loopArray(kept, (entry) => sink(entry.row), deadline);
    };
    return holding(() => after(runBatches(plan, forms, scope, env, consume), emit), () => memory.release(held));
  };
}
