import { assert } from '../../common/assert.js';
import { resourceExhausted } from '../../common/errors.js';
import type { PropertyValue } from '../../common/property-value.js';
import { isStorableProperty } from '../../common/values/storable.js';
import {
  isNode,
  isPath,
  isRelationship,
  pathValue,
  typeName,
  type Value,
} from '../../common/values/value.js';
import type { WriteSet } from '../../projections/graph/write-set.js';
import type { BoundPath, BoundRemoveItem, BoundSetItem } from '../bind/bound-clause.js';
import type { BoundExpression } from '../bind/bound-expression.js';
import { argumentError, CypherError, runtimeTypeError } from '../errors.js';
import { dynamicNames } from '../functions/dynamic-names.js';
import type { LogicalOp } from '../plan/logical.js';
import type { Evaluator, PhysicalOp, Row, UpdateStats } from './context.js';
import { finish } from './slices.js';
import type { OpEnv } from './read-ops.js';

/**
 * The updating clauses, run against the statement's write set. The plan puts an eager barrier
 * around one wherever a clause of its streamed stretch reads or writes what it writes
 * (plan/write-barriers.ts), so no row reads back a write it should not see.
 */
type Op<K extends LogicalOp['op']> = Extract<LogicalOp, { op: K }>;

function writeSet(env: OpEnv): WriteSet {
  const ws = env.cx.writes;
  assert(ws !== undefined, 'an updating statement runs against a write set');
  return ws;
}

/**
 * Bytes a write set's entry for one node or edge is charged to the statement's memory limit: the
 * state object, its labels and property map, the overlay's map entry and the creation list. An
 * estimate of the fixed part only; property values are not weighed.
 */
export const WRITE_ENTRY_BYTES = 320;

/**
 * Runs one row's writes and charges the entries they added to the write set against the statement's
 * memory limit, so that a runaway write (`UNWIND range(1, 100000000) AS x CREATE ...`) fails with
 * RESOURCE_EXHAUSTED / EXCEEDS_MEMORY_BUDGET, proposing nothing, rather than exhausting the process.
 * Writing the same entity again adds no entry and costs nothing more.
 */
function charged<T>(env: OpEnv, writes: () => T): T {
  const ws = writeSet(env);
  const before = ws.entries;
  const r = writes();
  const grown = ws.entries - before;
  if (grown > 0) {
    env.cx.memory.reserve(grown * WRITE_ENTRY_BYTES);
    // The write set outlives the statement's operators (it is held until its commit applies) and
    // spans a transaction's statements, so it has a bound of its own, which no call can raise.
    const limit = env.cx.write_set_limit_bytes;
    if (ws.entries * WRITE_ENTRY_BYTES > limit) {
      const limit_mb = Math.floor(limit / MiB);
      throw resourceExhausted(
        `the write set would hold more than write_set_limit_mb (${limit_mb} MiB, at ${WRITE_ENTRY_BYTES} bytes per node or relationship written, so ${Math.floor(limit / WRITE_ENTRY_BYTES)} of them); nothing was applied: write it in several statements or transactions`,
        'EXCEEDS_WRITE_SET_LIMIT',
        { limit_mb: String(limit_mb) },
      );
    }
  }
  return r;
}

const MiB = 1024 * 1024;

/** A value as a stored property; null means "remove". Maps, nodes and mixed lists cannot be stored. */
export function toProperty(v: Value, key: string): PropertyValue | null {
  if (v === null) return null;
  if (Array.isArray(v) && (v as readonly Value[]).length === 0) return v as PropertyValue;
  if (!isStorableProperty(v)) {
    throw runtimeTypeError('InvalidPropertyType', `the property '${key}' cannot hold a value of type ${typeName(v)}${Array.isArray(v) ? ' with these elements' : ''}`);
  }
  return v as PropertyValue;
}

