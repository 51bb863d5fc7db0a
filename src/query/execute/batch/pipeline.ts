import type { Value } from '../../../common/values/value.js';
import type { AdjacencyRows, TypeAdjacency } from '../../../projections/graph/adjacency.js';
import type { LabelMembers, NodeState } from '../../../projections/graph/records.js';
import { SnapshotView } from '../../../projections/graph/view.js';
import type { BoundExpression } from '../../bind/bound-expression.js';
import { freeSlots, UNMOVABLE } from '../../plan/expressions.js';
import type { LogicalOp } from '../../plan/logical.js';
import { asPredicate } from '../../values/coerce.js';
import type { Row } from '../context.js';
import { propertyEquals, type OpEnv } from '../read-ops.js';
import type { Slices } from '../slices.js';
import { Batch, BATCH_ROWS, NULL_BOOL, valueBuffer, type EntityKind, type LayoutColumn } from './batch.js';
import { typedColumn, type TypedColumn } from './typed-columns.js';
import { boxed, compileVector, type VectorScope } from './vector-expressions.js';

/**
 * The batched form of `label scan -> expands and filters`: which plans have it, and running it.
 *
 * A pipeline binds entity slots in order (the scanned node, then each expand's relationship and end
 * node when something reads them), so the columns a stage has are a prefix of the batch's. The scan
 * reads the label's kept list BATCH_ROWS nodes at a time; an expand walks each row's slice of its
 * type's CSR and writes rows into its own batch, pushing it on when full; a filter evaluates its
 * predicate over the whole batch and compacts the batch in place. Rows leave in exactly the order the
 * row-at-a-time operators make them (list order, then each node's CSR order, out before in), so
 * anything that depends on order (first-seen groups, ties) comes out the same.
 */
type Op<K extends LogicalOp['op']> = Extract<LogicalOp, { op: K }>;

export type Stage = { readonly kind: 'expand'; readonly op: Op<'expand'> } | { readonly kind: 'filter'; readonly op: Op<'filter'> };

export interface BatchPlan {
  readonly scan: Op<'node_scan'> & { readonly label: string };
  /** Bottom up. */
  readonly stages: readonly Stage[];
  readonly layout: readonly LayoutColumn[];
  /**
   * An expand at the top that nothing above reads (its relationship and end node unused, no
   * uniqueness to check): its rows are only counted, so it gives each input row a weight, the number
   * of relationships it would expand along, read from the CSR offsets, instead of making the rows.
   */
  readonly counted?: Op<'expand'>;
}

/** Whether `op` can be an expand of a batched pipeline whose layout so far is `layout`. */
function batchableExpand(op: Op<'expand'>, layout: readonly LayoutColumn[]): boolean {
  if (op.range !== undefined || op.shortest !== undefined || op.rel_bound || op.into || op.rel_props !== undefined || op.types.length !== 1) return false;
  if (!layout.some((c) => c.slot === op.from && c.entity === 'node')) return false;
  return op.unique_from.every((s) => layout.some((c) => c.slot === s && c.entity === 'relationship'));
}

/**
 * The batched pipeline under a consumer, or undefined when `input` is not a label scan under
 * expands and filters with at least one expand. `countOnly`: the consumer only counts rows.
 */
