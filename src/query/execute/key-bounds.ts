import type { Value } from '../../common/values/value.js';
import type { BoundExpression } from '../bind/bound-expression.js';
import { conjuncts } from '../plan/expressions.js';

/**
 * Filters over a scan that only bound properties of the scanned node by constants (`p.age >= 30 AND p.age < 40`),
 * read as tests of integer columns: a top-k over the scan then looks for its candidates among the nodes that
 * pass them (see top-candidates.ts), instead of giving up when the scan is filtered.
 */
type Bound = 'eq' | 'lt' | 'lte' | 'gt' | 'gte';

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
