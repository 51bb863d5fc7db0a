import { equals } from '../../common/values/equality.js';
import { relationshipRef, typeName, type NodeRef, type Value } from '../../common/values/value.js';
import type { AdjacencyRows, TypeAdjacency } from '../../projections/graph/adjacency.js';
import type { EdgeState } from '../../projections/graph/records.js';
import { SnapshotView } from '../../projections/graph/view.js';
import { runtimeTypeError } from '../errors.js';
import { asPredicate } from '../values/coerce.js';
import type { LogicalOp } from '../plan/logical.js';
import type { PhysicalOp, Row, Sink } from './context.js';
import { COLUMN_ASK_READS } from './graph-access.js';
import type { OpEnv } from './read-ops.js';
import { after, loop, loopArray, loopIterable, skipped, Walk, type Flow } from './slices.js';
import { shortestPath } from './shortest-path.js';

/**
 * Expand: from a node along its relationships, one hop or a variable-length search, or along a
 * relationship bound before the clause. Relationship uniqueness within a MATCH is checked here.
 */
type Op<K extends LogicalOp['op']> = Extract<LogicalOp, { op: K }>;

/** The relationship ids held in a slot: one relationship or a list of them (variable length). */
export function holdsRelationship(v: Value, id: number): boolean {
  if (v === null) return false;
  if (Array.isArray(v)) {
    for (const x of v as readonly Value[]) if ((x as { id?: number }).id === id) return true;
    return false;
  }
  return (v as { kind?: string; id?: number }).kind === 'relationship' && (v as { id: number }).id === id;
}

/** `usable`, and the search's relationship test when the WHERE gave one (see `shortest_rel_test`). */
function shortestUsable(op: Op<'expand'>, usable: (row: Row, e: EdgeState) => boolean, env: OpEnv): (row: Row, e: EdgeState) => boolean {
  const test = op.shortest_rel_test;
  if (test === undefined) return usable;
  const f = env.exprs.compile(test.predicate);
  const slot = test.variable;
  let scratch: Row = [];
  return (row, e) => {
    if (!usable(row, e)) return false;
    if (scratch.length !== Math.max(row.length, slot + 1)) scratch = new Array<Value>(Math.max(row.length, slot + 1)).fill(null);
    for (let i = 0; i < row.length; i++) scratch[i] = row[i] as Value;
    scratch[slot] = e.ref;
    return asPredicate(f(scratch)) === true;
  };
}

