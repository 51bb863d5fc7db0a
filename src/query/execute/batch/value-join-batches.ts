import { equals } from '../../../common/values/equality.js';
import type { Value } from '../../../common/values/value.js';
import type { BoundExpression } from '../../bind/bound-expression.js';
import { conjuncts, freeSlots } from '../../plan/expressions.js';
import type { LogicalOp } from '../../plan/logical.js';
import type { Evaluator, PhysicalOp, Row, Sink } from '../context.js';
import { rowBytes, type OpEnv } from '../read-ops.js';
import { after, holding, loop, type Flow } from '../slices.js';
import { Batch, BATCH_ROWS, NULL_BOOL, type LayoutColumn, type Vec } from './batch.js';
import { batchPlan, expandsOf, formsFor, type BatchPlan, type Forms } from './batch-plan.js';
import { mark, narrow, presenceBitmap, presenceOf, type Presence } from './join-narrowing.js';
import { estimatedRows } from './join-estimate.js';
import { BatchScope, runBatches } from './pipeline.js';
import type { BatchConsumer } from './stages.js';
import { grownIds, NO_ROW, TupleTable } from './tuple-table.js';
import { EXACT_INTEGER_MAX } from './typed-columns.js';
import { compileVector, type Vectorized } from './vector-expressions.js';

/**
 * The value hash join (logical.ts, `value_hash_join`) with its right side run as a batched pipeline
 * (pipeline.ts), taken when the right side is a label scan under filters and expands and every right
 * key is typed over its batches (numbers, dictionary-coded strings, booleans). Keys are compared as
 * doubles in a tuple table (tuple-table.ts): a right row's key vectors give them directly, a left
 * row's key values are turned into the same doubles (a string its code in the key's dictionary, and a
 * string the right side never holds matches nothing). A kept right row is only the entity ids of the
 * slots the join binds, in typed arrays.
 *
 * The smaller side makes the table. When the left side is eager (an aggregation, perhaps under projections
 * of variables and filters that cannot fail), its rows are read first (copies), up to the pattern side's
 * estimated rows (join-estimate.ts: its scan's members times the mean degree of each expand, from the
 * CSRs' degree summaries), at least `left_rows_kept_min` and at most `left_rows_kept_max`. A left side that
 * ends within it makes the table from its keys, and the right side streams past it a batch at a time,
 * narrowed by the values the left keys hold (join-narrowing.ts): scanned nodes before they are expanded,
 * end nodes inside the expand, then each batch before its tuples are hashed, so only the rows that match
 * are kept and an expanded row no left row can meet is never made. A longer left side makes the right side
 * the table, which the left rows probe a batch at a time (their key values turned to doubles key by key,
 * then looked up together). A left side that is not eager probes row by row as its rows come, so that
 * nothing past a LIMIT is evaluated. Either way the pairs are those of the row-at-a-time join
 * (value-join-op.ts), in its order: left rows in their order, each meeting its matches in the right side's
 * order, which the pipeline keeps. Otherwise (keys of other types, a snapshot without the forms the pipeline
 * reads, a write set) the row-at-a-time join runs.
 */
type Op<K extends LogicalOp['op']> = Extract<LogicalOp, { op: K }>;

/** A right key as the table holds it. */
type KeyKind = 'num' | 'code' | 'bool';

/** A left key value that can equal no right key value: the probe finds nothing. */
const NO_KEY = Number.NaN;

/** The batched join as an operator of rows: `rows` (the row-at-a-time join) runs where it cannot run batched. */
export function joinAsRows(join: JoinBatches, rows: PhysicalOp): PhysicalOp {
  return (arg, sink) => join.open(arg)?.run({ kind: 'rows', sink }) ?? rows(arg, sink);
}

/**
 * Where a batched join's pairs go: row by row into a sink (the join as an operator of rows), or as batches
 * of the joined slots' ids (`JoinBatches.layout`) into a consumer that reads nothing but those slots (an
 * aggregation over the join, batch-aggregate.ts).
 */
export type JoinOut = { readonly kind: 'rows'; readonly sink: Sink } | { readonly kind: 'batches'; readonly consume: BatchConsumer };

