import { assert } from '../../common/assert.js';
import type { PropertyMap, PropertyValue } from '../../common/property-value.js';
import { nodeRef, relationshipRef, type NodeRef } from '../../common/values/value.js';
import type { GraphOp } from '../../log/events.js';
import type { GraphStats, ScanSet } from './graph-store.js';
import { countKeys, walkPropertyKeys } from './property-key-catalog.js';
import type { ReadLens } from './read-lens.js';
import type { EdgeState, NodeState } from './records.js';
import type { Direction, GraphReader } from './view.js';

/**
 * Writes buffered over a reader: a statement or a transaction reads its base plus its own changes and
 * hands back, at the end, the net effect as graph ops for one log entry. Only observable changes
 * become ops: a node created and deleted in the same write set leaves nothing behind.
 *
 * It also records what was read, so a transaction's commit can check that nothing it read changed
 * after its snapshot (DESIGN 2: validated at apply).
 */
export interface IdAllocator {
  nodeId(): number;
  edgeId(): number;
}

export class WriteSet implements GraphReader {
  /** Overlay: the current state of every node this write set touched; null once deleted here. */
  private readonly nodeOverlay = new Map<number, NodeState | null>();
  private readonly edgeOverlay = new Map<number, EdgeState | null>();
  /** Types of the edges deleted here, by id (see deletedEdgeType). */
  private readonly deletedEdgeTypes = new Map<number, string>();
  /** Ids created here, in creation order. */
  private readonly createdNodes: number[] = [];
  private readonly createdEdges: number[] = [];
  /** Adjacency of edges created here, by endpoint. */
  private readonly newOut = new Map<number, number[]>();
  private readonly newIn = new Map<number, number[]>();
  /** Ids of base nodes and edges read, for read validation. */
  readonly readNodes = new Set<number>();
  readonly readEdges = new Set<number>();
  /** What was read by predicate (labels and types scanned, adjacency walked), for phantom checks. */
  private readonly scanned = { labels: new Set<string>(), types: new Set<string>(), all_nodes: false, all_edges: false };
  /**
   * Nodes written by earlier statements that the reader's read time hides (a NODE-scoped TTL that
   * expired them, docs/computed-properties.md), with the edges at them: a later statement sees them
   * as it would see the same nodes committed. The running statement's own writes are never in it,
   * so a statement reads what it wrote. Invariant: every id has a non-null overlay state.
   */
  private readonly hidden = new Set<number>();
  /** Nodes created or changed since the last `beginStatement`: the only ones whose reading can change. */
  private readonly touched = new Set<number>();

  constructor(
    /** Changes only by `restart`, once what was written over it is committed or dropped. */
    private base: GraphReader,
    private readonly ids: IdAllocator,
    /** Record reads only where a commit will validate them (interactive transactions). */
    private readonly trackReads: boolean,
  ) {}

  /**
   * Nodes and edges this write set holds a state for (created, changed or deleted here). Grows by
   * at most one per write call and never shrinks: a statement charges its growth to its memory limit.
   */
  get entries(): number {
    return this.nodeOverlay.size + this.edgeOverlay.size;
  }

  get read_index(): number {
    return this.base.read_index;
  }

  /**
   * Called before each statement of a transaction, with the same lens each time (the transaction's
   * read time): the nodes written so far that it hides are hidden from this statement on, as
   * committed ones are. Only nodes written since the last call are looked at again: a node no
   * statement touched reads the same under the same lens.
   */
  beginStatement(lens: ReadLens | undefined): void {
    if (lens !== undefined) {
      for (const id of this.touched) {
        const v = this.nodeOverlay.get(id);
        if (v !== null && v !== undefined && lens.node(v) === undefined) this.hidden.add(id);
        else this.hidden.delete(id);
      }
    }
    this.touched.clear();
  }

