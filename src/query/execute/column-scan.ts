import type { Value } from '../../common/values/value.js';
import type { LabelMembers, NodeState } from '../../projections/graph/records.js';
import { SnapshotView } from '../../projections/graph/view.js';
import type { BoundExpression } from '../bind/bound-expression.js';
import { mapChildren } from '../bind/bound-walk.js';
import { freeSlots, UNMOVABLE } from '../plan/expressions.js';
import type { LogicalOp } from '../plan/logical.js';
import type { Evaluator, PhysicalOp, Row, Sink } from './context.js';
import type { ExpressionCompiler, ScanColumns } from './expression.js';
import { asPredicate, asRowCount } from '../values/coerce.js';
import { applyBound, boundPositions, comparable, keyBounds, narrowPositions, valuePositions } from './key-bounds.js';
import { topCandidates, TOP_CANDIDATES_K_MAX } from './top-candidates.js';
import { indexSource, propertyEquals, type OpEnv } from './read-ops.js';
import * as rel from './relational-ops.js';
import type { Flow, Slices } from './slices.js';

/**
 * Fused scans over kept label lists.
 *
 * An aggregation or a top-k over a label scan (with the scan's inline properties and any filters
 * between them) reads every node of the label, and row at a time that is a chain of callbacks per
 * node plus a check, on each property read, that the row still holds the node the scan produced
 * last. When the store keeps the label's list for the statement's snapshot, the fused operator
 * instead runs the scan as one loop over the list, and every `n.key` of the scanned node, in the
 * inline properties, the filters and the consumer's expressions, reads the list's column for `key`
 * at the loop's position. Otherwise (a write set, a label written since its list was made, a label
 * scanned for the first time) it runs the row-at-a-time plan compiled beside it. Both read the
 * label's nodes in the same order, so they give the same rows in the same order.
 */
type Op<K extends LogicalOp['op']> = Extract<LogicalOp, { op: K }>;

/** The scan and the filters over it that a fused operator takes in, or undefined when its input is something else. */
interface ScanPipeline {
  readonly scan: Op<'node_scan'> & { readonly label: string };
  /** Innermost first. */
  readonly filters: readonly Op<'filter'>[];
}

function scanPipeline(input: LogicalOp): ScanPipeline | undefined {
  const filters: Op<'filter'>[] = [];
  let op = input;
  while (op.op === 'filter') {
    filters.unshift(op);
    op = op.input;
  }
  if (op.op !== 'node_scan' || op.label === undefined || op.input.op !== 'argument') return undefined;
  return { scan: op as Op<'node_scan'> & { readonly label: string }, filters };
}

/**
 * Whether `e` reads the node in `slot` other than through `slot.key` (its labels, its map, the node
 * itself); a subquery body counts as reading it. Such reads need the node's record in the row.
 */
function readsNodeItself(e: BoundExpression, slot: number): boolean {
  const strip = (x: BoundExpression): BoundExpression =>
    propertyKey(x, slot) !== undefined ? { kind: 'literal', value: null, type: x.type, span: x.span } : mapChildren(x, strip);
  const slots = freeSlots(strip(e));
  return slots.has(slot) || slots.has(UNMOVABLE);
}

/** The key of `e` when it is `n.key` for the node in `slot`. */
function propertyKey(e: BoundExpression, slot: number): string | undefined {
  return e.kind === 'property' && e.object.kind === 'variable' && e.object.variable.id === slot ? e.key : undefined;
}

const EMPTY_CODES = new Uint16Array(0);

/** One property key read from columns: built on its first read in a run, from the list of that run. */
interface ColumnRead {
  readonly key: string;
  values: readonly (Value | undefined)[] | undefined;
  /** The list was asked for the column in this run (it may have had no room for it). */
  asked: boolean;
}

/**
 * A label scan that loops over a kept list and serves its node's properties from columns. `compile`
 * compiles the consumer's expressions the same way; `run` runs the scan over one list.
 */
