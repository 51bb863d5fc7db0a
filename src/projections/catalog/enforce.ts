import type { PropertyMap, PropertyValue } from '../../common/property-value.js';
import type { GraphOp } from '../../log/events.js';
import type { GraphStore, Refusal } from '../graph/graph-store.js';
import { visibleEdge, visibleNode } from '../graph/records.js';
import { sameValue } from '../graph/write-set.js';
import type { IndexStore } from '../indexes/index-store.js';
import { compareKeys, type IndexKey } from '../indexes/sorted-entries.js';
import type { Catalog } from './catalog.js';
import type { ConstraintRecord, IndexRecord } from './types.js';
import { typeText, valueHasType, valueKindText } from './value-types.js';
import { checkMapValues } from './map-values.js';
import { checkValidInterval, checkVersionRoom, valid_time_keys } from '../temporal/valid-time-checks.js';

/**
 * The schema checks of a graph write, run at propose and again at apply on every member (DESIGN 2):
 * schema modes, requiredness, computed properties, edge identity, and every constraint from the
 * moment it is VALIDATING. A refused write changes nothing.
 */
interface NodeAfter {
  readonly labels: readonly string[];
  readonly props: PropertyMap;
}

interface EdgeAfter {
  readonly type: string;
  readonly source: number;
  readonly target: number;
  readonly props: PropertyMap;
  readonly created: boolean;
}

function violation(reason: string, message: string, metadata: Record<string, string>): Refusal {
  return { code: 'FAILED_PRECONDITION', reason, message, metadata };
}

/** Fills declared default values into created nodes (SPEC 2.4 default_value). Deterministic. */
export function withDefaults(ops: readonly GraphOp[], catalog: Catalog): readonly GraphOp[] {
  if (catalog.labels.size === 0) return ops;
  let out: GraphOp[] | undefined;
  ops.forEach((op, i) => {
    if (op.op !== 'create_node') return;
    let props: (readonly [string, PropertyValue])[] | undefined;
    for (const label of op.labels) {
      for (const p of catalog.labels.get(label)?.properties ?? []) {
        if (p.default_value === undefined) continue;
        const current = props ?? op.props;
        if (current.some(([k]) => k === p.name)) continue;
        props = [...current, [p.name, p.default_value]];
      }
    }
    if (props !== undefined) {
      out ??= [...ops];
      out[i] = { ...op, props };
    }
  });
  return out ?? ops;
}

export function checkSchemaWrite(ops: readonly GraphOp[], graph: GraphStore, catalog: Catalog, indexes: IndexStore): Refusal | undefined {
  const map = checkMapValues(ops, graph, catalog);
  if (map !== undefined) return map;
  if (catalog.labels.size === 0 && catalog.edgeTypes.size === 0 && catalog.constraints.size === 0) return undefined;
  if (!touchesSchema(ops, graph, catalog)) return undefined;
  const { nodes, before, edges } = afterStates(ops, graph);
  for (const [id, after] of nodes) {
    if (after === null) continue;
    const bad = checkNode(id, after, before.get(id), catalog) ?? checkTemporalNode(id, after, graph, catalog);
    if (bad !== undefined) return bad;
  }
  const dup = checkUniqueness(nodes, before, catalog, indexes);
  if (dup !== undefined) return dup;
  for (const [id, after] of edges) {
    if (after === null) continue;
    const bad = checkEdge(id, after, graph, catalog, edges);
    if (bad !== undefined) return bad;
  }
  return undefined;
}

/** Whether any node or edge the ops touch has a label or type the schema says something about. */
function touchesSchema(ops: readonly GraphOp[], graph: GraphStore, catalog: Catalog): boolean {
  const governed = (label: string): boolean => catalog.labels.has(label) || catalog.constraints.size > 0 && catalog.constraintsOfLabel(label).length > 0;
  for (const op of ops) {
    switch (op.op) {
      case 'create_node':
        if (op.labels.some(governed)) return true;
        break;
      case 'update_node':
        if (op.add_labels.some(governed) || (graph.nodeRecord(op.id)?.head.labels ?? []).some(governed)) return true;
        break;
      case 'delete_node':
        break;
      case 'create_edge':
        if (catalog.edgeTypes.has(op.type)) return true;
        break;
      case 'update_edge': {
        const type = graph.edgeRecord(op.id)?.type;
        if (type !== undefined && catalog.edgeTypes.has(type)) return true;
        break;
      }
      case 'delete_edge':
        break;
    }
  }
  return false;
}