  /**
   * Starts over on `base` with nothing written and nothing read, keeping the id allocator: what was
   * written so far has been committed (and `base` shows it) or is dropped. A statement that commits in
   * batches (`CALL { } IN TRANSACTIONS`) goes on in the same write set this way.
   */
  restart(base: GraphReader): void {
    this.base = base;
    this.nodeOverlay.clear();
    this.edgeOverlay.clear();
    this.deletedEdgeTypes.clear();
    this.createdNodes.length = 0;
    this.createdEdges.length = 0;
    this.newOut.clear();
    this.newIn.clear();
    this.readNodes.clear();
    this.readEdges.clear();
    this.scanned.labels.clear();
    this.scanned.types.clear();
    this.scanned.all_nodes = false;
    this.scanned.all_edges = false;
    this.hidden.clear();
    this.touched.clear();
  }

  // ---- reads ----

  node(id: number): NodeState | undefined {
    const o = this.nodeOverlay.get(id);
    if (o !== undefined) return o === null || this.hidden.has(id) ? undefined : o;
    if (this.trackReads) this.readNodes.add(id);
    return this.base.node(id);
  }

  nodeRef(id: number): NodeRef {
    return this.nodeOverlay.get(id)?.ref ?? this.base.nodeRef(id);
  }

  edge(id: number): EdgeState | undefined {
    const o = this.edgeOverlay.get(id);
    if (o !== undefined) return o === null || this.atHidden(o) ? undefined : o;
    if (this.trackReads) this.readEdges.add(id);
    const e = this.base.edge(id);
    return e === undefined || this.atHidden(e) ? undefined : e;
  }

  /** Whether this write set deleted the node or edge (a later read of it is an error in Cypher). */
  isNodeDeleted(id: number): boolean {
    return this.nodeOverlay.get(id) === null;
  }

  isEdgeDeleted(id: number): boolean {
    return this.edgeOverlay.get(id) === null;
  }

  *nodes(): Iterable<NodeState> {
    if (this.trackReads) this.scanned.all_nodes = true;
    for (const v of this.base.nodes()) {
      if (this.nodeOverlay.has(v.id)) continue;
      if (this.trackReads) this.readNodes.add(v.id);
      yield v;
    }
    yield* this.overlayNodes(undefined);
  }

  /** What this write set read by predicate (recorded when it tracks reads). */
  get scans(): ScanSet {
    return this.scanned;
  }

  /** The reader this write set buffers over (an index answers for it, not for the overlay). */
  get baseReader(): GraphReader {
    return this.base;
  }

  /**
   * An index lookup over this write set: `baseHits` (what the index found in the base reader), as
   * this write set has them, then every node it created or changed that has `label`; the caller
   * re-checks the predicate on each. Only the base nodes found are recorded as read, so a
   * transaction that seeks one key conflicts with writers of that key's nodes, not of the label.
   */
  *throughOverlay(baseHits: Iterable<NodeState>, label: string): Iterable<NodeState> {
    if (this.trackReads) this.scanned.labels.add(label);
    for (const v of baseHits) {
      if (this.nodeOverlay.has(v.id)) continue;
      if (this.trackReads) this.readNodes.add(v.id);
      yield v;
    }
    yield* this.overlayNodes(label);
  }

  *nodesWithLabel(label: string): Iterable<NodeState> {
    if (this.trackReads) this.scanned.labels.add(label);
    for (const v of this.base.nodesWithLabel(label)) {
      if (this.nodeOverlay.has(v.id)) continue;
      if (this.trackReads) this.readNodes.add(v.id);
      yield v;
    }
    yield* this.overlayNodes(label);
  }

  private *overlayNodes(label: string | undefined): Iterable<NodeState> {
    for (const v of [...this.nodeOverlay.values()]) {
      if (v !== null && !this.hidden.has(v.id) && (label === undefined || v.labels.includes(label))) yield v;
    }
  }

  *edges(): Iterable<EdgeState> {
    if (this.trackReads) this.scanned.all_edges = true;
    for (const e of this.base.edges()) {
      if (this.edgeOverlay.has(e.id) || this.atHidden(e)) continue;
      if (this.trackReads) this.readEdges.add(e.id);
      yield e;
    }
    yield* this.overlayEdges(undefined);
  }