class ColumnScan implements ScanColumns {
  readonly slot: number;
  private members: LabelMembers | undefined;
  /** Invariant: during `run`, the index in `members.nodes` of the node being read. */
  private position = 0;
  private readonly reads: ColumnRead[] = [];
  private readonly props: readonly { readonly read: Evaluator; readonly value: Evaluator }[];
  private readonly predicates: readonly ((row: Row) => boolean)[];
  private readonly exprs: ExpressionCompiler;
  /**
   * Something reads the scanned node beyond its properties, or its consumer passes the scan's rows
   * on: the loop then puts the node in the row. Otherwise it reads no node record at all, only columns.
   */
  private needsNode: boolean;
  /** The positions a run reads, when only some of the list can matter (see `restrictToTop`); all of them otherwise. */
  private restrict: ((arg: Row) => Int32Array | undefined) | undefined;

  constructor(
    private readonly pipeline: ScanPipeline,
    private readonly env: OpEnv,
    passesRowsOn: boolean,
  ) {
    this.slot = pipeline.scan.variable;
    this.needsNode = passesRowsOn && pipeline.scan.variable_unused !== true;
    this.exprs = env.exprs.overScan(this);
    this.props = pipeline.scan.props.map((p) => ({ read: this.read(p.key), value: env.exprs.compile(p.value) }));
    this.predicates = pipeline.filters.map((f) => this.compile(f.predicate)).map((f) => (row: Row) => asPredicate(f(row)) === true);
    this.restrict = this.restrictToBounds();
  }

  /**
   * Reads only the positions that may pass the filters when the filters only bound properties by constants
   * (`p.age >= 25 AND p.age <= 27 AND p.name < 'q'`) and the scan has no inline equalities: a loop over the
   * list's column for the first bound, then over the positions it kept for each next one, in the filter's
   * order (conjunct-order puts the bound that keeps fewest first). A column of exact integers is read as
   * doubles; any other as its stored values, where a member is dropped only when its comparison is false or
   * null (absent, another kind), so the positions hold every member the filters keep, and the filters still
   * check each one. Undefined per run when a constant is neither a number nor a string (or an INTEGER past
   * 2^53, or NaN), or the list has no room for a column: then the run reads every member.
   */
  private restrictToBounds(): ((arg: Row) => Int32Array | undefined) | undefined {
    if (this.pipeline.scan.props.length > 0) return undefined;
    const bounds = keyBounds(
      this.pipeline.filters.map((f) => f.predicate),
      (x) => propertyKey(x, this.slot),
    );
    if (bounds === undefined || bounds.length === 0) return undefined;
    const constants = bounds.map((b) => this.exprs.compile(b.value));
    return (arg) => {
      const members = this.members as LabelMembers;
      const positions = new Int32Array(members.nodes.length);
      let length: number | undefined;
      for (let b = 0; b < bounds.length; b++) {
        const bound = bounds[b] as (typeof bounds)[number];
        const c = comparable((constants[b] as Evaluator)(arg));
        if (c === undefined) return undefined;
        const doubles = typeof c === 'number' ? members.integers(bound.key) : undefined;
        if (doubles !== undefined) {
          length = length === undefined ? boundPositions(doubles, bound.op, c as number, positions) : narrowPositions(doubles, bound.op, c as number, positions, length);
          continue;
        }
        const column = members.column(bound.key);
        if (column === undefined) return undefined;
        length = valuePositions(column, bound.op, c, positions, length);
      }
      return positions.subarray(0, length);
    };
  }

  read(key: string): Evaluator {
    const c: ColumnRead = { key, values: undefined, asked: false };
    this.reads.push(c);
    return () => {
      let values = c.values;
      if (values === undefined) {
        const members = this.members as LabelMembers;
        if (!c.asked) {
          c.asked = true;
          values = c.values = members.column(key);
        }
        // No room for the column in the scan cache: read the node's own map.
        if (values === undefined) return (members.nodes[this.position] as NodeState).props.get(key) ?? null;
      }
      return values[this.position] ?? null;
    };
  }

  /**
   * Codes of the grouping key `e` when it is a property of the scanned node: the column's dictionary
   * when the list has one for this run, so an aggregation groups by code.
   */
  groupCodes(e: BoundExpression): rel.GroupCodes | undefined {
    const key = propertyKey(e, this.slot);
    if (key === undefined) return undefined;
    let codes: Uint16Array = EMPTY_CODES;
    return {
      start: () => {
        const dictionary = (this.members as LabelMembers).dictionary(key);
        codes = dictionary?.codes ?? EMPTY_CODES;
        return dictionary?.values;
      },
      code: () => codes[this.position] as number,
    };
  }