/** A batched value join, opened per argument row. */
export interface JoinBatches {
  /** The joined batches' columns: one per slot the join binds, in `right_slots` order. */
  readonly layout: readonly LayoutColumn[];
  /**
   * The join over `arg`, or undefined when it cannot run batched over this snapshot (the row-at-a-time join
   * runs then). `scope` types expressions over the joined batches.
   */
  open(arg: Row): { readonly scope: BatchScope; run(out: JoinOut): Flow } | undefined;
}

/** The value join over batches, or undefined when its right side is not a batched pipeline that binds every joined slot. */
export function joinOverBatches(op: Op<'value_hash_join'>, left: PhysicalOp, env: OpEnv): JoinBatches | undefined {
  const plan = batchPlan(op.right, false, undefined, false, true);
  if (plan === undefined) return undefined;
  // Every slot the join binds must be a column of the pipeline (an unread expand end is not).
  const columns = op.right_slots.map((s) => plan.layout.findIndex((c) => c.slot === s));
  if (columns.some((c) => c < 0)) return undefined;
  const leftKeys = op.left_keys.map((k) => env.exprs.compile(k));
  const width = leftKeys.length;
  const slots = op.right_slots;
  const keepsLeft = eagerLeft(op.left);
  // Keys that read the scanned node alone, tested right after the scan (`q.city = city` in
  // `MATCH (q)-[:KNOWS]->(f) WHERE q.city = city AND f.age = age`), so a node no left row matches is never expanded.
  const scanKeys = op.right_keys.map((k) => plan.stages.length > 0 && readsOnly(k, plan.scan.variable));
  const allOfScan = scanKeys.every((x) => x);
  const memory = env.cx.memory;
  const deadline = env.cx.deadline;
  const layout = columns.map((c) => plan.layout[c] as LayoutColumn);
  const joined: BatchPlan = { ...plan, layout };
  const open = (arg: Row): { readonly scope: BatchScope; run(out: JoinOut): Flow } | undefined => {
    const forms = formsFor(plan, env, arg);
    if (forms === undefined) return undefined;
    const scope = new BatchScope(plan, env, arg, forms.members.nodes.length);
    const keys = op.right_keys.map((k) => compileVector(k, scope));
    const kinds = keys.map(keyKind);
    if (kinds.some((k) => k === undefined)) return undefined;
    const joinedScope = new BatchScope(joined, env, arg, forms.members.nodes.length);
    const run = (out: JoinOut): Flow => {
      let held = 0;
      const charge = (bytes: number): void => {
        memory.reserve(bytes);
        held += bytes;
      };
      const table = new TupleTable(width, charge);
      /** Per joined slot, the entity id of each kept right row (a row of `table`). */
      let ids = columns.map(() => new Int32Array(kept_rows_initial));
      charge(ids.length * kept_rows_initial * 4);
      const keep = (b: Batch, i: number, g: number): void => {
        const row = table.append(g);
        // A join that binds no slot (`RETURN count(*)`) keeps only the count of each group's rows.
        if (ids.length > 0 && row >= ids[0]!.length) {
          charge(ids.length * ids[0]!.byteLength);
          ids = ids.map(grownIds);
        }
        for (let c = 0; c < columns.length; c++) (ids[c] as Int32Array)[row] = (b.columns[columns[c] as number] as Int32Array)[i] as number;
      };
      const refs = columns.map((c) => scope.entityRef(c));
      const tuple = new Float64Array(width);
      /** Right rows into the table, each in the group of its key (a null or NaN key equals nothing: never met). */
      const buildRight = (b: Batch): void => {
        const vecs = keys.map((k) => k.run(b));
        for (let i = 0, n = b.length; i < n; i++) if (rightTuple(vecs, i, tuple)) keep(b, i, table.intern(tuple));
      };
      /** Per key, which typed values the left keys hold (filled once the left side is read), for narrowing. */
      const present = keys.map(presenceOf);
      const picked = new Int32Array(BATCH_ROWS);
      /** Right rows into the groups of the left keys (already in the table) they match; the rest pass by. */
      const matchLeft = (b: Batch): void => {
        const vecs = keys.map((k) => k.run(b));
        const m = narrow(vecs, present, b.length, picked);
        for (let p = 0; p < m; p++) {
          const i = picked[p] as number;
          if (!rightTuple(vecs, i, tuple)) continue;
          const g = table.find(tuple);
          if (g >= 0) keep(b, i, g);
        }
      };
      /** With every key on the scanned node the whole tuple is looked up; otherwise each such key narrows alone. */
      const scanKept = new Uint8Array(BATCH_ROWS);
      const scanPicked = new Int32Array(BATCH_ROWS);
      const scanTuple = new Float64Array(width);
      const scanVecs: (Vec | undefined)[] = keys.map(() => undefined);
      const scanFilter = (b: Batch): Uint8Array => {
        for (let k = 0; k < width; k++) scanVecs[k] = scanKeys[k] === true ? (keys[k] as Vectorized).run(b) : undefined;
        scanKept.fill(0, 0, b.length);
        const m = narrow(scanVecs, present, b.length, scanPicked);
        for (let p = 0; p < m; p++) {
          const i = scanPicked[p] as number;
          if (!allOfScan || (rightTuple(scanVecs as Vec[], i, scanTuple) && table.find(scanTuple) >= 0)) scanKept[i] = 1;
        }
        return scanKept;
      };
      const narrowsScan = scanKeys.some((x, k) => x && (allOfScan || present[k] !== undefined));
      /** The left row's key as doubles in `tuple`; false when it can equal no right key. `inexact`: an INTEGER beyond 2^53 is among them. */
      let inexact = false;
      const leftTuple = (row: Row): boolean => {
        inexact = false;
        for (let k = 0; k < width; k++) {
          const v = (leftKeys[k] as Evaluator)(row);
          const x = leftDouble(v, kinds[k] as KeyKind, keys[k] as Vectorized);
          if (Number.isNaN(x)) return false;
          tuple[k] = x;
          if (typeof v === 'bigint' && !Number.isSafeInteger(x)) inexact = true;
        }
        return true;
      };
      /** Joined rows as batches of the joined slots' ids, pushed on when full and at the end (`flush`). */
      const joinedBatch = out.kind === 'batches' ? new Batch(columns.length) : undefined;
      if (joinedBatch !== undefined) batchedJoins.batches_out++;
      const flush = (): void => {
        if (joinedBatch === undefined || joinedBatch.length === 0 || out.kind !== 'batches') return;
        out.consume(joinedBatch, undefined);
        joinedBatch.length = 0;
        deadline.check();
      };
      /** Each right row of group `g` into the joined batch, in the right side's order. */
      const emitIds = (b: Batch, g: number): Flow => {
        const joinedWidth = columns.length;
        for (let r = table.first(g); r !== NO_ROW; r = table.next(r)) {
          const at = b.length++;
          for (let c = 0; c < joinedWidth; c++) (b.columns[c] as Int32Array)[at] = (ids[c] as Int32Array)[r] as number;
          if (b.length === BATCH_ROWS) flush();
        }
        return true;
      };
      /** The left row once with each right row of group `g`, in the right side's order; `loose`: it has an INTEGER key beyond 2^53. */
      const emit = (row: Row, g: number, loose: boolean): Flow => {
        // An INTEGER beyond 2^53 shares its double with others: `=` decides against the right side's FLOAT.
        if (loose && !exactlyEqual(leftKeys, row, kinds, table, g)) return true;
        if (joinedBatch !== undefined) return emitIds(joinedBatch, g);
        const sink = (out as Extract<JoinOut, { kind: 'rows' }>).sink;
        let r = table.first(g);
        // A group of left keys no right row matched.
        if (r === NO_ROW) return true;
        if (table.next(r) === NO_ROW) {
          // One match (a join on a key the pattern side holds once): no loop to set up.
          for (let c = 0; c < slots.length; c++) row[slots[c] as number] = (refs[c] as (id: number) => Value)((ids[c] as Int32Array)[r] as number);
          return sink(row);
        }
        return loop(() => {
          if (r === NO_ROW) return null;
          for (let c = 0; c < slots.length; c++) row[slots[c] as number] = (refs[c] as (id: number) => Value)((ids[c] as Int32Array)[r] as number);
          r = table.next(r);
          return sink(row);
        }, deadline);
      };
      const probe = (row: Row): Flow => {
        if (!leftTuple(row)) return true;
        const g = table.find(tuple);
        return g < 0 ? true : emit(row, g, inexact);
      };
      const probes = new BatchProbe(leftKeys, kinds as KeyKind[], keys, table);
      /** Left rows a batch of BATCH_ROWS at a time: each batch's keys turned to doubles key by key and looked up together, then emitted in order. */
      const probeRows = (batch: readonly Row[]): Flow => {
        let from = 0;
        let i = 0;
        let n = 0;
        return loop(() => {
          if (i === n) {
            if (from >= batch.length) return null;
            n = probes.find(batch, from, Math.min(batch.length, from + BATCH_ROWS));
            from += n;
            i = 0;
          }
          const at = i++;
          const g = probes.groups[at] as number;
          return g < 0 ? true : emit(batch[from - n + at] as Row, g, probes.loose[at] === 1);
        }, deadline);
      };
      /**
       * Left rows are kept (copies) until they pass the pattern side's estimate. A left side that ends first is
       * the smaller one: its keys make the table and the right side streams past it, keeping only the rows that
       * match; otherwise the right side is built and every left row, kept or still to come, probes it.
       */
      const keptMax = keepsLeft ? Math.min(left_rows_kept_max, Math.max(left_rows_kept_min, estimatedRows(plan, forms))) : 0;
      const kept: Row[] = [];
      let pending: Row[] = [];
      let building = false;
      let built = false;
      const onLeft = (row: Row): Flow => {
        if (built) {
          // Row by row, nothing past a LIMIT above is evaluated; under a consumer of batches (which reads all its
          // input) rows are probed a batch at a time as for an eager left side.
          if (!keepsLeft && joinedBatch === undefined) return probe(row);
          // An eager left side has made its rows already: they are probed a batch at a time.
          const copy = row.slice();
          charge(rowBytes(copy));
          pending.push(copy);
          if (pending.length < BATCH_ROWS) return true;
          const full = pending;
          pending = [];
          return probeRows(full);
        }
        if (keepsLeft && !building && kept.length < keptMax) {
          const copy = row.slice();
          charge(rowBytes(copy));
          kept.push(copy);
          return true;
        }
        building = true;
        batchedJoins.built_right++;
        return after(runBatches(plan, forms, scope, env, buildRight), (ok) => {
          built = true;
          return ok ? after(probeRows(kept), (more) => (more ? probe(row) : false)) : false;
        });
      };
      const joinKept = (): Flow => {
        // With no left rows the right side never runs, as in the nested loop.
        if (kept.length === 0) return true;
        batchedJoins.built_left++;
        table.reserve(kept.length);
        const groups = new Int32Array(kept.length);
        const exact = new Uint8Array(kept.length);
        for (let i = 0; i < kept.length; i++) {
          groups[i] = leftTuple(kept[i] as Row) ? table.intern(tuple) : -1;
          if (groups[i] !== -1) for (let k = 0; k < width; k++) mark(present[k], tuple[k] as number);
          exact[i] = inexact ? 0 : 1;
        }
        const narrowed = withEndPresence(plan, forms, op.right_keys, keys, present, scope);
        return after(runBatches(plan, narrowed, scope, env, matchLeft, narrowsScan ? scanFilter : undefined), (ok) => {
          if (!ok) return false;
          let i = 0;
          return loop(() => {
            if (i >= kept.length) return null;
            const g = groups[i] as number;
            const loose = exact[i] === 0;
            const row = kept[i++] as Row;
            return g < 0 ? true : emit(row, g, loose);
          }, deadline);
        });
      };
      const finishLeft = (ok: boolean): Flow => {
        if (!ok) return false;
        const rest = !building ? joinKept() : pending.length === 0 ? true : probeRows(pending);
        return joinedBatch === undefined ? rest : after(rest, (more) => (more ? (flush(), true) : false));
      };
      return holding(
        () => after(left(arg, onLeft), finishLeft),
        () => memory.release(held),
      );
    };
    return { scope: joinedScope, run };
  };
  return { layout, open };
}