/** Evaluates a pattern element's property map into stored values (null entries are left out). */
function propertyMap(f: Evaluator | undefined, row: Row): Map<string, PropertyValue> {
  const out = new Map<string, PropertyValue>();
  if (f === undefined) return out;
  const m = f(row);
  if (m === null) return out;
  if (!(m instanceof Map)) throw runtimeTypeError('InvalidArgumentType', `properties must be a MAP, not ${typeName(m)}`);
  for (const [k, v] of m as ReadonlyMap<string, Value>) {
    const p = toProperty(v, k);
    if (p !== null) out.set(k, p);
  }
  return out;
}

interface CompiledPath {
  readonly path: BoundPath;
  readonly nodeProps: readonly (Evaluator | undefined)[];
  readonly relProps: readonly (Evaluator | undefined)[];
  /** The labels of each node: the written ones, with those `$(...)` names added per row. */
  readonly nodeLabels: readonly ((row: Row) => readonly string[])[];
  /** The type of each relationship: written, or named per row by `$(...)`. */
  readonly relTypes: readonly ((row: Row) => string)[];
}

function compilePath(path: BoundPath, env: OpEnv): CompiledPath {
  return {
    path,
    nodeProps: path.nodes.map((n) => (n.properties ? env.exprs.compile(n.properties) : undefined)),
    relProps: path.relationships.map((r) => (r.properties ? env.exprs.compile(r.properties) : undefined)),
    nodeLabels: path.nodes.map((n) => labelsWithDynamic(n.labels, n.dynamic_labels, env)),
    relTypes: path.relationships.map((r) => {
      const written = r.types[0] as string;
      if (r.dynamic_type === undefined) return () => written;
      const f = env.exprs.compile(r.dynamic_type);
      return (row) => {
        const names = dynamicNames(f(row), 'a dynamic relationship type');
        if (names.length !== 1) throw argumentError('InvalidArgumentValue', `a relationship is created with exactly one type, got ${names.length}`);
        return names[0] as string;
      };
    }),
  };
}

/** The written labels and, per row, those the dynamic values name, each once in order. */
function labelsWithDynamic(labels: readonly string[], dynamic: readonly BoundExpression[] | undefined, env: OpEnv): (row: Row) => readonly string[] {
  if (dynamic === undefined) return () => labels;
  const fs = dynamic.map((d) => env.exprs.compile(d));
  return (row) => [...new Set([...labels, ...fs.flatMap((f) => dynamicNames(f(row), 'a dynamic label'))])];
}

/** Creates the unbound elements of a path for one row and writes them (and the path) into the row. */
function createPath(c: CompiledPath, row: Row, created: Set<number>, ws: WriteSet, stats: UpdateStats): void {
  const { path } = c;
  path.nodes.forEach((n, i) => {
    const slot = n.variable.id;
    if (n.bound || created.has(slot)) {
      const v = row[slot] as Value;
      if (v === null || !isNode(v)) {
        throw new CypherError('SemanticError', 'runtime', 'InvalidArgumentType', `cannot create a relationship from or to ${v === null ? 'null' : typeName(v)}`);
      }
      return;
    }
    const props = propertyMap(c.nodeProps[i], row);
    const node = ws.createNode(c.nodeLabels[i]!(row), props);
    stats.nodes_created++;
    stats.labels_added += node.labels.length;
    stats.properties_set += props.size;
    row[slot] = node.ref;
    created.add(slot);
  });
  path.relationships.forEach((r, i) => {
    const left = (row[path.nodes[i]!.variable.id] as { id: number }).id;
    const right = (row[path.nodes[i + 1]!.variable.id] as { id: number }).id;
    const [source, target] = r.direction === 'in' ? [right, left] : [left, right];
    for (const end of [source, target]) {
      if (ws.node(end) === undefined) {
        throw new CypherError('EntityNotFound', 'runtime', 'DeletedEntityAccess', `cannot create a relationship to node ${end}: it was deleted`);
      }
    }
    const props = propertyMap(c.relProps[i], row);
    const edge = ws.createEdge(c.relTypes[i]!(row), source, target, props);
    stats.edges_created++;
    stats.properties_set += props.size;
    row[r.variable.id] = edge.ref;
  });
  if (path.variable !== undefined) {
    row[path.variable.id] = pathValue(
      path.nodes.map((n) => (row[n.variable.id] as { id: number }).id),
      path.relationships.map((r) => (row[r.variable.id] as { id: number }).id),
    );
  }
}

