import { equals } from '../../../common/values/equality.js';
import type { Value } from '../../../common/values/value.js';
import { freeSlots } from '../../plan/expressions.js';
import type { LogicalOp } from '../../plan/logical.js';
import type { Evaluator, PhysicalOp, Row } from '../context.js';
import { rowBytes, type OpEnv } from '../read-ops.js';
import { after, holding, loop, type Flow } from '../slices.js';
import { BATCH_ROWS, NULL_BOOL, type Batch, type Vec } from './batch.js';
import { batchPlan, formsFor } from './batch-plan.js';
import { BatchScope, runBatches } from './pipeline.js';
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
 * When the left side is eager (an aggregation), its rows are read first, up to `left_rows_kept_max`
 * (copies). A left side that ends within it is the small side: its keys make the table, and the right
 * side streams past it a batch at a time, a pass per key first dropping rows whose value no left row
 * holds, keeping only the rows that match.
 * A longer left side makes the right side the table, which every left row probes. Either way the
 * pairs are those of the row-at-a-time join (value-join-op.ts), in its order: left rows in their
 * order, each meeting its matches in the right side's order, which the pipeline keeps. Otherwise
 * (keys of other types, a snapshot without the forms the pipeline reads, a write set) the
 * row-at-a-time join runs.
 */
type Op<K extends LogicalOp['op']> = Extract<LogicalOp, { op: K }>;

/** A right key as the table holds it. */
type KeyKind = 'num' | 'code' | 'bool';

/** A left key value that can equal no right key value: the probe finds nothing. */
const NO_KEY = Number.NaN;