  *edgesOfType(type: string): Iterable<EdgeState> {
    if (this.trackReads) this.scanned.types.add(type);
    for (const e of this.base.edgesOfType(type)) {
      if (this.edgeOverlay.has(e.id) || this.atHidden(e)) continue;
      if (this.trackReads) this.readEdges.add(e.id);
      yield e;
    }
    yield* this.overlayEdges(type);
  }

  private *overlayEdges(type: string | undefined): Iterable<EdgeState> {
    for (const e of [...this.edgeOverlay.values()]) {
      if (e !== null && !this.atHidden(e) && (type === undefined || e.type === type)) yield e;
    }
  }

  *edgesOf(nodeId: number, direction: Direction, type?: string): Iterable<EdgeState> {
    if (this.trackReads) {
      if (type === undefined) this.scanned.all_edges = true;
      else this.scanned.types.add(type);
    }
    if (this.nodeOverlay.get(nodeId) === null || this.hidden.has(nodeId)) return;
    for (const e of this.base.edgesOf(nodeId, direction, type)) {
      const o = this.edgeOverlay.get(e.id);
      if (o === null || this.atHidden(e)) continue;
      if (o === undefined && this.trackReads) this.readEdges.add(e.id);
      yield o ?? e;
    }
    const seen = new Set<number>();
    if (direction !== 'in') yield* this.newEdgesAt(this.newOut.get(nodeId), type, seen);
    if (direction !== 'out') yield* this.newEdgesAt(this.newIn.get(nodeId), type, seen);
  }

  private *newEdgesAt(ids: readonly number[] | undefined, type: string | undefined, seen: Set<number>): Iterable<EdgeState> {
    if (ids === undefined) return;
    for (const id of [...ids]) {
      if (seen.has(id)) continue; // a self-loop is listed at both ends
      seen.add(id);
      const e = this.edgeOverlay.get(id);
      if (e !== null && e !== undefined && !this.atHidden(e) && (type === undefined || e.type === type)) yield e;
    }
  }

  /** Whether an end of the edge is hidden (see `hidden`): the edge then is too. */
  private atHidden(e: EdgeState): boolean {
    return this.hidden.size > 0 && (this.hidden.has(e.source) || this.hidden.has(e.target));
  }

  labelNames(): Iterable<string> {
    const names = new Set(this.base.labelNames());
    for (const v of this.nodeOverlay.values()) if (v !== null) for (const l of v.labels) names.add(l);
    return names;
  }

  edgeTypeNames(): Iterable<string> {
    const names = new Set(this.base.edgeTypeNames());
    for (const e of this.edgeOverlay.values()) if (e !== null) names.add(e.type);
    return names;
  }

  propertyKeyCounts(): ReadonlyMap<string, number> {
    if (this.trackReads) {
      // The answer depends on every node and edge, as a scan of all of them would.
      this.scanned.all_nodes = true;
      this.scanned.all_edges = true;
    }
    if (this.hidden.size > 0) return walkPropertyKeys(this.nodes(), this.edges());
    // The base's counts, each record written here moved from its base state to its state here.
    const counts = new Map(this.base.propertyKeyCounts());
    for (const [id, v] of this.nodeOverlay) {
      countKeys(counts, this.base.node(id)?.props, -1);
      countKeys(counts, v?.props, +1);
    }
    for (const [id, e] of this.edgeOverlay) {
      countKeys(counts, this.base.edge(id)?.props, -1);
      countKeys(counts, e?.props, +1);
    }
    return counts;
  }

  stats(): GraphStats {
    return this.base.stats();
  }

  // ---- writes ----

  createNode(labels: readonly string[], props: PropertyMap): NodeState {
    const id = this.ids.nodeId();
    const node: NodeState = { id, ref: nodeRef(id), labels: dedupe(labels), props, ts: 0 };
    this.nodeOverlay.set(id, node);
    this.touched.add(id);
    this.createdNodes.push(id);
    return node;
  }

