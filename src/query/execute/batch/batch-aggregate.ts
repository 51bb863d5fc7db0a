import { assert } from '../../../common/assert.js';
import { ValueHashMap } from '../../../common/values/hash.js';
import { estimateValueBytes } from '../../../common/values/memory.js';
import type { Value } from '../../../common/values/value.js';
import { lookupFunction } from '../../functions/catalog.js';
import type { Accumulator, AggregateFunction } from '../../functions/definition.js';
import type { BoundExpression } from '../../bind/bound-expression.js';
import { freeSlots } from '../../plan/expressions.js';
import type { LogicalOp } from '../../plan/logical.js';
import type { PhysicalOp, Row, Sink } from '../context.js';
import type { OpEnv } from '../read-ops.js';
import { GROUP_OVERHEAD_BYTES } from '../relational-ops.js';
import { after, holding, loopArray, type Flow } from '../slices.js';
import { BATCH_ROWS, NULL_ID, type Batch, type Vec } from './batch.js';
import { batchPlan, formsFor, scanOnly, type BatchPlan } from './batch-plan.js';
import { foldedForms } from './end-filters.js';
import { BatchScope, runBatches } from './pipeline.js';
import type { BatchConsumer } from './stages.js';
import type { JoinBatches } from './value-join-batches.js';
import { composable, compositeGrouper } from './composite-keys.js';
import { groupStates, RowCounts, typedAggregate, type GroupStates } from './typed-aggregates.js';
import { batchesPayOverLabel, type OverLabel } from './over-label.js';
import { boxed, compileVector, type Vectorized } from './vector-expressions.js';

/**
 * Aggregation over a batched pipeline (pipeline.ts): grouping keys and aggregate arguments are
 * evaluated a batch at a time, groups are found by dictionary code or exact integer when the single
 * key is a typed column (by the boxed key otherwise, as the row operator does), `count(*)` adds into
 * a plain number per group (by a counted expand's weight, so a degree ranking reads CSR offsets),
 * and every other aggregate is the function's own accumulator, fed the same values the row operator
 * would feed it (sum and avg take exact integers as doubles). Groups come out in the order they were
 * first seen, over rows in the same order as the row operators', so the answer is the same rows in
 * the same order. `rows` (the row-at-a-time plan) runs whenever the snapshot lacks a form.
 */
type Op<K extends LogicalOp['op']> = Extract<LogicalOp, { op: K }>;

/** Groups found by a single typed key, or by the boxed key. Each returns the group's index, making it when new. */
interface Grouper {
  /** Writes the group of each of the first `n` rows into `out`, from the batch's key vectors. */
  assign(keys: readonly Vec[], n: number, out: Int32Array): void;
  /** Group g's key, for a grouper that gave `newGroup` none (it keeps its groups' keys typed until they are emitted). */
  keyOf?(g: number): Value;
}

/** A grouping key: its expression and the slot its value is written to. */
interface GroupKey {
  readonly slot: number;
  readonly expression: BoundExpression;
}

type AggregateCall = Op<'aggregate'>['aggregation']['aggregates'][number];

/** `join`: the input's value join over batches, when the input is a value join that has one. */
export function aggregateOverBatches(op: Op<'aggregate'>, rows: PhysicalOp, env: OpEnv, join?: JoinBatches): PhysicalOp | undefined {
  const keys = op.aggregation.keys.map((k) => ({ slot: k.variable.id, expression: k.expression }));
  return groupOverBatches(op.input, keys, op.aggregation.aggregates, rows, env, 'fused', join);
}

/**
 * `RETURN DISTINCT` / `WITH DISTINCT` straight over a batched pipeline (a projection whose items are
 * the distinct columns): a grouping with no aggregates. Rows come out in the order their values were
 * first seen, as the row operator passes them on, but only once the input is read (a LIMIT above does
 * not stop the pipeline early).
 */
export function distinctOverBatches(op: Op<'distinct'>, rows: PhysicalOp, env: OpEnv): PhysicalOp | undefined {
  const project = op.input;
  if (project.op !== 'project' || project.items.length !== op.slots.length) return undefined;
  if (!project.items.every((item, i) => item.variable === op.slots[i])) return undefined;
  return groupOverBatches(project.input, project.items.map((item) => ({ slot: item.variable, expression: item.expression })), [], rows, env, 'rows');
}

