import { equals } from '../../common/values/equality.js';
import { ValueHashMap } from '../../common/values/hash.js';
import type { Value } from '../../common/values/value.js';
import type { LogicalOp } from '../plan/logical.js';
import type { Evaluator, PhysicalOp, Row } from './context.js';
import type { OpEnv } from './read-ops.js';
import { bucketKey, type BucketKey } from './scan-table.js';
import { after, holding, loopArray, type Flow } from './slices.js';

/**
 * The value hash join (logical.ts, `value_hash_join`): the right side runs once per argument row into a
 * table keyed by its key values, then each left row walks the bucket of its own key values. Every pair in
 * a bucket is checked with Cypher's `=` before it is emitted, so a pair passes exactly when the nested
 * loop's `left_key = right_key AND ...` is true: a null key, a NaN, or a list holding a null never
 * matches. Each left row meets its matches in the right side's order, which is the order the nested loop
 * emits them in.
 *
 * Keys of strings, booleans and numbers (the usual case) go into a plain Map under a primitive key: the
 * value itself for one key, a tagged text for several, an INTEGER as its nearest double so that `1` and
 * `1.0` meet (values that share a key but differ are told apart by the `=` check). Any other key (a list,
 * a map, a temporal) goes into a table keyed under equivalence (hash.ts), which compares by content; no
 * such value equals a string, a boolean or a number, so the two tables never hold matches of each other.
 */
export function valueHashJoin(op: Extract<LogicalOp, { op: 'value_hash_join' }>, left: PhysicalOp, right: PhysicalOp, env: OpEnv): PhysicalOp {
  const leftKeys = op.left_keys.map((k) => env.exprs.compile(k));
  const rightKeys = op.right_keys.map((k) => env.exprs.compile(k));
  const slots = op.right_slots;
  const memory = env.cx.memory;
  const deadline = env.cx.deadline;
  return (arg, sink) => {
    const plain = new Map<BucketKey, Kept[]>();
    const structured = new ValueHashMap<Kept[]>();
    let held = 0;
    let built = false;
    // Built at the first left row: with no left rows the right side never runs, as in the nested loop.
    const build = (): Flow => {
      built = true;
      return right(arg.slice(), (r) => {
        const keys = keyValues(rightKeys, r);
        if (keys === undefined) return true;
        const p = plainKey(keys);
        // An exact plain key decides `=` by itself: the key values need not be kept for the check.
        const kept: Kept = {
          keys: p !== undefined && exactKeys(keys) ? undefined : keys,
          values: slots.length === 1 ? (r[slots[0] as number] as Value) : slots.map((s) => r[s] as Value),
        };
        const bytes = kept_row_bytes + reference_bytes * ((kept.keys?.length ?? 0) + slots.length);
        memory.reserve(bytes);
        held += bytes;
        const bucket = p === undefined ? structured.getOrCreate(keys, () => []) : plain.get(p);
        if (bucket !== undefined) bucket.push(kept);
        else plain.set(p as BucketKey, [kept]);
        return true;
      });
    };
    const probe = (row: Row): Flow => {
      const keys = keyValues(leftKeys, row);
      if (keys === undefined) return true;
      const p = plainKey(keys);
      const matches = p === undefined ? structured.get(keys) : plain.get(p);
      if (matches === undefined) return true;
      return loopArray(
        matches,
        (m) => {
          if (m.keys !== undefined ? !pairEqual(keys, m.keys) : !exactKeys(keys)) return true;
          if (slots.length === 1) row[slots[0] as number] = m.values as Value;
          else for (let i = 0; i < slots.length; i++) row[slots[i] as number] = (m.values as readonly Value[])[i] as Value;
          return sink(row);
        },
        deadline,
      );
    };
    return holding(
      () => left(arg, (row) => (built ? probe(row) : after(build(), (ok) => (ok ? probe(row) : false)))),
      () => memory.release(held),
    );
  };
}

/** A row of the right side as the table keeps it: its key values and the values of the slots it binds. */
interface Kept {
  /** Absent when the plain key is exact (`exactKeys`): equal keys then mean `=` holds. */
  readonly keys: readonly Value[] | undefined;
  /** The one slot's value when the right side binds one slot, else one per slot. */
  readonly values: Value | readonly Value[];
}

/** Bytes a kept row costs beyond its keys and values (the object and its bucket slot). */
const kept_row_bytes = 48;
/** Bytes a kept key or slot value costs: a reference (the nodes and relationships it names live in the graph). */
const reference_bytes = 8;

/** The key values of a row; undefined when one is null (`=` with null is never true). */
function keyValues(keys: readonly Evaluator[], row: Row): Value[] | undefined {
  const out: Value[] = new Array<Value>(keys.length);
  for (let i = 0; i < keys.length; i++) {
    const v = (keys[i] as Evaluator)(row);
    if (v === null) return undefined;
    out[i] = v;
  }
  return out;
}

/** The plain Map's key for these values; undefined when one of them is not a string, a boolean or a number. */
function plainKey(values: readonly Value[]): BucketKey | undefined {
  if (values.length === 1) return bucketKey(values[0] as Value);
  let text = '';
  for (const v of values) {
    const part = bucketKey(v);
    if (part === undefined) return undefined;
    // A tag and the length keep parts apart whatever characters a string holds.
    const s = String(part);
    text += `${typeof part === 'string' ? 's' : typeof part === 'number' ? 'n' : 'b'}${s.length}:${s}`;
  }
  return text;
}

/**
 * Whether equal plain keys of these values mean Cypher's `=` holds: strings, booleans, and numbers of
 * magnitude up to 2^53 - 1 but NaN (so an INTEGER and a FLOAT share a key exactly when they are equal). A
 * left key that is not exact can share a bucket only with right keys that are not exact either, which are
 * kept and checked.
 */
function exactKeys(values: readonly Value[]): boolean {
  for (const v of values) {
    switch (typeof v) {
      case 'string':
      case 'boolean':
        continue;
      case 'number':
        // A double beyond 2^53 may share its key with an INTEGER it does not equal.
        if (Number.isNaN(v) || Math.abs(v) > Number.MAX_SAFE_INTEGER) return false;
        continue;
      case 'bigint':
        if (v > BigInt(Number.MAX_SAFE_INTEGER) || v < -BigInt(Number.MAX_SAFE_INTEGER)) return false;
        continue;
      default:
        return false;
    }
  }
  return true;
}

function pairEqual(a: readonly Value[], b: readonly Value[]): boolean {
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as Value;
    const y = b[i] as Value;
    // Identical values are `=` (NaN is not identical to itself); everything else takes the full equality.
    if (x === y) continue;
    if (equals(x, y) !== true) return false;
  }
  return true;
}
