import { assertNever } from '../../common/assert.js';
import type { ComputedPropertySpec, GraphOp, TtlExpired } from '../../log/events.js';
import type { Catalog } from '../catalog/catalog.js';
import type { GraphStore } from '../graph/graph-store.js';
import { visibleEdge, visibleNode, type NodeVersion } from '../graph/records.js';
import { expiryMicros, instantMicros } from './computed-reads.js';

/**
 * TTL expiry as graph changes. The leader's sweeper finds expired nodes (`findExpired`) and proposes
 * a `ttl_expired` entry; apply turns it into ops (`expiryOps`) against the state it meets, so a node
 * whose anchor moved since is left alone. Both are pure reads of the latest state.
 */
export type TtlItem = TtlExpired['expired'][number];

export interface FoundExpiry extends TtlItem {
  readonly scope: ComputedPropertySpec['scope'];
  /** When it expired, epoch microseconds. */
  readonly expiry_us: number;
}

function ttlSpec(catalog: Catalog, label: string, property: string): ComputedPropertySpec | undefined {
  const spec = catalog.labels.get(label)?.computed.find((c) => c.name === property);
  return spec?.computed_type === 'TTL' ? spec : undefined;
}

function latest(graph: GraphStore, id: number): NodeVersion | undefined {
  const r = graph.nodeRecord(id);
  return r === undefined ? undefined : visibleNode(r, Number.POSITIVE_INFINITY);
}

/** The expiry of `spec` on `node` when it is due by `as_of_us` and there is still something to remove. */
function dueExpiry(spec: ComputedPropertySpec, node: NodeVersion, as_of_us: number): number | undefined {
  const anchor = instantMicros(node.props.get(spec.anchor_field));
  if (anchor === undefined) return undefined;
  const expiry = expiryMicros(spec, anchor);
  if (expiry > as_of_us) return undefined;
  if (spec.scope === 'SUBTREE' && !node.props.has(spec.target_field)) return undefined;
  return expiry;
}

/** Up to `limit` expirations due by `as_of_us`, oldest label definitions first. */
export function findExpired(catalog: Catalog, graph: GraphStore, as_of_us: number, limit: number): FoundExpiry[] {
  const out: FoundExpiry[] = [];
  for (const def of catalog.labels.values()) {
    const specs = def.computed.filter((c) => c.computed_type === 'TTL');
    if (specs.length === 0) continue;
    for (const record of graph.recordsWithLabel(def.name)) {
      const node = visibleNode(record, Number.POSITIVE_INFINITY);
      if (node === undefined || !node.labels.includes(def.name)) continue;
      for (const spec of specs) {
        const expiry_us = dueExpiry(spec, node, as_of_us);
        if (expiry_us === undefined) continue;
        out.push({ node_id: node.id, label: def.name, property: spec.name, scope: spec.scope, expiry_us });
        if (out.length >= limit) return out;
      }
    }
  }
  return out;
}

/**
 * The graph changes of an expiry entry: per node, its edges and the node (any NODE scope), or one
 * update removing the expired properties. Items no longer due, or naming what is gone, give none.
 */
export function expiryOps(event: TtlExpired, catalog: Catalog, graph: GraphStore): GraphOp[] {
  const byNode = new Map<number, { remove: boolean; fields: Set<string> }>();
  for (const item of event.expired) {
    const spec = ttlSpec(catalog, item.label, item.property);
    const node = latest(graph, item.node_id);
    if (spec === undefined || node === undefined || !node.labels.includes(item.label)) continue;
    if (dueExpiry(spec, node, event.as_of_us) === undefined) continue;
    const entry = byNode.get(node.id) ?? { remove: false, fields: new Set<string>() };
    byNode.set(node.id, entry);
    switch (spec.scope) {
      case 'NODE':
        entry.remove = true;
        break;
      case 'FIELD':
        entry.fields.add(spec.anchor_field);
        break;
      case 'SUBTREE':
        entry.fields.add(spec.target_field);
        break;
      default:
        assertNever(spec.scope, 'TTL scope');
    }
  }
  const ops: GraphOp[] = [];
  const edgesDeleted = new Set<number>();
  for (const [id, { remove, fields }] of byNode) {
    if (remove) {
      const record = graph.nodeRecord(id)!;
      for (const e of [...record.out, ...record.in]) {
        if (edgesDeleted.has(e.id) || visibleEdge(e, Number.POSITIVE_INFINITY) === undefined) continue;
        edgesDeleted.add(e.id);
        ops.push({ op: 'delete_edge', id: e.id });
      }
      ops.push({ op: 'delete_node', id });
    } else {
      ops.push({ op: 'update_node', id, add_labels: [], remove_labels: [], set: [...fields].map((f) => [f, null] as const), replace: false });
    }
  }
  return ops;
}
