import { assert } from '../../common/assert.js';
import type { Value } from '../../common/values/value.js';
import type { NodeState } from '../../projections/graph/records.js';
import { SnapshotView, type GraphReader } from '../../projections/graph/view.js';
import type { VectorIndexHandle } from '../../projections/search/search-lookup.js';
import type { VectorHit } from '../../projections/search/vector-index.js';
import type { BoundExpression } from '../bind/bound-expression.js';
import type { LogicalOp } from '../plan/logical.js';
import type { PhysicalOp, Row, Sink } from './context.js';
import { rowBytes, type OpEnv } from './read-ops.js';
import { top } from './relational-ops.js';
import { after, finish, holding, loopArray, type Flow } from './slices.js';
import { orderedRows, type Collected } from './vector-order.js';

/**
 * The vector search under a top-k (see optimize/vector-search.ts). Per argument row it evaluates the
 * query vector and k = limit + skip, then, when a ready vector index of the label and key has the
 * call's metric and width and the consistency mode is not EXACT, it runs its input (the label scan
 * and the filters) over the index's candidates, nearest first, until k rows have passed:
 *
 * - Over-fetch with a growing k: the first round asks for k candidates (2k under filters), each
 *   next one for more (at least twice as many, more when few passed the filters), and the scan runs
 *   over the new ones only.
 * - The cost choice: once the candidates a round would need pass `exact_fraction_max` of the index
 *   (a selective filter), the rest of the label is scanned instead, exactly as without an index;
 *   a small index (`exact_nodes_max`) is scanned from the start.
 * - When the index has no more candidates and fewer than k rows passed, the label's nodes not yet
 *   seen (those without a vector, which sort last) are scanned too, so the top-k above gets
 *   every row it would have had without the index.
 *
 * SNAPSHOT keeps only candidates the reader sees (the scan checks the label and the filters read
 * the version it sees); CURRENT takes the index as it is: a node the snapshot does not see is read
 * in its current state.
 *
 * With `order` (the top above orders by the distance alone) the search emits its rows in the exact
 * order of `vector_distance`, at most k, and the top passes them on. When the reader sees every
 * vector as the index holds it (`changed_at` at or before its snapshot, no read lens) the index's
 * distances order the rows, and only rows whose distances lie within the index's error bound of
 * each other are measured exactly (vector-order.ts); otherwise, or when the search ends in an exact
 * scan, the rows go through an exact top-k as without `order`.
 */
export const exact_nodes_max = 128;
export const exact_fraction_max = 0.25;
/** The HNSW beam unless a `vector_ef` hint sets another; a larger k widens it to k. */
export const ef_search_min = 64;
/** First round under filters: this many candidates per wanted row (without filters, k are enough). */
const overfetch_first = 2;

type Op<K extends LogicalOp['op']> = Extract<LogicalOp, { op: K }>;