export function expand(op: Op<'expand'>, input: PhysicalOp, env: OpEnv): PhysicalOp {
  const { graph, deadline } = env.cx;
  const { from, rel, to, direction, into } = op;
  const types = op.types;
  const oneType = types.length === 1 ? types[0] : undefined;
  const anyType = types.length === 0;
  const unique = op.unique_from;
  const relProps = op.rel_props ? env.exprs.compile(op.rel_props) : undefined;

  const propsMatch = (e: EdgeState, wanted: ReadonlyMap<string, Value> | null): boolean => {
    if (wanted === null) return true;
    for (const [k, v] of wanted) if (equals(e.props.get(k) ?? null, v) !== true) return false;
    return true;
  };
  const wantedProps = (row: Row): ReadonlyMap<string, Value> | null => {
    if (relProps === undefined) return null;
    const m = relProps(row);
    if (m === null) return new Map([['', null]]);
    if (!(m instanceof Map)) throw runtimeTypeError('InvalidArgumentType', `a pattern's properties must be a MAP, not ${typeName(m)}`);
    return m as ReadonlyMap<string, Value>;
  };
  const usable = (row: Row, e: EdgeState): boolean => {
    if (!anyType && oneType === undefined && !types.includes(e.type)) return false;
    for (let i = 0; i < unique.length; i++) if (holdsRelationship(row[unique[i] as number] as Value, e.id)) return false;
    return true;
  };
  const other = (e: EdgeState, at: number): number => (direction === 'out' ? e.target : direction === 'in' ? e.source : e.source === at ? e.target : e.source);
  const edgesAt = (id: number): Iterable<EdgeState> => graph.edgesOf(id, direction, oneType);
  const writeRel = op.rel_unused !== true;
  // Committed snapshots offer a callback walk, cheaper than their generators.
  const snapshot = graph instanceof SnapshotView ? graph : undefined;
  /** Whether `usable` has anything to check beyond the single type the store already filtered. */
  const checks = unique.length > 0 || (!anyType && oneType === undefined);
  const writeTo = !into && op.to_unused !== true;

  const endHas = endLabels(op, env);

  if (op.rel_bound) return boundRelationship(op, input, env, usable, propsMatch, wantedProps);
  if (op.shortest !== undefined) return shortestPath(op, input, env, shortestUsable(op, usable, env), propsMatch, wantedProps);

  if (op.range === undefined) {
    // A CSR of the type, when the snapshot keeps one or the walks below add up to building one.
    const csrUsable = snapshot !== undefined && oneType !== undefined && relProps === undefined;
    let csr = csrUsable ? snapshot.adjacency(oneType, 0) : undefined;
    /** Edges walked record by record since the store was last asked for a CSR. */
    let walked = 0;
    const overCsr = csrUsable ? csrExpand(op, env, snapshot, endHas) : undefined;
    // The row being expanded, for the walk's visit (made once: an expand runs one row at a time,
    // and a paused row is finished before the next one comes).
    let row: Row = [];
    let s = 0;
    let target = -1;
    let wanted: ReadonlyMap<string, Value> | null = null;
    let sink: Sink = () => true;
    const walk = new Walk<EdgeState>((e) => {
      deadline.tick();
      walked++;
      if ((checks && !usable(row, e)) || (wanted !== null && !propsMatch(e, wanted))) return true;
      const end = direction === 'out' ? e.target : direction === 'in' ? e.source : e.source === s ? e.target : e.source;
      if (into && end !== target) return true;
      if (endHas !== undefined && !endHas(end)) return true;
      if (writeRel) row[rel] = e.ref;
      if (writeTo) row[to] = graph.nodeRef(end);
      return sink(row);
    }, deadline);
    return (arg, rowSink) =>
      input(arg, (r) => {
        const src = r[from] as Value;
        if (src === null) return true;
        row = r;
        sink = rowSink;
        s = (src as { id: number }).id;
        target = -1;
        if (into) {
          const t = r[to] as Value;
          if (t === null) return true;
          target = (t as { id: number }).id;
        }
        wanted = wantedProps(r);
        if (overCsr !== undefined) {
          if (csr === undefined && walked >= ADJACENCY_ASK_EDGES) {
            csr = snapshot!.adjacency(oneType!, walked);
            walked = 0;
          }
          if (csr !== undefined) return overCsr(csr, r, s, target, rowSink);
        }
        if (snapshot !== undefined) {
          walk.begin();
          const ok = snapshot.forEachEdgeOf(s, direction, oneType, walk.callback);
          // edgesOf lists a node's relationships in the walk's order, so a paused walk goes on there.
          return walk.paused ? walk.resume(skipped(edgesAt(s), walk.seen)) : ok;
        }
        const at = s;
        const w = wanted;
        return loopIterable(
          edgesAt(at),
          (e) => {
            deadline.tick();
            if (!usable(r, e) || !propsMatch(e, w)) return true;
            const end = other(e, at);
            if (into && end !== target) return true;
            if (endHas !== undefined && !endHas(end)) return true;
            if (writeRel) r[rel] = e.ref;
            if (writeTo) r[to] = graph.nodeRef(end);
            return rowSink(r);
          },
          deadline,
        );
      });
  }

  const { min, max } = op.range;
  const listUnused = op.list_unused === true;
  // Over a CSR of the single type when the snapshot keeps one (or the searches add up to building it).
  const csrUsable = snapshot !== undefined && oneType !== undefined && relProps === undefined;
  let csr = csrUsable ? snapshot.adjacency(oneType, 0) : undefined;
  let searched = 0;
  const overCsr = csrUsable ? varLengthOverCsr(op, env, snapshot) : undefined;
  return (arg, sink) =>
    input(arg, (row) => {
      const src = row[from] as Value;
      if (src === null) return true;
      let target = -1;
      if (into) {
        const t = row[to] as Value;
        if (t === null) return true;
        target = (t as { id: number }).id;
      }
      if (overCsr !== undefined) {
        if (csr === undefined && searched >= ADJACENCY_ASK_EDGES) {
          csr = snapshot!.adjacency(oneType!, searched);
          searched = 0;
        }
        if (csr !== undefined) return overCsr(csr, row, (src as { id: number }).id, target, sink);
      }
      const wanted = wantedProps(row);
      // Depth-first over relationships not yet on the path, with an explicit stack so that long
      // paths cannot exhaust the call stack. Invariant: stack.length === path.length + 1 while
      // searching; stack[i] iterates the relationships of nodes[i].
      const path: number[] = [];
      const onPath = new Set<number>();
      const nodes: number[] = [(src as { id: number }).id];
      const stack: Iterator<EdgeState>[] = [];
      const emit = (at: number): Flow => {
        if (listUnused || !writeRel) row[rel] = null;
        else {
          const list = path.map(relationshipRef);
          row[rel] = op.leftwards ? list.reverse() : list;
        }
        if (writeTo) row[to] = graph.nodeRef(at);
        return sink(row);
      };
      /** One step of the search: the sink's flow when it reached a path to emit, null when done. */
      const step = (): Flow | null => {
        if (stack.length === 0) return null;
        deadline.tick();
        searched++;
        const next = (stack[stack.length - 1] as Iterator<EdgeState>).next();
        if (next.done === true) {
          stack.pop();
          nodes.pop();
          const id = path.pop();
          if (id !== undefined) onPath.delete(id);
          return true;
        }
        const e = next.value;
        if (onPath.has(e.id) || !usable(row, e) || !propsMatch(e, wanted)) return true;
        const at = other(e, nodes[nodes.length - 1] as number);
        path.push(e.id);
        onPath.add(e.id);
        nodes.push(at);
        // emit reads the path into the row before the search moves on, so the bookkeeping below
        // may run before a paused sink finishes.
        const flow = path.length >= min && (!into || at === target) ? emit(at) : true;
        if (path.length < max) {
          stack.push(edgesAt(at)[Symbol.iterator]());
        } else {
          nodes.pop();
          onPath.delete(path.pop() as number);
        }
        return flow;
      };
      const first = min === 0 && (!into || nodes[0] === target) ? emit(nodes[0] as number) : true;
      return after(first, (ok) => {
        if (!ok) return false;
        if (max === 0) return true;
        stack.push(edgesAt(nodes[0] as number)[Symbol.iterator]());
        return loop(step, deadline);
      });
    });
}

