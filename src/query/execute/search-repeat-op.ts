import { assertNever } from '../../common/assert.js';
import type { Value } from '../../common/values/value.js';
import type { RepeatSelection } from '../plan/logical.js';
import type { PhysicalOp } from './context.js';
import type { OpEnv } from './read-ops.js';
import { iterationBytes, iterationsFrom, reuses, type Iteration, type RepeatOp } from './repeat-op.js';
import { searchEnds, selectorReader } from './select-paths-op.js';
import { after, loopArray } from './slices.js';

/** An iteration that reaches a node of a layer, and the node of the layer before it came from. */
interface Signpost {
  readonly it: Iteration;
  readonly prev: number;
}

/** A path a partition kept: its far end and its iterations, last first. */
interface Chosen {
  readonly end: Value;
  readonly chain: readonly Iteration[];
}

/** What a partition (the paths to one far end) has kept so far. */
interface Partition {
  paths: number;
  groups: number;
}

/** Bytes a signpost costs against the memory budget: the object and its place in a list. */
const SIGNPOST_BYTES = 40;

/**
 * A quantified path pattern under a selective selector (SHORTEST k, SHORTEST k GROUPS, ALL SHORTEST,
 * ANY k), searched by length instead of enumerated.
 *
 * Layer L holds the nodes that walks of L iterations from the `from` node reach, each with signposts:
 * the iterations into it from nodes of layer L - 1. An iteration is the inner plan run from a node (its
 * predicates applied as it goes); its matches from one node are found once per row. Layers are built
 * one after another, so a layer has at most one entry per node however many walks reach it. Every
 * trail of L iterations is a walk of L iterations, so the trails ending at a node of layer L are read
 * back along its signposts to the start, dropping a way as soon as it reuses a relationship. Each
 * partition (a far end that passes the path's pre-filter `accept`) takes trails at the first lengths
 * it can: `k` of them, or every trail of each of `k` lengths for groups.
 *
 * The search stops at `max`, when a layer is empty, when every far end is settled, or when no trail can
 * be that long (a trail uses each relationship the iterations can use at most once). The far ends are
 * known before it starts: the nodes a walk of `min` to `max` iterations reaches, found breadth first over
 * (node, iterations counted up to `min`, or to `max` when it is finite); with `into`, the target if
 * such a walk reaches it, and then the search has one partition and stops as soon as it is settled.
 *
 * Layers, signposts and kept paths are charged to the statement's memory budget until the row's paths
 * are emitted, and the deadline is ticked per iteration looked at.
 */