export function batchPlan(input: LogicalOp, countOnly: boolean): BatchPlan | undefined {
  const chain: Stage[] = [];
  let op = input;
  for (;;) {
    if (op.op === 'filter') chain.unshift({ kind: 'filter', op });
    else if (op.op === 'expand') chain.unshift({ kind: 'expand', op });
    else break;
    op = op.input;
  }
  if (op.op !== 'node_scan' || op.label === undefined || op.input.op !== 'argument' || op.text !== undefined) return undefined;
  const scan = op as Op<'node_scan'> & { readonly label: string };
  if (!chain.some((s) => s.kind === 'expand')) return undefined;
  const top = chain[chain.length - 1] as Stage;
  let counted: Op<'expand'> | undefined;
  if (countOnly && top.kind === 'expand' && top.op.rel_unused === true && top.op.to_unused === true && top.op.unique_from.length === 0) {
    counted = top.op;
    chain.pop();
  }
  const layout: LayoutColumn[] = [{ slot: scan.variable, entity: 'node' }];
  for (const s of [...chain, ...(counted === undefined ? [] : [{ kind: 'expand' as const, op: counted }])]) {
    if (s.kind !== 'expand') continue;
    if (!batchableExpand(s.op, layout)) return undefined;
    if (s.op === counted) break;
    if (s.op.rel_unused !== true) layout.push({ slot: s.op.rel, entity: 'relationship' });
    if (s.op.to_unused !== true) layout.push({ slot: s.op.to, entity: 'node' });
  }
  return counted === undefined ? { scan, stages: chain, layout } : { scan, stages: chain, layout, counted };
}

/** What one run reads: the label's list and, per expand (the counted one last), its CSR and end-label bitmaps. */
export interface Forms {
  readonly members: LabelMembers;
  readonly csrs: readonly TypeAdjacency[];
  readonly bitmaps: readonly (readonly Uint8Array[])[];
}

/**
 * The forms a run needs, as the statement's snapshot has them, or undefined when it has not all of
 * them (a write set, a lens, a label or type written since, no room in the scan cache): then the row
 * operators run. Asking counts as demand for them, so a form missing now is built for a later run.
 */
export function formsFor(plan: BatchPlan, env: OpEnv): Forms | undefined {
  const graph = env.cx.graph;
  if (env.batched === false || !env.access.cacheable || !(graph instanceof SnapshotView)) return undefined;
  const s = plan.scan;
  // An index that may answer the scan makes the row path read the label in the index's order.
  const catalog = env.cx.indexes;
  if (s.props.some((p) => catalog.hasIndex(s.label, [p.key])) || (s.seekable !== undefined && catalog.hasIndex(s.label, [s.seekable.key]))) return undefined;
  const members = graph.keptMembers(s.label);
  if (members === undefined) return undefined;
  const demand = members.nodes.length;
  const csrs: TypeAdjacency[] = [];
  const bitmaps: Uint8Array[][] = [];
  for (const e of expandsOf(plan)) {
    const csr = graph.adjacency(e.types[0] as string, demand);
    if (csr === undefined) return undefined;
    csrs.push(csr);
    const bits: Uint8Array[] = [];
    for (const l of e.to_labels ?? []) {
      const b = env.access.labelBitmap(l, demand);
      if (b === undefined) return undefined;
      bits.push(b);
    }
    bitmaps.push(bits);
  }
  return { members, csrs, bitmaps };
}

function expandsOf(plan: BatchPlan): Op<'expand'>[] {
  const out = plan.stages.flatMap((s) => (s.kind === 'expand' ? [s.op] : []));
  if (plan.counted !== undefined) out.push(plan.counted);
  return out;
}

/** Receives each batch a pipeline makes; `weights` (when the last expand is counted) holds each row's count. */
export type BatchConsumer = (b: Batch, weights: Float64Array | undefined) => void;

/** The expressions of one run over a plan's batches, typed against the columns the run reads. */
export class BatchScope implements VectorScope {
  private readonly positions = new Map<number, { readonly column: number; readonly entity: EntityKind }>();
  private readonly columns = new Map<string, TypedColumn | undefined>();
  readonly params: ReadonlyMap<string, Value>;

  constructor(
    private readonly plan: BatchPlan,
    private readonly env: OpEnv,
    readonly arg: Row,
    private readonly demand: number,
  ) {
    plan.layout.forEach((c, i) => this.positions.set(c.slot, { column: i, entity: c.entity }));
    this.params = env.cx.params;
  }

  position(slot: number): { readonly column: number; readonly entity: EntityKind } | undefined {
    return this.positions.get(slot);
  }