function afterStates(ops: readonly GraphOp[], graph: GraphStore) {
  const nodes = new Map<number, NodeAfter | null>();
  const before = new Map<number, NodeAfter | undefined>();
  const edges = new Map<number, EdgeAfter | null>();
  const nodeNow = (id: number): NodeAfter | undefined => {
    const o = nodes.get(id);
    if (o !== undefined) return o ?? undefined;
    const r = graph.nodeRecord(id);
    return r === undefined ? undefined : visibleNode(r, Number.POSITIVE_INFINITY);
  };
  const remember = (id: number): void => {
    if (!before.has(id)) before.set(id, nodeNow(id));
  };
  for (const op of ops) {
    switch (op.op) {
      case 'create_node':
        before.set(op.id, undefined);
        nodes.set(op.id, { labels: op.labels, props: new Map(op.props) });
        break;
      case 'update_node': {
        remember(op.id);
        const cur = nodeNow(op.id);
        if (cur === undefined) break;
        let labels = cur.labels.filter((l) => !op.remove_labels.includes(l));
        for (const l of op.add_labels) if (!labels.includes(l)) labels = [...labels, l];
        const props = op.replace ? new Map<string, PropertyValue>() : new Map(cur.props);
        for (const [k, v] of op.set) {
          if (v === null) props.delete(k);
          else props.set(k, v);
        }
        nodes.set(op.id, { labels, props });
        break;
      }
      case 'delete_node':
        remember(op.id);
        nodes.set(op.id, null);
        break;
      case 'create_edge':
        edges.set(op.id, { type: op.type, source: op.source, target: op.target, props: new Map(op.props), created: true });
        break;
      case 'update_edge': {
        const o = edges.get(op.id);
        const r = graph.edgeRecord(op.id);
        const cur = o ?? (r === undefined ? undefined : visibleEdge(r, Number.POSITIVE_INFINITY));
        if (cur === undefined || cur === null) break;
        const props = op.replace ? new Map<string, PropertyValue>() : new Map(cur.props);
        for (const [k, v] of op.set) {
          if (v === null) props.delete(k);
          else props.set(k, v);
        }
        edges.set(op.id, { type: cur.type, source: cur.source, target: cur.target, props, created: o?.created ?? false });
        break;
      }
      case 'delete_edge':
        edges.set(op.id, null);
        break;
    }
  }
  return { nodes, before, edges };
}

function checkNode(id: number, after: NodeAfter, before: NodeAfter | undefined, catalog: Catalog): Refusal | undefined {
  const node = String(id);
  const declared = after.labels.flatMap((l) => {
    const d = catalog.labels.get(l);
    return d === undefined ? [] : [d];
  });
  for (const def of declared) {
    for (const c of def.computed) {
      const v = after.props.get(c.name);
      const old = before?.props.get(c.name);
      if (v !== undefined && (old === undefined || !sameValue(old, v))) {
        return violation('COMPUTED_PROPERTY_WRITE', `${def.name}.${c.name} is computed and cannot be written`, { label: def.name, property: c.name, node_id: node });
      }
    }
    for (const p of def.properties) {
      const v = after.props.get(p.name);
      if (v === undefined) {
        if (p.required) {
          return violation('REQUIRED_PROPERTY_MISSING', `node ${id} of label ${def.name} must carry ${p.name}`, { label: def.name, property: p.name, node_id: node });
        }
        continue;
      }
      if (def.mode !== 'FLEXIBLE' && p.type.kind === 'vector' && v instanceof Float32Array && !valueHasType(v, p.type)) {
        // A vector of the wrong width is a bad argument, not a state of the database.
        return {
          code: 'INVALID_ARGUMENT',
          reason: 'VECTOR_DIMENSION_MISMATCH',
          message: `${def.name}.${p.name} takes vectors of ${p.type.dimensions} dimensions; got ${v.length}`,
          metadata: { label: def.name, property: p.name, node_id: node, expected_dimensions: String(p.type.dimensions), got_dimensions: String(v.length) },
        };
      }
      if (def.mode !== 'FLEXIBLE' && !valueHasType(v, p.type)) {
        return violation(
          'PROPERTY_TYPE_MISMATCH',
          `${def.name}.${p.name} is declared ${typeText(p.type)}; the write gives ${valueKindText(v)}`,
          { label: def.name, property: p.name, node_id: node, expected_type: typeText(p.type) },
        );
      }
    }
    if (def.mode === 'STRICT') {
      for (const key of after.props.keys()) {
        const known =
          declared.some((d) => d.properties.some((p) => p.name === key) || d.computed.some((c) => c.name === key)) ||
          (valid_time_keys.includes(key) && declared.some((d) => d.temporal));
        if (!known) {
          return violation('UNDECLARED_PROPERTY', `label ${def.name} is STRICT and declares no property ${key}`, { label: def.name, property: key, node_id: node });
        }
      }
    }
  }
  for (const label of after.labels) {
    for (const c of catalog.constraintsOfLabel(label)) {
      const bad = checkConstraintOnNode(c, id, after);
      if (bad !== undefined) return bad;
    }
  }
  return undefined;
}

