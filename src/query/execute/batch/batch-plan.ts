import type { TypeAdjacency } from '../../../projections/graph/adjacency.js';
import type { LabelMembers } from '../../../projections/graph/records.js';
import { SnapshotView } from '../../../projections/graph/view.js';
import { freeSlots, UNMOVABLE } from '../../plan/expressions.js';
import type { LogicalOp } from '../../plan/logical.js';
import type { Value } from '../../../common/values/value.js';
import type { Evaluator, Row } from '../context.js';
import { indexSource, type OpEnv } from '../read-ops.js';
import type { LayoutColumn } from './batch.js';

/**
 * Which plans run as batched pipelines (`label scan -> expands and filters` under a consumer), and
 * the forms of the snapshot a run of one reads. See pipeline.ts for how they run.
 */
type Op<K extends LogicalOp['op']> = Extract<LogicalOp, { op: K }>;

export type Stage =
  | { readonly kind: 'expand'; readonly op: Op<'expand'> }
  | { readonly kind: 'filter'; readonly op: Op<'filter'> }
  /**
   * OPTIONAL MATCH of one hop from a node the pipeline holds, with the filters of its WHERE: a left
   * outer expand. A row whose expansions all fail the filters goes on once, with NULL_ID in the
   * columns of the relationship and the end node.
   */
  | { readonly kind: 'optional'; readonly op: Op<'optional'>; readonly expand: Op<'expand'>; readonly filters: readonly Op<'filter'>[] };

/** The inner side of an OPTIONAL MATCH as one expand from the argument under filters, or undefined. */
function optionalInner(op: Op<'optional'>): { expand: Op<'expand'>; filters: Op<'filter'>[] } | undefined {
  const filters: Op<'filter'>[] = [];
  let inner = op.inner;
  while (inner.op === 'filter') {
    filters.unshift(inner);
    inner = inner.input;
  }
  if (inner.op !== 'expand' || inner.input.op !== 'argument' || inner.into) return undefined;
  const expand = inner;
  // Only the expand's own slots are nulled (a path or a second pattern would null more).
  if (!op.nulls.every((s) => s === expand.rel || s === expand.to)) return undefined;
  return { expand, filters };
}

export interface BatchPlan {
  readonly scan: Op<'node_scan'> & { readonly label: string };
  /** Bottom up. */
  readonly stages: readonly Stage[];
  readonly layout: readonly LayoutColumn[];
  /**
   * An expand at the top that nothing above reads (its relationship and end node unused): its rows
   * are only counted (less the relationships uniqueness rules out), so it gives each input row a weight, the number
   * of relationships it would expand along, read from the CSR offsets, instead of making the rows.
   */
  readonly counted?: Op<'expand'>;
  /**
   * An expand right under `counted`, from a node the pipeline holds, that nothing reads but the
   * counted expand's uniqueness check: the two are counted together, each row weighing the product of
   * the two slices' counts (see counted-pair.ts). Only with `counted`.
   */
  readonly paired?: Op<'expand'>;
  /**
   * Filters folded into the expand that binds the one node they read (see `foldEndFilters`), by the
   * expand's op in this plan: a run turns them into a bitmap by node id, which the expand tests as it
   * tests end labels. Only in a plan made with `fold_end_filters`.
   */
  readonly end_filters?: ReadonlyMap<Op<'expand'>, readonly Op<'filter'>[]>;
}

/** The same slots, in any order. */
function sameSlots(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((s) => b.includes(s));
}

/** Whether a plan reads its label and nothing else: no expand of any kind. */
export function scanOnly(plan: BatchPlan): boolean {
  return plan.counted === undefined && plan.stages.every((s) => s.kind === 'filter');
}

