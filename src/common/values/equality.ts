import {
  DateTimeValue,
  DateValue,
  DurationValue,
  LocalDateTimeValue,
  LocalTimeValue,
  TimeValue,
} from './temporal.js';
import { PointValue } from './spatial.js';
import type { Value, ValueMap } from './value.js';

/**
 * Cypher `=`: three-valued. `null` when either side is null or when the answer hinges on a nested null
 * (`[1, null] = [1, 2]`); `false` between different types, except INTEGER and FLOAT, which compare by
 * exact numeric value (`1 = 1.0`; 2^53 + 1 does not equal 2^53 as a float). NaN equals nothing.
 */
export function equals(a: Value, b: Value): boolean | null {
  if (a === null || b === null) return null;
  switch (typeof a) {
    case 'bigint':
      if (typeof b === 'bigint') return a === b;
      if (typeof b === 'number') return compareIntFloat(a, b) === 0;
      return false;
    case 'number':
      if (typeof b === 'number') return a === b;
      if (typeof b === 'bigint') return compareIntFloat(b, a) === 0;
      return false;
    case 'string':
    case 'boolean':
      return a === b;
    default:
      return structuredEquals(a, b, false);
  }
}

/**
 * Equivalence, the equality of DISTINCT, grouping keys and `IN` over lists of keys: never null;
 * null is equivalent to null and NaN to NaN; otherwise like `=`.
 */
export function equivalent(a: Value, b: Value): boolean {
  if (a === null || b === null) return a === b;
  switch (typeof a) {
    case 'bigint':
      if (typeof b === 'bigint') return a === b;
      if (typeof b === 'number') return compareIntFloat(a, b) === 0;
      return false;
    case 'number':
      if (typeof b === 'number') return a === b || (a !== a && b !== b);
      if (typeof b === 'bigint') return compareIntFloat(b, a) === 0;
      return false;
    case 'string':
    case 'boolean':
      return a === b;
    default:
      return structuredEquals(a, b, true) === true;
  }
}

/**
 * Exact comparison of a 64-bit integer with a double: -1, 0, 1, or NaN when `f` is NaN. Converting the
 * integer to a double would round above 2^53, so large values are compared as integers.
 */
export function compareIntFloat(i: bigint, f: number): number {
  if (f !== f) return NaN;
  if (f === Infinity) return -1;
  if (f === -Infinity) return 1;
  if (i >= -9007199254740991n && i <= 9007199254740991n) {
    const n = Number(i);
    return n < f ? -1 : n > f ? 1 : 0;
  }
  const fl = Math.floor(f);
  const bf = BigInt(fl);
  if (i < bf) return -1;
  if (i > bf) return 1;
  return fl === f ? 0 : -1;
}

function structuredEquals(a: Value, b: Value, equivalence: boolean): boolean | null {
  if (typeof b !== 'object' || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b)) return false;
    return listEquals(a as readonly Value[], b as readonly Value[], equivalence);
  }
  if (a instanceof Map) {
    if (!(b instanceof Map)) return false;
    return mapEquals(a as ValueMap, b as ValueMap, equivalence);
  }
  if (a instanceof Uint8Array) {
    if (!(b instanceof Uint8Array) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }
  if (a instanceof Float32Array) {
    if (!(b instanceof Float32Array) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) {
      const x = a[i] as number;
      const y = b[i] as number;
      if (x !== y && !(equivalence && x !== x && y !== y)) return false;
    }
    return true;
  }
  const ka = (a as { kind: string }).kind;
  const kb = (b as { kind?: string }).kind;
  if (ka !== kb) return false;
  switch (ka) {
    case 'node':
    case 'relationship':
      return (a as { id: number }).id === (b as { id: number }).id;
    case 'path': {
      const pa = a as { nodes: readonly number[]; rels: readonly number[] };
      const pb = b as { nodes: readonly number[]; rels: readonly number[] };
      return sameNumbers(pa.nodes, pb.nodes) && sameNumbers(pa.rels, pb.rels);
    }
    case 'date':
      return (a as DateValue).epochDay === (b as DateValue).epochDay;
    case 'localtime':
      return (a as LocalTimeValue).nanoOfDay === (b as LocalTimeValue).nanoOfDay;
    case 'time': {
      // The same instant at another offset is another time (Cypher orders it by offset, west first).
      const x = a as TimeValue;
      const y = b as TimeValue;
      return x.utcNanoOfDay === y.utcNanoOfDay && x.offsetSeconds === y.offsetSeconds;
    }
    case 'localdatetime': {
      const x = a as LocalDateTimeValue;
      const y = b as LocalDateTimeValue;
      return x.epochDay === y.epochDay && x.nanoOfDay === y.nanoOfDay;
    }
    case 'datetime': {
      // Equal only when instant, offset and zone name all are: the same instant shown in another zone is
      // another value, ordered after it by offset and then by zone name.
      const x = a as DateTimeValue;
      const y = b as DateTimeValue;
      return (
        x.utcEpochDay === y.utcEpochDay &&
        x.utcNanoOfDay === y.utcNanoOfDay &&
        x.offsetSeconds === y.offsetSeconds &&
        (x.zone ?? null) === (y.zone ?? null)
      );
    }
    case 'point':
      // Equal when the CRS and every coordinate are: the same place in two systems is two values.
      return samePoint(a as PointValue, b as PointValue, equivalence);
    case 'duration': {
      const x = a as DurationValue;
      const y = b as DurationValue;
      return x.months === y.months && x.days === y.days && x.seconds === y.seconds && x.nanos === y.nanos;
    }
    default:
      return false;
  }
}

function samePoint(a: PointValue, b: PointValue, equivalence: boolean): boolean {
  if (a.crs !== b.crs) return false;
  return (
    sameCoordinate(a.x, b.x, equivalence) &&
    sameCoordinate(a.y, b.y, equivalence) &&
    (a.z === undefined || sameCoordinate(a.z, b.z as number, equivalence))
  );
}

/** NaN is the same as NaN only under equivalence. */
function sameCoordinate(x: number, y: number, equivalence: boolean): boolean {
  return x === y || (equivalence && x !== x && y !== y);
}

function sameNumbers(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function listEquals(a: readonly Value[], b: readonly Value[], equivalence: boolean): boolean | null {
  if (a.length !== b.length) return false;
  let unknown = false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as Value;
    const y = b[i] as Value;
    if (equivalence) {
      if (!equivalent(x, y)) return false;
    } else {
      const r = equals(x, y);
      if (r === false) return false;
      if (r === null) unknown = true;
    }
  }
  return unknown ? null : true;
}

function mapEquals(a: ValueMap, b: ValueMap, equivalence: boolean): boolean | null {
  if (a.size !== b.size) return false;
  for (const k of a.keys()) if (!b.has(k)) return false;
  let unknown = false;
  for (const [k, x] of a) {
    const y = b.get(k) as Value;
    if (equivalence) {
      if (!equivalent(x, y)) return false;
    } else {
      const r = equals(x, y);
      if (r === false) return false;
      if (r === null) unknown = true;
    }
  }
  return unknown ? null : true;
}
