import { assertNever } from '../../common/assert.js';
import { decodeElementId, encodeElementId } from '../../common/element-id.js';
import { equals } from '../../common/values/equality.js';
import { estimateValueBytes } from '../../common/values/memory.js';
import { pathValue, typeName, type Value } from '../../common/values/value.js';
import type { LabelMembers, NodeState } from '../../projections/graph/records.js';
import { SnapshotView, type GraphReader } from '../../projections/graph/view.js';
import { runtimeTypeError } from '../errors.js';
import type { IndexTest } from '../plan/explain.js';
import type { DynamicLabels, LogicalOp, SeekablePredicate } from '../plan/logical.js';
import { dynamicNames } from '../functions/dynamic-names.js';
import type { Evaluator, ExecContext, PhysicalOp, Row, Sink } from './context.js';
import type { ExpressionCompiler } from './expression.js';
import type { GraphAccess } from './graph-access.js';
import { PickedMembers } from './picked-scan.js';
import { ScanTable } from './scan-table.js';
import { after, holding, loop, loopArray, loopIterable, skipped, Walk, type Flow } from './slices.js';

/**
 * The reading operators: scans, seeks, expands, filters, OPTIONAL MATCH, joins, paths, UNWIND and
 * projections. They stream: each writes its own slots into the row it received and passes it on.
 */
export interface OpEnv {
  readonly cx: ExecContext;
  readonly exprs: ExpressionCompiler;
  readonly access: GraphAccess;
  /** False to run every plan row at a time (tests compare it with the batched pipelines); true when absent. */
  readonly batched?: boolean;
}

type Op<K extends LogicalOp['op']> = Extract<LogicalOp, { op: K }>;

/** Bytes a kept row costs beyond its values: the array and its slots. */
export const ROW_OVERHEAD_BYTES = 64;

export function rowBytes(row: Row): number {
  let n = ROW_OVERHEAD_BYTES + 8 * row.length;
  for (const v of row) if (v !== null && typeof v === 'object') n += estimateValueBytes(v);
  return n;
}

export function argument(): PhysicalOp {
  return (arg, sink) => sink(arg);
}

/** Whether a property's value (undefined: absent) equals `w` in Cypher's `=`, as a scan's inline map needs. */
export function propertyEquals(v: Value | undefined, w: Value): boolean {
  if (v === undefined) return false;
  // Equal primitives of one type are ===; unequal ones of one type are not equal in Cypher either
  // (NaN included). Only mixed or structured values need the full equality.
  if (v === w) return true;
  if (typeof v !== 'object' && typeof v === typeof w) return false;
  return equals(v, w) === true;
}