  /** `e` as exact doubles, when it is an INTEGER property of the scanned node that the list has as such. */
  integerColumn(e: BoundExpression): rel.ColumnNumbers | undefined {
    const key = propertyKey(e, this.slot);
    if (key === undefined) return undefined;
    return {
      start: () => (this.members as LabelMembers).integers(key),
      position: () => this.position,
    };
  }

  compile(e: BoundExpression): Evaluator {
    if (readsNodeItself(e, this.slot)) this.needsNode = true;
    return this.exprs.compile(e);
  }

  /**
   * Reads only the rows that can be among the `k(arg)` best by `e` (sign 1 ascending, -1 descending),
   * when `e` is an exact-integer property of the scanned node and the scan has no inline equalities and no
   * filters but bounds of integer properties by constants (any other filter could drop rows the threshold counts
   * on; the bounds are applied before the threshold is found). See top-candidates.ts and key-bounds.ts.
   */
  restrictToTop(e: BoundExpression, sign: number, k: (arg: Row) => number): void {
    const key = propertyKey(e, this.slot);
    if (key === undefined || this.pipeline.scan.props.length > 0) return;
    // Filters that only bound integer properties by constants: the candidates are chosen among the nodes they pass.
    const bounds = keyBounds(
      this.pipeline.filters.map((f) => f.predicate),
      (x) => propertyKey(x, this.slot),
    );
    if (bounds === undefined) return;
    const constants = bounds.map((b) => this.exprs.compile(b.value));
    this.restrict = (arg) => {
      const n = k(arg);
      if (n < 1 || n > TOP_CANDIDATES_K_MAX) return undefined;
      const members = this.members as LabelMembers;
      const values = members.integers(key);
      if (values === undefined) return undefined;
      if (bounds.length === 0) return topCandidates(values, n, sign);
      const admit = new Uint8Array(values.length).fill(1);
      for (let b = 0; b < bounds.length; b++) {
        const bound = bounds[b] as (typeof bounds)[number];
        const column = members.integers(bound.key);
        if (column === undefined || !applyBound(admit, column, bound.op, (constants[b] as Evaluator)(arg))) return undefined;
      }
      return topCandidates(values, n, sign, admit);
    };
  }

  /** The kept list this scan can read for the statement's snapshot, if the store keeps one. */
  list(): LabelMembers | undefined {
    const graph = this.env.cx.graph;
    if (!this.env.access.cacheable || !(graph instanceof SnapshotView)) return undefined;
    return graph.keptMembers(this.pipeline.scan.label);
  }

  /** Makes `members` the list the next run reads; column reads start afresh. */
  attach(members: LabelMembers): void {
    this.members = members;
    for (const c of this.reads) {
      c.values = undefined;
      c.asked = false;
    }
  }

  /**
   * The scan over the attached list, as a physical operator fed the argument row. A plain loop until
   * the first pause, then a generator with the same loop: both stay tight (a step through the shared
   * loop helper, or a generator from the start, cost these scans up to a third of their time).
   */
  run(arg: Row, sink: Sink): Flow {
    const members = this.members as LabelMembers;
    const { deadline } = this.env.cx;
    const access = this.env.access;
    const slot = this.slot;
    const needsNode = this.needsNode;
    const props = this.props;
    const np = props.length;
    const wanted = props.map((p) => p.value(arg));
    const predicates = this.predicates;
    const nf = predicates.length;
    const nodes = members.nodes;
    const row = arg;
    // Positions to read, in list order: all of them, or the candidates of a top-k.
    const only = this.restrict?.(arg);
    const n = only === undefined ? nodes.length : only.length;
    /** Whether node `at` passes the equalities and filters (and, if so, is in the row). */
    const admit = (at: number): boolean => {
      this.position = at;
      for (let k = 0; k < np; k++) {
        const v = (props[k] as (typeof props)[number]).read(row);
        if (v === null || !propertyEquals(v, wanted[k] as Value)) return false;
      }
      if (needsNode) {
        const node = nodes[at] as NodeState;
        // Reads of the node other than its properties (labels, keys, the whole map) find it without a lookup.
        access.scanned(node, members, at);
        row[slot] = node.ref;
      }
      for (let k = 0; k < nf; k++) if (!(predicates[k] as (row: Row) => boolean)(row)) return false;
      return true;
    };
    const rest = function* (from: number, pending: Slices | undefined): Slices {
      if (pending === undefined) yield;
      else if (!(yield* pending)) return false;
      for (let j = from; j < n; j++) {
        if (deadline.tick()) yield;
        if (!admit(only === undefined ? j : (only[j] as number))) continue;
        const r = sink(row);
        if (r === true) continue;
        if (r === false || !(yield* r)) return false;
      }
      return true;
    };
    for (let j = 0; j < n; j++) {
      if (deadline.tick()) return rest(j, undefined);
      if (!admit(only === undefined ? j : (only[j] as number))) continue;
      const r = sink(row);
      if (r === true) continue;
      if (r === false) return false;
      return rest(j + 1, r);
    }
    return true;
  }
}