/**
 * A variable-length search over a CSR of its single type: the same depth-first search as over the
 * records, in the same order (a node's slice out, then in for 'both', a self-loop once), with a
 * stack of positions in the CSR's arrays instead of iterators over edge records. Relationships are
 * checked for uniqueness by id; a path's references are made only when its list is read.
 */
function varLengthOverCsr(op: Op<'expand'>, env: OpEnv, snapshot: SnapshotView): (csr: TypeAdjacency, row: Row, start: number, target: number, sink: Sink) => Flow {
  const { deadline } = env.cx;
  const { rel, to, direction, into } = op;
  const { min, max } = op.range as { readonly min: number; readonly max: number };
  const unique = op.unique_from;
  const writeList = op.list_unused !== true && op.rel_unused !== true;
  const writeTo = !into && op.to_unused !== true;
  const parts = direction === 'both' ? 2 : 1;
  return (csr, row, start, target, sink) => {
    const first = direction === 'in' ? csr.into : csr.out;
    // Invariant while searching: frames hold path.length + 1 entries; frame d walks nodes[d]'s slice.
    const path: number[] = [];
    const onPath = new Set<number>();
    const nodes: number[] = [start];
    const part: number[] = [];
    const pos: number[] = [];
    const end: number[] = [];
    const open = (at: number, rows: AdjacencyRows, p: number): void => {
      const known = at < rows.offsets.length - 1;
      part.push(p);
      pos.push(known ? (rows.offsets[at] as number) : 0);
      end.push(known ? (rows.offsets[at + 1] as number) : 0);
    };
    const emit = (at: number): Flow => {
      if (!writeList) row[rel] = null;
      else {
        const list = path.map((e) => snapshot.edgeRef(e) as Value);
        row[rel] = op.leftwards ? list.reverse() : list;
      }
      if (writeTo) row[to] = (csr.refs[at] as NodeRef | undefined) ?? snapshot.nodeRef(at);
      return sink(row);
    };
    const step = (): Flow | null => {
      const d = part.length - 1;
      if (d < 0) return null;
      deadline.tick();
      const at = nodes[d] as number;
      if ((pos[d] as number) >= (end[d] as number)) {
        if ((part[d] as number) + 1 < parts) {
          // The 'in' half of an undirected slice.
          part.pop();
          pos.pop();
          end.pop();
          open(at, csr.into, 1);
          return true;
        }
        part.pop();
        pos.pop();
        end.pop();
        nodes.pop();
        const id = path.pop();
        if (id !== undefined) onPath.delete(id);
        return true;
      }
      const rows = (part[d] as number) === 1 || direction === 'in' ? csr.into : csr.out;
      const j = pos[d] as number;
      pos[d] = j + 1;
      const edge = rows.edges[j] as number;
      const next = rows.ends[j] as number;
      if ((part[d] as number) === 1 && next === at) return true;
      if (onPath.has(edge)) return true;
      for (let u = 0; u < unique.length; u++) if (holdsRelationship(row[unique[u] as number] as Value, edge)) return true;
      path.push(edge);
      onPath.add(edge);
      nodes.push(next);
      const flow = path.length >= min && (!into || next === target) ? emit(next) : true;
      if (path.length < max) open(next, first, 0);
      else {
        nodes.pop();
        onPath.delete(path.pop() as number);
      }
      return flow;
    };
    const head = min === 0 && (!into || start === target) ? emit(start) : true;
    return after(head, (ok) => {
      if (!ok) return false;
      if (max === 0) return true;
      open(start, first, 0);
      return loop(step, deadline);
    });
  };
}