/** Whether `op` can be an expand of a batched pipeline whose layout so far is `layout`. */
function batchableExpand(op: Op<'expand'>, layout: readonly LayoutColumn[]): boolean {
  if (op.range !== undefined || op.shortest !== undefined || op.rel_bound || op.rel_props !== undefined || op.types.length !== 1) return false;
  if (!layout.some((c) => c.slot === op.from && c.entity === 'node')) return false;
  // An expand into a node bound earlier (the closing edge of a cycle) keeps the rows whose end is that node.
  if (op.into && !layout.some((c) => c.slot === op.to && c.entity === 'node')) return false;
  return op.unique_from.every((s) => layout.some((c) => c.slot === s && c.entity === 'relationship'));
}

/**
 * The batched pipeline under a consumer, or undefined when `input` is not a label scan under
 * expands and filters with at least one expand (or none, with `scan_only`). `countOnly`: the consumer only counts rows;
 * `readAbove`, when given, the slots the consumer reads (its grouping keys), so that a second expand under
 * the counted one may be counted with it. `consumerReads`, when given, every slot the consumer's expressions read:
 * a relationship that neither they nor a filter read gets no position column (undefined: every one does).
 */
export function batchPlan(
  input: LogicalOp,
  countOnly: boolean,
  readAbove?: ReadonlySet<number>,
  fold_end_filters = false,
  scan_only = false,
  consumerReads?: ReadonlySet<number>,
): BatchPlan | undefined {
  let chain: Stage[] = [];
  let op = input;
  for (;;) {
    if (op.op === 'filter') chain.unshift({ kind: 'filter', op });
    else if (op.op === 'expand') chain.unshift({ kind: 'expand', op });
    else if (op.op === 'optional') {
      const inner = optionalInner(op);
      if (inner === undefined) return undefined;
      chain.unshift({ kind: 'optional', op, ...inner });
    } else break;
    op = op.input;
  }
  if (op.op !== 'node_scan' || op.label === undefined || op.input.op !== 'argument' || op.text !== undefined) return undefined;
  const scan = op as Op<'node_scan'> & { readonly label: string };
  // A scan under filters alone is a fused scan's (column-scan.ts) unless the consumer asks for it (`scan_only`).
  if (!scan_only && !chain.some((s) => s.kind !== 'filter')) return undefined;
  let end_filters: Map<Op<'expand'>, Op<'filter'>[]> | undefined;
  if (fold_end_filters) {
    const folded = foldEndFilters(chain, readAbove);
    if (folded === undefined) return undefined;
    chain = folded.chain;
    end_filters = folded.end_filters;
  }
  const top = chain[chain.length - 1];
  let counted: Op<'expand'> | undefined;
  // The top expand binds what nothing in the chain reads; the consumer's reads (`readAbove`) then decide, since
  // a count(x) of one of its slots that is counted as count(*) leaves the slot flagged as read.
  const unreadAbove = (slot: number, unused: boolean | undefined): boolean => unused === true || (readAbove !== undefined && !readAbove.has(slot));
  if (countOnly && top?.kind === 'expand' && !top.op.into && unreadAbove(top.op.rel, top.op.rel_unused) && unreadAbove(top.op.to, top.op.to_unused)) {
    counted = top.op;
    chain.pop();
  }
  let paired: Op<'expand'> | undefined;
  const below = chain[chain.length - 1];
  if (
    counted !== undefined &&
    readAbove !== undefined &&
    below?.kind === 'expand' &&
    !below.op.into &&
    below.op.to_unused === true &&
    counted.from !== below.op.to &&
    !readAbove.has(below.op.rel) &&
    sameSlots(counted.unique_from.filter((s) => s !== below.op.rel), below.op.unique_from)
  ) {
    paired = below.op;
    chain.pop();
  }
  const layout: LayoutColumn[] = [{ slot: scan.variable, entity: 'node' }];
  /** The index among `expandsOf(plan)` of the expand bound next (the paired and counted ones come last there). */
  let expandIndex = 0;
  const read = slotsRead(chain, consumerReads);
  const positioned = (rel: number): boolean => read === undefined || read.has(rel) || read.has(UNMOVABLE);
  for (const s of [...chain, ...[paired, counted].flatMap((op) => (op === undefined ? [] : [{ kind: 'expand' as const, op }]))]) {
    if (s.kind === 'filter') continue;
    if (s.kind === 'optional') {
      if (!batchableExpand(s.expand, layout)) return undefined;
      if (s.expand.rel_unused !== true) bindRelationship(layout, s.expand, expandIndex, true, positioned(s.expand.rel));
      expandIndex++;
      if (s.expand.to_unused !== true) layout.push({ slot: s.expand.to, entity: 'node', nullable: true });
      continue;
    }
    // The counted expand's uniqueness against the paired one is the pair's to keep (counted-pair.ts).
    const own = s.op === counted && paired !== undefined ? { ...s.op, unique_from: s.op.unique_from.filter((u) => u !== paired.rel) } : s.op;
    if (!batchableExpand(own, layout)) return undefined;
    if (s.op === counted || s.op === paired) continue;
    if (s.op.rel_unused !== true) bindRelationship(layout, s.op, expandIndex, false, positioned(s.op.rel));
    expandIndex++;
    if (s.op.to_unused !== true && !s.op.into) layout.push({ slot: s.op.to, entity: 'node' });
  }
  const plan: BatchPlan = { scan, stages: chain, layout, ...(counted !== undefined && { counted }), ...(paired !== undefined && { paired }) };
  return end_filters === undefined ? plan : { ...plan, end_filters };
}