/**
 * A node of a temporal label: its version's interval, and room for the version when the write
 * starts a new one. Versions start afresh when the node takes its first temporal label.
 */
function checkTemporalNode(id: number, after: NodeAfter, graph: GraphStore, catalog: Catalog): Refusal | undefined {
  const temporal = after.labels.find((l) => catalog.labels.get(l)?.temporal === true);
  if (temporal === undefined) return undefined;
  const meta = { label: temporal, node_id: String(id) };
  const bad = checkValidInterval(`label ${temporal}`, after.props, meta);
  if (bad !== undefined) return bad;
  const head = graph.nodeRecord(id)?.head;
  if (head === undefined || !head.labels.some((l) => catalog.labels.get(l)?.temporal === true)) return undefined;
  return checkVersionRoom(`label ${temporal}`, [...(head.earlier ?? []), head.props], after.props, meta);
}

/** Whether one node alone satisfies a constraint (everything but uniqueness). */
export function checkConstraintOnNode(c: ConstraintRecord, id: number, after: NodeAfter): Refusal | undefined {
  const meta = { constraint: c.name, label: c.label, node_id: String(id) };
  switch (c.constraint) {
    case 'NOT_NULL':
    case 'NODE_KEY':
      for (const p of c.properties) {
        if (after.props.get(p) === undefined) {
          const reason = c.constraint === 'NOT_NULL' ? 'NOT_NULL_VIOLATION' : 'NODE_KEY_VIOLATION';
          return violation(reason, `constraint ${c.name}: node ${id} of label ${c.label} must carry ${p}`, { ...meta, property: p });
        }
      }
      return undefined;
    case 'PROPERTY_TYPE': {
      const p = c.properties[0]!;
      const v = after.props.get(p);
      if (v !== undefined && c.property_type !== undefined && !valueHasType(v, c.property_type)) {
        return violation(
          'PROPERTY_TYPE_VIOLATION',
          `constraint ${c.name}: ${c.label}.${p} must be ${typeText(c.property_type)}, node ${id} gives ${valueKindText(v)}`,
          { ...meta, property: p },
        );
      }
      return undefined;
    }
    case 'UNIQUE':
      return undefined;
  }
}

interface Candidate {
  readonly id: number;
  readonly key: IndexKey;
}

function checkUniqueness(
  nodes: ReadonlyMap<number, NodeAfter | null>,
  before: ReadonlyMap<number, NodeAfter | undefined>,
  catalog: Catalog,
  indexes: IndexStore,
): Refusal | undefined {
  for (const c of catalog.constraints.values()) {
    if ((c.constraint !== 'UNIQUE' && c.constraint !== 'NODE_KEY') || c.index_id === undefined) continue;
    const index = catalog.indexes.get(c.index_id);
    if (index === undefined) continue;
    const gen = indexes.get(index.serving ?? index.filling ?? -1);
    if (gen === undefined) continue;
    const changed: Candidate[] = [];
    for (const [id, after] of nodes) {
      if (after === null) continue;
      const key = gen.keyOf(after.labels, after.props);
      if (key === undefined) continue;
      const old = before.get(id);
      const oldKey = old === undefined ? undefined : gen.keyOf(old.labels, old.props);
      if (oldKey === undefined || compareKeys(oldKey, key) !== 0) changed.push({ id, key });
    }
    if (changed.length === 0) continue;
    // Inside the write: two of its own nodes with one key.
    const inWrite: Candidate[] = [];
    for (const [id, after] of nodes) {
      if (after === null) continue;
      const key = gen.keyOf(after.labels, after.props);
      if (key !== undefined) inWrite.push({ id, key });
    }
    inWrite.sort((a, b) => compareKeys(a.key, b.key));
    for (let i = 1; i < inWrite.length; i++) {
      if (compareKeys(inWrite[i - 1]!.key, inWrite[i]!.key) === 0) return duplicate(c, inWrite[i]!.id, inWrite[i - 1]!.id, inWrite[i]!.key);
    }
    const outside = (id: number): boolean => !nodes.has(id);
    for (const cand of changed) {
      const holder = holder_of(index, indexes, gen, cand.key, outside);
      if (holder !== undefined) return duplicate(c, cand.id, holder, cand.key);
    }
  }
  return undefined;
}

