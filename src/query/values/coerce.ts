import { equals } from '../../common/values/equality.js';
import { typeName, type Value } from '../../common/values/value.js';
import { argumentError, runtimeTypeError } from '../errors.js';
import { RE2JS } from 're2js';

/**
 * Small coercions and operators the evaluator applies to values: three-valued logic, predicates,
 * `IN`, list indexing and slicing, string predicates, and the integer arguments of SKIP and LIMIT.
 */

/** A WHERE or CASE condition: true, false or null (unknown); anything else is a type error. */
export function asPredicate(v: Value): boolean | null {
  if (v === null || typeof v === 'boolean') return v;
  throw runtimeTypeError('InvalidArgumentType', `expected a BOOLEAN but got ${typeName(v)}`);
}

export function and3(a: Value, b: Value): boolean | null {
  const x = asPredicate(a);
  const y = asPredicate(b);
  if (x === false || y === false) return false;
  if (x === null || y === null) return null;
  return true;
}

export function or3(a: Value, b: Value): boolean | null {
  const x = asPredicate(a);
  const y = asPredicate(b);
  if (x === true || y === true) return true;
  if (x === null || y === null) return null;
  return false;
}

export function xor3(a: Value, b: Value): boolean | null {
  const x = asPredicate(a);
  const y = asPredicate(b);
  if (x === null || y === null) return null;
  return x !== y;
}

export function not3(a: Value): boolean | null {
  const x = asPredicate(a);
  return x === null ? null : !x;
}

/** `v IN list`: true if some element equals v; null if none does but some comparison was unknown. */
export function inList(v: Value, list: Value): boolean | null {
  if (list === null) return null;
  if (!Array.isArray(list)) throw runtimeTypeError('InvalidArgumentType', `IN expects a LIST but got ${typeName(list)}`);
  let unknown = false;
  for (const x of list as readonly Value[]) {
    const r = equals(v, x);
    if (r === true) return true;
    if (r === null) unknown = true;
  }
  return unknown ? null : false;
}

function indexNumber(i: Value, what: string): number | null {
  if (i === null) return null;
  if (typeof i !== 'bigint') throw runtimeTypeError('InvalidArgumentType', `${what} must be an INTEGER, got ${typeName(i)}`);
  // Indexes beyond 2^53 are out of range of any list anyway.
  return Number(i);
}

/** `list[i]`: negative indexes count from the end; out of range gives null. */
export function listElement(list: readonly Value[], index: Value): Value {
  const i = indexNumber(index, 'list index');
  if (i === null) return null;
  const j = i < 0 ? list.length + i : i;
  return j >= 0 && j < list.length ? (list[j] as Value) : null;
}

/** `list[from..to]`: bounds may be omitted (undefined) or negative; a null bound gives null. */
export function listSlice(list: readonly Value[], from: Value | undefined, to: Value | undefined): Value {
  const f = from === undefined ? 0 : indexNumber(from, 'slice bound');
  const t = to === undefined ? list.length : indexNumber(to, 'slice bound');
  if (f === null || t === null) return null;
  const clamp = (x: number): number => Math.max(0, Math.min(list.length, x < 0 ? list.length + x : x));
  const a = clamp(f);
  const b = clamp(t);
  return a < b ? list.slice(a, b) : [];
}

export function startsWith(a: Value, b: Value): boolean | null {
  if (typeof a !== 'string' || typeof b !== 'string') return null;
  return a.startsWith(b);
}

export function endsWith(a: Value, b: Value): boolean | null {
  if (typeof a !== 'string' || typeof b !== 'string') return null;
  return a.endsWith(b);
}

export function contains(a: Value, b: Value): boolean | null {
  if (typeof a !== 'string' || typeof b !== 'string') return null;
  return a.includes(b);
}

/** The value of SKIP or LIMIT: a non-negative INTEGER. */
export function asRowCount(v: Value, clause: 'SKIP' | 'LIMIT'): number {
  if (typeof v !== 'bigint') {
    throw argumentError('InvalidArgumentType', `${clause} expects a non-negative INTEGER, got ${v === null ? 'null' : typeName(v)}`);
  }
  if (v < 0n) throw argumentError('NegativeIntegerArgument', `${clause} must not be negative, got ${v}`);
  return v > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(v);
}

/** Compiled patterns of `=~`, bounded so that generated patterns cannot grow it without end. */
const REGEX_CACHE_ENTRIES_MAX = 256;
const regexCache = new Map<string, RE2JS>();

/**
 * `text =~ pattern`: the whole string must match (Java `matches` semantics). Null unless both sides are
 * strings. Patterns run on RE2's automaton (re2js), whose time is linear in the text for every
 * pattern, so no pattern can hold the server by backtracking (`(a+)+$` on 30 characters took about
 * 20 s on a backtracking engine). Its syntax is Java's for everything but backreferences and
 * lookaround, which RE2 refuses; an invalid or refused pattern is ArgumentError/InvalidArgumentValue.
 */
export function regexMatch(text: Value, pattern: Value): boolean | null {
  if (typeof text !== 'string' || typeof pattern !== 'string') return null;
  let re = regexCache.get(pattern);
  if (re === undefined) {
    try {
      re = RE2JS.compile(pattern);
    } catch (e) {
      throw argumentError('InvalidArgumentValue', `invalid regular expression ${JSON.stringify(pattern)}: ${(e as Error).message}`);
    }
    if (regexCache.size >= REGEX_CACHE_ENTRIES_MAX) regexCache.clear();
    regexCache.set(pattern, re);
  }
  return re.matcher(text).matches();
}
