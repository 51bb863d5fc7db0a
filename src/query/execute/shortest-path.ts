import type { Value } from '../../common/values/value.js';
import type { EdgeState } from '../../projections/graph/records.js';
import type { Direction } from '../../projections/graph/view.js';
import type { LogicalOp } from '../plan/logical.js';
import type { PhysicalOp, Row } from './context.js';
import type { OpEnv } from './read-ops.js';
import { finish } from './slices.js';

type ExpandOp = Extract<LogicalOp, { op: 'expand' }>;

/** A relationship that reaches a node at its depth, and the node it comes from. */
interface Way {
  readonly edge: EdgeState;
  readonly prev: number;
}

/** What one breadth-first search found: the ways into every node reached, and the goal's depth. */
interface Search {
  readonly ways: ReadonlyMap<number, readonly Way[]>;
  readonly start: number;
  readonly depth: number;
}

/** One end of a bidirectional search: the ways into each node it reached, and its last layer. */
interface Side {
  readonly ways: Map<number, Way[]>;
  frontier: number[];
  depth: number;
  /** The direction walked from this end: the pattern's from the source, the reverse from the target. */
  readonly dir: Direction;
}

/** Bytes a search holds per node it reaches: the map entry and the list of ways in. */
const BYTES_PER_REACHED_NODE = 96;

/**
 * `shortestPath` and `allShortestPaths`: a breadth-first search from the `from` node to the `to`
 * node along relationships of the pattern's types and direction (and inline properties), at most
 * `range.max` hops. Each node reached remembers every relationship that reached it at its first
 * depth, so 'all' can list every path of the shortest length and 'one' takes the first.
 *
 * From a node to itself, a range starting at 0 answers the empty path; otherwise the answer is the
 * shortest cycles through the node: for each first step, the shortest way back that does not use
 * that step's relationship again.
 *
 * The nodes reached are reserved against the statement's memory budget, and the search ticks the
 * deadline per relationship, so a search over a large graph is bounded like any other operator.
 */