export function create(op: Op<'create'>, input: PhysicalOp, env: OpEnv): PhysicalOp {
  const paths = op.pattern.map((p) => compilePath(p, env));
  return (arg, sink) =>
    input(arg, (row) => {
      const ws = writeSet(env);
      const created = new Set<number>();
      charged(env, () => {
        for (const p of paths) createPath(p, row, created, ws, env.cx.stats);
      });
      return sink(row);
    });
}

export function merge(op: Op<'merge'>, input: PhysicalOp, match: PhysicalOp, env: OpEnv): PhysicalOp {
  const path = compilePath(op.path, env);
  const onCreate = compileSetItems(op.on_create, env);
  const onMatch = compileSetItems(op.on_match, env);
  const checkNulls = mergeNullCheck(op.path, env);
  const dynamicMatch = dynamicNamesMatch(path, env);
  return (arg, sink) =>
    input(arg, (row) => {
      const found: Row[] = [];
      // Write statements run without a driver, so nothing here pauses (slices.ts).
      finish(
        match(row.slice(), (r) => {
          if (dynamicMatch(r)) found.push(r.slice());
          return true;
        }),
      );
      if (found.length > 0) {
        for (const r of found) {
          charged(env, () => onMatch(r));
          if (!finish(sink(r))) return false;
        }
        return true;
      }
      checkNulls(row);
      charged(env, () => {
        createPath(path, row, new Set(), writeSet(env), env.cx.stats);
        onCreate(row);
      });
      return sink(row);
    });
}

/**
 * The search of a MERGE ignores labels and types named by `$(...)` (its plan knows only the written
 * ones); a found row counts only when its elements carry every label and the type the values name.
 */
function dynamicNamesMatch(c: CompiledPath, env: OpEnv): (row: Row) => boolean {
  const nodes = c.path.nodes.flatMap((n, i) => (n.dynamic_labels === undefined || n.bound ? [] : [{ slot: n.variable.id, labels: c.nodeLabels[i]! }]));
  const rels = c.path.relationships.flatMap((r, i) => (r.dynamic_type === undefined || r.bound ? [] : [{ slot: r.variable.id, type: c.relTypes[i]! }]));
  if (nodes.length === 0 && rels.length === 0) return () => true;
  return (row) => {
    for (const n of nodes) {
      const v = row[n.slot] as Value;
      const state = v !== null && isNode(v) ? env.access.node(v.id) : undefined;
      if (state === undefined || !n.labels(row).every((l) => state.labels.includes(l))) return false;
    }
    for (const r of rels) {
      const v = row[r.slot] as Value;
      const state = v !== null && isRelationship(v) ? env.access.edge(v.id) : undefined;
      if (state === undefined || state.type !== r.type(row)) return false;
    }
    return true;
  };
}

/** MERGE cannot create an element whose pattern asks for a null property: it could never match it again. */
function mergeNullCheck(path: BoundPath, env: OpEnv): (row: Row) => void {
  const maps = [...path.nodes, ...path.relationships].filter((x) => x.properties !== undefined).map((x) => env.exprs.compile(x.properties!));
  return (row) => {
    for (const f of maps) {
      const m = f(row);
      if (!(m instanceof Map)) continue;
      for (const [k, v] of m as ReadonlyMap<string, Value>) {
        if (v === null) {
          throw new CypherError('SemanticError', 'runtime', 'MergeReadOwnWrites', `MERGE cannot use null for the property '${k}'`);
        }
      }
    }
  };
}

type RowAction = (row: Row) => void;

function compileSetItems(items: readonly BoundSetItem[], env: OpEnv): RowAction {
  const actions = items.map((i) => compileSetItem(i, env));
  return (row) => {
    for (const a of actions) a(row);
  };
}

function entityOf(v: Value, what: string): { kind: 'node' | 'relationship'; id: number } | undefined {
  if (v === null) return undefined;
  if (isNode(v) || isRelationship(v)) return v;
  throw runtimeTypeError('InvalidArgumentType', `${what} needs a NODE or RELATIONSHIP, not ${typeName(v)}`);
}

