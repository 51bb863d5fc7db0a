import type { Value } from '../../common/values/value.js';
import type { BoundExpression } from '../bind/bound-expression.js';
import { conjuncts } from '../plan/expressions.js';

/**
 * Filters over a scan that only bound properties of the scanned node by constants (`p.age >= 30 AND p.age < 40`),
 * read as tests of integer columns: a top-k over the scan then looks for its candidates among the nodes that
 * pass them (see top-candidates.ts), instead of giving up when the scan is filtered.
 */
export type Bound = 'eq' | 'lt' | 'lte' | 'gt' | 'gte';

export interface KeyBound {
  readonly key: string;
  readonly op: Bound;
  /** A literal or a parameter. */
  readonly value: BoundExpression;
}

const FLIPPED: Readonly<Record<Bound, Bound>> = { eq: 'eq', lt: 'gt', lte: 'gte', gt: 'lt', gte: 'lte' };

function isBound(op: string): op is Bound {
  return op === 'eq' || op === 'lt' || op === 'lte' || op === 'gt' || op === 'gte';
}

const isConstant = (e: BoundExpression): boolean => e.kind === 'literal' || e.kind === 'parameter';

/**
 * Every conjunct of `predicates` as a bound of a property of the node (`keyOf` names it), or undefined when any
 * conjunct is something else: then the filters may drop rows the bounds keep, and no candidates can be chosen.
 */
export function keyBounds(predicates: readonly BoundExpression[], keyOf: (e: BoundExpression) => string | undefined): KeyBound[] | undefined {
  const out: KeyBound[] = [];
  for (const c of predicates.flatMap((p) => conjuncts(p))) {
    if (c.kind !== 'binary' || !isBound(c.op)) return undefined;
    const left = keyOf(c.left);
    const right = keyOf(c.right);
    if (left !== undefined && isConstant(c.right)) out.push({ key: left, op: c.op, value: c.right });
    else if (right !== undefined && isConstant(c.left)) out.push({ key: right, op: FLIPPED[c.op], value: c.left });
    else return undefined;
  }
  return out;
}

/**
 * Marks in `admit` (1: passes) the positions whose `column` value passes `op value`; false when `value` is not a
 * number, whose comparison the filter alone must judge.
 */
export function applyBound(admit: Uint8Array, column: Float64Array, op: Bound, value: Value): boolean {
  let c: number;
  if (typeof value === 'bigint') c = Number(value);
  else if (typeof value === 'number') c = value;
  else return false;
  const n = column.length;
  switch (op) {
    case 'eq':
      for (let i = 0; i < n; i++) if (!((column[i] as number) === c)) admit[i] = 0;
      return true;
    case 'lt':
      for (let i = 0; i < n; i++) if (!((column[i] as number) < c)) admit[i] = 0;
      return true;
    case 'lte':
      for (let i = 0; i < n; i++) if (!((column[i] as number) <= c)) admit[i] = 0;
      return true;
    case 'gt':
      for (let i = 0; i < n; i++) if (!((column[i] as number) > c)) admit[i] = 0;
      return true;
    case 'gte':
      for (let i = 0; i < n; i++) if (!((column[i] as number) >= c)) admit[i] = 0;
      return true;
  }
}

/** Writes into `out` the positions whose `column` value passes `op c`, ascending; returns how many. */
export function boundPositions(column: Float64Array, op: Bound, c: number, out: Int32Array): number {
  const n = column.length;
  let w = 0;
  // One loop per operator: the comparison stays a plain instruction in each.
  switch (op) {
    case 'eq':
      for (let i = 0; i < n; i++) if ((column[i] as number) === c) out[w++] = i;
      return w;
    case 'lt':
      for (let i = 0; i < n; i++) if ((column[i] as number) < c) out[w++] = i;
      return w;
    case 'lte':
      for (let i = 0; i < n; i++) if ((column[i] as number) <= c) out[w++] = i;
      return w;
    case 'gt':
      for (let i = 0; i < n; i++) if ((column[i] as number) > c) out[w++] = i;
      return w;
    case 'gte':
      for (let i = 0; i < n; i++) if ((column[i] as number) >= c) out[w++] = i;
      return w;
  }
}

/** Keeps, of the first `length` positions in `positions`, those whose `column` value passes `op c`, in order; returns how many. */
export function narrowPositions(column: Float64Array, op: Bound, c: number, positions: Int32Array, length: number): number {
  let w = 0;
  for (let j = 0; j < length; j++) {
    const p = positions[j] as number;
    const v = column[p] as number;
    const pass = op === 'eq' ? v === c : op === 'lt' ? v < c : op === 'lte' ? v <= c : op === 'gt' ? v > c : v >= c;
    if (pass) positions[w++] = p;
  }
  return w;
}

/**
 * Whether a stored value can pass `op c` (a number or a string): true when its comparison is true, and when it
 * is a value this test does not judge (NaN, an INTEGER beyond 2^53), which the filter then judges itself;
 * false when the comparison is false or null (absent, another kind), which the filter would drop.
 */
function mayPass(v: Value | undefined, op: Bound, c: number | string): boolean {
  let x: number | string;
  if (typeof c === 'string') {
    if (typeof v !== 'string') return false;
    x = v;
  } else if (typeof v === 'number') {
    if (Number.isNaN(v)) return true;
    x = v;
  } else if (typeof v === 'bigint') {
    if (v > EXACT || v < -EXACT) return true;
    x = Number(v);
  } else return false;
  switch (op) {
    case 'eq':
      return x === c;
    case 'lt':
      return x < c;
    case 'lte':
      return x <= c;
    case 'gt':
      return x > c;
    case 'gte':
      return x >= c;
  }
}

const EXACT = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * The positions of `column` (stored values in member order) that may pass `op c`, ascending: all of them when
 * `positions` is undefined, else those of its first `length`; written into `out`, whose count is returned.
 */
export function valuePositions(column: readonly (Value | undefined)[], op: Bound, c: number | string, out: Int32Array, length?: number): number {
  let w = 0;
  if (length === undefined) {
    for (let i = 0; i < column.length; i++) if (mayPass(column[i], op, c)) out[w++] = i;
  } else {
    for (let j = 0; j < length; j++) {
      const p = out[j] as number;
      if (mayPass(column[p], op, c)) out[w++] = p;
    }
  }
  return w;
}

/** A bound's constant as the position loops compare it: a number (exact) or a string; undefined for anything else. */
export function comparable(v: Value): number | string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return Number.isNaN(v) ? undefined : v;
  if (typeof v === 'bigint') return v > BigInt(Number.MAX_SAFE_INTEGER) || v < -BigInt(Number.MAX_SAFE_INTEGER) ? undefined : Number(v);
  return undefined;
}