/**
 * The left rows' keys as the table's doubles, a batch at a time: each key evaluated over the batch's rows in
 * turn (one evaluator and one key kind per loop), then every tuple looked up in the table.
 */
class BatchProbe {
  /** Per row of the batch, its group or -1. */
  readonly groups = new Int32Array(BATCH_ROWS);
  /** Per row of the batch, 1 when an INTEGER key is beyond 2^53 (`=` decides, see exactlyEqual). */
  readonly loose = new Uint8Array(BATCH_ROWS);
  /** Row i's tuple at [i * width, (i + 1) * width). */
  private readonly tuples: Float64Array;

  constructor(
    private readonly leftKeys: readonly Evaluator[],
    private readonly kinds: readonly KeyKind[],
    private readonly keys: readonly Vectorized[],
    private readonly table: TupleTable,
  ) {
    this.tuples = new Float64Array(BATCH_ROWS * leftKeys.length);
  }

  /** Looks up rows [from, to) of `rows` (at most BATCH_ROWS of them) into `groups` and `loose`; answers how many. */
  find(rows: readonly Row[], from: number, to: number): number {
    const n = to - from;
    const width = this.leftKeys.length;
    const tuples = this.tuples;
    const loose = this.loose;
    loose.fill(0, 0, n);
    for (let k = 0; k < width; k++) {
      const f = this.leftKeys[k] as Evaluator;
      const kind = this.kinds[k] as KeyKind;
      const key = this.keys[k] as Vectorized;
      for (let i = 0; i < n; i++) {
        const v = f(rows[from + i] as Row);
        const x = leftDouble(v, kind, key);
        tuples[i * width + k] = x;
        if (typeof v === 'bigint' && !Number.isSafeInteger(x)) loose[i] = 1;
      }
    }
    for (let i = 0; i < n; i++) {
      let some = true;
      // NO_KEY (NaN) in any place: the row can equal no right key.
      for (let k = 0; k < width; k++) if (Number.isNaN(tuples[i * width + k] as number)) some = false;
      this.groups[i] = some ? this.table.findAt(tuples, i * width) : -1;
    }
    return n;
  }
}

