import { INT64_MAX, INT64_MIN, typeName, type Value } from '../../common/values/value.js';
import { DurationValue } from '../../common/values/temporal.js';
import { arithmeticError, runtimeTypeError } from '../errors.js';
import {
  durationDivide,
  durationMinus,
  durationMultiply,
  durationNegate,
  durationPlus,
  isTemporalPoint,
  temporalPlusDuration,
} from './temporal-arithmetic.js';
import { formatFloat } from '../../common/values/float-text.js';
import { PointValue } from '../../common/values/spatial.js';

/**
 * The arithmetic operators of Cypher over runtime values. Null in, null out. INTEGER arithmetic is
 * exact 64-bit and fails with ArithmeticError/IntegerOverflow instead of wrapping; INTEGER with FLOAT
 * gives FLOAT; `/` and `%` on two INTEGERs are integer operations (truncating toward zero, the
 * remainder taking the dividend's sign) and fail on a zero divisor; on FLOATs they follow IEEE 754.
 */

export function checkedInt(v: bigint): bigint {
  if (v < INT64_MIN || v > INT64_MAX) throw arithmeticError('IntegerOverflow', `integer overflow: ${v} does not fit in 64 bits`);
  return v;
}

function numeric(v: Value): v is bigint | number {
  return typeof v === 'bigint' || typeof v === 'number';
}

function mismatch(op: string, a: Value, b: Value): never {
  throw runtimeTypeError('InvalidArgumentType', `cannot apply ${op} to ${typeName(a)} and ${typeName(b)}`);
}

export function add(a: Value, b: Value): Value {
  if (typeof a === 'bigint' && typeof b === 'bigint') return checkedInt(a + b);
  if (typeof a === 'number' && typeof b === 'number') return a + b;
  if (a === null || b === null) return null;
  if (numeric(a) && numeric(b)) return Number(a) + Number(b);
  if (typeof a === 'string') {
    if (typeof b === 'string') return a + b;
    if (numeric(b) || typeof b === 'boolean') return a + scalarText(b);
  }
  if (typeof b === 'string' && (numeric(a) || typeof a === 'boolean')) return scalarText(a) + b;
  // A temporal value joins a string as its ISO text (`'due ' + date('2020-01-01')`), a point as the
  // text toString() gives it.
  if (typeof a === 'string' && (isTemporalPoint(b) || b instanceof DurationValue || b instanceof PointValue)) return a + String(b);
  if (typeof b === 'string' && (isTemporalPoint(a) || a instanceof DurationValue || a instanceof PointValue)) return String(a) + b;
  if (Array.isArray(a)) return Array.isArray(b) ? [...(a as Value[]), ...(b as Value[])] : [...(a as Value[]), b];
  if (Array.isArray(b)) return [a, ...(b as Value[])];
  if (a instanceof DurationValue) {
    if (b instanceof DurationValue) return durationPlus(a, b);
    if (isTemporalPoint(b)) return temporalPlusDuration(b, a, 1);
  }
  if (b instanceof DurationValue && isTemporalPoint(a)) return temporalPlusDuration(a, b, 1);
  return mismatch('+', a, b);
}

export function subtract(a: Value, b: Value): Value {
  if (typeof a === 'bigint' && typeof b === 'bigint') return checkedInt(a - b);
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (a === null || b === null) return null;
  if (numeric(a) && numeric(b)) return Number(a) - Number(b);
  if (b instanceof DurationValue) {
    if (a instanceof DurationValue) return durationMinus(a, b);
    if (isTemporalPoint(a)) return temporalPlusDuration(a, b, -1);
  }
  return mismatch('-', a, b);
}

export function multiply(a: Value, b: Value): Value {
  if (typeof a === 'bigint' && typeof b === 'bigint') return checkedInt(a * b);
  if (typeof a === 'number' && typeof b === 'number') return a * b;
  if (a === null || b === null) return null;
  if (numeric(a) && numeric(b)) return Number(a) * Number(b);
  if (a instanceof DurationValue && numeric(b)) return durationMultiply(a, b);
  if (b instanceof DurationValue && numeric(a)) return durationMultiply(b, a);
  return mismatch('*', a, b);
}

export function divide(a: Value, b: Value): Value {
  if (typeof a === 'bigint' && typeof b === 'bigint') {
    if (b === 0n) throw arithmeticError('DivisionByZero', '/ by zero');
    return checkedInt(a / b);
  }
  if (typeof a === 'number' && typeof b === 'number') return a / b;
  if (a === null || b === null) return null;
  if (numeric(a) && numeric(b)) return Number(a) / Number(b);
  if (a instanceof DurationValue && numeric(b)) return durationDivide(a, b);
  return mismatch('/', a, b);
}

export function modulo(a: Value, b: Value): Value {
  if (typeof a === 'bigint' && typeof b === 'bigint') {
    if (b === 0n) throw arithmeticError('DivisionByZero', '% by zero');
    return a % b;
  }
  if (typeof a === 'number' && typeof b === 'number') return a % b;
  if (a === null || b === null) return null;
  if (numeric(a) && numeric(b)) return Number(a) % Number(b);
  return mismatch('%', a, b);
}

/** `^` always gives a FLOAT. */
export function power(a: Value, b: Value): Value {
  if (a === null || b === null) return null;
  if (numeric(a) && numeric(b)) return Math.pow(Number(a), Number(b));
  return mismatch('^', a, b);
}

export function negate(a: Value): Value {
  if (typeof a === 'bigint') return checkedInt(-a);
  if (typeof a === 'number') return -a;
  if (a === null) return null;
  if (a instanceof DurationValue) return durationNegate(a);
  throw runtimeTypeError('InvalidArgumentType', `cannot negate ${typeName(a)}`);
}

/** Unary `+`: numbers and durations pass through unchanged. */
export function unaryPlus(a: Value): Value {
  if (a === null || numeric(a) || a instanceof DurationValue) return a;
  throw runtimeTypeError('InvalidArgumentType', `cannot apply unary + to ${typeName(a)}`);
}

function scalarText(v: bigint | number | boolean): string {
  if (typeof v === 'number') return formatFloat(v);
  return String(v);
}