function groupOverBatches(
  input: LogicalOp,
  keys: readonly GroupKey[],
  aggregates: readonly AggregateCall[],
  rows: PhysicalOp,
  env: OpEnv,
  overLabel: OverLabel,
  join?: JoinBatches,
): PhysicalOp | undefined {
  const isEntityCount = aggregates.map((a) => a.call.name.toLowerCase() === 'count' && !a.call.star && !a.call.distinct && a.call.args.length === 1);
  // count(x) of a node or relationship the MATCH binds (not OPTIONAL) is never null on any row: it is count(*),
  // so `WITH p, count(f)` reads nothing of f and its expand may be counted from degrees.
  const nonNull = boundNonNull(input);
  const countsRows = aggregates.map((a, i) => {
    const x = a.call.args[0];
    return isEntityCount[i] === true && x !== undefined && x.kind === 'variable' && nonNull.has(x.variable.id);
  });
  const isCountStar = aggregates.map((a, i) => (a.call.name.toLowerCase() === 'count' && a.call.star && !a.call.distinct) || countsRows[i] === true);
  const countsOnly = isCountStar.every((x) => x);
  const isDistinctCount = aggregates.map((a) => a.call.name.toLowerCase() === 'count' && !a.call.star && a.call.distinct && a.call.args.length === 1);
  // The slots the grouping keys read: an expand they do not read may be counted rather than made.
  const readAbove = new Set(keys.flatMap((k) => [...freeSlots(k.expression)]));
  const readByConsumer = new Set([...readAbove, ...aggregates.flatMap((a, i) => (countsRows[i] === true ? [] : a.call.args.flatMap((x) => [...freeSlots(x)])))]);
  const defs = aggregates.map((a) => {
    const def = lookupFunction(a.call.name);
    assert(def !== undefined && def.kind === 'aggregate', `aggregate ${a.call.name} exists`);
    return def as AggregateFunction;
  });
  const memory = env.cx.memory;
  const deadline = env.cx.deadline;
  const options = aggregates.map((a) => ({ distinct: a.call.distinct, star: a.call.star }));
  /** Which aggregates take exact integers as doubles (sum, avg). */
  const exactIntegers = defs.map((d, a) => d.create(options[a] as (typeof options)[number]).addExactInteger !== undefined);
  /**
   * One run of the aggregation over batches typed by `scope`, pushed into its consumer by `drive`. `scanOrdered`: the
   * batches' first column is a label scan's node, each node's rows in one run.
   */
  const grouped = (scope: BatchScope, scanOrdered: boolean, drive: (consume: BatchConsumer) => Flow, arg: Row, sink: Sink): Flow => {
    batchedRuns.count++;
    // A single key that is a pipeline entity (`WITH p, count(f)`) groups by its id column.
    const keyEntity = keys.length === 1 ? entityColumn((keys[0] as (typeof keys)[number]).expression, scope) : undefined;
    const keyVecs = keyEntity !== undefined ? [] : keys.map((k) => compileVector(k.expression, scope));
    // count(DISTINCT x) of a pipeline entity reads its id column; nothing boxes its references.
    const distinctColumns = aggregates.map((a, i) => (isDistinctCount[i] === true ? entityColumn(a.call.args[0], scope) : undefined));
    // count(x) of a pipeline entity counts the rows whose id is not NULL_ID (an OPTIONAL MATCH's miss).
    const countedColumns = aggregates.map((a, i) => (isEntityCount[i] === true && countsRows[i] !== true ? entityColumn(a.call.args[0], scope) : undefined));
    const argVecs = aggregates.map((a, i) =>
      isCountStar[i] === true || a.call.args[0] === undefined || distinctColumns[i] !== undefined || countedColumns[i] !== undefined
        ? undefined
        : compileVector(a.call.args[0], scope),
    );
    /** Per aggregate, whether its distinct values are counted as numbers (entity ids, exact integers, dictionary codes). */
    const distinctNumbers = aggregates.map((_, i) => {
      const c = argVecs[i];
      return isDistinctCount[i] === true && (distinctColumns[i] !== undefined || (c !== undefined && (c.kind === 'code' || (c.kind === 'num' && c.integer))));
    });
    /** Per aggregate, its state in typed arrays by group number (count, sum, avg, min, max of a typed vector), if it has one. */
    const states: (GroupStates | undefined)[] = aggregates.map((a, i) => {
      const kind = distinctNumbers[i] === true || a.call.args.length !== 1 ? undefined : typedAggregate(a.call.name, a.call.distinct, argVecs[i]);
      return kind === undefined ? undefined : groupStates(kind, argVecs[i] as Vectorized);
    });
    // A group needs accumulator objects only for an aggregate that is neither count(*) nor typed.
    const objectsPerGroup = aggregates.some((_, a) => isCountStar[a] !== true && states[a] === undefined);
    const extraVecs = aggregates.map((a) => (a.call.args[1] === undefined ? undefined : compileVector(a.call.args[1], scope)));
    // min(k.since), max(k.since), avg(k.since): one read of the property per batch, shared by the three.
    const sharedArg = aggregates.map((a, i) => aggregates.findIndex((b, j) => j < i && argVecs[j] !== undefined && sameProperty(a.call.args[0], b.call.args[0])));
    const argValues: (Vec | undefined)[] = aggregates.map(() => undefined);
    const argOf = (a: number, c: Vectorized, b: Batch): Vec => {
      const from = sharedArg[a] as number;
      const v = from >= 0 && argValues[from] !== undefined ? (argValues[from] as Vec) : c.run(b);
      argValues[a] = v;
      return v;
    };
    const na = aggregates.length;
    /** Per group: its key, its accumulators (none for count(*) and typed states) and its count(*) tally. */
    const groupKeys: Value[] = [];
    const accs: (readonly (Accumulator | undefined)[])[] = [];
    const counts = new RowCounts();
    let held = 0;
    const reserve = (bytes: number): void => {
      memory.reserve(bytes);
      held += bytes;
    };
    const newGroup = (key: Value): number => {
      reserve(GROUP_OVERHEAD_BYTES + estimateValueBytes(key));
      groupKeys.push(key);
      const g = groupKeys.length - 1;
      // With only count(*) and typed states (a degree ranking, min/max/avg of columns) a group holds no object at all.
      accs.push(
        !objectsPerGroup
          ? NO_ACCUMULATORS
          : defs.map((d, a) =>
              isCountStar[a] === true || states[a] !== undefined
                ? undefined
                : distinctNumbers[a] === true
                  ? new DistinctNumbers()
                  : countedColumns[a] !== undefined
                    ? new EntityCount()
                    : d.create(options[a] as (typeof options)[number]),
            ),
      );
      counts.grow(g + 1);
      for (let a = 0; a < na; a++) states[a]?.grow(g + 1);
      return g;
    };
    const grouper = keyEntity === undefined ? grouperFor(keyVecs, newGroup) : undefined;
    const keyOf = grouper?.keyOf;
    const byEntity = keyEntity === undefined ? undefined : entityGrouper(scope.entityRef(keyEntity), newGroup, scanOrdered && keyEntity === SCAN_COLUMN);
    const gids = new Int32Array(BATCH_ROWS);
    /** One aggregate's values into each row's group, in row order: a loop per aggregate over the batch. */
    /** count(DISTINCT x) by number: `at(i)` is row i's id, integer or code, or NO_NUMBER for null. */
    const feedDistinct = (a: number, n: number, at: (i: number) => number): void => {
      let grown = 0;
      for (let i = 0; i < n; i++) {
        const x = at(i);
        if (x !== NO_NUMBER) grown += ((accs[gids[i] as number] as readonly (Accumulator | undefined)[])[a] as DistinctNumbers).addNumber(x);
      }
      if (grown !== 0) reserve(grown * DistinctNumbers.ENTRY_BYTES);
    };
    const feed = (a: number, n: number, c: Vectorized, v: Vec, xc: Vectorized | undefined, xv: Vec | undefined): void => {
      if (distinctNumbers[a] === true) {
        if (v.kind === 'code') feedDistinct(a, n, (i) => (v.codes[i] as number) < 0 ? NO_NUMBER : (v.codes[i] as number));
        else if (v.kind === 'num') feedDistinct(a, n, (i) => (v.nulls[i] === 1 ? NO_NUMBER : (v.values[i] as number)));
        return;
      }
      if (v.kind === 'num' && c.kind === 'num' && c.integer && xc !== undefined && xv !== undefined && exactIntegers[a] === true) {
        // A percentile of exact integers: the percentile argument is checked per row as `add` checks it,
        // and the value goes in as a double.
        for (let i = 0; i < n; i++) {
          const acc = (accs[gids[i] as number] as readonly (Accumulator | undefined)[])[a] as Accumulator;
          acc.add(null, boxed(xc, xv, i));
          if (v.nulls[i] === 1) continue;
          const before = acc.memoryBytes();
          (acc.addExactInteger as (x: number) => void).call(acc, v.values[i] as number);
          reserve(acc.memoryBytes() - before);
        }
        return;
      }
      for (let i = 0; i < n; i++) {
        const acc = (accs[gids[i] as number] as readonly (Accumulator | undefined)[])[a] as Accumulator;
        const value = boxed(c, v, i);
        const before = acc.fixed === true ? 0 : acc.memoryBytes();
        if (xc === undefined || xv === undefined) acc.add(value);
        else acc.add(value, boxed(xc, xv, i));
        if (acc.fixed !== true) {
          const grown = acc.memoryBytes() - before;
          if (grown !== 0) reserve(grown);
        }
      }
    };
    const consume = (b: Batch, weights: Float64Array | undefined): void => {
      const n = b.length;
      if (byEntity !== undefined) byEntity(b.columns[keyEntity as number] as Int32Array, n, gids);
      else (grouper as Grouper).assign(keyVecs.map((k) => k.run(b)), n, gids);
      // count(*) tallies, by the counted expand's weight when there is one.
      counts.add(n, gids, weights);
      argValues.fill(undefined);
      for (let a = 0; a < na; a++) {
        const counted = countedColumns[a];
        if (counted !== undefined) {
          const column = b.columns[counted] as Int32Array;
          for (let i = 0; i < n; i++) if (column[i] !== NULL_ID) ((accs[gids[i] as number] as readonly (Accumulator | undefined)[])[a] as EntityCount).n++;
          continue;
        }
        const ids = distinctColumns[a];
        if (ids !== undefined) {
          const column = b.columns[ids] as Int32Array;
          feedDistinct(a, n, (i) => (column[i] === NULL_ID ? NO_NUMBER : (column[i] as number)));
          continue;
        }
        const c = argVecs[a];
        if (c === undefined) {
          // count(*) has its tally; an aggregate without arguments is fed nulls.
          if (isCountStar[a] !== true) for (let i = 0; i < n; i++) ((accs[gids[i] as number] as readonly (Accumulator | undefined)[])[a] as Accumulator).add(null);
          continue;
        }
        const state = states[a];
        if (state !== undefined) {
          state.feed(argOf(a, c, b), n, gids);
          continue;
        }
        const xc = extraVecs[a];
        feed(a, n, c, argOf(a, c, b), xc, xc?.run(b));
      }
    };
    const keySlots = keys.map((k) => k.slot);
    const nk = keys.length;
    const emit = () => {
      // Without grouping keys there is always one row, even over no input (count(*) is 0).
      if (nk === 0 && groupKeys.length === 0) newGroup(null);
      const order = groupKeys.map((_, g) => g);
      // One row, rewritten per group: an operator that keeps rows keeps copies.
      const out = arg.slice();
      return loopArray(
        order,
        (g) => {
          const key = keyOf === undefined ? (groupKeys[g] as Value) : keyOf(g);
          if (nk === 1) out[keySlots[0] as number] = key;
          else for (let i = 0; i < nk; i++) out[keySlots[i] as number] = (key as readonly Value[])[i] as Value;
          for (let a = 0; a < na; a++) {
            const state = states[a];
            out[aggregates[a]!.variable.id] =
              state !== undefined ? state.result(g) : isCountStar[a] === true ? counts.result(g) : ((accs[g] as readonly (Accumulator | undefined)[])[a] as Accumulator).result();
          }
          return sink(out);
        },
        deadline,
      );
    };
    return holding(() => after(drive(consume), emit), () => memory.release(held));
  };
  if (input.op === 'value_hash_join') {
    // The join pushes batches of the slots it binds: only keys and arguments that read nothing else run over them.
    if (join === undefined || !readsOnlySlots(keys, aggregates, input.right_slots)) return undefined;
    return (arg, sink) => {
      const opened = join.open(arg);
      if (opened === undefined) return rows(arg, sink);
      return grouped(opened.scope, false, (consume) => opened.run({ kind: 'batches', consume }), arg, sink);
    };
  }
  const unfolded = batchPlan(input, countsOnly, readAbove, false, true, readByConsumer);
  if (unfolded === undefined) return undefined;
  // The same pipeline with filters on end nodes folded into their expands, taken when they are typed.
  const folded = batchPlan(input, countsOnly, readByConsumer, true, false, readByConsumer);
  return (arg, sink) => {
    const foldedRun = folded === undefined ? undefined : foldedForms(folded, env, arg);
    const plan = foldedRun === undefined ? unfolded : (folded as BatchPlan);
    const forms = foldedRun ?? formsFor(plan, env, arg);
    if (forms === undefined) return rows(arg, sink);
    const scope = new BatchScope(plan, env, arg, forms.members.nodes.length, forms.csrs);
    // Over a label alone the fused scan (`rows`) runs unless batches pay (see batchesPayOverLabel).
    if (scanOnly(plan) && !paysOverLabel(plan, keys, aggregates, scope, overLabel)) return rows(arg, sink);
    return grouped(scope, true, (consume) => runBatches(plan, forms, scope, env, consume), arg, sink);
  };
}

