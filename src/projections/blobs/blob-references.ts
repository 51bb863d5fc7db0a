import type { PropertyValue } from '../../common/property-value.js';
import type { GraphOp } from '../../log/events.js';
import type { Catalog } from '../catalog/catalog.js';
import type { GraphStore, Refusal } from '../graph/graph-store.js';
import { visibleNode } from '../graph/records.js';
import type { BlobProjection } from './blob-projection.js';

/**
 * SCALAR_TYPE_BLOB node properties hold a blob by reference and keep it alive: a write naming a
 * blob that does not exist is refused, and so is deleting a blob a property holds. Only properties
 * a label of the node declares BLOB count; elsewhere a string is just a string.
 */

const hex64 = /^[0-9a-f]{64}$/;

/** The blob id a BLOB property value names: the hex id, or its 32 raw bytes. */
export function blobIdOf(value: PropertyValue): string | undefined {
  if (typeof value === 'string') return value.toLowerCase();
  if (value instanceof Uint8Array && value.byteLength === 32) return Buffer.from(value).toString('hex');
  return undefined;
}

/** Property names each label declares BLOB. */
function blobProperties(catalog: Catalog, labels: Iterable<string>): Set<string> {
  const names = new Set<string>();
  for (const label of labels) {
    for (const p of catalog.labels.get(label)?.properties ?? []) {
      if (p.type.kind === 'scalar' && p.type.scalar === 'BLOB') names.add(p.name);
    }
  }
  return names;
}

function anyBlobProperty(catalog: Catalog): boolean {
  for (const def of catalog.labels.values()) {
    for (const p of def.properties) if (p.type.kind === 'scalar' && p.type.scalar === 'BLOB') return true;
  }
  return false;
}

/** How many node properties in the latest state (pending included) hold `blob_id`. */
export function propertyReferences(catalog: Catalog, graph: GraphStore, blob_id: string): number {
  let n = 0;
  for (const def of catalog.labels.values()) {
    const names = blobProperties(catalog, [def.name]);
    if (names.size === 0) continue;
    for (const record of graph.recordsWithLabel(def.name)) {
      const node = visibleNode(record, Number.POSITIVE_INFINITY);
      if (node === undefined || !node.labels.includes(def.name)) continue;
      // A node of two labels declaring the property is counted once, under its first such label.
      if (node.labels.find((l) => blobProperties(catalog, [l]).size > 0) !== def.name) continue;
      for (const name of names) {
        const v = node.props.get(name);
        if (v !== undefined && blobIdOf(v) === blob_id) n++;
      }
    }
  }
  return n;
}

/** Refuses a graph write that sets a BLOB property to a blob that does not exist. */
export function checkBlobProperties(ops: readonly GraphOp[], catalog: Catalog, graph: GraphStore, blobs: BlobProjection): Refusal | undefined {
  // No label declares a BLOB property: nothing to check, and a large write skips a pass over its ops.
  if (!anyBlobProperty(catalog)) return undefined;
  const labelsInBatch = new Map<number, Set<string>>();
  const labelsOf = (id: number): Set<string> => {
    let labels = labelsInBatch.get(id);
    if (labels === undefined) {
      const record = graph.nodeRecord(id);
      labels = new Set(record === undefined ? [] : (visibleNode(record, Number.POSITIVE_INFINITY)?.labels ?? []));
      labelsInBatch.set(id, labels);
    }
    return labels;
  };
  for (const op of ops) {
    let set: readonly (readonly [string, PropertyValue | null])[] = [];
    let node = 0;
    switch (op.op) {
      case 'create_node':
        labelsInBatch.set(op.id, new Set(op.labels));
        set = op.props;
        node = op.id;
        break;
      case 'update_node': {
        const labels = labelsOf(op.id);
        for (const l of op.add_labels) labels.add(l);
        for (const l of op.remove_labels) labels.delete(l);
        set = op.set;
        node = op.id;
        break;
      }
      default:
        continue;
    }
    const names = blobProperties(catalog, labelsOf(node));
    for (const [name, value] of set) {
      if (value === null || !names.has(name)) continue;
      const id = blobIdOf(value);
      if (id !== undefined && (!hex64.test(id) || blobs.blob(id) === undefined)) {
        return {
          code: 'FAILED_PRECONDITION',
          reason: 'BLOB_REFERENCE_UNKNOWN',
          message: `property ${name} of node ${node} names blob ${id}, which does not exist; upload it first`,
          metadata: { node_id: String(node), property: name, blob_id: id },
        };
      }
    }
  }
  return undefined;
}
