import type { GraphStats, GraphStore } from './graph-store.js';
import { nodeRef, relationshipRef, type NodeRef, type RelationshipRef } from '../../common/values/value.js';
import { visibleEdge, visibleNode, type EdgeState, type LabelMembers, type NodeRecord, type NodeState } from './records.js';
import type { ComputedReads } from '../computed/computed-reads.js';
import type { TypeAdjacency } from './adjacency.js';
import type { PropertyValue } from '../../common/property-value.js';

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
  /** Latest counts; estimates for planning, not snapshot-exact. */
  stats(): GraphStats;
}

/**
 * A reader of the store at a fixed read index. With `computed`, nodes are read with their computed
 * properties evaluated and TTL expiry applied at its read time (an expired node hides its edges);
 * the kept label lists and their columns, which hold stored values, are then not used.
 */
export class SnapshotView implements GraphReader {
  constructor(
    private readonly store: GraphStore,
    readonly read_index: number,
    readonly computed?: ComputedReads,
  ) {}

  /** The same snapshot read with computed properties at a read time. */
  withComputed(computed: ComputedReads | undefined): SnapshotView {
    return computed === undefined ? this : new SnapshotView(this.store, this.read_index, computed);
  }

  /** The record's visible version as this reader shows it. */
  private see(r: NodeRecord): NodeState | undefined {
    const v = visibleNode(r, this.read_index);
    return v === undefined || this.computed === undefined ? v : this.computed.node(v);
  }

  /** Whether an edge's endpoints are both visible (only computed reads can hide one). */
  private endsVisible(e: EdgeState): boolean {
    return this.computed === undefined || (this.node(e.source) !== undefined && this.node(e.target) !== undefined);
  }

  node(id: number): NodeState | undefined {
    const r = this.store.nodeRecord(id);
    return r === undefined ? undefined : this.see(r);
  }

  nodeRef(id: number): NodeRef {
    return this.store.nodeRecord(id)?.ref ?? nodeRef(id);
  }

  /** Edge `id` as a query value, the same object every time for an edge the store holds; reads nothing. */
  edgeRef(id: number): RelationshipRef {
    return this.store.edgeRecord(id)?.ref ?? relationshipRef(id);
  }

  edge(id: number): EdgeState | undefined {
    const r = this.store.edgeRecord(id);
    const v = r === undefined ? undefined : visibleEdge(r, this.read_index);
    return v !== undefined && this.endsVisible(v) ? v : undefined;
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
      const v = visibleEdge(r, this.read_index);
      if (v !== undefined && this.endsVisible(v)) yield v;
    }
  }

  *edgesOfType(type: string): Iterable<EdgeState> {
    for (const r of this.store.recordsOfType(type)) {
      const v = visibleEdge(r, this.read_index);
      if (v !== undefined && this.endsVisible(v)) yield v;
    }
  }

  *edgesOf(nodeId: number, direction: Direction, type?: string): Iterable<EdgeState> {
    const r = this.store.nodeRecord(nodeId);
    if (r === undefined || this.see(r) === undefined) return;
    if (direction !== 'in') {
      for (const e of r.out) {
        if (type !== undefined && e.type !== type) continue;
        const v = visibleEdge(e, this.read_index);
        if (v !== undefined && this.endsVisible(v)) yield v;
      }
    }
    if (direction !== 'out') {
      for (const e of r.in) {
        if (type !== undefined && e.type !== type) continue;
        if (direction === 'both' && e.source === e.target) continue;
        const v = visibleEdge(e, this.read_index);
        if (v !== undefined && this.endsVisible(v)) yield v;
      }
    }
  }

  /**
   * The nodes of a label (every node when `label` is undefined) through a callback that answers false
   * to stop: the query engine's scans, about twice as fast as iterating the generators above.
   */
  forEachNode(label: string | undefined, fn: (node: NodeState, members?: LabelMembers, position?: number) => boolean): boolean {
    const readIndex = this.read_index;
    if (this.computed !== undefined) {
      // Computed values differ from the stored columns: no kept list, every node seen through them.
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
    if (this.computed !== undefined) return undefined;
    return this.store.keptMembers(label, this.read_index);
  }

  /**
   * The CSR of `type` as this reader sees it, when the store keeps (or now builds) one; `walked` is
   * the edges the caller walked record by record since it last asked (GraphStore.adjacency).
   * Never with computed reads: expiry can hide a node and its edges.
   */
  adjacency(type: string, walked: number): TypeAdjacency | undefined {
    return this.computed === undefined ? this.store.adjacency(type, this.read_index, walked) : undefined;
  }

  /** Every node's stored value of `key` by node id, as this reader sees it (GraphStore.nodeColumn). */
  nodeColumn(key: string, reads: number): readonly (PropertyValue | undefined)[] | undefined {
    return this.computed === undefined ? this.store.nodeColumn(key, this.read_index, reads) : undefined;
  }

  /** Which nodes have `label`, by node id, as this reader sees them (GraphStore.labelBitmap). */
  labelBitmap(label: string, reads: number): Uint8Array | undefined {
    return this.computed === undefined ? this.store.labelBitmap(label, this.read_index, reads) : undefined;
  }

  /** `edgesOf` through a callback that answers false to stop: the query engine's expands. */
  forEachEdgeOf(nodeId: number, direction: Direction, type: string | undefined, fn: (edge: EdgeState) => boolean): boolean {
    if (this.computed !== undefined) {
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

  stats(): GraphStats {
    return this.store.stats();
  }

}