export function shortestPath(
  op: ExpandOp,
  input: PhysicalOp,
  env: OpEnv,
  usable: (row: Row, e: EdgeState) => boolean,
  propsMatch: (e: EdgeState, wanted: ReadonlyMap<string, Value> | null) => boolean,
  wantedProps: (row: Row) => ReadonlyMap<string, Value> | null,
): PhysicalOp {
  const { graph, deadline, memory } = env.cx;
  const { from, rel, to, direction } = op;
  const oneType = op.types.length === 1 ? op.types[0] : undefined;
  const min = op.range?.min ?? 1;
  const max = op.range?.max ?? Infinity;
  const all = op.shortest === 'all';
  const writeRel = op.rel_unused !== true;
  const reverse: Direction = direction === 'out' ? 'in' : direction === 'in' ? 'out' : 'both';
  const other = (e: EdgeState, at: number): number =>
    direction === 'out' ? e.target : direction === 'in' ? e.source : e.source === at ? e.target : e.source;

  return (arg, sink) =>
    input(arg, (row) => {
      const a = row[from] as Value;
      const b = row[to] as Value;
      if (a === null || b === null) return true;
      const source = (a as { id: number }).id;
      const target = (b as { id: number }).id;
      const wanted = wantedProps(row);
      /** Edges at `at` in `dir` that the pattern allows. */
      const stepsFrom = (at: number, dir: Direction): EdgeState[] => {
        const out: EdgeState[] = [];
        for (const e of graph.edgesOf(at, dir, oneType)) {
          deadline.tick();
          if (usable(row, e) && propsMatch(e, wanted)) out.push(e);
        }
        return out;
      };
      const steps = (at: number): EdgeState[] => stepsFrom(at, direction);
      // The search holds its ways until it has emitted every path, so the paths' rows run to
      // their end here rather than pausing midway (the search itself ticks the deadline).
      const emit = (edges: readonly EdgeState[]): boolean => {
        if (writeRel) row[rel] = edges.map((e) => e.ref);
        return finish(sink(row));
      };
      let held = 0;
      /** Breadth first from `start` until `goal` is reached, never along `skip`, at most `limit` hops. */
      const search = (start: number, goal: number, skip: EdgeState | undefined, limit: number): Search | undefined => {
        const ways = new Map<number, Way[]>([[start, []]]);
        memory.reserve(BYTES_PER_REACHED_NODE);
        held += BYTES_PER_REACHED_NODE;
        let frontier = [start];
        for (let depth = 1; depth <= limit && frontier.length > 0; depth++) {
          const next: number[] = [];
          const reachedNow = new Set<number>();
          for (const at of frontier) {
            for (const e of steps(at)) {
              if (e === skip || (skip !== undefined && e.id === skip.id)) continue;
              const end = other(e, at);
              const known = ways.get(end);
              if (known === undefined) {
                ways.set(end, [{ edge: e, prev: at }]);
                next.push(end);
                reachedNow.add(end);
                memory.reserve(BYTES_PER_REACHED_NODE);
                held += BYTES_PER_REACHED_NODE;
              } else if (all && reachedNow.has(end)) {
                known.push({ edge: e, prev: at });
              }
            }
          }
          if (ways.has(goal)) return { ways, start, depth };
          frontier = next;
        }
        return undefined;
      };
      /**
       * Breadth first from both ends at once, a whole layer at a time on the side with the smaller
       * frontier, until a layer reaches a node the other side has reached. Before that layer the two
       * reached sets were disjoint, so every path is longer than both depths together; the nodes the
       * layer meets the other side at are then exactly the nodes at this side's depth on a shortest
       * path, and every shortest path is one way from the source to such a node and one way on to
       * the target. Each side keeps every way into a node at its first depth, as `search` does.
       */
      const bidirectional = (): boolean => {
        const forward: Side = { ways: new Map([[source, []]]), frontier: [source], depth: 0, dir: direction };
        const backward: Side = { ways: new Map([[target, []]]), frontier: [target], depth: 0, dir: reverse };
        memory.reserve(2 * BYTES_PER_REACHED_NODE);
        held += 2 * BYTES_PER_REACHED_NODE;
        while (forward.depth + backward.depth < max && forward.frontier.length > 0 && backward.frontier.length > 0) {
          const side = forward.frontier.length <= backward.frontier.length ? forward : backward;
          const far = side === forward ? backward : forward;
          const next: number[] = [];
          const reachedNow = new Set<number>();
          for (const at of side.frontier) {
            for (const e of stepsFrom(at, side.dir)) {
              const end = e.source === at ? e.target : e.source;
              const known = side.ways.get(end);
              if (known === undefined) {
                side.ways.set(end, [{ edge: e, prev: at }]);
                next.push(end);
                reachedNow.add(end);
                memory.reserve(BYTES_PER_REACHED_NODE);
                held += BYTES_PER_REACHED_NODE;
              } else if (all && reachedNow.has(end)) {
                known.push({ edge: e, prev: at });
              }
            }
          }
          side.depth++;
          side.frontier = next;
          const meets = next.filter((n) => far.ways.has(n));
          if (meets.length === 0) continue;
          // The sink's answer, apart from a 'one' search ending its walk after the first path.
          let flow = true;
          for (const m of meets) {
            eachWay(forward, m, source, (toMeet) => {
              const head = [...toMeet].reverse();
              return eachWay(backward, m, target, (onward) => {
                flow = emit([...head, ...onward]);
                return flow && all;
              });
            });
            if (!flow || !all) return flow;
          }
          return true;
        }
        return true;
      };
      try {
        if (source !== target) {
          return bidirectional();
        }
        if (min === 0) return emit([]);
        // The shortest cycles: a first step, then the shortest way back that does not reuse it.
        const firsts = steps(source).map((e) => ({ e, back: other(e, source) === source ? ('loop' as const) : search(other(e, source), source, e, max - 1) }));
        const length = (f: (typeof firsts)[number]): number => (f.back === 'loop' ? 1 : f.back === undefined ? Infinity : f.back.depth + 1);
        const best = Math.min(...firsts.map(length));
        if (best === Infinity) return true;
        for (const f of firsts) {
          if (length(f) !== best) continue;
          const go = f.back === 'loop' ? emit([f.e]) : walkBack(f.back as Search, source, [f.e], emit);
          if (!go) return false;
          if (!all) return true;
        }
        return true;
      } finally {
        memory.release(held);
      }
    });

  /**
   * Calls `fn` with each way from `node` back to the side's root (the relationships in that order),
   * depth first with an explicit stack; stops when `fn` answers false, and then answers false.
   */
  function eachWay(side: Pick<Search, 'ways'>, node: number, root: number, fn: (edges: readonly EdgeState[]) => boolean): boolean {
    const edges: EdgeState[] = [];
    if (node === root) return fn(edges);
    const choices: { ways: readonly Way[]; next: number }[] = [{ ways: side.ways.get(node) as readonly Way[], next: 0 }];
    while (choices.length > 0) {
      const top = choices[choices.length - 1]!;
      if (top.next >= top.ways.length) {
        choices.pop();
        edges.pop();
        continue;
      }
      deadline.tick();
      const w = top.ways[top.next++]!;
      edges.push(w.edge);
      if (w.prev !== root) {
        choices.push({ ways: side.ways.get(w.prev) as readonly Way[], next: 0 });
        continue;
      }
      if (!fn(edges)) return false;
      edges.pop();
    }
    return true;
  }

  /**
   * Emits the paths from the search's start to `goal`, each prefixed by `before`, read back along
   * the recorded ways (eachWay). 'one' emits the first.
   */
  function walkBack(found: Search, goal: number, before: readonly EdgeState[], emit: (edges: readonly EdgeState[]) => boolean): boolean {
    let stopped = false;
    eachWay(found, goal, found.start, (edges) => {
      // eachWay gives the relationships from the goal back towards the start.
      if (!emit([...before, ...[...edges].reverse()])) stopped = true;
      return !stopped && all;
    });
    return !stopped;
  }
}
