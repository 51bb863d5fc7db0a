import { assertNever } from '../../common/assert.js';
import type { Value } from '../../common/values/value.js';
import { selector_count_max, type PathSelector } from '../ast/pattern.js';
import type { BoundExpression } from '../bind/bound-expression.js';
import type { LogicalOp } from '../plan/logical.js';
import type { PhysicalOp, Row } from './context.js';
import { argumentError } from '../errors.js';
import type { OpEnv } from './read-ops.js';
import { ROW_OVERHEAD_BYTES } from './read-ops.js';
import { after, loopArray } from './slices.js';

type SelectPathsOp = Extract<LogicalOp, { op: 'select_paths' }>;

/** One match of the path pattern: its partition, its length and the slots it bound. */
interface Match {
  readonly partition: string;
  readonly length: number;
  readonly values: readonly Value[];
}

/** Bytes a kept value costs (a reference, or a small list of references). */
const VALUE_BYTES = 16;

/**
 * A selective path selector (SHORTEST k, SHORTEST k GROUPS, ALL SHORTEST, ANY k). Per input row,
 * every match of the path pattern is found first (its pre-filters are part of `inner`), held against
 * the memory budget, then partitioned by first and last node; each partition keeps what the selector
 * picks, and the MATCH's WHERE filters what is kept afterwards (it sits above this operator).
 */
export function selectPaths(op: SelectPathsOp, input: PhysicalOp, inner: PhysicalOp, env: OpEnv): PhysicalOp {
  const { memory, deadline } = env.cx;
  const bytes = ROW_OVERHEAD_BYTES + VALUE_BYTES * op.slots.length;
  const selectorAt = selectorReader(op.selector, op.count, env);
  const idOf = (v: Value): string => (v === null ? 'null' : String((v as { id: number }).id));
  return (arg, sink) =>
    input(arg, (row) => {
      const selector = selectorAt(row);
      const found: Match[] = [];
      let held = 0;
      const collected = inner(row, (r: Row) => {
        let length = 0;
        for (const s of op.rels) {
          const v = r[s] as Value;
          length += Array.isArray(v) ? v.length : v === null ? 0 : 1;
        }
        memory.reserve(bytes);
        held += bytes;
        found.push({ partition: `${idOf(r[op.start] as Value)}:${idOf(r[op.end] as Value)}`, length, values: op.slots.map((s) => r[s] as Value) });
        return true;
      });
      return after(collected, (ok) => {
        if (!ok) {
          memory.release(held);
          return false;
        }
        const kept = select(found, selector);
        const emitted = loopArray(
          kept,
          (m) => {
            op.slots.forEach((s, i) => {
              row[s] = m.values[i] as Value;
            });
            return sink(row);
          },
          deadline,
        );
        return after(emitted, (done) => {
          memory.release(held);
          return done;
        });
      });
    });
}

/**
 * The ends of a searched path on a row: the start node and its id, and, when the far end is bound (`into`), its
 * id (-1 otherwise). Undefined when a bound end is null: the row has no path.
 */
export function searchEnds(row: Row, from: number, to: number, into: boolean): { readonly src: Value; readonly srcId: number; readonly target: number } | undefined {
  const src = row[from] as Value;
  if (src === null) return undefined;
  let target = -1;
  if (into) {
    const t = row[to] as Value;
    if (t === null) return undefined;
    target = (t as { id: number }).id;
  }
  return { src, srcId: (src as { id: number }).id, target };
}

/** The selector, with the count a parameter (`SHORTEST $k`) gives on a row. */
export function selectorReader(selector: PathSelector, count: BoundExpression | undefined, env: OpEnv): (row: Row) => PathSelector {
  const k = count !== undefined ? env.exprs.compile(count) : undefined;
  if (k === undefined) return () => selector;
  return (row) => {
    const v = k(row);
    if (typeof v !== 'bigint' || v < 1n || v > BigInt(selector_count_max)) {
      throw argumentError('InvalidArgumentValue', `a path selector's number of paths or groups must be an INTEGER from 1 to ${selector_count_max}, not ${v === null ? 'null' : String(v)}`);
    }
    return { ...selector, count: Number(v) };
  };
}

/** What the selector keeps of each partition, partitions in the order they were first met. */
export function select<T extends { readonly partition: string; readonly length: number }>(found: readonly T[], selector: PathSelector): T[] {
  const partitions = new Map<string, T[]>();
  for (const m of found) {
    const list = partitions.get(m.partition);
    if (list === undefined) partitions.set(m.partition, [m]);
    else list.push(m);
  }
  const out: T[] = [];
  const k = selector.count;
  for (const list of partitions.values()) {
    switch (selector.kind) {
      case 'any':
        out.push(...list.slice(0, k));
        break;
      case 'shortest':
        // Array.prototype.sort is stable: among paths of one length, the first found come first.
        out.push(...[...list].sort((a, b) => a.length - b.length).slice(0, k));
        break;
      case 'shortest_groups': {
        const lengths = [...new Set(list.map((m) => m.length))].sort((a, b) => a - b).slice(0, k);
        const wanted = new Set(lengths);
        out.push(...[...list].filter((m) => wanted.has(m.length)).sort((a, b) => a.length - b.length));
        break;
      }
      default:
        assertNever(selector.kind, 'path selector');
    }
  }
  return out;
}
