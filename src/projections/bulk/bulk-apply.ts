import type { PropertyValue } from '../../common/property-value.js';
import type { BulkColumn, BulkLoad, GraphOp } from '../../log/events.js';
import type { GraphStore, Refusal } from '../graph/graph-store.js';
import { visibleNode } from '../graph/records.js';
import { f64Column, u32Column } from './bulk-columns.js';

/**
 * Applying a completed bulk import: its nodes, then its edges, handed to the ordinary apply path in
 * chunks of create ops, so the graph, label sets, counts and indexes are maintained exactly as for
 * any write, in one pass at the end of the import rather than per row.
 */
export const bulk_apply_chunk_rows = 16_384;

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

/** The create ops of a completed import, nodes first, at most `bulk_apply_chunk_rows` per chunk. */
export function* bulkOps(parts: readonly BulkLoad[]): Generator<GraphOp[]> {
  for (const p of parts) {
    const labelSetOf = u32Column(p.nodes.label_set_of);
    for (let from = 0; from < p.nodes.count; from += bulk_apply_chunk_rows) {
      const to = Math.min(p.nodes.count, from + bulk_apply_chunk_rows);
      const ops: GraphOp[] = [];
      for (let i = from; i < to; i++) {
        ops.push({ op: 'create_node', id: p.nodes.first_id + i, labels: p.nodes.label_sets[labelSetOf[i]!]!, props: rowProps(p.nodes.columns, i) });
      }
      yield ops;
    }
  }
  for (const p of parts) {
    const typeOf = u32Column(p.edges.type_of);
    const sources = f64Column(p.edges.sources);
    const targets = f64Column(p.edges.targets);
    for (let from = 0; from < p.edges.count; from += bulk_apply_chunk_rows) {
      const to = Math.min(p.edges.count, from + bulk_apply_chunk_rows);
      const ops: GraphOp[] = [];
      for (let i = from; i < to; i++) {
        ops.push({
          op: 'create_edge',
          id: p.edges.first_id + i,
          type: p.edges.types[typeOf[i]!]!,
          source: sources[i]!,
          target: targets[i]!,
          props: rowProps(p.edges.columns, i),
        });
      }
      yield ops;
    }
  }
}

const NO_PROPS: readonly (readonly [string, PropertyValue])[] = [];

function rowProps(columns: readonly BulkColumn[], row: number): readonly (readonly [string, PropertyValue])[] {
  if (columns.length === 0) return NO_PROPS;
  const out: (readonly [string, PropertyValue])[] = [];
  for (const c of columns) {
    const v = c.values[row];
    if (v !== null && v !== undefined) out.push([c.key, v]);
  }
  return out;
}

function bad(message: string): Refusal {
  return { code: 'FAILED_PRECONDITION', reason: 'BULK_LOAD_INVALID', message, metadata: {} };
}