export function searchRepeat(op: RepeatOp, select: RepeatSelection, input: PhysicalOp, inner: PhysicalOp, env: OpEnv): PhysicalOp {
  const { deadline, memory } = env.cx;
  const { from, to, into, rel, groups, unique_from } = op;
  const { min, max } = op.range;
  const unused = new Set(op.unused ?? []);
  const writeRel = !unused.has(rel);
  const writeTo = !into && !unused.has(to);
  const written = groups.map((g, i) => ({ slot: g.group, i })).filter((g) => !unused.has(g.slot));
  const selectorAt = selectorReader(select.selector, select.count, env);
  const accept = select.accept !== undefined ? env.exprs.compile(select.accept) : undefined;
  const bytesPerIteration = iterationBytes(op);
  const relsPerIteration = Math.max(1, op.inner_rels.length);

  return (arg, sink) =>
    input(arg, (row) => {
      const found = searchEnds(row, from, to, into);
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

      /** One iteration's matches from a node depend on the node and the row alone: each is found once per row. */
      const iterations = new Map<number, Iteration[]>();
      /** Every relationship an iteration from a node looked at so far can use: no trail is longer. */
      const usable = new Set<number>();
      const iterate = (node: Value, id: number): Iteration[] => {
        let found = iterations.get(id);
        if (found === undefined) {
          found = iterationsFrom(op, inner, row, node);
          iterations.set(id, found);
          for (const it of found) for (const r of it.rel_ids) usable.add(r);
          charge((found.length + 1) * bytesPerIteration);
        }
        return found;
      };
      /** Whether `node` passes the path's pre-filter on its far end. */
      const accepted = (node: Value): boolean => {
        if (accept === undefined) return true;
        const saved = row[to] as Value;
        row[to] = node;
        const ok = accept(row) === true;
        row[to] = saved;
        return ok;
      };

      // The far ends: breadth first over walks, as the comment above says. With `into` this pauses once
      // the target is found; `exploreAll` finishes it when the search needs every usable relationship.
      const ends = new Set<number>();
      const nodes = new Map<number, Value>([[srcId, src]]);
      const isEnd = (node: Value, id: number, count: number): boolean => count >= min && (!into || id === target) && !ends.has(id) && accepted(node);
      const cap = max === Infinity ? min : max;
      const seen = new Set<string>([`${srcId}:0`]);
      let walk: { node: Value; id: number; count: number }[] = [{ node: src, id: srcId, count: 0 }];
      const explore = (untilTarget: boolean): void => {
        while (walk.length > 0 && !(untilTarget && ends.size > 0)) {
          const next: typeof walk = [];
          for (const at of walk) {
            if (at.count === max) continue;
            for (const it of iterate(at.node, at.id)) {
              deadline.tick();
              const count = Math.min(at.count + 1, cap);
              const key = `${it.exit_id}:${count}`;
              if (seen.has(key)) continue;
              seen.add(key);
              nodes.set(it.exit_id, it.exit);
              if (isEnd(it.exit, it.exit_id, count)) ends.add(it.exit_id);
              next.push({ node: it.exit, id: it.exit_id, count });
            }
          }
          charge(next.length * SIGNPOST_BYTES);
          walk = next;
        }
      };
      if (isEnd(src, srcId, 0)) ends.add(srcId);
      explore(into);
      const exploreAll = (): void => explore(false);

      const chosen: Chosen[] = [];
      const partitions = new Map<number, Partition>();
      /** Far ends whose partition may still keep a path. */
      let open = ends.size;
      const layers: Map<number, Signpost[]>[] = [new Map([[srcId, []]])];

      /**
       * Reads back the trails of `length` iterations into `end` along the layers' signposts, depth first,
       * keeping at most `want`; answers how many it kept.
       */
      const trailsInto = (end: number, length: number, want: number): number => {
        const endNode = nodes.get(end) as Value;
        if (length === 0) {
          chosen.push({ end: endNode, chain: [] });
          return 1;
        }
        let kept = 0;
        const used = new Set<number>();
        const chain: Iteration[] = [];
        // choices[d] lists the ways into the node d iterations back from the end; next[d] is the one to try next.
        const choices: { ways: readonly Signpost[]; next: number }[] = [{ ways: (layers[length] as Map<number, Signpost[]>).get(end) ?? [], next: 0 }];
        while (choices.length > 0) {
          const top = choices[choices.length - 1]!;
          if (top.next >= top.ways.length) {
            choices.pop();
            const back = chain.pop();
            if (back !== undefined) for (const id of back.rel_ids) used.delete(id);
            continue;
          }
          deadline.tick();
          const way = top.ways[top.next++]!;
          if (reuses(way.it, used, unique_from, row)) continue;
          const layer = length - choices.length;
          if (layer === 0) {
            chosen.push({ end: endNode, chain: [...chain, way.it] });
            charge(bytesPerIteration);
            if (++kept >= want) return kept;
            continue;
          }
          chain.push(way.it);
          for (const id of way.it.rel_ids) used.add(id);
          choices.push({ ways: (layers[layer] as Map<number, Signpost[]>).get(way.prev) ?? [], next: 0 });
        }
        return kept;
      };
      /** Offers each far end in layer `length` the trails of that length into it, as its partition still wants. */
      const select = (length: number): void => {
        if (length < min) return;
        for (const end of (layers[length] as Map<number, Signpost[]>).keys()) {
          if (!ends.has(end)) continue;
          let part = partitions.get(end);
          if (part === undefined) {
            part = { paths: 0, groups: 0 };
            partitions.set(end, part);
          }
          switch (kind) {
            case 'any':
            case 'shortest':
              if (part.paths >= k) continue;
              part.paths += trailsInto(end, length, k - part.paths);
              if (part.paths >= k) open--;
              break;
            case 'shortest_groups': {
              if (part.groups >= k) continue;
              const got = trailsInto(end, length, Infinity);
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

      select(0);
      for (let length = 1; length <= max && open > 0; length++) {
        if (length * relsPerIteration > usable.size) {
          exploreAll();
          if (length * relsPerIteration > usable.size) break;
        }
        const layer = new Map<number, Signpost[]>();
        for (const at of (layers[length - 1] as Map<number, Signpost[]>).keys()) {
          for (const it of iterate(nodes.get(at) as Value, at)) {
            deadline.tick();
            let ways = layer.get(it.exit_id);
            if (ways === undefined) {
              ways = [];
              layer.set(it.exit_id, ways);
              nodes.set(it.exit_id, it.exit);
            }
            ways.push({ it, prev: at });
          }
          charge((iterations.get(at)?.length ?? 0) * SIGNPOST_BYTES);
        }
        if (layer.size === 0) break;
        layers.push(layer);
        select(length);
      }

      const emitted = loopArray(
        chosen,
        (p) => {
          // The chain runs from the last iteration found back to the first; a leftwards search found them last first.
          const ordered = op.leftwards ? p.chain : [...p.chain].reverse();
          if (writeRel) row[rel] = ordered.flatMap((it) => it.rels);
          for (const g of written) row[g.slot] = ordered.map((it) => it.values[g.i] as Value);
          if (writeTo) row[to] = p.end;
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
