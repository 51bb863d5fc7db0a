import { ValueHashMap, ValueHashSet } from '../../common/values/hash.js';
import { estimateValueBytes } from '../../common/values/memory.js';
import { orderCompare } from '../../common/values/order.js';
import type { Value } from '../../common/values/value.js';
import { assert } from '../../common/assert.js';
import { lookupFunction } from '../functions/catalog.js';
import type { Accumulator, AggregateFunction } from '../functions/definition.js';
import { asRowCount } from '../values/coerce.js';
import type { BoundExpression } from '../bind/bound-expression.js';
import type { LogicalOp, SortKey } from '../plan/logical.js';
import type { Evaluator, PhysicalOp, Row } from './context.js';
import { rowBytes, type OpEnv } from './read-ops.js';
import { after, holding, loopArray, loopIterable, type Flow } from './slices.js';

/**
 * The operators that hold rows or state: aggregation, DISTINCT, sorting, SKIP/LIMIT, eager barriers
 * and UNION. Everything they keep is reserved against the statement's memory budget.
 */
type Op<K extends LogicalOp['op']> = Extract<LogicalOp, { op: K }>;

interface Group {
  readonly accs: Accumulator[];
  readonly keys: Value;
}

export const GROUP_OVERHEAD_BYTES = 96;

/** How an operator turns its expressions into evaluators: the row compiler, unless a fused scan reads columns. */
export type CompileExpression = (e: BoundExpression) => Evaluator;

/**
 * A single grouping key that a fused scan can give as small integer codes: when `start` (called as
 * a run begins) answers the key's distinct values, `code()` is the current row's index into them,
 * and groups are found by that index instead of hashing the key.
 */
export interface GroupCodes {
  start(): readonly Value[] | undefined;
  code(): number;
}

/**
 * An INTEGER expression as exact doubles, when a fused scan has its column: `start` (as a run begins)
 * answers the column, or undefined, and `position()` the current row's index in it. A top-k drops a
 * row that sorts after its k-th by comparing its leading key's doubles, before evaluating any key;
 * sum and avg add the doubles instead of evaluating their argument.
 */
export interface ColumnNumbers {
  start(): Float64Array | undefined;
  position(): number;
}