export function nodeScan(op: Op<'node_scan'>, input: PhysicalOp, env: OpEnv): PhysicalOp {
  const { graph, deadline } = env.cx;
  const slot = op.variable;
  const label = op.label;
  const keys = op.props.map((p) => p.key);
  const values = op.props.map((p) => env.exprs.compile(p.value));
  const n = keys.length;
  const wanted: Value[] = new Array<Value>(n);
  const cache = env.access.cacheable ? env.access : undefined;
  // Committed snapshots offer a callback scan, cheaper than their generators.
  const snapshot = graph instanceof SnapshotView ? graph : undefined;
  const writeSlot = op.variable_unused !== true;
  const fromIndex = indexSource(op, env, wanted);
  const fromText = textSource(op, env);
  const fromNames = label === undefined && op.dynamic_labels !== undefined ? dynamicLabelSource(op.dynamic_labels, env) : undefined;
  // A join on a property (an equality whose value the row gives) walks one bucket per run; see scan-table.ts.
  const table = env.access.cacheable ? ScanTable.forScan(snapshot, label, op.props, deadline, env.cx.memory) : undefined;
  const picker = env.access.cacheable && snapshot !== undefined && label !== undefined && n > 0 ? new PickedMembers(snapshot, label, keys, env.access) : undefined;
  return (arg, sink) =>
    input(arg, (row) => {
      for (let i = 0; i < n; i++) wanted[i] = (values[i] as Evaluator)(row);
      const visit = (node: NodeState, members?: LabelMembers, position?: number): Flow => {
        deadline.tick();
        for (let i = 0; i < n; i++) if (!propertyEquals(node.props.get(keys[i] as string), wanted[i] as Value)) return true;
        cache?.scanned(node, members, position);
        if (writeSlot) row[slot] = node.ref;
        return sink(row);
      };
      // A node already known to pass every equality of this run.
      const emit = (node: NodeState): Flow => {
        deadline.tick();
        cache?.scanned(node);
        if (writeSlot) row[slot] = node.ref;
        return sink(row);
      };
      // A vector search running this scan over its candidates; then an index; then the label.
      const offered = env.cx.candidates.get(slot);
      if (offered !== undefined) {
        return loopIterable(offered, (node) => (label === undefined || node.labels.includes(label) ? visit(node) : true), deadline);
      }
      const texts = fromText?.(row);
      if (texts !== undefined) return loopIterable(texts, visit, deadline);
      const hits = fromIndex?.(row);
      if (hits === 'none') return true;
      if (hits !== undefined) return loopIterable(hits, (node) => (node.labels.includes(label as string) ? visit(node) : true), deadline);
      const bucket = table?.candidates(wanted);
      if (bucket !== undefined) return loopArray(bucket, (table as ScanTable).checked ? emit : visit, deadline);
      const named = fromNames?.(row);
      if (named !== undefined) return loopIterable(named, visit, deadline);
      const all = (): Iterable<NodeState> => (label === undefined ? graph.nodes() : graph.nodesWithLabel(label));
      const picked = picker?.pick(wanted);
      if (picked !== undefined) {
        const { members, candidates } = picked;
        const nodes = members.nodes;
        let j = 0;
        return loop(() => {
          if (j >= candidates.length) return null;
          const position = candidates.positions[j++] as number;
          return visit(nodes[position] as NodeState, members, position);
        }, deadline);
      }
      if (snapshot !== undefined) {
        // The kept list and the records list the label's nodes in one order, so a paused walk
        // goes on through the iterator where the callback stopped.
        let members: LabelMembers | undefined;
        let position: number | undefined;
        const walk = new Walk<NodeState>((node) => visit(node, members, position), deadline);
        const ok = snapshot.forEachNode(label, (node, m, p) => {
          members = m;
          position = p;
          return walk.callback(node);
        });
        if (!walk.paused) return ok;
        return walk.resume(members !== undefined ? keptFrom(members, walk.seen, (p) => (position = p)) : skipped(all(), walk.seen));
      }
      return loopIterable(all(), visit, deadline);
    });
}

/**
 * The nodes a scan marked with dynamic labels walks, from the value as it is when the scan starts:
 * for 'all' the label of the fewest nodes, for 'any' each label in turn, a node given once. A value
 * that names no label is refused as the filter would refuse it; `:$all([])` (every node has all of
 * no labels) walks every node.
 */
function dynamicLabelSource(d: DynamicLabels, env: OpEnv): (row: Row) => Iterable<NodeState> | undefined {
  const names = env.exprs.compile(d.names);
  const graph = env.cx.graph;
  return (row) => {
    const labels = [...new Set(dynamicNames(names(row), 'a dynamic label or type'))];
    if (d.mode === 'any') return nodesWithAnyLabel(graph, labels);
    const counts = graph.stats().label_counts;
    let best: string | undefined;
    for (const l of labels) if (best === undefined || (counts.get(l) ?? 0) < (counts.get(best) ?? 0)) best = l;
    return best === undefined ? undefined : graph.nodesWithLabel(best);
  };
}

function* nodesWithAnyLabel(graph: GraphReader, labels: readonly string[]): Iterable<NodeState> {
  for (let i = 0; i < labels.length; i++) {
    for (const node of graph.nodesWithLabel(labels[i] as string)) {
      // A node that also has an earlier label was given by that label's walk.
      let given = false;
      for (let j = 0; j < i && !given; j++) given = node.labels.includes(labels[j] as string);
      if (!given) yield node;
    }
  }
}

/** A kept list's nodes from `start`, telling `at` each node's position before handing it out. */
function keptFrom(members: LabelMembers, start: number, at: (position: number) => void): Iterator<NodeState> {
  const nodes = members.nodes;
  let i = start;
  return {
    next: (): IteratorResult<NodeState> => {
      if (i >= nodes.length) return { done: true, value: undefined };
      at(i);
      return { done: false, value: nodes[i++] as NodeState };
    },
  };
}

