import type { GraphStats, GraphStore } from './graph-store.js';
import { nodeRef, relationshipRef, type NodeRef, type RelationshipRef } from '../../common/values/value.js';
import { visibleEdge, visibleNode, type EdgeRecord, type EdgeState, type LabelMembers, type NodeRecord, type NodeState, type NodeVersion } from './records.js';
import type { ReadLens } from './read-lens.js';
import type { TypeAdjacency } from './adjacency.js';
import type { PropertyValue } from '../../common/property-value.js';
import { walkPropertyKeys } from './property-key-catalog.js';

/**
 * What the query engine and the API read the graph through. Every call answers from one fixed point
 * of the log, so a statement never sees half of a write.
 */
export type Direction = 'out' | 'in' | 'both';

export interface GraphReader {
  /** The log index this reader sees up to; Infinity for the leader's writer (pending entries included). */
  readonly read_index: number;
  node(id: number): NodeState | undefined;
  /** Node `id` as a query value, the same object every time for a node the store holds; reads nothing. */
  nodeRef(id: number): NodeRef;
  edge(id: number): EdgeState | undefined;
  nodes(): Iterable<NodeState>;
  nodesWithLabel(label: string): Iterable<NodeState>;
  edges(): Iterable<EdgeState>;
  edgesOfType(type: string): Iterable<EdgeState>;
  /** Edges at `nodeId` in `direction`, optionally of one type. With 'both', a self-loop appears once. */
  edgesOf(nodeId: number, direction: Direction, type?: string): Iterable<EdgeState>;
  /** Label and edge type names present (or once present) in the store, for catalogs and planning. */
  labelNames(): Iterable<string>;
  edgeTypeNames(): Iterable<string>;
  /**
   * Per property key, how many nodes and relationships this reader sees holding it, exactly; keys
   * once held and now held by none may be there with 0. Answered from the store's catalog when no
   * write is newer than the reader, walking the graph otherwise.
   */
  propertyKeyCounts(): ReadonlyMap<string, number>;
  /** Latest counts; estimates for planning, not snapshot-exact. */
  stats(): GraphStats;
}

/** The two instants a current or time-travel read is evaluated at, epoch microseconds. */
export interface ReadTimes {
  /** Computed properties and TTL expiry are evaluated here (docs/computed-properties.md). */
  readonly read_ts_us: number;
  /** Temporal labels and edge types show the versions valid here (docs/temporal.md). */
  readonly valid_us: number;
}

/**
 * A reader of the store at a fixed read index. With a `lens`, records are read through it: computed
 * properties evaluated and TTL expiry applied at its read time (an expired node hides its edges),
 * temporal records at their valid time; the kept label lists and their columns, which hold stored
 * values, are then not used.
 */
export class SnapshotView implements GraphReader {
  constructor(
    private readonly store: GraphStore,
    readonly read_index: number,
    readonly lens?: ReadLens,
    /** The times this reader was made to read at (its lens, if any, reads there); absent for a plain snapshot. */
    readonly times?: ReadTimes,
  ) {}

  /** The same snapshot read through `lens`, made for `times`. */
  withLens(lens: ReadLens | undefined, times: ReadTimes): SnapshotView {
    return new SnapshotView(this.store, this.read_index, lens, times);
  }

  /** The record's visible version as this reader shows it. */
  private see(r: NodeRecord): NodeState | undefined {
    const v = visibleNode(r, this.read_index);
    return v === undefined || this.lens === undefined ? v : this.lens.node(v);
  }

  /** The record's visible version as this reader shows it: through the lens, with both ends visible. */
  private seeEdge(r: EdgeRecord): EdgeState | undefined {
    const v = visibleEdge(r, this.read_index);
    if (v === undefined || this.lens === undefined) return v;
    if (this.node(v.source) === undefined || this.node(v.target) === undefined) return undefined;
    return this.lens.edge(v, () => this.siblings(r));
  }

  /** The stored edges of `r`'s type from its source to its target that this snapshot holds. */
  private *siblings(r: EdgeRecord): Iterable<EdgeState> {
    for (const e of r.source.out) {
      if (e.type !== r.type || e.target !== r.target) continue;
      const v = visibleEdge(e, this.read_index);
      if (v !== undefined) yield v;
    }
  }