export function aggregate(
  op: Op<'aggregate'>,
  input: PhysicalOp,
  env: OpEnv,
  compile: CompileExpression = (e) => env.exprs.compile(e),
  codes?: GroupCodes,
  numbers?: (e: BoundExpression) => ColumnNumbers | undefined,
): PhysicalOp {
  const memory = env.cx.memory;
  const keySlots = op.aggregation.keys.map((k) => k.variable.id);
  const keyFns = op.aggregation.keys.map((k) => compile(k.expression));
  const aggs = op.aggregation.aggregates.map((a) => {
    const def = lookupFunction(a.call.name);
    assert(def !== undefined && def.kind === 'aggregate', `aggregate ${a.call.name} exists`);
    return {
      slot: a.variable.id,
      fn: def as AggregateFunction,
      options: { distinct: a.call.distinct, star: a.call.star },
      value: a.call.args[0] ? compile(a.call.args[0]) : undefined,
      extra: a.call.args[1] ? compile(a.call.args[1]) : undefined,
    };
  });
  const nk = keyFns.length;
  const na = aggs.length;
  const valueFns = aggs.map((a) => a.value);
  const extraFns = aggs.map((a) => a.extra);
  // Aggregates that take exact integers (sum, avg), of one argument that is an INTEGER column.
  const integerSources = op.aggregation.aggregates.map((a, i) => {
    const arg = a.call.args[0];
    const agg = aggs[i] as (typeof aggs)[number];
    if (numbers === undefined || arg === undefined || a.call.args.length !== 1 || a.call.distinct) return undefined;
    return agg.fn.create(agg.options).addExactInteger === undefined ? undefined : numbers(arg);
  });
  const deadline = env.cx.deadline;
  const newGroup = (keys: Value): Group => ({
    keys,
    accs: aggs.map((a) => a.fn.create(a.options)),
  });
  return (arg, sink) => {
    let held = 0;
    const reserve = (bytes: number): void => {
      memory.reserve(bytes);
      held += bytes;
    };
    const groups = new ValueHashMap<Group>();
    // String keys (the common case: group by a name or a city) go through a native Map; equivalence
    // of strings is identity, so both tables together still hold one group per distinct key.
    const byString = new Map<string, Group>();
    const order: Group[] = [];
    let single: Group | undefined;
    const integers = integerSources.map((src) => src?.start());
    const accumulate = (g: Group, row: Row): void => {
      const accs = g.accs;
      for (let i = 0; i < na; i++) {
        const acc = accs[i] as Accumulator;
        const column = integers[i];
        if (column !== undefined) {
          (acc.addExactInteger as (x: number) => void).call(acc, column[(integerSources[i] as ColumnNumbers).position()] as number);
          continue;
        }
        const f = valueFns[i];
        const x = extraFns[i];
        const value = f === undefined ? null : f(row);
        const extra = x === undefined ? undefined : x(row);
        if (acc.fixed === true) {
          acc.add(value, extra);
          continue;
        }
        const before = acc.memoryBytes();
        acc.add(value, extra);
        const grown = acc.memoryBytes() - before;
        if (grown !== 0) reserve(grown);
      }
    };
    const newKey = (key: Value): Group => {
      reserve(GROUP_OVERHEAD_BYTES + estimateValueBytes(key));
      const g = newGroup(key);
      order.push(g);
      return g;
    };
    // The group of the previous row: rows that an expand makes from one node come in a run with
    // the same key (grouping by a property of the node expanded from), so a run hashes its key once.
    // Only strings, integers and null, for which === is the grouping's equivalence.
    let lastKey: Value | undefined;
    let lastGroup: Group | undefined;
    const byKey = (row: Row): Group => {
      if (nk === 0) return (single ??= newGroup(null));
      const key: Value = nk === 1 ? (keyFns[0] as Evaluator)(row) : keyFns.map((f) => f(row));
      if (key === lastKey && lastGroup !== undefined) return lastGroup;
      let found = typeof key === 'string' ? byString.get(key) : groups.get(key);
      if (found === undefined) {
        found = newKey(key);
        if (typeof key === 'string') byString.set(key, found);
        else groups.set(key, found);
      }
      if (typeof key === 'string' || typeof key === 'bigint' || key === null) {
        lastKey = key;
        lastGroup = found;
      }
      return found;
    };
    const dictionary = nk === 1 ? codes?.start() : undefined;
    const emit = (): Flow => {
      // Without grouping keys there is always one row, even over no input (count(*) is 0).
      const all: readonly Group[] = nk === 0 ? [single ?? newGroup(null)] : order;
      return loopArray(
        all,
        (g) => {
          const out = arg.slice();
          if (nk === 1) out[keySlots[0] as number] = g.keys;
          else for (let i = 0; i < nk; i++) out[keySlots[i] as number] = (g.keys as readonly Value[])[i] as Value;
          for (let i = 0; i < aggs.length; i++) out[(aggs[i] as (typeof aggs)[number]).slot] = (g.accs[i] as Accumulator).result();
          return sink(out);
        },
        deadline,
      );
    };
    return holding(() => {
      if (codes !== undefined && dictionary !== undefined) {
        // Groups by the key's code: the same groups, made in the same order, as by the key itself.
        const byCode = new Array<Group | undefined>(dictionary.length);
        return after(
          input(arg, (row) => {
            const c = codes.code();
            accumulate((byCode[c] ??= newKey(dictionary[c] as Value)), row);
            return true;
          }),
          emit,
        );
      }
      return after(
        input(arg, (row) => {
          accumulate(byKey(row), row);
          return true;
        }),
        emit,
      );
    }, () => memory.release(held));
  };
}

