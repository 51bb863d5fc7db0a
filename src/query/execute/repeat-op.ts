import type { Value } from '../../common/values/value.js';
import type { LogicalOp } from '../plan/logical.js';
import type { PhysicalOp, Row } from './context.js';
import { holdsRelationship } from './expand-ops.js';
import type { OpEnv } from './read-ops.js';
import { after, finish, loop, type Flow } from './slices.js';

export type RepeatOp = Extract<LogicalOp, { op: 'repeat' }>;

/** What finding an iteration needs: where it enters and leaves, and what it keeps of each match. */
export type IterationShape = Pick<RepeatOp, 'entry' | 'exit' | 'inner_rels' | 'groups'>;

/** One match of a quantified path's inner path from a given node. */
export interface Iteration {
  readonly exit: Value;
  readonly exit_id: number;
  /** The inner relationships, in pattern order. */
  readonly rels: readonly Value[];
  readonly rel_ids: readonly number[];
  /** The inner slots' values, in the order of the op's groups. */
  readonly values: readonly Value[];
}

/** Bytes one kept iteration costs beyond its values: the object and its arrays. */
const ITERATION_OVERHEAD_BYTES = 96;
/** Bytes per value an iteration keeps (a reference to a shared graph element). */
const ITERATION_VALUE_BYTES = 8;

/**
 * A quantified path pattern, depth first: from the node reached so far, every match of one iteration
 * (the inner plan run with that node as its entry) extends the path, unless it reuses a relationship
 * of the path or of `unique_from` (trail semantics across the MATCH); a path of `min` to `max`
 * iterations is a match. The search is a loop over the inner plan, not a product of copies of it.
 *
 * An iteration's matches from one node are gathered before the search goes on from any of them (the
 * inner plan is short: a few hops from a bound node), and each gathered iteration is reserved against
 * the statement's memory budget until the search backs out of it. The search ticks the deadline per
 * iteration and pauses at slice ends between iterations, like the variable-length expand.
 */
export function repeat(op: RepeatOp, input: PhysicalOp, inner: PhysicalOp, env: OpEnv): PhysicalOp {
  const { deadline, memory } = env.cx;
  const { from, to, into, rel, groups, unique_from } = op;
  const { min, max } = op.range;
  const unused = new Set(op.unused ?? []);
  const writeRel = !unused.has(rel);
  const writeTo = !into && !unused.has(to);
  const written = groups.map((g, i) => ({ slot: g.group, i })).filter((g) => !unused.has(g.slot));
  const bytesPerIteration = iterationBytes(op);
  return (arg, sink) =>
    input(arg, (row) => {
      const src = row[from] as Value;
      if (src === null) return true;
      let target = -1;
      if (into) {
        const t = row[to] as Value;
        if (t === null) return true;
        target = (t as { id: number }).id;
      }
      let held = 0;
      const iterate = (at: Value): Iteration[] => {
        const found = iterationsFrom(op, inner, row, at);
        memory.reserve(found.length * bytesPerIteration);
        held += found.length * bytesPerIteration;
        return found;
      };
      // Invariant while searching: frames.length === path.length + 1; frames[d] lists the iterations
      // from the node the first d iterations reach, and next[d] is the one to try next.
      const path: Iteration[] = [];
      const used = new Set<number>();
      const frames: Iteration[][] = [];
      const next: number[] = [];
      const emit = (end: Value): Flow => {
        const ordered = op.leftwards ? [...path].reverse() : path;
        if (writeRel) row[rel] = ordered.flatMap((it) => it.rels);
        for (const g of written) row[g.slot] = ordered.map((it) => it.values[g.i] as Value);
        if (writeTo) row[to] = end;
        return sink(row);
      };
      const reusesRelationship = (it: Iteration): boolean => reuses(it, used, unique_from, row);
      const step = (): Flow | null => {
        const d = frames.length - 1;
        if (d < 0) return null;
        deadline.tick();
        const frame = frames[d] as Iteration[];
        const i = next[d] as number;
        if (i >= frame.length) {
          frames.pop();
          next.pop();
          memory.release(frame.length * bytesPerIteration);
          held -= frame.length * bytesPerIteration;
          const back = path.pop();
          if (back !== undefined) for (const id of back.rel_ids) used.delete(id);
          return true;
        }
        next[d] = i + 1;
        const it = frame[i] as Iteration;
        if (reusesRelationship(it)) return true;
        path.push(it);
        for (const id of it.rel_ids) used.add(id);
        // emit writes the path into the row before the search moves on, so the bookkeeping below may
        // run before a paused sink finishes (it touches only the inner plan's own slots).
        const flow = path.length >= min && (!into || it.exit_id === target) ? emit(it.exit) : true;
        if (path.length < max) {
          frames.push(iterate(it.exit));
          next.push(0);
        } else {
          path.pop();
          for (const id of it.rel_ids) used.delete(id);
        }
        return flow;
      };
      const srcId = (src as { id: number }).id;
      const head = min === 0 && (!into || srcId === target) ? emit(src) : true;
      return after(head, (ok) => {
        if (!ok || max === 0) return ok;
        frames.push(iterate(src));
        next.push(0);
        return after(loop(step, deadline), (done) => {
          memory.release(held);
          held = 0;
          return done;
        });
      });
    });
}

/** Bytes one kept iteration of `op` costs against the memory budget. */
export function iterationBytes(op: IterationShape): number {
  return ITERATION_OVERHEAD_BYTES + ITERATION_VALUE_BYTES * (op.inner_rels.length * 2 + op.groups.length);
}

/** Every match of one iteration from `at`, gathered with the row as the inner plan's argument. */
export function iterationsFrom(op: IterationShape, inner: PhysicalOp, row: Row, at: Value): Iteration[] {
  const saved = row[op.entry] as Value;
  row[op.entry] = at;
  const found: Iteration[] = [];
  finish(
    inner(row, (r: Row) => {
      const end = r[op.exit] as Value;
      if (end === null) return true;
      const rels = op.inner_rels.map((s) => r[s] as Value);
      found.push({
        exit: end,
        exit_id: (end as { id: number }).id,
        rels,
        rel_ids: rels.map((x) => (x as { id: number }).id),
        values: op.groups.map((g) => r[g.inner] as Value),
      });
      return true;
    }),
  );
  row[op.entry] = saved;
  return found;
}

/** Whether an iteration reuses a relationship of the path (`used`) or of the MATCH's slots `unique_from` (trail semantics). */
export function reuses(it: Iteration, used: ReadonlySet<number>, unique_from: readonly number[], row: Row): boolean {
  for (const id of it.rel_ids) {
    if (used.has(id)) return true;
    for (const s of unique_from) if (holdsRelationship(row[s] as Value, id)) return true;
  }
  return false;
}