  createEdge(type: string, source: number, target: number, props: PropertyMap): EdgeState {
    assert(this.node(source) !== undefined && this.node(target) !== undefined, 'edge endpoints exist');
    const id = this.ids.edgeId();
    const edge: EdgeState = { id, ref: relationshipRef(id), type, source, target, props, ts: 0 };
    this.edgeOverlay.set(id, edge);
    this.createdEdges.push(id);
    push(this.newOut, source, id);
    push(this.newIn, target, id);
    return edge;
  }

  /** Sets (or, with null, removes) properties; `replace` first removes every other property. */
  setNodeProperties(id: number, set: ReadonlyMap<string, PropertyValue | null>, replace: boolean): NodeState {
    const node = this.liveNode(id);
    const props = mergeProps(node.props, set, replace);
    return this.putNode({ ...node, props });
  }

  setLabels(id: number, add: readonly string[], remove: readonly string[]): NodeState {
    const node = this.liveNode(id);
    let labels = node.labels.filter((l) => !remove.includes(l));
    for (const l of add) if (!labels.includes(l)) labels = [...labels, l];
    return this.putNode({ ...node, labels });
  }

  setEdgeProperties(id: number, set: ReadonlyMap<string, PropertyValue | null>, replace: boolean): EdgeState {
    const edge = this.edge(id);
    assert(edge !== undefined, `edge ${id} is live`);
    const next: EdgeState = { ...edge, props: mergeProps(edge.props, set, replace) };
    this.edgeOverlay.set(id, next);
    return next;
  }

  deleteEdge(id: number): void {
    const edge = this.edge(id);
    if (edge === undefined) return;
    this.deletedEdgeTypes.set(id, edge.type);
    this.edgeOverlay.set(id, null);
  }

  /**
   * The type of an edge deleted here. A relationship's type stays readable after DELETE in the same
   * statement (`DELETE r RETURN type(r)`), unlike its properties.
   */
  deletedEdgeType(id: number): string | undefined {
    return this.deletedEdgeTypes.get(id);
  }

  /**
   * Deletes a node; `detach` deletes its edges too. Without it, edges left attached are reported by
   * `danglingNode()` when the statement ends, since Cypher allows deleting them later in the statement.
   */
  deleteNode(id: number, detach: boolean): void {
    if (this.node(id) === undefined) return;
    if (detach) for (const e of [...this.edgesOf(id, 'both')]) this.deleteEdge(e.id);
    this.nodeOverlay.set(id, null);
  }

  /** A node deleted here that still has a live edge, if any. */
  danglingNode(): number | undefined {
    for (const [id, v] of this.nodeOverlay) {
      if (v !== null) continue;
      const base = this.base.edgesOf(id, 'both');
      for (const e of base) if (this.edgeOverlay.get(e.id) !== null) return id;
      for (const list of [this.newOut.get(id), this.newIn.get(id)]) {
        for (const eid of list ?? []) if (this.edgeOverlay.get(eid) !== null) return id;
      }
    }
    return undefined;
  }

  private liveNode(id: number): NodeState {
    const node = this.node(id);
    assert(node !== undefined, `node ${id} is live`);
    return node;
  }

  private putNode(node: NodeState): NodeState {
    this.nodeOverlay.set(node.id, node);
    this.touched.add(node.id);
    return node;
  }

  // ---- the net effect ----

  /** The observable changes as ops, in an order that applies: creations, updates, then deletions. */
  ops(): GraphOp[] {
    const steps = this.opsInSteps(Number.POSITIVE_INFINITY);
    for (;;) {
      const r = steps.next();
      if (r.done === true) return r.value;
    }
  }