/**
 * The nodes of the scan's label whose text matches the `text_match` marked on the scan, from a ready
 * text index, as a snapshot reader sees them (the filter above re-checks the text it sees); undefined
 * when no ready index covers the property, the reader is a write set (its own nodes are in no index)
 * or the query is not a string (the filter above decides).
 */
function textSource(op: Op<'node_scan'>, env: OpEnv): ((row: Row) => Iterable<NodeState> | undefined) | undefined {
  const text = op.text;
  const label = op.label;
  const graph = env.cx.graph;
  if (text === undefined || label === undefined || !(graph instanceof SnapshotView)) return undefined;
  const query = env.exprs.compile(text.query);
  return (row) => {
    const handle = env.cx.indexes.textIndex?.(label, text.key);
    const q = query(row);
    if (handle === undefined || !handle.ready || typeof q !== 'string') return undefined;
    return matchingNodes(graph, label, handle.matching(q));
  };
}

function* matchingNodes(graph: SnapshotView, label: string, ids: readonly number[]): Iterable<NodeState> {
  for (const id of ids) {
    const node = graph.node(id);
    if (node !== undefined && node.labels.includes(label)) yield node;
  }
}

/**
 * The nodes an index answers for a scan's row: an equality of its inline properties (`wanted`, the
 * values for this row) first, then the filter's comparison; 'none' when the comparison can keep no
 * row; undefined when no index answers (none exists, or the catalog judged a scan cheaper). Undefined
 * as a whole when the scan has nothing an index could answer.
 */
export function indexSource(op: Op<'node_scan'>, env: OpEnv, wanted: readonly Value[]): ((row: Row) => Iterable<NodeState> | 'none' | undefined) | undefined {
  const { graph, indexes: catalog } = env.cx;
  const label = op.label;
  const keys = op.props.map((p) => p.key);
  const n = keys.length;
  const seek = n > 0 && catalog.seek !== undefined ? catalog.seek.bind(catalog) : undefined;
  // Only with an index of the property does the comparison leave the filter's hands: without one
  // the scan reads every node and the filter judges each, raising what it raises.
  const indexed = op.seekable !== undefined && label !== undefined && catalog.hasIndex(label, [op.seekable.key]);
  const seekWhere = indexed && catalog.seekWhere !== undefined ? catalog.seekWhere.bind(catalog) : undefined;
  const seekable = indexed && op.seekable !== undefined ? seekableTest(op.seekable, env) : undefined;
  if (label === undefined || (seek === undefined && seekWhere === undefined)) return undefined;
  return (row) => {
    if (seek !== undefined) {
      for (let i = 0; i < n; i++) {
        const hits = seek(graph, label, keys[i] as string, wanted[i] as Value);
        if (hits !== undefined) return hits;
      }
    }
    if (seekWhere === undefined || seekable === undefined) return undefined;
    const test = seekable.test(row);
    if (test === 'none') return 'none';
    return test === undefined ? undefined : seekWhere(graph, label, seekable.key, test);
  };
}

/**
 * The index test of a scan's seekable comparison for one row: 'none' when the filter above can keep
 * no row (a null bound, a prefix that is not a string), undefined when an index cannot stand in for
 * the scan (IN over something that is not a list, which the filter must see to fail on).
 */
function seekableTest(s: SeekablePredicate, env: OpEnv): { readonly key: string; test(row: Row): IndexTest | 'none' | undefined } {
  const key = s.key;
  switch (s.kind) {
    case 'range': {
      const lower = s.lower === undefined ? undefined : { value: env.exprs.compile(s.lower.value), inclusive: s.lower.inclusive };
      const upper = s.upper === undefined ? undefined : { value: env.exprs.compile(s.upper.value), inclusive: s.upper.inclusive };
      return {
        key,
        test: (row) => {
          const lo = lower === undefined ? undefined : { value: lower.value(row), inclusive: lower.inclusive };
          const hi = upper === undefined ? undefined : { value: upper.value(row), inclusive: upper.inclusive };
          // A comparison with null is null: the filter keeps nothing.
          if (lo?.value === null || hi?.value === null) return 'none';
          return { kind: 'range', ...(lo !== undefined && { lower: lo }), ...(hi !== undefined && { upper: hi }) };
        },
      };
    }
    case 'prefix': {
      const prefix = env.exprs.compile(s.prefix);
      return {
        key,
        test: (row) => {
          const text = prefix(row);
          return typeof text === 'string' ? { kind: 'prefix', text } : 'none';
        },
      };
    }
    case 'in': {
      const list = env.exprs.compile(s.list);
      return {
        key,
        test: (row) => {
          const values = list(row);
          if (values === null) return 'none';
          return Array.isArray(values) ? { kind: 'in', values: values as readonly Value[] } : undefined;
        },
      };
    }
    default:
      return assertNever(s, 'seekable predicate');
  }
}

