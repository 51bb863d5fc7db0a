import { orderCompare } from '../../../common/values/order.js';
import type { Value } from '../../../common/values/value.js';
import type { LogicalOp } from '../../plan/logical.js';
import { freeSlots } from '../../plan/expressions.js';
import { asRowCount } from '../../values/coerce.js';
import type { Evaluator, PhysicalOp, Row } from '../context.js';
import type { BoundExpression } from '../../bind/bound-expression.js';
import { mapChildren } from '../../bind/bound-walk.js';
import { rowBytes, type OpEnv } from '../read-ops.js';
import { directionSigns, keyComparator } from '../relational-ops.js';
import { after, holding, loopArray } from '../slices.js';
import { batchedRuns } from './batch-aggregate.js';
import { NULL_ID, type Batch } from './batch.js';
import { batchPlan, formsFor, mayBeSeeked, scanOnly } from './batch-plan.js';
import { batchesPayOverLabel, type OverLabel } from './over-label.js';
import { BatchScope, runBatches } from './pipeline.js';
import { boxed, compileVector, type Vectorized } from './vector-expressions.js';

/**
 * ORDER BY (and ORDER BY ... LIMIT, a top-k) straight over a batched pipeline: the sort keys are
 * evaluated a batch at a time, and a row becomes a row of references only when it can still make the
 * cut: once k rows are kept, a row whose keys sort at or after the k-th is dropped first, by comparing
 * doubles when the first key is a number. The kept rows, their order (a stable sort over rows in the
 * pipeline's order) and the buffer cut back to k whenever it reaches 2k + 64 are the row operator's.
 * Runs only when every key is typed (numbers, strings by code, booleans): such keys cannot fail, so
 * evaluating them for every row changes nothing the lazy row operator would not do. Over a label alone it runs
 * when batches pay (over-label.ts): `ORDER BY abs(p.age - 45), id LIMIT 10` evaluates its key as a kernel over
 * each batch of the members the filters kept, where the fused top-k (`overLabel` 'fused') calls it per member.
 */
type Op<K extends LogicalOp['op']> = Extract<LogicalOp, { op: K }>;

interface Kept {
  readonly row: Row;
  readonly keys: Value[];
  readonly bytes: number;
}

/** Rows kept beyond k before the buffer is sorted and cut back (as the row operator does). */
const CUT_SLACK_ROWS = 64;

export function sortOverBatches(op: Op<'top'> | Op<'sort'>, rows: PhysicalOp, env: OpEnv, overLabel: OverLabel): PhysicalOp | undefined {
  // A sort over `RETURN p.id AS i ORDER BY p.age / 3, i`: keys over the projection's input, the projection per kept row.
  const project = op.op === 'sort' && op.input.op === 'project' ? op.input : undefined;
  const keys = project === undefined ? op.keys : op.keys.map((k) => ({ ...k, expression: throughItems(k.expression, project.items) }));
  // The rows it keeps are made of references; only its keys read properties through the pipeline.
  const plan = batchPlan(project?.input ?? op.input, false, undefined, false, true, new Set(keys.flatMap((k) => [...freeSlots(k.expression)])));
  if (plan === undefined) return undefined;
  // Over a label alone an index that answers the scan gives the row path few rows, and asking it whether it
  // answers (formsFor) would seek once more for every run: such a sort stays with the row path.
  if (scanOnly(plan) && mayBeSeeked(plan.scan, env)) return undefined;
  const projected = project === undefined ? undefined : projection(project, env);
  const filters = plan.stages.flatMap((s) => (s.kind === 'filter' ? [s.op.predicate] : []));
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
    // Over a label alone `rows` is a fused top-k or the row operators, unless batches pay (over-label.ts).
    if (scanOnly(plan) && !batchesPayOverLabel(filters, keys.map((key) => key.expression), scope, overLabel)) return rows(arg, sink);
    const keyVecs: Vectorized[] = keys.map((key) => compileVector(key.expression, scope));
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
      return loopArray(kept, (entry) => sink(projected === undefined ? entry.row : projected(entry.row)), deadline);
    };
    return holding(() => after(runBatches(plan, forms, scope, env, consume), emit), () => memory.release(held));
  };
}

/** `e` with each slot a projection item writes replaced by the item's expression. */
function throughItems(e: BoundExpression, items: Op<'project'>['items']): BoundExpression {
  const swap = (x: BoundExpression): BoundExpression => {
    if (x.kind === 'variable') {
      const item = items.find((i) => i.variable === x.variable.id);
      if (item !== undefined) return item.expression;
    }
    return mapChildren(x, swap);
  };
  return swap(e);
}

/**
 * The projection under a sort, applied to a kept row (every item evaluated before any is written, as the project
 * operator does). Every row the sort keeps is projected, as the row path projects every row before it sorts.
 */
function projection(op: Op<'project'>, env: OpEnv): (row: Row) => Row {
  const slots = op.items.map((i) => i.variable);
  const fns = op.items.map((i) => env.exprs.compile(i.expression));
  const values = new Array<Value>(slots.length);
  return (row) => {
    for (let i = 0; i < slots.length; i++) values[i] = (fns[i] as Evaluator)(row);
    for (let i = 0; i < slots.length; i++) row[slots[i] as number] = values[i] as Value;
    return row;
  };
}