/** Whether batches pay over a label alone (over-label.ts); min or max of strings is a loop over codes batched, a string comparison per row fused. */
function paysOverLabel(plan: BatchPlan, keys: readonly GroupKey[], aggregates: readonly AggregateCall[], scope: BatchScope, overLabel: OverLabel): boolean {
  const filters = plan.stages.flatMap((s) => (s.kind === 'filter' ? [s.op.predicate] : []));
  const exprs = [...keys.map((k) => k.expression), ...aggregates.flatMap((a) => a.call.args)];
  const stringExtreme = (): boolean =>
    aggregates.some((a) => {
      const name = a.call.name.toLowerCase();
      const x = a.call.args[0];
      return (name === 'min' || name === 'max') && a.call.args.length === 1 && x !== undefined && compileVector(x, scope).kind === 'code';
    });
  // Several keys found as one number (composite-keys.ts), where the fused scan hashes a list of boxed values per row.
  const composite = (): boolean => composable(keys.map((k) => compileVector(k.expression, scope)));
  return batchesPayOverLabel(filters, exprs, scope, overLabel, overLabel === 'fused' && (stringExtreme() || composite()));
}

/** Whether two aggregate arguments read the same property of the same variable (so one vector serves both). */
function sameProperty(a: BoundExpression | undefined, b: BoundExpression | undefined): boolean {
  return (
    a !== undefined &&
    b !== undefined &&
    a.kind === 'property' &&
    b.kind === 'property' &&
    a.key === b.key &&
    a.object.kind === 'variable' &&
    b.object.kind === 'variable' &&
    a.object.variable.id === b.object.variable.id
  );
}

