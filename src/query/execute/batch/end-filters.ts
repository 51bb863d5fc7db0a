import type { Value } from '../../../common/values/value.js';
import type { BoundExpression } from '../../bind/bound-expression.js';
import type { LogicalOp } from '../../plan/logical.js';
import { freeSlots, UNMOVABLE } from '../../plan/expressions.js';
import type { Row } from '../context.js';
import type { OpEnv } from '../read-ops.js';
import { Batch, BATCH_ROWS } from './batch.js';
import { expandsOf, formsFor, type BatchPlan, type Forms } from './batch-plan.js';
import { identical, parameterNames, readsStatement } from './run-inputs.js';
import { BatchScope } from './pipeline.js';
import type { TypedColumn } from './typed-columns.js';
import { compileVector, type VectorScope } from './vector-expressions.js';

/**
 * A run of a plan whose filters on an expand's end node were folded into the expand
 * (batch-plan.ts, `foldEndFilters`): each such expand's filters become one bitmap by node id, 1
 * where the node passes every filter and has every end label, which the expand (or its count) tests
 * in place of the label bitmaps. A filter is folded only when it compiles to a typed condition over
 * the node's columns: typed conditions cannot fail, so evaluating one on a node no row reaches changes
 * nothing, and the rows that pass are exactly those the filter would have kept. Every node id is
 * evaluated once per bitmap, a batch of ids at a time.
 *
 * The bitmap is a function of the end-label bitmaps, the typed columns the filters read, and the
 * parameter and argument values they read: it is kept per folded filters (the plan's ops) and used
 * again while all of those are the same objects and values. A write makes new columns and bitmaps, so
 * a bitmap never outlives the picture it was made from; one kept bitmap is also what lets the per-node
 * counts of ends that pass (stages.ts, `degreesWithLabel`) be kept across runs rather than made per run.
 */
/** Runs that took a folded plan (tests check that the shapes they mean to cover do). */
export const foldedRuns = { count: 0 };
/** Folded bitmaps made (not found kept); tests check that a second run with the same inputs makes none. */
export const foldedBitmaps = { made: 0 };

type Op<K extends LogicalOp['op']> = Extract<LogicalOp, { op: K }>;

/** A typed column a filter read, as the scope answered it. */
interface ColumnRead {
  readonly slot: number;
  readonly key: string;
  readonly column: TypedColumn;
}

interface KeptBitmap {
  readonly filters: readonly Op<'filter'>[];
  readonly labels: readonly Uint8Array[];
  readonly bound: number;
  readonly reads: readonly ColumnRead[];
  /** The parameter and argument values the filters read, in `inputsOf`'s order. */
  readonly inputs: readonly Value[];
  readonly bits: Uint8Array;
}

/** By the first folded filter of an expand; the entry holds them all. */
const kept = new WeakMap<Op<'filter'>, KeptBitmap>();

export function foldedForms(plan: BatchPlan, env: OpEnv, arg: Row): Forms | undefined {
  const filters = plan.end_filters;
  if (filters === undefined) return undefined;
  const forms = formsFor(plan, env, arg);
  if (forms === undefined) return undefined;
  const bitmaps = forms.bitmaps.slice();
  const expands = expandsOf(plan);
  for (let k = 0; k < expands.length; k++) {
    const e = expands[k] as (typeof expands)[number];
    const folded = filters.get(e);
    if (folded === undefined) continue;
    // The node's own columns only: a one-column layout holding the end node's ids.
    const scope = new BatchScope({ ...plan, layout: [{ slot: e.to, entity: 'node' }] }, env, arg, forms.members.nodes.length);
    const labels = bitmaps[k] as readonly Uint8Array[];
    // Every end an expand of this type reaches is below the CSR's id bound.
    const bound = (forms.csrs[k] as Forms['csrs'][number]).refs.length;
    const bits = keptBitmap(folded, labels, bound, scope) ?? endBitmap(folded, labels, bound, scope);
    if (bits === undefined) return undefined;
    bitmaps[k] = [bits];
  }
  foldedRuns.count++;
  return { ...forms, bitmaps };
}