  column(key: string): TypedColumn | undefined {
    if (!this.columns.has(key)) {
      const values = this.env.access.nodeColumn(key, this.demand);
      this.columns.set(key, values === undefined ? undefined : typedColumn(values));
    }
    return this.columns.get(key);
  }

  /** Row by row: each row of the batch becomes a row of references (only the slots `e` reads), evaluated by the row evaluator. */
  generic(e: BoundExpression): (b: Batch) => Value[] {
    const f = this.env.exprs.compile(e);
    const graph = this.env.cx.graph as SnapshotView;
    const free = freeSlots(e);
    const fill = this.plan.layout.map((c, i) => ({ ...c, i })).filter((c) => free.has(c.slot) || free.has(UNMOVABLE));
    const row = this.arg.slice();
    const out = valueBuffer();
    return (b) => {
      for (let i = 0, n = b.length; i < n; i++) {
        for (const c of fill) {
          const id = (b.columns[c.i] as Int32Array)[i] as number;
          row[c.slot] = c.entity === 'node' ? graph.nodeRef(id) : graph.edgeRef(id);
        }
        out[i] = f(row);
      }
      return out;
    };
  }

  /** A predicate over batches: 1 where it is TRUE. Non-boolean values fail as the row filter fails. */
  predicate(e: BoundExpression): (b: Batch) => Uint8Array {
    const c = compileVector(e, this);
    if (c.kind === 'bool') return (b) => c.run(b).values;
    const out = new Uint8Array(BATCH_ROWS);
    return (b) => {
      const v = c.run(b);
      for (let i = 0, n = b.length; i < n; i++) out[i] = asPredicate(boxed(c, v, i)) === true ? 1 : NULL_BOOL;
      return out;
    };
  }
}

/**
 * Runs `plan` over `forms` into `consume`. A plain loop over the list, BATCH_ROWS nodes a chunk;
 * when the slice runs out between chunks it hands the rest to a generator (see slices.ts).
 */
export function runBatches(plan: BatchPlan, forms: Forms, scope: BatchScope, env: OpEnv, consume: BatchConsumer): boolean | Slices {
  const deadline = env.cx.deadline;
  const width = plan.layout.length;
  let push: BatchConsumer = consume;
  // Stages are wired top down: each pushes into the one above it.
  const expands = expandsOf(plan);
  let k = expands.length - 1;
  if (plan.counted !== undefined) {
    const counted = countedExpand(plan.counted, plan, forms.csrs[k] as TypeAdjacency, forms.bitmaps[k] as readonly Uint8Array[], push);
    push = counted;
    k--;
  }
  for (let s = plan.stages.length - 1; s >= 0; s--) {
    const stage = plan.stages[s] as Stage;
    if (stage.kind === 'filter') push = filterStage(scope.predicate(stage.op.predicate), push);
    else {
      push = expandStage(stage.op, plan, forms.csrs[k] as TypeAdjacency, forms.bitmaps[k] as readonly Uint8Array[], width, deadline.check.bind(deadline), push);
      k--;
    }
  }
  const nodes = forms.members.nodes;
  const n = nodes.length;
  const batch = new Batch(width);
  const ids = batch.columns[0] as Int32Array;
  const admit = scanEqualities(plan.scan, env, scope.arg, n);
  const chunk = (from: number): number => {
    const to = Math.min(n, from + BATCH_ROWS);
    let w = 0;
    for (let i = from; i < to; i++) {
      const node = nodes[i] as NodeState;
      if (admit === undefined || admit(node)) ids[w++] = node.id;
    }
    batch.length = w;
    if (w > 0) push(batch, undefined);
    deadline.check();
    return to;
  };
  let at = 0;
  while (at < n) {
    at = chunk(at);
    if (deadline.due && at < n) {
      const from = at;
      return (function* (): Slices {
        let i = from;
        while (i < n) {
          yield;
          i = chunk(i);
          while (i < n && !deadline.due) i = chunk(i);
        }
        return true;
      })();
    }
  }
  return true;
}

