import { assertNever } from '../../common/assert.js';
import type { Value } from '../../common/values/value.js';
import type { LogicalOp, SearchPart } from '../plan/logical.js';
import type { PhysicalOp } from './context.js';
import type { OpEnv } from './read-ops.js';
import { iterationBytes, iterationsFrom, reuses, type Iteration } from './repeat-op.js';
import { searchEnds, selectorReader } from './select-paths-op.js';
import { after, finish, loopArray } from './slices.js';

type SearchPathsOp = Extract<LogicalOp, { op: 'search_paths' }>;

/**
 * A state of the search: the node reached, the part the path is in and the iterations of that part
 * walked so far (capped: at `max`, or at `min` when the part has no upper bound, past which more
 * iterations change nothing the part allows). `part === parts.length` is a path's end. A state belongs
 * to one length (a layer); `ways` are the steps into it from states of shorter or equal length.
 */
interface State {
  readonly node: Value;
  readonly id: number;
  readonly part: number;
  readonly count: number;
  readonly ways: Way[];
}

/** A step into a state: an iteration of `part`, or (without one) leaving `part` at the same node. */
interface Way {
  readonly it: Iteration | undefined;
  readonly part: number;
  readonly prev: State;
}

/** A path a partition kept: its far end and its steps, last first. */
interface Chosen {
  readonly end: Value;
  readonly chain: readonly Way[];
}

/** Bytes a state or a way costs against the memory budget: the object and its place in a map or list. */
const STEP_BYTES = 48;

const stateKey = (id: number, part: number, count: number): string => `${id}:${part}:${count}`;

/**
 * A selective path selector (SHORTEST k, SHORTEST k GROUPS, ALL SHORTEST, ANY k) over a path of several
 * parts, searched by length instead of enumerated.
 *
 * The far ends are found first: the nodes a walk through the parts' states reaches (breadth first over
 * states, each met once), whose last part accepts them. Then layer L holds the states walks of L
 * relationships reach, each with the ways into it; an iteration of part i adds its relationships to the
 * length, and leaving a part (once it has its `min` iterations and its end node passes its exit test) adds
 * none. Every trail of length L is a walk of length L, so the paths of length L into a far end are read
 * back along the ways to the start, dropping a way as soon as it reuses a relationship; a path that the
 * whole-path pre-filter (`accept`) refuses is passed over, and the search goes on until the partition has
 * what its selector wants. Each partition takes paths at the first lengths it can: `k` of them, or every
 * path of each of `k` lengths for groups.
 *
 * The search stops when every far end is settled, when no layer is left, at the parts' greatest total
 * length, or when no trail can be that long (a trail uses each relationship any iteration can use at most
 * once). Iterations from a node are found once per row and part, states and ways are charged to the
 * statement's memory budget until the row's paths are emitted, and the deadline is ticked per iteration
 * looked at.
 */