export function nodeById(op: Op<'node_by_id'>, input: PhysicalOp, env: OpEnv): PhysicalOp {
  const { graph } = env.cx;
  const ids = env.exprs.compile(op.ids);
  const slot = op.variable;
  const label = op.label;
  const many = op.many;
  const element = op.element;
  const deadline = env.cx.deadline;
  const emit = (row: Row, id: Value, sink: Sink): Flow => {
    let n: number;
    if (element) {
      // An element id that does not decode names no node, as the equality it replaces would find.
      const decoded = typeof id === 'string' ? decodeElementId(id) : undefined;
      if (decoded === undefined || encodeElementId(decoded) !== id) return true;
      n = Number(decoded);
    } else if (typeof id === 'bigint') n = Number(id);
    else if (typeof id === 'number' && Number.isInteger(id)) n = id;
    else return true;
    const node = graph.node(n);
    if (node === undefined || (label !== undefined && !node.labels.includes(label))) return true;
    row[slot] = node.ref;
    return sink(row);
  };
  return (arg, sink) =>
    input(arg, (row) => {
      const v = ids(row);
      if (!many) return emit(row, v, sink);
      if (v === null) return true;
      if (!Array.isArray(v)) throw runtimeTypeError('InvalidArgumentType', `IN expects a LIST, got ${typeName(v)}`);
      // Each matching id once, in list order, as the filter it replaces would.
      const seen = new Set<number>();
      return loopArray(
        v as readonly Value[],
        (id) => {
          const key = element ? (typeof id === 'string' ? Number(decodeElementId(id) ?? NaN) : NaN) : typeof id === 'bigint' ? Number(id) : typeof id === 'number' ? id : NaN;
          if (Number.isNaN(key) || seen.has(key)) return true;
          seen.add(key);
          return emit(row, id, sink);
        },
        deadline,
      );
    });
}

export function filter(op: Op<'filter'>, input: PhysicalOp, env: OpEnv): PhysicalOp {
  const p = env.exprs.predicate(op.predicate);
  return (arg, sink) => input(arg, (row) => (p(row) ? sink(row) : true));
}

export function relUnique(op: Op<'rel_unique'>, input: PhysicalOp): PhysicalOp {
  const slots = op.slots;
  return (arg, sink) =>
    input(arg, (row) => {
      const seen = new Set<number>();
      for (const s of slots) {
        const v = row[s] as Value;
        if (v === null) continue;
        const list = Array.isArray(v) ? (v as readonly Value[]) : [v];
        for (const r of list) {
          const id = (r as { id: number }).id;
          if (seen.has(id)) return true;
          seen.add(id);
        }
      }
      return sink(row);
    });
}

export function optional(op: Op<'optional'>, input: PhysicalOp, inner: PhysicalOp): PhysicalOp {
  const nulls = op.nulls;
  return (arg, sink) =>
    input(arg, (row) => {
      let matched = false;
      const flow = inner(row, (r) => {
        matched = true;
        return sink(r);
      });
      return after(flow, (ok) => {
        if (!ok) return false;
        if (matched) return true;
        for (const s of nulls) row[s] = null;
        return sink(row);
      });
    });
}