/**
 * The test of `to_labels` on an end node by id: the labels' bitmaps on a quiet graph, asked for as
 * expressions ask for columns (every COLUMN_ASK_READS tests until the store has them), otherwise the
 * node's own labels. Undefined when the expand has no such labels.
 */
function endLabels(op: Op<'expand'>, env: OpEnv): ((node: number) => boolean) | undefined {
  const labels = op.to_labels;
  if (labels === undefined || labels.length === 0) return undefined;
  const access = env.access;
  let bitmaps: Uint8Array[] | undefined;
  let reads = 0;
  const ask = (n: number): Uint8Array[] | undefined => {
    const out: Uint8Array[] = [];
    for (const l of labels) {
      const bits = access.labelBitmap(l, n);
      if (bits === undefined) return undefined;
      out.push(bits);
    }
    return out;
  };
  bitmaps = ask(0);
  return (node) => {
    if (bitmaps !== undefined) {
      for (let i = 0; i < bitmaps.length; i++) if ((bitmaps[i] as Uint8Array)[node] !== 1) return false;
      return true;
    }
    if (++reads >= COLUMN_ASK_READS) {
      bitmaps = ask(reads);
      reads = 0;
    }
    const state = access.node(node);
    if (state === undefined) return false;
    for (const l of labels) if (!state.labels.includes(l)) return false;
    return true;
  };
}

/** How many edges an expand walks record by record between asks for a CSR of its type. */
const ADJACENCY_ASK_EDGES = 4096;

/**
 * One hop over a CSR: for each input row, the node's slice of the type's arrays in the pattern's
 * direction (out, then in for 'both', where a self-loop is listed once). It reads no edge record: the
 * relationship is checked for uniqueness by id, and its reference and the end node's are the
 * store's shared objects. Only used without inline relationship properties and with one type.
 */