export function distinct(op: Op<'distinct'>, input: PhysicalOp, env: OpEnv): PhysicalOp {
  const slots = op.slots;
  const memory = env.cx.memory;
  return (arg, sink) => {
    const seen = new ValueHashSet();
    let held = 0;
    return holding(
      () =>
        input(arg, (row) => {
          const key: Value = slots.length === 1 ? (row[slots[0] as number] as Value) : slots.map((s) => row[s] as Value);
          if (!seen.add(key)) return true;
          const bytes = 48 + estimateValueBytes(key);
          memory.reserve(bytes);
          held += bytes;
          return sink(row);
        }),
      () => memory.release(held),
    );
  };
}

interface Keyed {
  readonly row: Row;
  readonly keys: Value[];
  /** What the row was reserved at. */
  bytes: number;
}

/** 1 for an ascending key, -1 for a descending one. */
export function directionSigns(keys: readonly SortKey[]): number[] {
  return keys.map((k) => (k.direction === 'desc' ? -1 : 1));
}

export function keyComparator(keys: readonly SortKey[]): (a: readonly Value[], b: readonly Value[]) => number {
  const signs = directionSigns(keys);
  const n = signs.length;
  return (a, b) => {
    for (let i = 0; i < n; i++) {
      const c = orderCompare(a[i] as Value, b[i] as Value);
      if (c !== 0) return c * (signs[i] as number);
    }
    return 0;
  };
}

/**
 * Sort, or with `limit` a top-k: once k rows are kept, a row that sorts after the k-th is dropped
 * before it is copied, and the buffer is cut back to k whenever it doubles. Array.prototype.sort is
 * stable, so rows with equal keys keep their input order (and an equal newcomer never displaces).
 */
function sorter(keys: readonly SortKey[], input: PhysicalOp, env: OpEnv, compile: CompileExpression, limit?: Evaluator, skip?: Evaluator, leading?: ColumnNumbers): PhysicalOp {
  const fns = keys.map((k) => compile(k.expression));
  const nk = fns.length;
  const compareKeys = keyComparator(keys);
  const signs = directionSigns(keys);
  const compare = (a: Keyed, b: Keyed): number => compareKeys(a.keys, b.keys);
  const memory = env.cx.memory;
  const deadline = env.cx.deadline;
  return (arg, sink) => {
    const kept: Keyed[] = [];
    let held = 0;
    const k = limit === undefined ? Infinity : asRowCount(limit(arg), 'LIMIT') + (skip === undefined ? 0 : asRowCount(skip(arg), 'SKIP'));
    if (k === 0) return drain(input, arg);
    const scratch: Value[] = new Array<Value>(nk);
    let worst: Keyed | undefined;
    const numbers = limit === undefined ? undefined : leading?.start();
    const sign = signs[0] as number;
    /** The k-th row's first key as a double, when `numbers` holds the first key. */
    let worstNumber = 0;
    const fill = (): Flow =>
      input(arg, (row) => {
        let i = 0;
        if (worst !== undefined) {
          if (numbers !== undefined) {
            const x = numbers[(leading as ColumnNumbers).position()] as number;
            if ((x < worstNumber ? -1 : x > worstNumber ? 1 : 0) * sign > 0) return true;
          }
          // Keys are evaluated left to right only while they tie with the current k-th row, so
          // most rows a top-k drops cost one key.
          let c = 0;
          for (; i < nk && c === 0; i++) {
            scratch[i] = (fns[i] as Evaluator)(row);
            c = orderCompare(scratch[i] as Value, worst.keys[i] as Value) * (signs[i] as number);
          }
          if (c >= 0) return true;
        }
        for (; i < nk; i++) scratch[i] = (fns[i] as Evaluator)(row);
        const entry: Keyed = { row: row.slice(), keys: scratch.slice(), bytes: 0 };
        entry.bytes = rowBytes(entry.row) + 16 * nk;
        kept.push(entry);
        memory.reserve(entry.bytes);
        held += entry.bytes;
        if (kept.length >= 2 * k + 64) {
          kept.sort(compare);
          let dropped = 0;
          for (let i = k; i < kept.length; i++) dropped += (kept[i] as Keyed).bytes;
          kept.length = k;
          worst = kept[k - 1] as Keyed;
          if (numbers !== undefined) worstNumber = Number(worst.keys[0] as bigint);
          memory.release(dropped);
          held -= dropped;
        }
        return true;
      });
    const emit = (): Flow => {
      kept.sort(compare);
      // A large sort runs without row ticks; look at the clock once it is done.
      deadline.check();
      kept.length = Math.min(k, kept.length);
      return loopArray(kept, (entry) => sink(entry.row), deadline);
    };
    return holding(() => after(fill(), emit), () => memory.release(held));
  };
}