/** An expand's relationship column, then (`positioned`) the column of its positions in the CSR the expand walks. */
function bindRelationship(layout: LayoutColumn[], op: Op<'expand'>, index: number, nullable: boolean, positioned: boolean): void {
  const type = op.types[0] as string;
  layout.push({ slot: op.rel, entity: 'relationship', type, ...(nullable && { nullable }) });
  if (positioned) layout.push({ slot: op.rel, entity: 'position', type, expand: { index, direction: op.direction }, ...(nullable && { nullable }) });
}

/** The slots the chain's filters and the consumer read, or undefined when the consumer's reads are not known. */
function slotsRead(chain: readonly Stage[], consumerReads: ReadonlySet<number> | undefined): Set<number> | undefined {
  if (consumerReads === undefined) return undefined;
  const out = new Set(consumerReads);
  for (const s of chain) {
    if (s.kind === 'filter') freeSlots(s.op.predicate, out);
    else if (s.kind === 'optional') for (const f of s.filters) freeSlots(f.predicate, out);
  }
  return out;
}

/**
 * Filters that read nothing but the end node of the expand right under them (any filters between),
 * where nothing else reads that node: `MATCH (a)-[:KNOWS]->(b) WHERE b.age > 75 RETURN count(*)`. Each
 * such filter leaves the chain and its expand, copied, no longer binds the node: the filter becomes a
 * test of the end node by id, like an end label. Then the expand writes no row a filter would drop,
 * and when it is the last one of a count it is counted from its slices. Undefined when no filter folds
 * (the plan without folding is the same plan).
 */
function foldEndFilters(chain: readonly Stage[], readAbove: ReadonlySet<number> | undefined): { chain: Stage[]; end_filters: Map<Op<'expand'>, Op<'filter'>[]> } | undefined {
  // Without the consumer's reads, nothing is known to leave the end node unread.
  if (readAbove === undefined) return undefined;
  const readers = (s: Stage): Set<number> => {
    const out = new Set<number>();
    if (s.kind === 'filter') freeSlots(s.op.predicate, out);
    else if (s.kind === 'expand') {
      out.add(s.op.from);
      if (s.op.into) out.add(s.op.to);
    } else {
      out.add(s.expand.from);
      for (const f of s.filters) freeSlots(f.predicate, out);
    }
    return out;
  };
  const out: Stage[] = chain.slice();
  const end_filters = new Map<Op<'expand'>, Op<'filter'>[]>();
  for (let e = 0; e < out.length; e++) {
    const stage = out[e] as Stage;
    if (stage.kind !== 'expand' || stage.op.into || stage.op.to_unused === true) continue;
    const to = stage.op.to;
    // The filters right above the expand that read only its end node.
    const folded: Op<'filter'>[] = [];
    for (let f = e + 1; f < out.length; f++) {
      const s = out[f] as Stage;
      if (s.kind !== 'filter') break;
      const free = freeSlots(s.op.predicate);
      // Only the filters next to the expand: one above another may fail on a row this one drops.
      if (free.size !== 1 || !free.has(to)) break;
      folded.push(s.op);
    }
    if (folded.length === 0) continue;
    // Nothing else may read the end node: no other stage above, and not the consumer.
    if (readAbove.has(to) || out.some((s, i) => i > e && !(s.kind === 'filter' && folded.includes(s.op)) && readers(s).has(to))) continue;
    const op: Op<'expand'> = { ...stage.op, to_unused: true };
    out[e] = { kind: 'expand', op };
    end_filters.set(op, folded);
    for (let i = out.length - 1; i > e; i--) {
      const s = out[i] as Stage;
      if (s.kind === 'filter' && folded.includes(s.op)) out.splice(i, 1);
    }
  }
  return end_filters.size === 0 ? undefined : { chain: out, end_filters };
}