/** Runs that took the batched path since the process started (tests check that their queries did). */
export const batchedRuns = { count: 0 };

const NO_GROUP = -1;
/** The layout column of the scanned node (batch-plan.ts puts it first). */
const SCAN_COLUMN = 0;
/** Not a value: what a null gives count(DISTINCT) by number (ids and codes are never negative; integers use the null mask first). */
const NO_NUMBER = Number.NEGATIVE_INFINITY;

/**
 * count(DISTINCT x) whose values are numbers that stand for them one to one within a run: entity ids,
 * exact integers of one typed column, or dictionary codes of one string column.
 */
class DistinctNumbers implements Accumulator {
  static readonly ENTRY_BYTES = 16;
  private readonly seen = new Set<number>();
  add(): void {
    assert(false, 'count(DISTINCT) by number is fed numbers only');
  }
  /** Adds `x` and answers 1 when it is new, 0 otherwise. */
  addNumber(x: number): number {
    const before = this.seen.size;
    this.seen.add(x);
    return this.seen.size - before;
  }
  result(): Value {
    return BigInt(this.seen.size);
  }
  memoryBytes(): number {
    return this.seen.size * DistinctNumbers.ENTRY_BYTES;
  }
}

/** count(x) of a pipeline entity: the rows where it is not null. */
class EntityCount implements Accumulator {
  readonly fixed = true;
  n = 0;
  add(): void {
    assert(false, 'count of an entity column is tallied by the pipeline');
  }
  result(): Value {
    return BigInt(this.n);
  }
  memoryBytes(): number {
    return 16;
  }
}