/**
 * The scan's inline equalities (`(a:L {k: v})`, `a.k = v` folded into the scan) as a test of one
 * node, reading the column by id where the store keeps one; undefined when there are none.
 */
function scanEqualities(scan: BatchPlan['scan'], env: OpEnv, arg: Row, demand: number): ((node: NodeState) => boolean) | undefined {
  if (scan.props.length === 0) return undefined;
  const tests = scan.props.map((p) => ({ key: p.key, wanted: env.exprs.compile(p.value)(arg), column: env.access.nodeColumn(p.key, demand) }));
  return (node) => {
    for (const t of tests) {
      const v = t.column === undefined ? node.props.get(t.key) : t.column[node.id];
      if (v === undefined || v === null || !propertyEquals(v, t.wanted)) return false;
    }
    return true;
  };
}

/** Keeps the rows whose predicate is TRUE, compacting the batch's bound columns in place. */
function filterStage(predicate: (b: Batch) => Uint8Array, next: BatchConsumer): BatchConsumer {
  return (b, weights) => {
    const keep = predicate(b);
    const cols = b.columns;
    let w = 0;
    for (let i = 0, n = b.length; i < n; i++) {
      if (keep[i] !== 1) continue;
      if (w !== i) {
        for (let c = 0; c < cols.length; c++) (cols[c] as Int32Array)[w] = (cols[c] as Int32Array)[i] as number;
        if (weights !== undefined) weights[w] = weights[i] as number;
      }
      w++;
    }
    b.length = w;
    if (w > 0) next(b, weights);
  };
}

/** Whether node `end` has every label of `bitmaps`. */
function hasAll(bitmaps: readonly Uint8Array[], end: number): boolean {
  for (let l = 0; l < bitmaps.length; l++) if ((bitmaps[l] as Uint8Array)[end] !== 1) return false;
  return true;
}

/** One expand: per input row, its CSR slice (out, then in for an undirected pattern, a self-loop once). */
function expandStage(
  op: Op<'expand'>,
  plan: BatchPlan,
  csr: TypeAdjacency,
  bitmaps: readonly Uint8Array[],
  width: number,
  check: () => void,
  next: BatchConsumer,
): BatchConsumer {
  const column = (slot: number): number => plan.layout.findIndex((c) => c.slot === slot);
  const from = column(op.from);
  const relAt = op.rel_unused === true ? -1 : plan.layout.findIndex((c) => c.slot === op.rel && c.entity === 'relationship');
  const toAt = op.to_unused === true ? -1 : plan.layout.findIndex((c) => c.slot === op.to && c.entity === 'node');
  // Columns bound below this expand: a prefix of the layout.
  const bound = Math.min(...[relAt, toAt].filter((x) => x >= 0), width);
  const unique = op.unique_from.map((s) => plan.layout.findIndex((c) => c.slot === s && c.entity === 'relationship'));
  const parts = op.direction === 'both' ? [csr.out, csr.into] : [op.direction === 'in' ? csr.into : csr.out];
  const out = new Batch(width);
  const flush = (): void => {
    next(out, undefined);
    out.length = 0;
    check();
  };
  return (b) => {
    const src = b.columns[from] as Int32Array;
    const inCols = b.columns;
    const outCols = out.columns;
    const rels = relAt >= 0 ? (outCols[relAt] as Int32Array) : undefined;
    const tos = toAt >= 0 ? (outCols[toAt] as Int32Array) : undefined;
    for (let i = 0, n = b.length; i < n; i++) {
      const at = src[i] as number;
      for (let p = 0; p < parts.length; p++) {
        const rows = parts[p] as TypeAdjacency['out'];
        const { offsets, ends, edges } = rows;
        if (at >= offsets.length - 1) continue;
        for (let j = offsets[at] as number, hi = offsets[at + 1] as number; j < hi; j++) {
          const end = ends[j] as number;
          const edge = edges[j] as number;
          if (p === 1 && end === at) continue;
          let used = false;
          for (let u = 0; u < unique.length; u++) if ((inCols[unique[u] as number] as Int32Array)[i] === edge) used = true;
          if (used || (bitmaps.length > 0 && !hasAll(bitmaps, end))) continue;
          const w = out.length;
          for (let c = 0; c < bound; c++) (outCols[c] as Int32Array)[w] = (inCols[c] as Int32Array)[i] as number;
          if (rels !== undefined) rels[w] = edge;
          if (tos !== undefined) tos[w] = end;
          out.length = w + 1;
          if (out.length === BATCH_ROWS) flush();
        }
      }
    }
    if (out.length > 0) flush();
  };
}