  node(id: number): NodeState | undefined {
    const r = this.store.nodeRecord(id);
    return r === undefined ? undefined : this.see(r);
  }

  nodeRef(id: number): NodeRef {
    return this.store.nodeRecord(id)?.ref ?? nodeRef(id);
  }

  /**
   * `node(ids[i])` into `out[i]` for each i, one pass per step of the lookup (the record, its newest
   * version, the visible one): scattered nodes (a vector search's hits) then wait on their memory
   * reads together rather than one after another.
   */
  nodesById(ids: readonly number[], out: (NodeState | undefined)[]): void {
    const n = ids.length;
    const records = new Array<NodeRecord | undefined>(n);
    for (let i = 0; i < n; i++) records[i] = this.store.nodeRecord(ids[i]!);
    const versions = new Array<NodeVersion | undefined>(n);
    for (let i = 0; i < n; i++) versions[i] = records[i]?.head;
    for (let i = 0; i < n; i++) {
      const head = versions[i];
      const v = head === undefined || head.index <= this.read_index ? head : visibleNode(head.record, this.read_index);
      out[i] = v === undefined || v.deleted ? undefined : this.lens === undefined ? v : this.lens.node(v);
    }
  }

  /** Edge `id` as a query value, the same object every time for an edge the store holds; reads nothing. */
  edgeRef(id: number): RelationshipRef {
    return this.store.edgeRecord(id)?.ref ?? relationshipRef(id);
  }

  edge(id: number): EdgeState | undefined {
    const r = this.store.edgeRecord(id);
    return r === undefined ? undefined : this.seeEdge(r);
  }

  *nodes(): Iterable<NodeState> {
    for (const r of this.store.nodeRecords()) {
      const v = this.see(r);
      if (v !== undefined) yield v;
    }
  }

  *nodesWithLabel(label: string): Iterable<NodeState> {
    for (const r of this.store.recordsWithLabel(label)) {
      const v = this.see(r);
      if (v !== undefined && v.labels.includes(label)) yield v;
    }
  }

  *edges(): Iterable<EdgeState> {
    for (const r of this.store.edgeRecords()) {
      const v = this.seeEdge(r);
      if (v !== undefined) yield v;
    }
  }

  *edgesOfType(type: string): Iterable<EdgeState> {
    for (const r of this.store.recordsOfType(type)) {
      const v = this.seeEdge(r);
      if (v !== undefined) yield v;
    }
  }

  *edgesOf(nodeId: number, direction: Direction, type?: string): Iterable<EdgeState> {
    const r = this.store.nodeRecord(nodeId);
    if (r === undefined || this.see(r) === undefined) return;
    if (direction !== 'in') {
      for (const e of r.out) {
        if (type !== undefined && e.type !== type) continue;
        const v = this.seeEdge(e);
        if (v !== undefined) yield v;
      }
    }
    if (direction !== 'out') {
      for (const e of r.in) {
        if (type !== undefined && e.type !== type) continue;
        if (direction === 'both' && e.source === e.target) continue;
        const v = this.seeEdge(e);
        if (v !== undefined) yield v;
      }
    }
  }

  /**
   * The nodes of a label (every node when `label` is undefined) through a callback that answers false
   * to stop: the query engine's scans, about twice as fast as iterating the generators above.
   */
  forEachNode(label: string | undefined, fn: (node: NodeState, members?: LabelMembers, position?: number) => boolean): boolean {
    const readIndex = this.read_index;
    if (this.lens !== undefined) {
      // Values read through a lens differ from the stored columns: no kept list, every node seen through them.
      for (const v of label === undefined ? this.nodes() : this.nodesWithLabel(label)) if (!fn(v)) return false;
      return true;
    }
    if (label === undefined) {
      for (const r of this.store.nodeRecords()) {
        const v = visibleNode(r, readIndex);
        if (v !== undefined && !fn(v)) return false;
      }
      return true;
    }
    const members = this.store.members(label, readIndex);
    if (members !== undefined) {
      const nodes = members.nodes;
      for (let i = 0; i < nodes.length; i++) if (!fn(nodes[i] as NodeState, members, i)) return false;
      return true;
    }
    for (const r of this.store.recordsWithLabel(label)) {
      const v = visibleNode(r, readIndex);
      if (v !== undefined && v.labels.includes(label) && !fn(v)) return false;
    }
    return true;
  }