/** Whether every grouping key and aggregate argument reads no slot but `slots` (parameters and literals aside). */
function readsOnlySlots(keys: readonly GroupKey[], aggregates: readonly AggregateCall[], slots: readonly number[]): boolean {
  const exprs = [...keys.map((k) => k.expression), ...aggregates.flatMap((a) => a.call.args)];
  return exprs.every((e) => [...freeSlots(e)].every((s) => slots.includes(s)));
}

/** The batch column of `e` when it is a bare variable the pipeline binds to an entity. */
/** The slots a chain of filters and expands over a label scan binds on every row it makes (an OPTIONAL MATCH's may be null). */
function boundNonNull(input: LogicalOp): Set<number> {
  const out = new Set<number>();
  for (let op = input; ; ) {
    if (op.op === 'expand') {
      out.add(op.rel);
      out.add(op.to);
    } else if (op.op === 'node_scan') {
      out.add(op.variable);
      return out;
    } else if (op.op !== 'filter' && op.op !== 'optional') return out;
    op = op.input;
  }
}

function entityColumn(e: BoundExpression | undefined, scope: BatchScope): number | undefined {
  if (e === undefined || e.kind !== 'variable') return undefined;
  return scope.idColumn(e.variable.id);
}
const NO_ACCUMULATORS: readonly (Accumulator | undefined)[] = [];

