import type { Value } from '../../../common/values/value.js';
import type { BoundExpression } from '../../bind/bound-expression.js';
import { mapChildren } from '../../bind/bound-walk.js';
import { lookupFunction } from '../../functions/catalog.js';

/**
 * What a batched run's derived forms (per-value tables, folded end-node bitmaps) are made from besides columns:
 * the parameters an expression reads, value identity between runs, and whether it reads the statement's clock
 * or randomness, which keeps what is made of it to its own run.
 */

/** The parameters an expression reads, by name. */
export function parameterNames(e: BoundExpression, out: Set<string> = new Set()): Set<string> {
  if (e.kind === 'parameter') out.add(e.name);
  mapChildren(e, (x) => {
    parameterNames(x, out);
    return x;
  });
  return out;
}

/** Same value and same type, deeply (1 and 1.0 differ: an answer may show which it was). */
export function identical(a: Value, b: Value): boolean {
  if (typeof a !== typeof b) return false;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => identical(x as Value, (b as readonly Value[])[i] as Value));
  if (a instanceof Map) {
    if (!(b instanceof Map) || a.size !== b.size) return false;
    for (const [k, v] of a as Map<string, Value>) if (!(b as Map<string, Value>).has(k) || !identical(v, (b as Map<string, Value>).get(k) as Value)) return false;
    return true;
  }
  return Object.is(a, b);
}

/**
 * Whether `e` calls a function of no arguments (the clock, a constant of the statement) or one that is not
 * deterministic: what is made of it is not kept past the run.
 */
export function readsStatement(e: BoundExpression): boolean {
  let found = false;
  const visit = (x: BoundExpression): BoundExpression => {
    if (x.kind === 'function' && (x.args.length === 0 || lookupFunction(x.name)?.deterministic === false)) found = true;
    return mapChildren(x, visit);
  };
  visit(e);
  return found;
}