export function sort(op: Op<'sort'>, input: PhysicalOp, env: OpEnv): PhysicalOp {
  return sorter(op.keys, input, env, (e) => env.exprs.compile(e));
}

/** The rows a top-k keeps include the skipped ones; a `skip` operator above it drops them. */
export function top(op: Op<'top'>, input: PhysicalOp, env: OpEnv, compile: CompileExpression = (e) => env.exprs.compile(e), leading?: ColumnNumbers): PhysicalOp {
  return sorter(op.keys, input, env, compile, env.exprs.compile(op.limit), op.skip ? env.exprs.compile(op.skip) : undefined, leading);
}

export function skip(op: Op<'skip'>, input: PhysicalOp, env: OpEnv): PhysicalOp {
  const count = env.exprs.compile(op.count);
  return (arg, sink) => {
    let left = asRowCount(count(arg), 'SKIP');
    return input(arg, (row) => (left > 0 ? (left--, true) : sink(row)));
  };
}

export function limit(op: Op<'limit'>, input: PhysicalOp, env: OpEnv): PhysicalOp {
  const count = env.exprs.compile(op.count);
  return (arg, sink) => {
    const max = asRowCount(count(arg), 'LIMIT');
    if (max === 0) return drain(input, arg);
    let n = 0;
    let stopped = false;
    const flow = input(arg, (row) => {
      n++;
      return after(sink(row), (ok) => {
        if (!ok) {
          stopped = true;
          return false;
        }
        return n < max;
      });
    });
    // Reaching the limit stops the input but not whoever reads this operator.
    return after(flow, (ok) => ok || !stopped);
  };
}

/**
 * LIMIT 0 still runs its input up to the first row: updates before it (behind an eager barrier,
 * which runs its whole input first) must happen even when no row is returned.
 */
function drain(input: PhysicalOp, arg: Row): Flow {
  return after(
    input(arg, () => false),
    () => true,
  );
}

export function eager(op: Op<'eager'>, input: PhysicalOp, env: OpEnv): PhysicalOp {
  const { memory, deadline } = env.cx;
  const live = op.live;
  return (arg, sink) => {
    const rows: Row[] = [];
    let held = 0;
    const fill = (): Flow =>
      input(arg, (row) => {
        // Only the slots in scope are kept: a list an earlier clause unwound is not held once per row.
        const kept = arg.slice();
        for (const s of live) kept[s] = row[s] as Value;
        const bytes = rowBytes(kept);
        memory.reserve(bytes);
        held += bytes;
        rows.push(kept);
        return true;
      });
    return holding(() => after(fill(), () => loopArray(rows, sink, deadline)), () => memory.release(held));
  };
}

export function union(op: Op<'union'>, parts: readonly PhysicalOp[], env: OpEnv): PhysicalOp {
  const target = op.part_columns[0] as readonly number[];
  const { memory, deadline } = env.cx;
  return (arg, sink) => {
    const seen = op.all ? undefined : new ValueHashSet();
    let held = 0;
    const part = (p: number): Flow => {
      const columns = op.part_columns[p] as readonly number[];
      return (parts[p] as PhysicalOp)(arg.slice(), (row) => {
          const out = arg.slice();
          for (let i = 0; i < columns.length; i++) out[target[i] as number] = row[columns[i] as number] as Value;
          if (seen !== undefined) {
            const key = target.map((s) => out[s] as Value);
            if (!seen.add(key)) return true;
            const bytes = 48 + estimateValueBytes(key);
            memory.reserve(bytes);
            held += bytes;
          }
          return sink(out);
        });
    };
    return holding(() => loopIterable(parts.keys(), part, deadline), () => memory.release(held));
  };
}

export function discard(input: PhysicalOp): PhysicalOp {
  return (arg) => input(arg, () => true);
}