/** An integer key whose column's magnitudes stay within this finds its group in a table indexed by value, not a Map. */
const DIRECT_KEY_MAGNITUDE_MAX = 1 << 20;

/** Groups by entity id: the group's key is the entity's reference, made once per group. */
function entityGrouper(refOf: (id: number) => Value, newGroup: (key: Value) => number, contiguous: boolean): (ids: Int32Array, n: number, out: Int32Array) => void {
  if (contiguous) {
    // The scanned node: the scan reads each member once and every stage keeps a row's expansions
    // together, so a node's rows come in one run and a new id is always a new group.
    let last = NULL_ID - 1;
    let lastGroup = NO_GROUP;
    return (ids, n, out) => {
      for (let i = 0; i < n; i++) {
        const id = ids[i] as number;
        if (id !== last) {
          lastGroup = newGroup(refOf(id));
          last = id;
        }
        out[i] = lastGroup;
      }
    };
  }
  const byId = new Map<number, number>();
  // No id is below NULL_ID, so the first row never matches.
  let last = NULL_ID - 1;
  let lastGroup = NO_GROUP;
  return (ids, n, out) => {
    for (let i = 0; i < n; i++) {
      const id = ids[i] as number;
      // Rows expanded from one node come in a run.
      if (id !== last) {
        let g = byId.get(id);
        if (g === undefined) {
          g = newGroup(refOf(id));
          byId.set(id, g);
        }
        last = id;
        lastGroup = g;
      }
      out[i] = lastGroup;
    }
  };
}