  /**
   * ops(), pausing after every `step_items` entries looked at, so that a caller may give the event loop
   * back between steps (a write set of a million nodes takes about a second to turn into ops). Nothing
   * else may change the write set until it ends.
   */
  *opsInSteps(step_items: number): Generator<undefined, GraphOp[], undefined> {
    let left = step_items;
    const created = new Set(this.createdNodes);
    const createdEdges = new Set(this.createdEdges);
    const out: GraphOp[] = [];
    for (const id of this.createdNodes) {
      if (--left === 0) {
        left = step_items;
        yield;
      }
      const v = this.nodeOverlay.get(id);
      if (v) out.push({ op: 'create_node', id, labels: v.labels, props: [...v.props] });
    }
    for (const id of this.createdEdges) {
      if (--left === 0) {
        left = step_items;
        yield;
      }
      const e = this.edgeOverlay.get(id);
      if (e) out.push({ op: 'create_edge', id, type: e.type, source: e.source, target: e.target, props: [...e.props] });
    }
    const deletes: GraphOp[] = [];
    for (const [id, v] of this.nodeOverlay) {
      if (--left === 0) {
        left = step_items;
        yield;
      }
      if (created.has(id)) continue;
      const before = this.base.node(id);
      if (before === undefined) continue;
      if (v === null) {
        deletes.push({ op: 'delete_node', id });
        continue;
      }
      const add = v.labels.filter((l) => !before.labels.includes(l));
      const remove = before.labels.filter((l) => !v.labels.includes(l));
      const set = diffProps(before.props, v.props);
      if (add.length + remove.length + set.length > 0) {
        out.push({ op: 'update_node', id, add_labels: add, remove_labels: remove, set, replace: false });
      }
    }
    const edgeDeletes: GraphOp[] = [];
    for (const [id, e] of this.edgeOverlay) {
      if (--left === 0) {
        left = step_items;
        yield;
      }
      if (createdEdges.has(id)) continue;
      const before = this.base.edge(id);
      if (before === undefined) continue;
      if (e === null) {
        edgeDeletes.push({ op: 'delete_edge', id });
        continue;
      }
      const set = diffProps(before.props, e.props);
      if (set.length > 0) out.push({ op: 'update_edge', id, set, replace: false });
    }
    return [...out, ...edgeDeletes, ...deletes];
  }
}

function push(map: Map<number, number[]>, key: number, value: number): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

function dedupe(labels: readonly string[]): readonly string[] {
  return labels.length < 2 ? labels : [...new Set(labels)];
}

function mergeProps(props: PropertyMap, set: ReadonlyMap<string, PropertyValue | null>, replace: boolean): PropertyMap {
  const out = replace ? new Map<string, PropertyValue>() : new Map(props);
  for (const [k, v] of set) {
    if (v === null) out.delete(k);
    else out.set(k, v);
  }
  return out;
}

/** Property changes from `before` to `after`: changed or added values, and null for removed keys. */
function diffProps(before: PropertyMap, after: PropertyMap): [string, PropertyValue | null][] {
  const out: [string, PropertyValue | null][] = [];
  for (const [k, v] of after) {
    const old = before.get(k);
    if (old === undefined || !sameValue(old, v)) out.push([k, v]);
  }
  for (const k of before.keys()) if (!after.has(k)) out.push([k, null]);
  return out;
}

/** Identity of stored values for change detection (not Cypher equality: 1 and 1.0 differ here). */
export function sameValue(a: PropertyValue, b: PropertyValue): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b) return false;
  if (typeof a === 'number') return Object.is(a, b) || (Number.isNaN(a) && Number.isNaN(b as number));
  if (Array.isArray(a)) {
    const bb = b as readonly PropertyValue[];
    return Array.isArray(bb) && a.length === bb.length && a.every((x, i) => sameValue(x as PropertyValue, bb[i] as PropertyValue));
  }
  if (a instanceof Uint8Array || a instanceof Float32Array) {
    const bb = b as Uint8Array | Float32Array;
    return a.constructor === bb.constructor && a.length === bb.length && a.every((x, i) => Object.is(x, bb[i]));
  }
  // Temporal and map values of the value library are immutable objects with a canonical text form.
  return typeof a === 'object' && String(a) === String(b) && a.constructor === (b as object).constructor;
}