function holder_of(
  index: IndexRecord,
  indexes: IndexStore,
  gen: NonNullable<ReturnType<IndexStore['get']>>,
  key: IndexKey,
  accept: (id: number) => boolean,
): number | undefined {
  // A SUSPECT index proves nothing: unique values are proved free from the records (SPEC 2.4).
  if (index.integrity === 'SUSPECT') return indexes.holderFromRecords(gen, key, accept);
  return indexes.holderOf(gen, key, accept);
}

function duplicate(c: ConstraintRecord, id: number, other: number, key: IndexKey): Refusal {
  return violation(
    c.constraint === 'NODE_KEY' ? 'NODE_KEY_VIOLATION' : 'UNIQUE_VIOLATION',
    `constraint ${c.name}: node ${other} of label ${c.label} already holds ${c.properties.map((p, i) => `${p} = ${String(key[i])}`).join(', ')}`,
    { constraint: c.name, label: c.label, node_id: String(id), existing_node_id: String(other) },
  );
}

function checkEdge(id: number, after: EdgeAfter, graph: GraphStore, catalog: Catalog, batch: ReadonlyMap<number, EdgeAfter | null>): Refusal | undefined {
  const def = catalog.edgeTypes.get(after.type);
  if (def === undefined) return undefined;
  const meta = { edge_type: def.name, edge_id: String(id) };
  for (const p of def.properties) {
    const v = after.props.get(p.name);
    if (v === undefined) {
      if (p.required) return violation('REQUIRED_PROPERTY_MISSING', `an edge of type ${def.name} must carry ${p.name}`, { ...meta, property: p.name });
      continue;
    }
    if (!valueHasType(v, p.type)) {
      return violation('PROPERTY_TYPE_MISMATCH', `${def.name}.${p.name} is declared ${typeText(p.type)}; the write gives ${valueKindText(v)}`, {
        ...meta,
        property: p.name,
      });
    }
  }
  if (def.temporal) {
    const bad = checkValidInterval(`edge type ${def.name}`, after.props, meta);
    if (bad !== undefined) return bad;
  }
  // Edge identity (SPEC 2.4 discriminator): type, both endpoints and the discriminator's value.
  const idProp = def.discriminator !== '' ? def.discriminator : def.temporal ? 'valid_from' : undefined;
  if (!after.created && !identityChanged(id, idProp, after, graph)) return undefined;
  const same = (props: PropertyMap): boolean => {
    if (idProp === undefined) return true;
    const a = after.props.get(idProp);
    const b = props.get(idProp);
    return a === undefined || b === undefined ? a === b : sameValue(a, b);
  };
  const source = graph.nodeRecord(after.source);
  for (const e of source?.out ?? []) {
    if (e.type !== after.type || e.target.id !== after.target || batch.has(e.id)) continue;
    const v = visibleEdge(e, Number.POSITIVE_INFINITY);
    if (v !== undefined && same(v.props)) return edgeExists(def.name, id, e.id);
  }
  for (const [other, o] of batch) {
    if (other === id || o === null || o.type !== after.type || o.source !== after.source || o.target !== after.target) continue;
    if (other < id && same(o.props)) return edgeExists(def.name, id, other);
  }
  return undefined;
}

/** Whether an update gives an existing edge another identity (a changed discriminator or valid_from). */
function identityChanged(id: number, idProp: string | undefined, after: EdgeAfter, graph: GraphStore): boolean {
  if (idProp === undefined) return false;
  const r = graph.edgeRecord(id);
  const before = r === undefined ? undefined : visibleEdge(r, Number.POSITIVE_INFINITY)?.props.get(idProp);
  const now = after.props.get(idProp);
  return before === undefined || now === undefined ? before !== now : !sameValue(before, now);
}

function edgeExists(type: string, id: number, other: number): Refusal {
  return {
    code: 'ALREADY_EXISTS',
    reason: 'EDGE_EXISTS',
    message: `edge ${other} of type ${type} already joins these nodes with the same identity`,
    metadata: { edge_type: type, edge_id: String(id), existing_edge_id: String(other) },
  };
}