function grouperFor(keys: readonly Vectorized[], newGroup: (key: Value) => number): Grouper {
  if (keys.length === 0) {
    let single = NO_GROUP;
    return {
      assign: (_v, n, out) => {
        if (n > 0 && single === NO_GROUP) single = newGroup(null);
        out.fill(single, 0, n);
      },
    };
  }
  const only = keys[0] as Vectorized;
  if (keys.length === 1 && only.kind === 'code') {
    // By dictionary code: one slot per string, and one for null.
    const byCode = new Int32Array(only.dictionary.length).fill(NO_GROUP);
    let nullGroup = NO_GROUP;
    return {
      assign: (v, n, out) => {
        const codes = (v[0] as Extract<Vec, { kind: 'code' }>).codes;
        for (let i = 0; i < n; i++) {
          const c = codes[i] as number;
          if (c < 0) {
            out[i] = nullGroup === NO_GROUP ? (nullGroup = newGroup(null)) : nullGroup;
            continue;
          }
          let g = byCode[c] as number;
          if (g === NO_GROUP) byCode[c] = g = newGroup(only.dictionary[c] as string);
          out[i] = g;
        }
      },
    };
  }
  if (keys.length === 1 && only.kind === 'num' && only.integer && only.max_abs <= DIRECT_KEY_MAGNITUDE_MAX) {
    // Group index + 1 by value + max_abs (0: no group yet); sized by the column's own bound.
    const offset = only.max_abs;
    const byValue = new Int32Array(2 * offset + 1);
    let nullGroup = NO_GROUP;
    return {
      assign: (v, n, out) => {
        const x = v[0] as Extract<Vec, { kind: 'num' }>;
        for (let i = 0; i < n; i++) {
          if (x.nulls[i] === 1) {
            out[i] = nullGroup === NO_GROUP ? (nullGroup = newGroup(null)) : nullGroup;
            continue;
          }
          const k = x.values[i] as number;
          let g = (byValue[k + offset] as number) - 1;
          if (g === NO_GROUP) {
            g = newGroup(BigInt(k));
            byValue[k + offset] = g + 1;
          }
          out[i] = g;
        }
      },
    };
  }
  if (keys.length === 1 && only.kind === 'num') {
    // By value in a Map. A vector holds no NaN, and a Map takes -0.0 and 0.0 as one key, as equivalence does; a
    // group is named by its first row's own value (an INTEGER as a BigInt), as the row operator names it.
    const name = only.integer ? (k: number): Value => BigInt(k) : (k: number): Value => k;
    const byNumber = new Map<number, number>();
    let nullGroup = NO_GROUP;
    let last = NaN;
    let lastGroup = NO_GROUP;
    return {
      assign: (v, n, out) => {
        const x = v[0] as Extract<Vec, { kind: 'num' }>;
        for (let i = 0; i < n; i++) {
          if (x.nulls[i] === 1) {
            out[i] = nullGroup === NO_GROUP ? (nullGroup = newGroup(null)) : nullGroup;
            continue;
          }
          const k = x.values[i] as number;
          // Rows expanded from one node come in a run with its key.
          if (k !== last) {
            let g = byNumber.get(k);
            if (g === undefined) {
              g = newGroup(name(k));
              byNumber.set(k, g);
            }
            last = k;
            lastGroup = g;
          }
          out[i] = lastGroup;
        }
      },
    };
  }
  const composite = compositeGrouper(keys, newGroup);
  if (composite !== undefined) return composite;
  // Boxed keys, grouped by value equivalence as the row operator groups them.
  const byValue = new ValueHashMap<number>();
  const byString = new Map<string, number>();
  return {
    assign: (v, n, out) => {
      for (let i = 0; i < n; i++) {
        const key: Value = keys.length === 1 ? boxed(only, v[0] as Vec, i) : keys.map((k, j) => boxed(k, v[j] as Vec, i));
        let g = typeof key === 'string' ? byString.get(key) : byValue.get(key);
        if (g === undefined) {
          g = newGroup(key);
          if (typeof key === 'string') byString.set(key, g);
          else byValue.set(key, g);
        }
        out[i] = g;
      }
    },
  };
}