export function valueJoinOverBatches(op: Op<'value_hash_join'>, left: PhysicalOp, rows: PhysicalOp, env: OpEnv): PhysicalOp | undefined {
  const plan = batchPlan(op.right, false, undefined, false, true);
  if (plan === undefined) return undefined;
  // Every slot the join binds must be a column of the pipeline (an unread expand end is not).
  const columns = op.right_slots.map((s) => plan.layout.findIndex((c) => c.slot === s));
  if (columns.some((c) => c < 0)) return undefined;
  const leftKeys = op.left_keys.map((k) => env.exprs.compile(k));
  const width = leftKeys.length;
  const slots = op.right_slots;
  const keepsLeft = eagerLeft(op.left);
  const memory = env.cx.memory;
  const deadline = env.cx.deadline;
  return (arg, sink) => {
    const forms = formsFor(plan, env, arg);
    if (forms === undefined) return rows(arg, sink);
    const scope = new BatchScope(plan, env, arg, forms.members.nodes.length);
    const keys = op.right_keys.map((k) => compileVector(k, scope));
    const kinds = keys.map(keyKind);
    if (kinds.some((k) => k === undefined)) return rows(arg, sink);
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
      if (row >= ids[0]!.length) {
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
    /** Per key, which typed values the left keys hold (filled once the left side is read), for `matchLeft`'s first pass. */
    const present = keys.map(presenceOf);
    const picked = new Int32Array(BATCH_ROWS);
    /**
     * Right rows into the groups of the left keys (already in the table) they match; the rest pass by.
     * A pass per key over the batch first drops the rows whose value no left row holds, so only
     * likely matches pay for a tuple's hash.
     */
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
    /**
     * Keys that read the scanned node alone are tested against the left keys right after the scan, so a node
     * no left row matches is never expanded (`MATCH (q)-[:KNOWS]->(f) WHERE q.city = city`). Typed keys cannot
     * fail, so testing them before the pattern's filters raises nothing the join would not.
     */
    const keysOfScan = plan.stages.length > 0 && op.right_keys.every((k) => [...freeSlots(k)].every((s) => s === plan.scan.variable));
    const scanKept = new Uint8Array(BATCH_ROWS);
    const scanPicked = new Int32Array(BATCH_ROWS);
    const scanTuple = new Float64Array(width);
    const scanFilter = (b: Batch): Uint8Array => {
      const vecs = keys.map((k) => k.run(b));
      scanKept.fill(0, 0, b.length);
      const m = narrow(vecs, present, b.length, scanPicked);
      for (let p = 0; p < m; p++) {
        const i = scanPicked[p] as number;
        if (rightTuple(vecs, i, scanTuple) && table.find(scanTuple) >= 0) scanKept[i] = 1;
      }
      return scanKept;
    };
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
    /** The left row once with each right row of group `g`, in the right side's order. */
    const emit = (row: Row, g: number): Flow => {
      // An INTEGER beyond 2^53 shares its double with others: `=` decides against the right side's FLOAT.
      if (inexact && !exactlyEqual(leftKeys, row, kinds, table, g)) return true;
      let r = table.first(g);
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
      return g < 0 ? true : emit(row, g);
    };
    /**
     * Left rows are kept (copies) until they pass `left_rows_kept_max`. A left side that ends first is the
     * small one: its keys make the table and the right side streams past it, keeping only the rows that
     * match; otherwise the right side is built and every left row, kept or still to come, probes it.
     */
    const kept: Row[] = [];
    let building = false;
    let built = false;
    const probeKept = (): Flow => {
      let i = 0;
      return loop(() => (i < kept.length ? probe(kept[i++] as Row) : null), deadline);
    };
    const onLeft = (row: Row): Flow => {
      if (built) return probe(row);
      if (keepsLeft && !building && kept.length < left_rows_kept_max) {
        const copy = row.slice();
        charge(rowBytes(copy));
        kept.push(copy);
        return true;
      }
      building = true;
      batchedJoins.built_right++;
      return after(runBatches(plan, forms, scope, env, buildRight), (ok) => {
        built = true;
        return ok ? after(probeKept(), (more) => (more ? probe(row) : false)) : false;
      });
    };
    const joinKept = (): Flow => {
      // With no left rows the right side never runs, as in the nested loop.
      if (kept.length === 0) return true;
      batchedJoins.built_left++;
      const groups = new Int32Array(kept.length);
      const exact = new Uint8Array(kept.length);
      for (let i = 0; i < kept.length; i++) {
        groups[i] = leftTuple(kept[i] as Row) ? table.intern(tuple) : -1;
        if (groups[i] !== -1) for (let k = 0; k < width; k++) mark(present[k], tuple[k] as number);
        exact[i] = inexact ? 0 : 1;
      }
      return after(runBatches(plan, forms, scope, env, matchLeft, keysOfScan ? scanFilter : undefined), (ok) => {
        if (!ok) return false;
        let i = 0;
        return loop(() => {
          if (i >= kept.length) return null;
          const g = groups[i] as number;
          inexact = exact[i] === 0;
          const row = kept[i++] as Row;
          return g < 0 ? true : emit(row, g);
        }, deadline);
      });
    };
    return holding(
      () => after(left(arg, onLeft), (ok) => (ok && !building ? joinKept() : ok)),
      () => memory.release(held),
    );
  };
}

/** Runs that built the table from each side since the process started (tests check that both were taken). */
export const batchedJoins = { built_left: 0, built_right: 0 };

/** Left rows kept before the right side is built: below it, the left side makes the table (its keys) and the right streams past. */
export const left_rows_kept_max = 4096;
/** Right rows the kept ids start with room for (they double as needed). */
const kept_rows_initial = 1024;

/**
 * The typed values of one key the left rows hold, by value: a byte per dictionary code, or per
 * integer of a column whose magnitudes stay within `presence_integer_magnitude_max`. Undefined for
 * a key of other values (floats, wide integers): its rows are not narrowed.
 */
interface Presence {
  readonly offset: number;
  readonly bits: Uint8Array;
}

/** An integer key whose values stay within this magnitude is narrowed through a byte per value. */
const presence_integer_magnitude_max = 1 << 16;

function presenceOf(k: Vectorized): Presence | undefined {
  if (k.kind === 'code') return { offset: 0, bits: new Uint8Array(k.dictionary.length) };
  if (k.kind === 'bool') return { offset: 0, bits: new Uint8Array(2) };
  if (k.kind === 'num' && k.integer && k.max_abs <= presence_integer_magnitude_max) return { offset: k.max_abs, bits: new Uint8Array(2 * k.max_abs + 1) };
  return undefined;
}

/** Marks a left key's double; a value outside the key's range is never held on the right. */
function mark(p: Presence | undefined, x: number): void {
  if (p === undefined) return;
  const at = x + p.offset;
  if (Number.isInteger(at) && at >= 0 && at < p.bits.length) p.bits[at] = 1;
}

/** The rows of the batch whose every narrowed key holds a value the left rows hold, into `out`; answers how many. */
function narrow(vecs: readonly Vec[], present: readonly (Presence | undefined)[], n: number, out: Int32Array): number {
  for (let i = 0; i < n; i++) out[i] = i;
  let m = n;
  for (let k = 0; k < vecs.length; k++) {
    const p = present[k];
    if (p === undefined) continue;
    const v = vecs[k] as Vec;
    const bits = p.bits;
    let w = 0;
    if (v.kind === 'code') {
      const codes = v.codes;
      for (let j = 0; j < m; j++) {
        const i = out[j] as number;
        const c = codes[i] as number;
        if (c >= 0 && bits[c] === 1) out[w++] = i;
      }
    } else if (v.kind === 'num') {
      const { values, nulls } = v;
      const offset = p.offset;
      for (let j = 0; j < m; j++) {
        const i = out[j] as number;
        if (nulls[i] === 0 && bits[(values[i] as number) + offset] === 1) out[w++] = i;
      }
    } else if (v.kind === 'bool') {
      const values = v.values;
      for (let j = 0; j < m; j++) {
        const i = out[j] as number;
        if (bits[values[i] as number] === 1) out[w++] = i;
      }
    } else continue;
    m = w;
  }
  return m;
}

/**
 * Whether the left side makes all its rows before it passes any on (an aggregation, under projections of
 * bare variables; a DISTINCT passes each row on when first seen): then reading them all before the right side runs evaluates nothing the
 * row-at-a-time join would not have, even under a LIMIT. Any other left side is probed row by row as it comes.
 */
function eagerLeft(op: LogicalOp): boolean {
  let at = op;
  while (at.op === 'project' && at.items.every((item) => item.expression.kind === 'variable')) at = at.input;
  return at.op === 'aggregate';
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
