import type { PropertyValue } from '../../src/common/property-value.js';
import { NodeRecord, type NodeVersion } from '../../src/projections/graph/records.js';

/** A node record whose latest version has these labels and properties (or is a deletion). */
export function record(id: number, labels: readonly string[], props: Record<string, PropertyValue>, deleted = false): NodeRecord {
  const r = new NodeRecord(id);
  const v: NodeVersion = { id, ref: r.ref, labels, props: new Map(Object.entries(props)), ts: 1, record: r, index: 1, deleted, prev: undefined };
  r.head = v;
  return r;
}
