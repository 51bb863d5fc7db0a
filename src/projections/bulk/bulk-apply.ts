import type { PropertyMap, PropertyValue } from '../../common/property-value.js';
import type { BulkColumn, BulkLoad } from '../../log/events.js';
import type { GraphStore, Refusal } from '../graph/graph-store.js';
import { visibleNode } from '../graph/records.js';
import { f64Column, u32Column } from './bulk-columns.js';

/**
 * Applying a completed bulk import: its nodes, then its edges, created in the graph straight from
 * the entry's columns (no op object or copied map per row), and the indexes refreshed once for the
 * nodes created, in one pass at the end of the import rather than per row.
 */

/**
 * Whether the import can apply whole: node ids fresh and consecutive, every edge's endpoints live
 * before it or created by it, ids of edges fresh. Checked before anything applies, so a refusal
 * leaves nothing.
 */
export function checkBulk(parts: readonly BulkLoad[], graph: GraphStore): Refusal | undefined {
  let nextNode = graph.nextNodeId;
  let nextEdge = graph.nextEdgeId;
  const firstImported = nextNode;
  for (const p of parts) {
    if (p.nodes.count > 0) {
      if (p.nodes.first_id < nextNode) return bad(`bulk load part ${p.part}: node ids from ${p.nodes.first_id} are already in use`);
      nextNode = p.nodes.first_id + p.nodes.count;
    }
    if (p.edges.count > 0) {
      if (p.edges.first_id < nextEdge) return bad(`bulk load part ${p.part}: edge ids from ${p.edges.first_id} are already in use`);
      nextEdge = p.edges.first_id + p.edges.count;
    }
  }
  const imported = (id: number): boolean => parts.some((p) => id >= p.nodes.first_id && id < p.nodes.first_id + p.nodes.count);
  const live = (id: number): boolean => {
    if (id >= firstImported) return imported(id);
    const r = graph.nodeRecord(id);
    return r !== undefined && visibleNode(r, Number.POSITIVE_INFINITY) !== undefined;
  };
  for (const p of parts) {
    const sources = f64Column(p.edges.sources);
    const targets = f64Column(p.edges.targets);
    for (let i = 0; i < p.edges.count; i++) {
      const s = sources[i]!;
      const t = targets[i]!;
      if (!live(s)) return bad(`bulk load part ${p.part}: edge ${p.edges.first_id + i} starts at node ${s}, which does not exist`);
      if (!live(t)) return bad(`bulk load part ${p.part}: edge ${p.edges.first_id + i} ends at node ${t}, which does not exist`);
    }
  }
  return undefined;
}

/**
 * Creates the nodes, then the edges, of a completed import in the graph. Answers the nodes created
 * (each with no labels before) for the indexes, or an empty map when `forIndexes` is false (no index
 * exists, so none needs refreshing).
 */
export function applyBulk(parts: readonly BulkLoad[], graph: GraphStore, index: number, ts: number, committed: boolean, forIndexes: boolean): Map<number, readonly string[]> {
  const touched = new Map<number, readonly string[]>();
  for (const p of parts) {
    const labelSetOf = u32Column(p.nodes.label_set_of);
    const sets = p.nodes.label_sets;
    graph.createNodes(p.nodes.first_id, p.nodes.count, (i) => sets[labelSetOf[i]!]!, propsOf(p.nodes.columns), index, ts, committed);
    if (forIndexes) for (let i = 0; i < p.nodes.count; i++) touched.set(p.nodes.first_id + i, NO_LABELS);
  }
  for (const p of parts) {
    const typeOf = u32Column(p.edges.type_of);
    const types = p.edges.types;
    graph.createEdges(
      p.edges.first_id,
      p.edges.count,
      (i) => types[typeOf[i]!]!,
      f64Column(p.edges.sources),
      f64Column(p.edges.targets),
      propsOf(p.edges.columns),
      index,
      ts,
      committed,
    );
  }
  return touched;
}

const NO_LABELS: readonly string[] = [];
/** Shared by every row without properties: a version's map is never changed, only replaced. */
const NO_PROPS: PropertyMap = new Map();

function propsOf(columns: readonly BulkColumn[]): (row: number) => PropertyMap {
  if (columns.length === 0) return () => NO_PROPS;
  return (row) => {
    let out: Map<string, PropertyValue> | undefined;
    for (const c of columns) {
      const v = c.values[row];
      if (v !== null && v !== undefined) (out ??= new Map()).set(c.key, v);
    }
    return out ?? NO_PROPS;
  };
}

function bad(message: string): Refusal {
  return { code: 'FAILED_PRECONDITION', reason: 'BULK_LOAD_INVALID', message, metadata: {} };
}
