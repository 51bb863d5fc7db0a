import { PointValue } from '../../common/values/spatial.js';
import { isTemporal, type Value } from '../../common/values/value.js';
import { checkedInt } from '../values/arithmetic.js';
import { formatFloat } from '../../common/values/float-text.js';
import { wrongType } from './args.js';
import { scalar, type ScalarFunction } from './definition.js';

/**
 * Conversions: toBoolean, toInteger, toFloat, toString and their `OrNull` forms. A string that does
 * not parse gives null; a value of a type that can never convert is a TypeError, except in the
 * `OrNull` forms, which give null for anything they cannot convert.
 */

export function toBooleanValue(v: Value, strict: boolean): Value {
  if (v === null || typeof v === 'boolean') return v;
  if (typeof v === 'string') {
    const s = v.trim().toLowerCase();
    return s === 'true' ? true : s === 'false' ? false : null;
  }
  if (typeof v === 'bigint') return v !== 0n;
  return strict ? wrongType('toBoolean', 'a BOOLEAN, STRING or INTEGER', v) : null;
}

const INTEGER_TEXT = /^[+-]?\d+$/;
const FLOAT_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * A float truncated to an INTEGER. One outside the 64-bit range is an IntegerOverflow for toInteger()
 * of a number (`overflow`), where Neo4j would clamp it silently to the nearest bound; it is null for
 * the OrNull and List forms, which never fail on a value, and for text, which converts or gives null.
 */
function floatToInteger(f: number, overflow: boolean): Value {
  if (!Number.isFinite(f)) return null;
  const i = BigInt(Math.trunc(f));
  if (i >= INT64_MIN && i <= INT64_MAX) return i;
  return overflow ? checkedInt(i) : null;
}

export function toIntegerValue(v: Value, strict: boolean): Value {
  if (v === null || typeof v === 'bigint') return v;
  if (typeof v === 'number') return floatToInteger(v, strict);
  if (typeof v === 'boolean') return v ? 1n : 0n;
  if (typeof v === 'string') {
    const s = v.trim();
    if (INTEGER_TEXT.test(s)) {
      const i = BigInt(s);
      return i >= INT64_MIN && i <= INT64_MAX ? i : null;
    }
    if (FLOAT_TEXT.test(s)) return floatToInteger(Number(s), false);
    return null;
  }
  return strict ? wrongType('toInteger', 'a number, BOOLEAN or STRING', v) : null;
}

export function toFloatValue(v: Value, strict: boolean): Value {
  if (v === null || typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'string') {
    const s = v.trim();
    if (FLOAT_TEXT.test(s)) return Number(s);
    if (s === 'NaN') return NaN;
    if (s === 'Infinity' || s === '+Infinity') return Infinity;
    if (s === '-Infinity') return -Infinity;
    return null;
  }
  return strict ? wrongType('toFloat', 'a number or STRING', v) : null;
}

export function toStringValue(v: Value, strict: boolean): Value {
  if (v === null || typeof v === 'string') return v;
  if (typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  if (typeof v === 'number') return formatFloat(v);
  if (isTemporal(v) || v instanceof PointValue) return String(v);
  return strict ? wrongType('toString', 'a number, BOOLEAN, STRING, POINT or temporal value', v) : null;
}

const one = (name: string, f: (v: Value) => Value): ScalarFunction => scalar(name, 1, 1, ([v = null]) => f(v));

export const conversionFunctions: readonly ScalarFunction[] = [
  one('toboolean', (v) => toBooleanValue(v, true)),
  one('tobooleanornull', (v) => toBooleanValue(v, false)),
  one('tointeger', (v) => toIntegerValue(v, true)),
  one('tointegerornull', (v) => toIntegerValue(v, false)),
  one('tofloat', (v) => toFloatValue(v, true)),
  one('tofloatornull', (v) => toFloatValue(v, false)),
  one('tostring', (v) => toStringValue(v, true)),
  one('tostringornull', (v) => toStringValue(v, false)),
  one('toBooleanList'.toLowerCase(), (v) => listOf(v, (x) => toBooleanValue(x, false))),
  one('toIntegerList'.toLowerCase(), (v) => listOf(v, (x) => toIntegerValue(x, false))),
  one('toFloatList'.toLowerCase(), (v) => listOf(v, (x) => toFloatValue(x, false))),
  one('toStringList'.toLowerCase(), (v) => listOf(v, (x) => toStringValue(x, false))),
];

function listOf(v: Value, f: (x: Value) => Value): Value {
  if (v === null) return null;
  if (!Array.isArray(v)) return wrongType('to...List', 'a LIST', v);
  return (v as readonly Value[]).map(f);
}