export function searchPaths(op: SearchPathsOp, input: PhysicalOp, inners: readonly PhysicalOp[], accept: PhysicalOp | undefined, env: OpEnv): PhysicalOp {
  const { deadline, memory } = env.cx;
  const parts = op.parts;
  const last = parts.length;
  const selectorAt = selectorReader(op.selector, op.count, env);
  const exitTests = parts.map((p) => (p.exit_test !== undefined ? env.exprs.compile(p.exit_test) : undefined));
  const relsOf = parts.map((p) => Math.max(1, p.inner_rels.length));
  const caps = parts.map((p) => (p.range.max === Infinity ? p.range.min : p.range.max));
  const longest = parts.reduce((sum, p, i) => sum + p.range.max * (relsOf[i] as number), 0);
  const bytesOf = parts.map((p) => iterationBytes(p));

  return (arg, sink) =>
    input(arg, (row) => {
      const found = searchEnds(row, op.from, op.to, op.into);
      if (found === undefined) return true;
      const { src, srcId, target } = found;
      const selector = selectorAt(row);
      const k = selector.count;
      const kind = selector.kind;
      let held = 0;
      const charge = (bytes: number): void => {
        memory.reserve(bytes);
        held += bytes;
      };

      const iterations = new Map<string, Iteration[]>();
      /** Every relationship an iteration looked at can use: no trail is longer. */
      const usable = new Set<number>();
      const iterate = (part: number, node: Value, id: number): Iteration[] => {
        const key = `${part}:${id}`;
        let found = iterations.get(key);
        if (found === undefined) {
          found = iterationsFrom(parts[part] as SearchPart, inners[part] as PhysicalOp, row, node);
          iterations.set(key, found);
          for (const it of found) for (const r of it.rel_ids) usable.add(r);
          charge((found.length + 1) * (bytesOf[part] as number));
        }
        return found;
      };
      /** Whether the path may leave `part` at `node`: its iterations are enough, the node passes the exit test, and the last part ends at the target. */
      const leaves = (part: number, count: number, node: Value, id: number): boolean => {
        const p = parts[part] as SearchPart;
        if (count < p.range.min) return false;
        if (part === last - 1 && op.into && id !== target) return false;
        const test = exitTests[part];
        if (test === undefined) return true;
        const saved = row[p.to] as Value;
        row[p.to] = node;
        const ok = test(row) === true;
        row[p.to] = saved;
        return ok;
      };

      // The far ends: every state a walk reaches, breadth first, each once. A bound far end is the only one: the
      // walk is skipped (on a large graph it meets every reachable state, where the search by length stops at the
      // first lengths that reach the end), and an end no walk reaches is found out by the search running dry.
      const ends = new Set<number>(op.into ? [target] : []);
      const seen = new Set<string>([stateKey(srcId, 0, 0)]);
      let walk: { node: Value; id: number; part: number; count: number }[] = op.into ? [] : [{ node: src, id: srcId, part: 0, count: 0 }];
      while (walk.length > 0) {
        const next: typeof walk = [];
        const reach = (node: Value, id: number, part: number, count: number): void => {
          const key = stateKey(id, part, count);
          if (seen.has(key)) return;
          seen.add(key);
          if (part === last) ends.add(id);
          else next.push({ node, id, part, count });
        };
        for (const at of walk) {
          if (leaves(at.part, at.count, at.node, at.id)) reach(at.node, at.id, at.part + 1, 0);
          const p = parts[at.part] as SearchPart;
          if (at.count >= p.range.max) continue;
          for (const it of iterate(at.part, at.node, at.id)) {
            deadline.tick();
            reach(it.exit, it.exit_id, at.part, Math.min(at.count + 1, caps[at.part] as number));
          }
        }
        charge(next.length * STEP_BYTES);
        walk = next;
      }

      const root: State = { node: src, id: srcId, part: 0, count: 0, ways: [] };
      const chosen: Chosen[] = [];
      const partitions = new Map<number, { paths: number; groups: number }>();
      let open = ends.size;

      /** Writes the path `chain` (last step first) ends at `end` into the row: each part's relationships, groups and end node. */
      const write = (chain: readonly Way[]): void => {
        let at: Value = src;
        let step = chain.length - 1;
        parts.forEach((p, i) => {
          const its: Iteration[] = [];
          for (; step >= 0 && (chain[step] as Way).part === i; step--) {
            const it = (chain[step] as Way).it;
            if (it === undefined) {
              step--;
              break;
            }
            its.push(it);
            at = it.exit;
          }
          // A leftwards search meets a part's iterations last first; their lists are in pattern order.
          const ordered = op.leftwards ? its.reverse() : its;
          if (p.single) row[p.rel] = (ordered[0] as Iteration).rels[0] as Value;
          else {
            row[p.rel] = ordered.flatMap((it) => it.rels);
            p.groups.forEach((g, j) => {
              row[g.group] = ordered.map((it) => it.values[j] as Value);
            });
          }
          row[p.to] = at;
        });
      };
      /** Whether the whole-path pre-filter takes the path `chain`. */
      const passes = (chain: readonly Way[]): boolean => {
        if (accept === undefined) return true;
        write(chain);
        let taken = false;
        finish(
          accept(row, () => {
            taken = true;
            return false;
          }),
        );
        return taken;
      };

      /** Reads back the trails into the end state `end`, depth first, keeping at most `want` that pass; answers how many it kept. */
      const trailsInto = (end: State, want: number): number => {
        let kept = 0;
        const used = new Set<number>();
        const chain: Way[] = [];
        // choices[d] lists the ways into the state d steps back from the end; next is the one to try next.
        const choices: { ways: readonly Way[]; next: number }[] = [{ ways: end.ways, next: 0 }];
        while (choices.length > 0) {
          const top = choices[choices.length - 1]!;
          if (top.next >= top.ways.length) {
            choices.pop();
            const back = chain.pop();
            if (back?.it !== undefined) for (const id of back.it.rel_ids) used.delete(id);
            continue;
          }
          deadline.tick();
          const way = top.ways[top.next++]!;
          if (way.it !== undefined && reuses(way.it, used, [], row)) continue;
          if (way.prev === root) {
            const path = [...chain, way];
            if (!passes(path)) continue;
            chosen.push({ end: end.node, chain: path });
            charge(STEP_BYTES * path.length);
            if (++kept >= want) return kept;
            continue;
          }
          chain.push(way);
          if (way.it !== undefined) for (const id of way.it.rel_ids) used.add(id);
          choices.push({ ways: way.prev.ways, next: 0 });
        }
        return kept;
      };
      /** Offers each far end in the layer the paths of this length into it, as its partition still wants. */
      const select = (layer: ReadonlyMap<string, State>): void => {
        for (const s of layer.values()) {
          if (s.part !== last) continue;
          let part = partitions.get(s.id);
          if (part === undefined) {
            part = { paths: 0, groups: 0 };
            partitions.set(s.id, part);
          }
          switch (kind) {
            case 'any':
            case 'shortest':
              if (part.paths >= k) continue;
              part.paths += trailsInto(s, k - part.paths);
              if (part.paths >= k) open--;
              break;
            case 'shortest_groups': {
              if (part.groups >= k) continue;
              const got = trailsInto(s, Infinity);
              part.paths += got;
              if (got > 0 && ++part.groups >= k) open--;
              break;
            }
            default:
              assertNever(kind, 'path selector');
          }
          if (open === 0) return;
        }
      };

      const layers = new Map<number, Map<string, State>>([[0, new Map([[stateKey(srcId, 0, 0), root]])]]);
      const enter = (layer: Map<string, State>, node: Value, id: number, part: number, count: number, way: Way): void => {
        const key = stateKey(id, part, count);
        let s = layer.get(key);
        if (s === undefined) {
          s = { node, id, part, count, ways: [] };
          layer.set(key, s);
          charge(STEP_BYTES);
        }
        s.ways.push(way);
        charge(STEP_BYTES);
      };
      let furthest = 0;
      for (let length = 0; open > 0 && length <= furthest && length <= longest && length <= usable.size; length++) {
        const layer = layers.get(length);
        if (layer === undefined) continue;
        layers.delete(length);
        // Leaving a part adds no length: a map's iteration visits the states added as it goes.
        for (const s of layer.values()) {
          if (s.part < last && ends.size > 0 && leaves(s.part, s.count, s.node, s.id) && (s.part < last - 1 || ends.has(s.id))) {
            enter(layer, s.node, s.id, s.part + 1, 0, { it: undefined, part: s.part, prev: s });
          }
        }
        select(layer);
        if (open === 0) break;
        for (const s of layer.values()) {
          if (s.part === last) continue;
          const p = parts[s.part] as SearchPart;
          if (s.count >= p.range.max) continue;
          const reached = length + (relsOf[s.part] as number);
          let next = layers.get(reached);
          if (next === undefined) {
            next = new Map();
            layers.set(reached, next);
            furthest = Math.max(furthest, reached);
          }
          for (const it of iterate(s.part, s.node, s.id)) {
            deadline.tick();
            enter(next, it.exit, it.exit_id, s.part, Math.min(s.count + 1, caps[s.part] as number), { it, part: s.part, prev: s });
          }
        }
      }

      const emitted = loopArray(
        chosen,
        (c) => {
          write(c.chain);
          return sink(row);
        },
        deadline,
      );
      return after(emitted, (done) => {
        memory.release(held);
        return done;
      });
    });
}