export function hashJoin(op: Op<'hash_join'>, left: PhysicalOp, right: PhysicalOp, env: OpEnv): PhysicalOp {
  const keys = op.keys;
  const slots = op.right_slots;
  const memory = env.cx.memory;
  const keyOf = (row: Row): string | number | undefined => {
    if (keys.length === 1) {
      const v = row[keys[0] as number] as Value;
      return v === null ? undefined : (v as { id: number }).id;
    }
    let k = '';
    for (const s of keys) {
      const v = row[s] as Value;
      if (v === null) return undefined;
      k += `${(v as { id: number }).id},`;
    }
    return k;
  };
  const deadline = env.cx.deadline;
  return (arg, sink) => {
    const table = new Map<string | number, Row[]>();
    let held = 0;
    const build = right(arg.slice(), (r) => {
      const k = keyOf(r);
      if (k === undefined) return true;
      const kept = r.slice();
      const bytes = rowBytes(kept);
      memory.reserve(bytes);
      held += bytes;
      const list = table.get(k);
      if (list === undefined) table.set(k, [kept]);
      else list.push(kept);
      return true;
    });
    return holding(
      () =>
        after(build, () =>
          left(arg, (row) => {
            const k = keyOf(row);
            if (k === undefined) return true;
            const matches = table.get(k);
            if (matches === undefined) return true;
            return loopArray(
              matches,
              (m) => {
                for (const s of slots) row[s] = m[s] as Value;
                return sink(row);
              },
              deadline,
            );
          }),
        ),
      () => memory.release(held),
    );
  };
}

export function path(op: Op<'path'>, input: PhysicalOp, env: OpEnv): PhysicalOp {
  const { nodes, rels, variable } = op;
  const access = env.access;
  return (arg, sink) =>
    input(arg, (row) => {
      const first = row[nodes[0] as number] as Value;
      if (first === null) {
        row[variable] = null;
        return sink(row);
      }
      const nodeIds: number[] = [(first as { id: number }).id];
      const relIds: number[] = [];
      for (let i = 0; i < rels.length; i++) {
        const r = row[rels[i] as number] as Value;
        const next = row[nodes[i + 1] as number] as Value;
        if (r === null || next === null) {
          row[variable] = null;
          return sink(row);
        }
        if (Array.isArray(r)) {
          // A variable-length segment: walk its relationships from the current node.
          for (const x of r as readonly Value[]) {
            const id = (x as { id: number }).id;
            const e = access.edge(id);
            const at = nodeIds[nodeIds.length - 1] as number;
            relIds.push(id);
            nodeIds.push(e === undefined ? at : e.source === at ? e.target : e.source);
          }
        } else {
          relIds.push((r as { id: number }).id);
          nodeIds.push((next as { id: number }).id);
        }
      }
      row[variable] = pathValue(nodeIds, relIds);
      return sink(row);
    });
}

export function unwind(op: Op<'unwind'>, input: PhysicalOp, env: OpEnv): PhysicalOp {
  const list = env.exprs.compile(op.expression);
  const slot = op.variable;
  const deadline = env.cx.deadline;
  const listsOnly = op.lists_only === true;
  return (arg, sink) =>
    input(arg, (row) => {
      const v = list(row);
      if (v === null) return true;
      if (!Array.isArray(v)) {
        if (listsOnly) throw runtimeTypeError('InvalidArgumentType', `FOREACH needs a list, not a ${typeName(v)}`);
        row[slot] = v;
        return sink(row);
      }
      const items = v as readonly Value[];
      const n = items.length;
      let i = 0;
      return loop(() => {
        if (i >= n) return null;
        deadline.tick();
        row[slot] = items[i++] as Value;
        return sink(row);
      }, deadline);
    });
}

export function project(op: Op<'project'>, input: PhysicalOp, env: OpEnv): PhysicalOp {
  const slots = op.items.map((i) => i.variable);
  const fns = op.items.map((i) => env.exprs.compile(i.expression));
  const n = slots.length;
  if (n === 1) {
    const s = slots[0] as number;
    const f = fns[0] as Evaluator;
    return (arg, sink) =>
      input(arg, (row) => {
        row[s] = f(row);
        return sink(row);
      });
  }
  const values: Value[] = new Array<Value>(n);
  return (arg, sink) =>
    input(arg, (row) => {
      // Evaluate every item before writing any, so items read the input slots only.
      for (let i = 0; i < n; i++) values[i] = (fns[i] as Evaluator)(row);
      for (let i = 0; i < n; i++) row[slots[i] as number] = values[i] as Value;
      return sink(row);
    });
}