function setProps(env: OpEnv, target: { kind: 'node' | 'relationship'; id: number }, set: Map<string, PropertyValue | null>, replace: boolean): void {
  const ws = writeSet(env);
  const current = target.kind === 'node' ? env.access.node(target.id) : env.access.edge(target.id);
  if (current === undefined) return;
  if (target.kind === 'node') ws.setNodeProperties(target.id, set, replace);
  else ws.setEdgeProperties(target.id, set, replace);
  env.cx.stats.properties_set += set.size + (replace ? [...current.props.keys()].filter((k) => !set.has(k)).length : 0);
}

/** The properties a `SET n = x` / `SET n += x` value stands for: a map, or another entity's properties. */
function mapOf(v: Value, env: OpEnv): ReadonlyMap<string, Value> | null {
  if (v === null) return null;
  if (v instanceof Map) return v as ReadonlyMap<string, Value>;
  if (isNode(v) || isRelationship(v)) return env.cx.functions.propertiesOf(v);
  throw runtimeTypeError('InvalidArgumentType', `SET needs a MAP, NODE or RELATIONSHIP, not ${typeName(v)}`);
}

function compileSetItem(item: BoundSetItem, env: OpEnv): RowAction {
  switch (item.kind) {
    case 'set_property': {
      const object = env.exprs.compile(item.object);
      const value = env.exprs.compile(item.value);
      const key = item.key;
      return (row) => {
        const target = entityOf(object(row), 'SET');
        const v = toProperty(value(row), key);
        if (target === undefined) return;
        setProps(env, target, new Map([[key, v]]), false);
      };
    }
    case 'replace_properties':
    case 'merge_properties': {
      const slot = item.variable.id;
      const value = env.exprs.compile(item.value);
      const replace = item.kind === 'replace_properties';
      return (row) => {
        const target = entityOf(row[slot] as Value, 'SET');
        const m = mapOf(value(row), env);
        if (target === undefined) return;
        const set = new Map<string, PropertyValue | null>();
        if (m !== null) for (const [k, v] of m) set.set(k, toProperty(v, k));
        setProps(env, target, set, replace);
      };
    }
    case 'set_labels': {
      const slot = item.variable.id;
      const labelsOf = labelsWithDynamic(item.labels, item.dynamic, env);
      return (row) => {
        const labels = labelsOf(row);
        const v = row[slot] as Value;
        if (v === null) return;
        if (!isNode(v)) throw runtimeTypeError('InvalidArgumentType', `labels are set on a NODE, not ${typeName(v)}`);
        const node = env.access.node(v.id);
        if (node === undefined) return;
        const added = labels.filter((l, i) => !node.labels.includes(l) && labels.indexOf(l) === i);
        if (added.length === 0) return;
        writeSet(env).setLabels(v.id, added, []);
        env.cx.stats.labels_added += added.length;
      };
    }
    case 'set_dynamic_property': {
      const object = env.exprs.compile(item.object);
      const key = env.exprs.compile(item.key);
      const value = env.exprs.compile(item.value);
      return (row) => {
        const target = entityOf(object(row), 'SET');
        const k = dynamicKey(key, row, 'SET');
        const v = toProperty(value(row), k);
        if (target === undefined) return;
        setProps(env, target, new Map([[k, v]]), false);
      };
    }
  }
}

export function set(op: Op<'set'>, input: PhysicalOp, env: OpEnv): PhysicalOp {
  const action = compileSetItems(op.items, env);
  return (arg, sink) =>
    input(arg, (row) => {
      charged(env, () => action(row));
      return sink(row);
    });
}

/** `x[key]` in SET or REMOVE: the key a row gives must be a STRING. */
function dynamicKey(key: Evaluator, row: Row, what: string): string {
  const k = key(row);
  if (typeof k !== 'string') throw runtimeTypeError('InvalidArgumentType', `${what} x[key] needs a STRING key, not ${typeName(k)}`);
  return k;
}