  /**
   * The kept list of `label`'s nodes as this reader sees them, when the store keeps one; undefined
   * otherwise (then `forEachNode` walks the records, and may start a list).
   */
  keptMembers(label: string): LabelMembers | undefined {
    if (this.lens !== undefined) return undefined;
    return this.store.keptMembers(label, this.read_index);
  }

  /**
   * The CSR of `type` as this reader sees it when the store keeps one; unlike `adjacency`, it neither
   * builds one nor counts as demand (the planner's statistics read it).
   */
  keptAdjacency(type: string): TypeAdjacency | undefined {
    return this.lens === undefined ? this.store.keptAdjacency(type, this.read_index) : undefined;
  }

  /**
   * The CSR of `type` as this reader sees it, when the store keeps (or now builds) one; `walked` is
   * the edges the caller walked record by record since it last asked (GraphStore.adjacency).
   * Never through a read lens: expiry and valid time can hide or change a node and its edges.
   */
  adjacency(type: string, walked: number): TypeAdjacency | undefined {
    return this.lens === undefined ? this.store.adjacency(type, this.read_index, walked) : undefined;
  }

  /** Every node's stored value of `key` by node id, as this reader sees it (GraphStore.nodeColumn). */
  nodeColumn(key: string, reads: number): readonly (PropertyValue | undefined)[] | undefined {
    return this.lens === undefined ? this.store.nodeColumn(key, this.read_index, reads) : undefined;
  }

  /** The stored `key` of every edge of `type` by edge id, as this reader sees them (GraphStore.edgeColumn). */
  edgeColumn(type: string, key: string, reads: number): readonly (PropertyValue | undefined)[] | undefined {
    return this.lens === undefined ? this.store.edgeColumn(type, key, this.read_index, reads) : undefined;
  }

  /** Which nodes have `label`, by node id, as this reader sees them (GraphStore.labelBitmap). */
  labelBitmap(label: string, reads: number): Uint8Array | undefined {
    return this.lens === undefined ? this.store.labelBitmap(label, this.read_index, reads) : undefined;
  }

  /** `edgesOf` through a callback that answers false to stop: the query engine's expands. */
  forEachEdgeOf(nodeId: number, direction: Direction, type: string | undefined, fn: (edge: EdgeState) => boolean): boolean {
    if (this.lens !== undefined) {
      for (const e of this.edgesOf(nodeId, direction, type)) if (!fn(e)) return false;
      return true;
    }
    const r = this.store.nodeRecord(nodeId);
    const readIndex = this.read_index;
    if (r === undefined || visibleNode(r, readIndex) === undefined) return true;
    if (direction !== 'in') {
      for (const e of r.out) {
        if (type !== undefined && e.type !== type) continue;
        const v = visibleEdge(e, readIndex);
        if (v !== undefined && !fn(v)) return false;
      }
    }
    if (direction !== 'out') {
      for (const e of r.in) {
        if (type !== undefined && e.type !== type) continue;
        if (direction === 'both' && e.source === e.target) continue;
        const v = visibleEdge(e, readIndex);
        if (v !== undefined && !fn(v)) return false;
      }
    }
    return true;
  }

  labelNames(): Iterable<string> {
    return this.store.labels();
  }

  edgeTypeNames(): Iterable<string> {
    return this.store.edgeTypes();
  }

  propertyKeyCounts(): ReadonlyMap<string, number> {
    // A lens can add computed properties and hide expired nodes: the catalog counts stored versions only.
    const kept = this.lens === undefined ? this.store.propertyKeyCounts(this.read_index) : undefined;
    return kept ?? walkPropertyKeys(this.nodes(), this.edges());
  }

  stats(): GraphStats {
    return this.store.stats();
  }

}