/**
 * `consumer` over a fused scan of `input` when the input is a label scan under filters and the
 * statement only reads; undefined otherwise. An index that answers the scan's row is used instead.
 * `rows` is the row-at-a-time plan of the same operator, run whenever the label has no kept list for
 * the snapshot.
 */
function fused(input: LogicalOp, env: OpEnv, rows: PhysicalOp, passesRowsOn: boolean, consumer: (scan: PhysicalOp, columns: ColumnScan) => PhysicalOp): PhysicalOp | undefined {
  const pipeline = scanPipeline(input);
  if (pipeline === undefined || !env.access.cacheable || !(env.cx.graph instanceof SnapshotView)) return undefined;
  // When an index of the scanned properties answers a row, the row path seeks it; the catalog
  // declines a seek that would return so much of the label that this loop is cheaper.
  const { scan: s } = pipeline;
  const catalog = env.cx.indexes;
  const indexed = s.props.some((p) => catalog.hasIndex(s.label, [p.key])) || (s.seekable !== undefined && catalog.hasIndex(s.label, [s.seekable.key]));
  const wanted = new Array<Value>(s.props.length);
  const values = s.props.map((p) => env.exprs.compile(p.value));
  const seeks = indexed ? indexSource(s, env, wanted) : undefined;
  const scan = new ColumnScan(pipeline, env, passesRowsOn);
  const columns = consumer((arg, sink) => scan.run(arg, sink), scan);
  return (arg, sink) => {
    if (seeks !== undefined) {
      for (let i = 0; i < wanted.length; i++) wanted[i] = (values[i] as Evaluator)(arg);
      if (seeks(arg) !== undefined) return rows(arg, sink);
    }
    const members = scan.list();
    if (members === undefined) return rows(arg, sink);
    scan.attach(members);
    return columns(arg, sink);
  };
}

/** An aggregation over a fused scan, or undefined when its input is not a label scan (see `fused`). */
export function aggregateOverScan(op: Op<'aggregate'>, rows: PhysicalOp, env: OpEnv): PhysicalOp | undefined {
  // Its rows are the groups: the scanned node goes no further.
  const keys = op.aggregation.keys;
  return fused(op.input, env, rows, false, (scan, columns) =>
    rel.aggregate(
      op,
      scan,
      env,
      (e) => columns.compile(e),
      keys.length === 1 ? columns.groupCodes((keys[0] as (typeof keys)[number]).expression) : undefined,
      (e) => columns.integerColumn(e),
    ),
  );
}

/** A top-k over a fused scan, or undefined when its input is not a label scan (see `fused`). */
export function topOverScan(op: Op<'top'>, rows: PhysicalOp, env: OpEnv): PhysicalOp | undefined {
  const first = op.keys[0];
  const limit = env.exprs.compile(op.limit);
  const skip = op.skip === undefined ? undefined : env.exprs.compile(op.skip);
  return fused(op.input, env, rows, true, (scan, columns) => {
    if (first !== undefined) {
      // The top-k evaluated these (and failed on a bad one) before it reads any row.
      const k = (arg: Row): number => asRowCount(limit(arg), 'LIMIT') + (skip === undefined ? 0 : asRowCount(skip(arg), 'SKIP'));
      columns.restrictToTop(first.expression, first.direction === 'desc' ? -1 : 1, k);
    }
    return rel.top(op, scan, env, (e) => columns.compile(e), first === undefined ? undefined : columns.integerColumn(first.expression));
  });
}