function csrExpand(op: Op<'expand'>, env: OpEnv, snapshot: SnapshotView, endHas: ((node: number) => boolean) | undefined): (csr: TypeAdjacency, row: Row, at: number, target: number, sink: Sink) => Flow {
  const { deadline } = env.cx;
  const { rel, to, direction, into } = op;
  const unique = op.unique_from;
  const writeRel = op.rel_unused !== true;
  const writeTo = !into && op.to_unused !== true;
  const parts = direction === 'both' ? 2 : 1;
  // The row being expanded and where its walk stands, kept here rather than in a closure per row:
  // an expand runs one row at a time, and a paused row is finished before the next one comes.
  let csr: TypeAdjacency | undefined;
  let row: Row = [];
  let sink: Sink = () => true;
  let at = 0;
  let target = -1;
  let part = 0;
  let rows: AdjacencyRows | undefined;
  let i = 0;
  let hi = 0;
  const enter = (r: AdjacencyRows): void => {
    rows = r;
    const known = at < r.offsets.length - 1;
    i = known ? (r.offsets[at] as number) : 0;
    hi = known ? (r.offsets[at + 1] as number) : 0;
  };
  /** One edge's work, or null when the node's edges are done. */
  const step = (): Flow | null => {
    while (i >= hi) {
      if (++part >= parts) return null;
      enter((csr as TypeAdjacency).into);
    }
    const r = rows as AdjacencyRows;
    const end = r.ends[i] as number;
    const edge = r.edges[i] as number;
    i++;
    deadline.tick();
    if (part === 1 && end === at) return true;
    for (let u = 0; u < unique.length; u++) if (holdsRelationship(row[unique[u] as number] as Value, edge)) return true;
    if (into && end !== target) return true;
    if (endHas !== undefined && !endHas(end)) return true;
    if (writeRel) row[rel] = snapshot.edgeRef(edge);
    if (writeTo) row[to] = (csr as TypeAdjacency).refs[end] as NodeRef;
    return sink(row);
  };
  const rest = (ok: boolean): Flow => (ok ? loop(step, deadline) : false);
  return (c, r, node, t, s) => {
    csr = c;
    row = r;
    sink = s;
    at = node;
    target = t;
    part = 0;
    enter(direction === 'in' ? c.into : c.out);
    // The plain loop first; a pause or a paused sink hands the rest to `loop`, which goes on here.
    for (;;) {
      const f = step();
      if (f === null) return true;
      if (f === true) {
        if (deadline.due) return loop(step, deadline);
        continue;
      }
      if (f === false) return false;
      return after(f, rest);
    }
  };
}

/**
 * A relationship (or a variable-length list of them) bound before the clause: check that it leads
 * from the node in `from`, in the pattern's direction, and bind or check the node it ends at.
 */
function boundRelationship(
  op: Op<'expand'>,
  input: PhysicalOp,
  env: OpEnv,
  usable: (row: Row, e: EdgeState) => boolean,
  propsMatch: (e: EdgeState, wanted: ReadonlyMap<string, Value> | null) => boolean,
  wantedProps: (row: Row) => ReadonlyMap<string, Value> | null,
): PhysicalOp {
  const { from, rel, to, direction, into, range } = op;
  const access = env.access;
  /** Where `e` leads from `at` in the pattern's direction; -1 when it does not touch `at` that way. */
  const step = (e: EdgeState, at: number): number => {
    if ((direction === 'out' || direction === 'both') && e.source === at) return e.target;
    if ((direction === 'in' || direction === 'both') && e.target === at) return e.source;
    return -1;
  };
  return (arg, sink) =>
    input(arg, (row) => {
      const src = row[from] as Value;
      const r = row[rel] as Value;
      if (src === null || r === null) return true;
      const wanted = wantedProps(row);
      const start = (src as { id: number }).id;
      let ends: number[];
      if (range === undefined) {
        const e = access.edge((r as { id: number }).id);
        if (e === undefined || !usable(row, e) || (op.types.length > 0 && !op.types.includes(e.type)) || !propsMatch(e, wanted)) return true;
        ends = [];
        if ((direction === 'out' || direction === 'both') && e.source === start) ends.push(e.target);
        if ((direction === 'in' || direction === 'both') && e.target === start && !(direction === 'both' && e.source === e.target)) ends.push(e.source);
      } else {
        if (!Array.isArray(r)) return true;
        const list = op.leftwards ? [...(r as readonly Value[])].reverse() : (r as readonly Value[]);
        if (list.length < range.min || list.length > range.max) return true;
        let at = start;
        for (const x of list) {
          const e = access.edge((x as { id: number }).id);
          if (e === undefined || (op.types.length > 0 && !op.types.includes(e.type)) || !propsMatch(e, wanted)) return true;
          at = step(e, at);
          if (at < 0) return true;
        }
        ends = [at];
      }
      return loopArray(
        ends,
        (end) => {
          if (into) {
            const t = row[to] as Value;
            if (t === null || (t as { id: number }).id !== end) return true;
          } else row[to] = env.cx.graph.nodeRef(end);
          return sink(row);
        },
        env.cx.deadline,
      );
    });
}