/** What one run reads: the label's list and, per expand (the paired and counted ones last), its CSR and end-label bitmaps. */
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
export function formsFor(plan: BatchPlan, env: OpEnv, arg: Row): Forms | undefined {
  const graph = env.cx.graph;
  if (env.batched === false || !env.access.cacheable || !(graph instanceof SnapshotView)) return undefined;
  const s = plan.scan;
  // An index that answers the scan for this row makes the row path read the label in the index's order.
  if (indexAnswers(s, env)(arg)) return undefined;
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

/** Per scan and compiled plan, whether an index answers the scan for a row (see `indexAnswers`). */
const answersByScan = new WeakMap<OpEnv, WeakMap<Op<'node_scan'>, (arg: Row) => boolean>>();

/**
 * Whether an index answers `scan` for the row `arg`: an index of an inline property or of the scan's
 * seekable comparison that the catalog does not decline. The catalog declines a seek that would return
 * much of the label (`p.id < 20000` of 100,000 people), and then the row path reads the label in its
 * own order, as a batched run does; only an index's answer (or 'none', a bound that keeps no row) makes
 * the rows come in another order. Compiled once per scan of a compiled plan.
 */
function indexAnswers(scan: Op<'node_scan'>, env: OpEnv): (arg: Row) => boolean {
  let byScan = answersByScan.get(env);
  if (byScan === undefined) answersByScan.set(env, (byScan = new WeakMap()));
  let answers = byScan.get(scan);
  if (answers === undefined) {
    answers = compileIndexAnswers(scan, env);
    byScan.set(scan, answers);
  }
  return answers;
}

/** Whether an index of the catalog could answer `scan` for some row: an index of an inline property or of its seekable comparison. */
export function mayBeSeeked(scan: Op<'node_scan'>, env: OpEnv): boolean {
  const catalog = env.cx.indexes;
  const label = scan.label;
  return label !== undefined && (scan.props.some((p) => catalog.hasIndex(label, [p.key])) || (scan.seekable !== undefined && catalog.hasIndex(label, [scan.seekable.key])));
}

function compileIndexAnswers(scan: Op<'node_scan'>, env: OpEnv): (arg: Row) => boolean {
  const indexed = mayBeSeeked(scan, env);
  const wanted = new Array<Value>(scan.props.length);
  const source = indexed ? indexSource(scan, env, wanted) : undefined;
  if (source === undefined) return () => false;
  const values = scan.props.map((p) => env.exprs.compile(p.value));
  return (arg) => {
    for (let i = 0; i < wanted.length; i++) wanted[i] = (values[i] as Evaluator)(arg);
    return source(arg) !== undefined;
  };
}

export function expandsOf(plan: BatchPlan): Op<'expand'>[] {
  const out = plan.stages.flatMap((s) => (s.kind === 'expand' ? [s.op] : s.kind === 'optional' ? [s.expand] : []));
  if (plan.paired !== undefined) out.push(plan.paired);
  if (plan.counted !== undefined) out.push(plan.counted);
  return out;
}

