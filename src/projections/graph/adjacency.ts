import { nodeRef, type NodeRef } from '../../common/values/value.js';
import { visibleEdge, type EdgeRecord } from './records.js';

/**
 * Adjacency built for scanning: one relationship type's edges in one direction as compressed sparse
 * rows indexed by node id, so an expand walks two typed arrays instead of each node's edge records
 * and their version chains. A CSR is a picture of one point of the log: it is kept while no edge of
 * its type is written after it (GraphStore.adjacency), and every reader at or past that point sees
 * exactly these edges.
 */
export interface AdjacencyRows {
  /**
   * The edges of node n sit at [offsets[n], offsets[n + 1]). Invariant: non-decreasing, length is
   * the store's node id bound + 1, so a node created after the build reads as having no edges.
   */
  readonly offsets: Int32Array;
  /** The node at the other end of each edge, in the order the node's edge records list them. */
  readonly ends: Int32Array;
  /** Each edge's id, beside `ends`. */
  readonly edges: Int32Array;
}

/** Both directions of one type at one point of the log: `out` by source node, `into` by target node. */
export class TypeAdjacency {
  constructor(
    /** The log index of the newest write to an edge of the type when this was built. */
    readonly written: number,
    readonly out: AdjacencyRows,
    readonly into: AdjacencyRows,
    /**
     * A reference per node id, made together so they sit side by side in memory: an expand puts
     * the end node's in its row, and whatever reads the row next touches a dense block instead of
     * one record per end node scattered over the heap.
     */
    readonly refs: readonly NodeRef[],
    /** What the arrays hold against the scan cache budget. */
    readonly bytes: number,
  ) {}
}

/** Ids above this do not fit the arrays' 32-bit slots; such a store keeps no CSR. */
export const ADJACENCY_ID_MAX = 0x7fffffff;

/** Bytes a node reference costs: its slot and the object. */
const NODE_REF_BYTES = 40;

/** Bytes a CSR of `nodes` id slots and `edges` edges holds, both directions. */
export function adjacencyBytes(node_id_bound: number, edges: number): number {
  return 2 * (4 * (node_id_bound + 1) + 8 * edges) + NODE_REF_BYTES * node_id_bound;
}

/**
 * Builds both directions from the type's records as a reader at `readIndex` sees them; `node_id_bound`
 * is one past the largest node id. Per node, edges keep the order of `records`, which is the order
 * the node's own edge lists hold them in, so an expand over the CSR emits rows in the same order as
 * one over the records. Undefined when an id does not fit 32 bits.
 */
export function buildAdjacency(records: Iterable<EdgeRecord>, readIndex: number, node_id_bound: number, written: number): TypeAdjacency | undefined {
  if (node_id_bound > ADJACENCY_ID_MAX) return undefined;
  const visible: EdgeRecord[] = [];
  for (const r of records) {
    if (r.id > ADJACENCY_ID_MAX) return undefined;
    if (visibleEdge(r, readIndex) !== undefined) visible.push(r);
  }
  const out = rows(visible, node_id_bound, (r) => r.source.id, (r) => r.target.id);
  const into = rows(visible, node_id_bound, (r) => r.target.id, (r) => r.source.id);
  // Pushed, not preallocated: V8 keeps an array made by `new Array(n)` with n of 100,000 or more as
  // a dictionary, several times slower to index.
  const refs: NodeRef[] = [];
  for (let i = 0; i < node_id_bound; i++) refs.push(nodeRef(i));
  return new TypeAdjacency(written, out, into, refs, adjacencyBytes(node_id_bound, visible.length));
}

/** A counting sort of `edges` by `from`: stable, so each node's edges keep their order. */
function rows(edges: readonly EdgeRecord[], node_id_bound: number, from: (r: EdgeRecord) => number, to: (r: EdgeRecord) => number): AdjacencyRows {
  const offsets = new Int32Array(node_id_bound + 1);
  for (const e of edges) offsets[from(e) + 1]!++;
  for (let i = 1; i <= node_id_bound; i++) offsets[i]! += offsets[i - 1]!;
  const fill = offsets.slice(0, node_id_bound);
  const ends = new Int32Array(edges.length);
  const ids = new Int32Array(edges.length);
  for (const e of edges) {
    const at = fill[from(e)]!++;
    ends[at] = to(e);
    ids[at] = e.id;
  }
  return { offsets, ends, edges: ids };
}
