import { equals } from '../../common/values/equality.js';
import { ValueHashMap } from '../../common/values/hash.js';
import type { Value } from '../../common/values/value.js';
import type { LogicalOp } from '../plan/logical.js';
import type { Evaluator, PhysicalOp, Row } from './context.js';
import { rowBytes, type OpEnv } from './read-ops.js';
import { after, holding, loopArray, type Flow } from './slices.js';

/**
 * The value hash join (logical.ts, `value_hash_join`): the right side runs once per argument row into a
 * table keyed by its key values, then each left row walks the bucket of its own key values. The table is
 * keyed under equivalence (hash.ts: an INTEGER and a FLOAT of one value share a bucket, lists and maps
 * compare structurally), and every pair in a bucket is checked with Cypher's `=` before it is emitted, so
 * a pair passes exactly when the nested loop's `left_key = right_key AND ...` is true: a null key, a NaN,
 * or a list holding a null never matches. Each left row meets its matches in the right side's order,
 * which is the order the nested loop emits them in.
 */
export function valueHashJoin(op: Extract<LogicalOp, { op: 'value_hash_join' }>, left: PhysicalOp, right: PhysicalOp, env: OpEnv): PhysicalOp {
  const leftKeys = op.left_keys.map((k) => env.exprs.compile(k));
  const rightKeys = op.right_keys.map((k) => env.exprs.compile(k));
  const slots = op.right_slots;
  const memory = env.cx.memory;
  const deadline = env.cx.deadline;
  return (arg, sink) => {
    const table = new ValueHashMap<Row[]>();
    let held = 0;
    let built = false;
    // Built at the first left row: with no left rows the right side never runs, as in the nested loop.
    const build = (): Flow => {
      built = true;
      return right(arg.slice(), (r) => {
        const key = keyOf(rightKeys, r);
        if (key === undefined) return true;
        const kept = r.slice();
        const bytes = rowBytes(kept);
        memory.reserve(bytes);
        held += bytes;
        table.getOrCreate(key, () => []).push(kept);
        return true;
      });
    };
    const probe = (row: Row): Flow => {
      const key = keyOf(leftKeys, row);
      if (key === undefined) return true;
      const matches = table.get(key);
      if (matches === undefined) return true;
      return loopArray(
        matches,
        (m) => {
          if (!pairEqual(key, keyOf(rightKeys, m) as readonly Value[])) return true;
          for (const s of slots) row[s] = m[s] as Value;
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

/** The key values of a row; undefined when one is null (`=` with null is never true). */
function keyOf(keys: readonly Evaluator[], row: Row): Value[] | undefined {
  const out: Value[] = new Array<Value>(keys.length);
  for (let i = 0; i < keys.length; i++) {
    const v = (keys[i] as Evaluator)(row);
    if (v === null) return undefined;
    out[i] = v;
  }
  return out;
}

function pairEqual(a: readonly Value[], b: readonly Value[]): boolean {
  for (let i = 0; i < a.length; i++) if (equals(a[i] as Value, b[i] as Value) !== true) return false;
  return true;
}
