import { typeName, type Value } from '../../common/values/value.js';
import { argumentError, runtimeTypeError } from '../errors.js';

/**
 * Argument checks shared by the function implementations. A value of the wrong type is a TypeError
 * with detail InvalidArgumentValue (what the TCK expects of `toBoolean([])`, `labels(1)`); a value of
 * the right type outside the allowed range is an ArgumentError.
 */
export function wrongType(fn: string, expected: string, got: Value): never {
  throw runtimeTypeError('InvalidArgumentValue', `${fn}() expects ${expected}, got ${typeName(got)}`);
}

export function badValue(fn: string, message: string, detail = 'InvalidArgumentValue'): never {
  throw argumentError(detail, `${fn}(): ${message}`);
}

export function arg(args: readonly Value[], i: number): Value {
  return i < args.length ? (args[i] as Value) : null;
}

export function stringArg(fn: string, v: Value): string {
  return typeof v === 'string' ? v : wrongType(fn, 'a STRING', v);
}

export function integerArg(fn: string, v: Value): bigint {
  return typeof v === 'bigint' ? v : wrongType(fn, 'an INTEGER', v);
}

/** An INTEGER argument used as a count or index; must fit a safe JavaScript number. */
export function smallIntegerArg(fn: string, v: Value): number {
  const i = integerArg(fn, v);
  if (i > BigInt(Number.MAX_SAFE_INTEGER) || i < BigInt(Number.MIN_SAFE_INTEGER)) badValue(fn, `${i} is out of range`, 'NumberOutOfRange');
  return Number(i);
}

export function numberArg(fn: string, v: Value): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  return wrongType(fn, 'a number', v);
}

export function listArg(fn: string, v: Value): readonly Value[] {
  return Array.isArray(v) ? (v as readonly Value[]) : wrongType(fn, 'a LIST', v);
}

export function mapArg(fn: string, v: Value): ReadonlyMap<string, Value> {
  return v instanceof Map ? (v as ReadonlyMap<string, Value>) : wrongType(fn, 'a MAP', v);
}