export function vectorSearch(op: Op<'vector_search'>, input: PhysicalOp, env: OpEnv): PhysicalOp {
  const { cx, access } = env;
  const query = env.exprs.compile(op.query);
  const limit = env.exprs.compile(op.limit);
  const skip = op.skip === undefined ? undefined : env.exprs.compile(op.skip);
  const slot = op.variable;
  // Rows are dropped only by filters (or, under SNAPSHOT, by candidates the reader does not see).
  const filtered = op.input.op !== 'node_scan' || op.input.props.length > 0;
  const bare = bareScan(op.input);
  const order = op.order;
  /** The exact top-k by `order` over any rows: what the top above would do without the search's order. */
  const exactTop = (rows: PhysicalOp): PhysicalOp => top(orderTop(op, order as BoundExpression), rows, env);
  // Compiled when first needed: operators are compiled per execution, and most take neither path.
  let exactDistance: ((row: Row) => Value) | undefined;
  let exactOverInput: PhysicalOp | undefined;
  let exactOverSearch: PhysicalOp | undefined;
  const run = (arg: Row, sink: Sink, ordered: boolean): Flow => {
    // A statement that writes reads its write set, whose own nodes are in no index: it scans.
    const handle = cx.vector_consistency === 'exact' || cx.writes !== undefined ? undefined : cx.indexes.vectorIndex?.(op.label, op.key);
    const value = query(arg);
    const q = asVector(value);
    const k = count(limit(arg)) + (skip === undefined ? 0 : count(skip(arg)));
    if (handle === undefined || !usable(handle, op.metric, q) || q === undefined || Number.isNaN(k) || handle.size <= Math.max(exact_nodes_max, k)) {
      return ordered ? (exactOverInput ??= exactTop(input))(arg, sink) : input(arg, sink);
    }
    // The index's distances are to the vectors it holds, for the query it was given: they order
    // this reader's rows only when it sees those vectors and the query was already 32-bit.
    if (ordered && !(value instanceof Float32Array && seesIndexVectors(handle, cx.graph))) {
      return (exactOverSearch ??= exactTop((a, s) => run(a, s, false)))(arg, sink);
    }
    // The reader sees every vector as the index holds it: every hit is a node the reader sees
    // with the label (VectorIndex.changedAt: a node that lost the label since its last put would be
    // forgotten, one that gained it put again), so a bare scan need not read its labels.
    const labelled = seesIndexVectors(handle, cx.graph);
    /**
     * Ids offered by the rounds so far, made when a second round or the exact rest needs them: one
     * round's hits are distinct, and most searches end after one.
     */
    let seen: Set<number> | undefined;
    /** How many ids the rounds offered. */
    let offeredCount = 0;
    const collected: Collected[] = [];
    /** Hits of the rounds by id, while rows that went through the scan and filters are collected for ordering. */
    const hitsById = ordered && bare === undefined ? new Map<number, VectorHit>() : undefined;
    let passed = 0;
    let stopped = false;
    /** Where passing rows go; undefined while an ordered search collects them. */
    let forward: Sink | undefined = ordered ? undefined : sink;
    const counting = (row: Row, node?: NodeState, hit?: VectorHit): boolean => {
      passed++;
      if (forward === undefined) {
        const h = hit ?? hitsById?.get((row[slot] as { readonly id: number }).id);
        collected.push({ row: row.slice(), node, distance: h?.distance ?? NaN, tolerance: h?.tolerance ?? Infinity, at: collected.length });
        return true;
      }
      // Rounds run to their end at once: a round's rows are bounded by what it fetched.
      if (!finish(forward(row))) stopped = true;
      return !stopped;
    };
    /** The scan and filters over `nodes`; `hits[i]` is the hit of `nodes[i]` when they come from a round. */
    const runOver = (nodes: readonly NodeState[] | Iterable<NodeState>, hits?: readonly VectorHit[]): boolean => {
      if (bare !== undefined && Array.isArray(nodes)) return emitBare(bare, nodes, hits);
      cx.candidates.set(slot, nodes);
      try {
        return finish(input(arg, counting));
      } finally {
        cx.candidates.delete(slot);
      }
    };
    /**
     * A bare label scan over the candidates, without the scan: what it would do (the label check of
     * the version read, the deadline, the node noted as just scanned, the slot) for each, in order.
     */
    const emitBare = (scan: Op<'node_scan'>, nodes: readonly NodeState[], hits: readonly VectorHit[] | undefined): boolean => {
      const check = scan.label !== undefined && !(labelled && scan.label === op.label) ? scan.label : undefined;
      for (let i = 0; i < nodes.length; i++) {
        const node = nodes[i]!;
        if (check !== undefined && !node.labels.includes(check)) continue;
        cx.deadline.tick();
        if (access.cacheable) access.scanned(node);
        if (scan.variable_unused !== true) arg[slot] = node.ref;
        if (!counting(arg, node, hits?.[i])) return false;
      }
      return true;
    };
    const resolve = (id: number): NodeState | undefined => {
      const seenNode = access.node(id);
      if (seenNode !== undefined || cx.vector_consistency === 'snapshot') return seenNode;
      const current = cx.indexes.currentNode?.(id);
      if (current !== undefined) access.adopt(current);
      return current;
    };
    const batchable = access.cacheable && cx.graph instanceof SnapshotView ? cx.graph : undefined;
    let fetch = Math.min(handle.size, filtered ? k * overfetch_first : k);
    for (;;) {
      // Visibility is checked on the answers, not inside the search: a callback per visited
      // element costs more than the next round a few invisible answers may need.
      const hits = handle.search(q, fetch, Math.max(cx.vector_ef ?? ef_search_min, fetch));
      // The hits not offered by an earlier round (all of them in the first).
      let offered: readonly VectorHit[] = hits;
      if (seen !== undefined) {
        const known = seen;
        offered = hits.filter((h) => !known.has(h.id));
        for (const h of offered) known.add(h.id);
      }
      offeredCount += offered.length;
      const ids = new Array<number>(offered.length);
      for (let i = 0; i < offered.length; i++) {
        const h = offered[i]!;
        hitsById?.set(h.id, h);
        ids[i] = h.id;
      }
      // A read-only statement on a plain snapshot looks its hits up together (SnapshotView.nodesById);
      // the few it does not see (CURRENT: written since) are resolved one by one.
      const found = new Array<NodeState | undefined>(ids.length);
      if (batchable !== undefined) batchable.nodesById(ids, found);
      let missing = 0;
      for (let i = 0; i < ids.length; i++) {
        if (found[i] === undefined && (found[i] = resolve(ids[i]!)) === undefined) missing++;
      }
      // Rows come from the hits found; all of them, unless a hit is no node this reader reads.
      let fresh = found as readonly NodeState[];
      let freshHits = offered;
      if (missing > 0) {
        const nodes: NodeState[] = [];
        const kept: VectorHit[] = [];
        for (let i = 0; i < ids.length; i++) {
          if (found[i] === undefined) continue;
          nodes.push(found[i]!);
          kept.push(offered[i]!);
        }
        fresh = nodes;
        freshHits = kept;
      }
      if (!runOver(fresh, freshHits) || stopped) return false;
      if (passed >= k) return ordered ? emitOrdered(collected, k, sink) : true;
      const exhausted = hits.length < fetch || fetch >= handle.size;
      // Few passed: ask for as many more as the pass rate so far says k needs, at least double.
      const rate = Math.max(passed, 0.5) / Math.max(offeredCount, 1);
      const next = Math.ceil(Math.max(fetch * 2, (k / rate) * 1.5));
      const known = (seen ??= new Set(ids));
      if (exhausted || next > handle.size * exact_fraction_max) {
        // The rest of the label, exactly: the nodes the rounds have not offered.
        if (!ordered) return runOver(unseen(env, op.label, known));
        // Ordered: the rows so far, then the rest's, go through the exact top-k.
        const rest: PhysicalOp = (_a, s) =>
          after(loopArray(collected, (c) => s(c.row), cx.deadline), (ok) => {
            if (!ok) return false;
            forward = s;
            return runOver(unseen(env, op.label, known));
          });
        return exactTop(rest)(arg, sink);
      }
      fetch = next;
    }
  };
  /** Ordered rows to the sink, holding their memory until they are passed on. */
  const emitOrdered = (collected: Collected[], k: number, sink: Sink): Flow => {
    let held = 0;
    for (const c of collected) held += rowBytes(c.row);
    cx.memory.reserve(held);
    const rows = orderedRows(collected, k, (row) => (exactDistance ??= env.exprs.compile(order as BoundExpression))(row));
    // The rows' properties are read next, one row after another, each from a property map cold in
    // the CPU's caches; reading every map's size first lets the CPU wait on the k maps together (as
    // nodesById does for the records). Measured: the property reads' share of a query's CPU fell
    // from about 4% to under 3%, this loop included (docs/vector.md, section 9).
    let sizes = 0;
    for (const c of rows) sizes += c.node?.props.size ?? 0;
    assert(sizes >= 0, 'property counts are not negative');
    const emit = (c: Collected): Flow => {
      // As the scan does before a row: reads of the node's properties then skip the lookup by id.
      if (c.node !== undefined && access.cacheable) access.scanned(c.node);
      return sink(c.row);
    };
    return holding(() => loopArray(rows, emit, cx.deadline), () => cx.memory.release(held));
  };
  return order === undefined ? (arg, sink) => run(arg, sink, false) : (arg, sink) => run(arg, sink, true);
}