/** The bitmap kept for these filters, when it was made from the same labels, columns and values. */
function keptBitmap(folded: readonly Op<'filter'>[], labels: readonly Uint8Array[], bound: number, scope: BatchScope): Uint8Array | undefined {
  const k = kept.get(folded[0] as Op<'filter'>);
  if (k === undefined || k.bound !== bound || !sameObjects(k.filters, folded) || !sameObjects(k.labels, labels)) return undefined;
  for (const r of k.reads) if (scope.columnOf(r.slot, r.key) !== r.column) return undefined;
  const inputs = inputsOf(folded, scope);
  if (inputs === undefined || inputs.length !== k.inputs.length || !inputs.every((v, i) => identical(v, k.inputs[i] as Value))) return undefined;
  return k.bits;
}

/** The filters evaluated over every node id below `bound`, ANDed with the label bitmaps; undefined when one is not a typed condition. */
function endBitmap(folded: readonly Op<'filter'>[], labels: readonly Uint8Array[], bound: number, scope: BatchScope): Uint8Array | undefined {
  const reads: ColumnRead[] = [];
  let unread = false;
  const recording: VectorScope = {
    position: (slot) => scope.position(slot),
    columnOf: (slot, key) => {
      const column = scope.columnOf(slot, key);
      if (column === undefined) unread = true;
      else if (!reads.some((r) => r.slot === slot && r.key === key)) reads.push({ slot, key, column });
      return column;
    },
    params: scope.params,
    generic: (x) => scope.generic(x),
    arg: scope.arg,
    evaluator: (x) => scope.evaluator(x),
  };
  const tests = folded.map((f) => compileVector(f.predicate, recording));
  const bits = new Uint8Array(bound);
  const batch = new Batch(1);
  const ids = batch.columns[0] as Int32Array;
  for (let from = 0; from < bound; from += BATCH_ROWS) {
    const n = Math.min(BATCH_ROWS, bound - from);
    for (let i = 0; i < n; i++) ids[i] = from + i;
    batch.length = n;
    for (let i = 0; i < n; i++) bits[from + i] = 1;
    for (const t of tests) {
      if (t.kind !== 'bool') return undefined;
      const pass = t.run(batch).values;
      for (let i = 0; i < n; i++) if (pass[i] !== 1) bits[from + i] = 0;
    }
    for (const l of labels) for (let i = 0; i < n; i++) if (l[from + i] !== 1) bits[from + i] = 0;
  }
  foldedBitmaps.made++;
  const inputs = inputsOf(folded, scope);
  // A column the store does not keep (it may appear with a write that makes no new bitmap) or a clock or
  // random function read: the bitmap is this run's only.
  if (!unread && inputs !== undefined && !folded.some((f) => readsStatement(f.predicate))) {
    kept.set(folded[0] as Op<'filter'>, { filters: folded, labels, bound, reads, inputs, bits });
  }
  return bits;
}

/** The parameter values, then the argument row's values, the filters read; undefined when one reads a parameter not given. */
function inputsOf(folded: readonly Op<'filter'>[], scope: BatchScope): Value[] | undefined {
  const names = new Set<string>();
  const slots = new Set<number>();
  for (const f of folded) {
    parameterNames(f.predicate as BoundExpression, names);
    freeSlots(f.predicate, slots);
  }
  const out: Value[] = [];
  for (const n of names) {
    if (!scope.params.has(n)) return undefined;
    out.push(scope.params.get(n) as Value);
  }
  for (const s of slots) {
    if (s === UNMOVABLE) return undefined;
    if (scope.position(s) === undefined) out.push(s < scope.arg.length ? (scope.arg[s] as Value) : null);
  }
  return out;
}

function sameObjects<T>(a: readonly T[], b: readonly T[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