function compileRemoveItem(item: BoundRemoveItem, env: OpEnv): RowAction {
  switch (item.kind) {
    case 'remove_property': {
      const object = env.exprs.compile(item.object);
      const key = item.key;
      return (row) => {
        const target = entityOf(object(row), 'REMOVE');
        if (target === undefined) return;
        const s = target.kind === 'node' ? env.access.node(target.id) : env.access.edge(target.id);
        if (s === undefined || !s.props.has(key)) return;
        setProps(env, target, new Map([[key, null]]), false);
      };
    }
    case 'remove_labels': {
      const slot = item.variable.id;
      const labelsOf = labelsWithDynamic(item.labels, item.dynamic, env);
      return (row) => {
        const labels = labelsOf(row);
        const v = row[slot] as Value;
        if (v === null) return;
        if (!isNode(v)) throw runtimeTypeError('InvalidArgumentType', `labels are removed from a NODE, not ${typeName(v)}`);
        const node = env.access.node(v.id);
        if (node === undefined) return;
        const removed = node.labels.filter((l) => labels.includes(l));
        if (removed.length === 0) return;
        writeSet(env).setLabels(v.id, [], removed);
        env.cx.stats.labels_removed += removed.length;
      };
    }
    case 'remove_dynamic_property': {
      const object = env.exprs.compile(item.object);
      const key = env.exprs.compile(item.key);
      return (row) => {
        const target = entityOf(object(row), 'REMOVE');
        const k = dynamicKey(key, row, 'REMOVE');
        if (target === undefined) return;
        const s = target.kind === 'node' ? env.access.node(target.id) : env.access.edge(target.id);
        if (s === undefined || !s.props.has(k)) return;
        setProps(env, target, new Map([[k, null]]), false);
      };
    }
  }
}

export function remove(op: Op<'remove'>, input: PhysicalOp, env: OpEnv): PhysicalOp {
  const actions = op.items.map((i) => compileRemoveItem(i, env));
  return (arg, sink) =>
    input(arg, (row) => {
      charged(env, () => {
        for (const a of actions) a(row);
      });
      return sink(row);
    });
}

export function del(op: Op<'delete'>, input: PhysicalOp, env: OpEnv): PhysicalOp {
  const fns = op.expressions.map((e) => env.exprs.compile(e));
  const detach = op.detach;
  return (arg, sink) =>
    input(arg, (row) => {
      const ws = writeSet(env);
      charged(env, () => {
        for (const f of fns) deleteValue(f(row), detach, ws, env.cx.stats);
      });
      return sink(row);
    });
}

function deleteValue(v: Value, detach: boolean, ws: WriteSet, stats: UpdateStats): void {
  if (v === null) return;
  if (isNode(v)) return deleteNode(v.id, detach, ws, stats);
  if (isRelationship(v)) return deleteEdge(v.id, ws, stats);
  if (isPath(v)) {
    for (const r of v.rels) deleteEdge(r, ws, stats);
    for (const n of v.nodes) deleteNode(n, detach, ws, stats);
    return;
  }
  if (Array.isArray(v)) {
    for (const x of v as readonly Value[]) deleteValue(x, detach, ws, stats);
    return;
  }
  throw runtimeTypeError('InvalidArgumentType', `DELETE needs a NODE, RELATIONSHIP or PATH, not ${typeName(v)}`);
}

function deleteEdge(id: number, ws: WriteSet, stats: UpdateStats): void {
  if (ws.edge(id) === undefined) return;
  ws.deleteEdge(id);
  stats.edges_deleted++;
}

function deleteNode(id: number, detach: boolean, ws: WriteSet, stats: UpdateStats): void {
  if (ws.node(id) === undefined) return;
  if (detach) for (const e of [...ws.edgesOf(id, 'both')]) deleteEdge(e.id, ws, stats);
  ws.deleteNode(id, false);
  stats.nodes_deleted++;
}

/** Run at the end of a statement: a node deleted without DETACH must have lost all its relationships. */
export function checkNoDanglingNodes(ws: WriteSet): void {
  const id = ws.danglingNode();
  if (id !== undefined) {
    throw new CypherError(
      'ConstraintValidationFailed',
      'runtime',
      'DeleteConnectedNode',
      `node ${id} was deleted but still has relationships; use DETACH DELETE to delete them too`,
    );
  }
}