/**
 * Per node, how many of its CSR slice's ends have the label of `bitmap`: counted once per pair of
 * forms and kept while both are (a WeakMap keyed by them, both pictures of one point of the log), so
 * a degree ranking with an end label reads one array per node instead of testing every relationship.
 */
const labelledDegrees = new WeakMap<AdjacencyRows, WeakMap<Uint8Array, Int32Array>>();

function degreesWithLabel(rows: AdjacencyRows, bitmap: Uint8Array): Int32Array {
  let byBitmap = labelledDegrees.get(rows);
  if (byBitmap === undefined) labelledDegrees.set(rows, (byBitmap = new WeakMap()));
  let degrees = byBitmap.get(bitmap);
  if (degrees === undefined) {
    const { offsets, ends } = rows;
    degrees = new Int32Array(offsets.length - 1);
    for (let at = 0; at < degrees.length; at++) {
      let k = 0;
      for (let j = offsets[at] as number, hi = offsets[at + 1] as number; j < hi; j++) k += bitmap[ends[j] as number] === 1 ? 1 : 0;
      degrees[at] = k;
    }
    byBitmap.set(bitmap, degrees);
  }
  return degrees;
}

/** The top expand, counted: each row's weight is how many rows it would make. Rows that would make none go. */
function countedExpand(op: Op<'expand'>, plan: BatchPlan, csr: TypeAdjacency, bitmaps: readonly Uint8Array[], next: BatchConsumer): BatchConsumer {
  const from = plan.layout.findIndex((c) => c.slot === op.from && c.entity === 'node');
  const direction = op.direction;
  const weights = new Float64Array(BATCH_ROWS);
  const count = (offsets: Int32Array, ends: Int32Array, at: number, skipSelf: boolean): number => {
    if (at >= offsets.length - 1) return 0;
    const lo = offsets[at] as number;
    const hi = offsets[at + 1] as number;
    if (bitmaps.length === 0 && !skipSelf) return hi - lo;
    let k = 0;
    for (let j = lo; j < hi; j++) {
      const end = ends[j] as number;
      if (skipSelf && end === at) continue;
      if (bitmaps.length === 0 || hasAll(bitmaps, end)) k++;
    }
    return k;
  };
  // One end label and one side: the per-node counts of ends with the label, made once.
  const single = bitmaps.length === 1 && direction !== 'both' ? degreesWithLabel(direction === 'in' ? csr.into : csr.out, bitmaps[0] as Uint8Array) : undefined;
  return (b) => {
    const src = b.columns[from] as Int32Array;
    const cols = b.columns;
    let w = 0;
    for (let i = 0, n = b.length; i < n; i++) {
      const at = src[i] as number;
      let k = 0;
      if (single !== undefined) k = at < single.length ? (single[at] as number) : 0;
      else if (direction !== 'in') k += count(csr.out.offsets, csr.out.ends, at, false);
      if (single === undefined && direction !== 'out') k += count(csr.into.offsets, csr.into.ends, at, direction === 'both');
      if (k === 0) continue;
      if (w !== i) for (let c = 0; c < cols.length; c++) (cols[c] as Int32Array)[w] = (cols[c] as Int32Array)[i] as number;
      weights[w++] = k;
    }
    b.length = w;
    if (w > 0) next(b, weights);
  };
}