/**
 * The forms with, for each plain expand of the plan, a bitmap by node id of the end nodes whose keys (the
 * join's keys that read that end node alone, as `x.prop` on a typed column) hold a value the left rows hold:
 * the expand tests it as it tests end labels, so no row is made for an end node the join would drop.
 */
function withEndPresence(
  plan: BatchPlan,
  forms: Forms,
  rightKeys: readonly BoundExpression[],
  keys: readonly Vectorized[],
  present: readonly (Presence | undefined)[],
  scope: BatchScope,
): Forms {
  const expands = expandsOf(plan);
  let bitmaps: (readonly Uint8Array[])[] | undefined;
  expands.forEach((e, j) => {
    if (e.into || e.to_unused === true || !plan.stages.some((s) => s.kind === 'expand' && s.op === e)) return;
    rightKeys.forEach((key, k) => {
      if (key.kind !== 'property' || !readsOnly(key, e.to)) return;
      const bitmap = presenceBitmap(key, keys[k] as Vectorized, present[k], scope.columnOf(e.to, key.key));
      if (bitmap === undefined) return;
      batchedJoins.end_narrowed++;
      bitmaps ??= forms.bitmaps.slice();
      bitmaps[j] = [...(bitmaps[j] ?? []), bitmap];
    });
  });
  return bitmaps === undefined ? forms : { ...forms, bitmaps };
}