/** The top-k the search stands in for: its one key, the distance ascending, and its limit and skip. */
function orderTop(op: Op<'vector_search'>, order: BoundExpression): Op<'top'> {
  return { op: 'top', input: op, keys: [{ expression: order, direction: 'asc' }], limit: op.limit, ...(op.skip !== undefined && { skip: op.skip }) };
}

/**
 * Whether `graph` sees every vector `handle` holds as it holds it: a plain snapshot (no lens
 * rewriting versions) at or after the index's last change.
 */
function seesIndexVectors(handle: VectorIndexHandle, graph: GraphReader): boolean {
  return graph instanceof SnapshotView && graph.lens === undefined && handle.changed_at <= graph.read_index;
}

/**
 * A top whose rows come from an ordered vector search (its only key the search's distance, through
 * a projection at most): it passes them on as they come.
 */
export function orderedBySearch(op: Op<'top'>): boolean {
  const below = op.input.op === 'project' ? op.input.input : op.input;
  return below.op === 'vector_search' && below.order !== undefined && op.keys.length === 1;
}

/**
 * The input when it is a label scan of the argument row with no property test: the search may then
 * emit its candidates itself, sparing each round the scan's per-row machinery.
 */
function bareScan(input: LogicalOp): Op<'node_scan'> | undefined {
  return input.op === 'node_scan' && input.props.length === 0 && input.input.op === 'argument' ? input : undefined;
}

function* unseen(env: OpEnv, label: string, seen: ReadonlySet<number>): Iterable<NodeState> {
  for (const n of env.cx.graph.nodesWithLabel(label)) if (!seen.has(n.id)) yield n;
}

function usable(h: VectorIndexHandle, metric: string, q: Float32Array | undefined): boolean {
  return h.ready && h.metric_function === metric && q !== undefined && q.length === h.dimensions;
}

/** A VECTOR, or a LIST of numbers, as a query vector; anything else leaves the search to the scan. */
function asVector(v: Value): Float32Array | undefined {
  if (v instanceof Float32Array) return v;
  if (Array.isArray(v) && v.length > 0 && (v as readonly Value[]).every((x) => typeof x === 'number' || typeof x === 'bigint')) {
    return Float32Array.from(v as readonly (number | bigint)[], Number);
  }
  return undefined;
}

/** LIMIT and SKIP values; NaN when they are not counts (the top-k above raises the error). */
function count(v: Value): number {
  if (typeof v === 'bigint' && v >= 0n) return Number(v);
  return NaN;
}