/** Whether `e` reads slot `slot` and nothing else. */
function readsOnly(e: BoundExpression, slot: number): boolean {
  const free = freeSlots(e);
  return free.size === 1 && free.has(slot);
}

/**
 * Runs that built the table from each side since the process started, expands whose end nodes were narrowed by
 * a key, and runs whose pairs left as batches (tests check that each was taken).
 */
export const batchedJoins = { built_left: 0, built_right: 0, end_narrowed: 0, batches_out: 0 };

/** Left rows always kept before the right side is built: below it, the left side makes the table (its keys) and the right streams past. */
export const left_rows_kept_min = 4096;
/** Left rows kept at most, however many rows the pattern side is estimated to make: past it, the right side makes the table. */
export const left_rows_kept_max = 1 << 20;
/** Right rows the kept ids start with room for (they double as needed). */
const kept_rows_initial = 1024;

/**
 * Whether the left side makes all its rows before it passes any on (an aggregation, under projections of
 * bare variables and filters that cannot fail; a DISTINCT passes each row on when first seen): then reading
 * them all before the right side runs evaluates nothing the row-at-a-time join would not have that could
 * show, even under a LIMIT. Any other left side is probed row by row as it comes.
 */
function eagerLeft(op: LogicalOp): boolean {
  let at = op;
  for (;;) {
    if (at.op === 'project' && at.items.every((item) => item.expression.kind === 'variable')) at = at.input;
    else if (at.op === 'filter' && conjuncts(at.predicate).every(cannotFail)) at = at.input;
    else break;
  }
  return at.op === 'aggregate';
}

const COMPARISONS: ReadonlySet<string> = new Set(['eq', 'neq', 'lt', 'lte', 'gt', 'gte']);

/**
 * A comparison of variables, literals and parameters (`WITH ... count(*) AS c WHERE c > 40`), or a null test of a
 * variable: such a test answers true, false or null for any values and never raises an error.
 */
function cannotFail(e: BoundExpression): boolean {
  const operand = (x: BoundExpression): boolean => x.kind === 'variable' || x.kind === 'literal' || x.kind === 'parameter';
  if (e.kind === 'binary' && COMPARISONS.has(e.op)) return operand(e.left) && operand(e.right);
  return e.kind === 'is_null' && e.operand.kind === 'variable';
}

function keyKind(k: Vectorized): KeyKind | undefined {
  return k.kind === 'any' ? undefined : k.kind;
}

/** Row `i`'s key values into `tuple`; false when one is null or NaN. */
function rightTuple(vecs: readonly Vec[], i: number, tuple: Float64Array): boolean {
  for (let k = 0; k < vecs.length; k++) {
    const v = vecs[k] as Vec;
    let x: number;
    switch (v.kind) {
      case 'num':
        if (v.nulls[i] === 1) return false;
        x = v.values[i] as number;
        if (x !== x) return false;
        // -0.0 = 0.0, and both must find one group.
        if (x === 0) x = 0;
        break;
      case 'code':
        x = v.codes[i] as number;
        if (x < 0) return false;
        break;
      case 'bool':
        x = v.values[i] as number;
        if (x === NULL_BOOL) return false;
        break;
      case 'any':
        return false;
    }
    tuple[k] = x;
  }
  return true;
}

/** A left key value as the double a right key of `kind` holds for an equal value, or NO_KEY when none can be equal. */
function leftDouble(v: Value, kind: KeyKind, key: Vectorized): number {
  switch (kind) {
    case 'num':
      if (typeof v === 'bigint') return Number(v);
      if (typeof v === 'number') return v === 0 ? 0 : v;
      return NO_KEY;
    case 'code': {
      if (typeof v !== 'string') return NO_KEY;
      const code = (key as Extract<Vectorized, { kind: 'code' }>).index.get(v);
      return code === undefined ? NO_KEY : code;
    }
    case 'bool':
      return typeof v === 'boolean' ? (v ? 1 : 0) : NO_KEY;
  }
}

/**
 * Whether the left row's INTEGER keys beyond 2^53 equal the group's values. A right number key below
 * 2^53 in magnitude is exact, so a group found by such a double holds FLOATs (an INTEGER column never
 * reaches it); Cypher's `=` on the INTEGER and that FLOAT decides.
 */
function exactlyEqual(leftKeys: readonly Evaluator[], row: Row, kinds: readonly (KeyKind | undefined)[], table: TupleTable, g: number): boolean {
  for (let k = 0; k < leftKeys.length; k++) {
    if (kinds[k] !== 'num') continue;
    const v = (leftKeys[k] as Evaluator)(row);
    if (typeof v !== 'bigint' || (v <= BigInt(EXACT_INTEGER_MAX) && v >= -BigInt(EXACT_INTEGER_MAX))) continue;
    if (equals(v, table.key(g, k)) !== true) return false;
  }
  return true;
}
