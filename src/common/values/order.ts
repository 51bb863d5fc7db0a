import { compareIntFloat } from './equality.js';
import {
  DateTimeValue,
  DateValue,
  DurationValue,
  LocalDateTimeValue,
  LocalTimeValue,
  TimeValue,
} from './temporal.js';
import { PointValue } from './spatial.js';
import { kindOf, type Value, type ValueKind, type ValueMap } from './value.js';

/**
 * Rank of each kind in the global sort order of ORDER BY (ascending): maps, nodes, relationships,
 * lists, paths, points, the temporal types, vectors, bytes, strings, booleans, numbers, and null last.
 * INTEGER and FLOAT share one rank and sort by numeric value, NaN after every other number. Points come
 * right after paths and before the temporal types, where Neo4j 5 puts them.
 */
const RANK: Readonly<Record<ValueKind, number>> = {
  map: 0,
  node: 1,
  relationship: 2,
  list: 3,
  path: 4,
  point: 5,
  datetime: 6,
  localdatetime: 7,
  date: 8,
  time: 9,
  localtime: 10,
  duration: 11,
  vector: 12,
  bytes: 13,
  string: 14,
  boolean: 15,
  integer: 16,
  float: 16,
  null: 17,
};

const sign = (x: number): number => (x < 0 ? -1 : x > 0 ? 1 : 0);

/** Total order over all values for ORDER BY, min and max: negative, zero or positive. Never NaN. */
export function orderCompare(a: Value, b: Value): number {
  // Fast paths for the common homogeneous cases.
  if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'number' && typeof b === 'number') return compareFloatsTotal(a, b);
  const ka = kindOf(a);
  const kb = kindOf(b);
  const ra = RANK[ka];
  const rb = RANK[kb];
  if (ra !== rb) return ra - rb;
  switch (ka) {
    case 'null':
      return 0;
    case 'integer':
    case 'float':
      return compareNumbersTotal(a as bigint | number, b as bigint | number);
    case 'boolean':
      return (a === true ? 1 : 0) - (b === true ? 1 : 0);
    case 'string':
      return (a as string) < (b as string) ? -1 : (a as string) > (b as string) ? 1 : 0;
    case 'list':
      return compareListsTotal(a as readonly Value[], b as readonly Value[]);
    case 'map':
      return compareMapsTotal(a as ValueMap, b as ValueMap);
    case 'node':
    case 'relationship':
      return sign((a as { id: number }).id - (b as { id: number }).id);
    case 'path': {
      const pa = a as { nodes: readonly number[]; rels: readonly number[] };
      const pb = b as { nodes: readonly number[]; rels: readonly number[] };
      return compareNumberArrays(pa.nodes, pb.nodes) || compareNumberArrays(pa.rels, pb.rels);
    }
    case 'bytes':
      return compareNumberArrays(a as Uint8Array, b as Uint8Array);
    case 'vector':
      return compareNumberArrays(a as Float32Array, b as Float32Array);
    case 'point':
      return comparePointsTotal(a as PointValue, b as PointValue);
    default: {
      const c = compareTemporal(a, b);
      return c === null ? 0 : c;
    }
  }
}

function compareFloatsTotal(a: number, b: number): number {
  if (a < b) return -1;
  if (a > b) return 1;
  if (a === b) return 0;
  // At least one NaN: NaN sorts after every number and equal to itself.
  const an = a !== a;
  const bn = b !== b;
  return an === bn ? 0 : an ? 1 : -1;
}

function compareNumbersTotal(a: bigint | number, b: bigint | number): number {
  if (typeof a === 'number' && typeof b === 'number') return compareFloatsTotal(a, b);
  if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'bigint') {
    const c = compareIntFloat(a, b as number);
    return c !== c ? -1 : c;
  }
  const c = compareIntFloat(b as bigint, a);
  return c !== c ? 1 : -c;
}

function compareListsTotal(a: readonly Value[], b: readonly Value[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const c = orderCompare(a[i] as Value, b[i] as Value);
    if (c !== 0) return c;
  }
  return a.length - b.length;
}

/** Maps order by size first, then by their sorted keys, then by the values under those keys (as Neo4j does). */
function compareMapsTotal(a: ValueMap, b: ValueMap): number {
  if (a.size !== b.size) return a.size - b.size;
  const ka = [...a.keys()].sort();
  const kb = [...b.keys()].sort();
  const c = compareListsTotal(ka, kb);
  if (c !== 0) return c;
  for (const k of ka) {
    const d = orderCompare(a.get(k) as Value, b.get(k) as Value);
    if (d !== 0) return d;
  }
  return 0;
}

function compareNumberArrays(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const c = compareFloatsTotal(a[i] as number, b[i] as number);
    if (c !== 0) return c;
  }
  return a.length - b.length;
}

/**
 * Points order by SRID (4326 WGS-84, 4979 WGS-84 3D, 7203 Cartesian, 9157 Cartesian 3D), then by their
 * coordinates in order x, y, z. Two CRSs of one dimension never interleave, so the order is total.
 */
function comparePointsTotal(a: PointValue, b: PointValue): number {
  if (a.srid !== b.srid) return a.srid - b.srid;
  return compareNumberArrays(a.coordinates, b.coordinates);
}

/** A month as ORDER BY measures durations: 1/12 of a 365.2425-day year, 30.436875 days. */
const SECONDS_PER_AVERAGE_MONTH = 2_629_746n;

/** A duration's length with months of average length and days of 24 hours, in seconds (ORDER BY only). */
function normalizedSeconds(d: DurationValue): bigint {
  return BigInt(d.months) * SECONDS_PER_AVERAGE_MONTH + BigInt(d.days) * 86_400n + d.seconds;
}

/**
 * Order of two temporal values of the same kind; null for different kinds. Times and datetimes order
 * by instant, then by offset from west to east (so the earlier local time comes first), then a bare
 * offset before named zones, named zones by name, so that the order is total. Durations order by their
 * normalized length, then by months and days so that P1D and PT24H stay apart.
 */
function compareTemporal(a: Value, b: Value): number | null {
  if (a instanceof DateValue && b instanceof DateValue) return sign(a.epochDay - b.epochDay);
  if (a instanceof LocalTimeValue && b instanceof LocalTimeValue) return sign(a.nanoOfDay - b.nanoOfDay);
  if (a instanceof TimeValue && b instanceof TimeValue) {
    return sign(a.utcNanoOfDay - b.utcNanoOfDay) || sign(a.offsetSeconds - b.offsetSeconds);
  }
  if (a instanceof LocalDateTimeValue && b instanceof LocalDateTimeValue) {
    return sign(a.epochDay - b.epochDay) || sign(a.nanoOfDay - b.nanoOfDay);
  }
  if (a instanceof DateTimeValue && b instanceof DateTimeValue) {
    return (
      sign(a.utcEpochDay - b.utcEpochDay) ||
      sign(a.utcNanoOfDay - b.utcNanoOfDay) ||
      sign(a.offsetSeconds - b.offsetSeconds) ||
      ((a.zone ?? '') < (b.zone ?? '') ? -1 : (a.zone ?? '') > (b.zone ?? '') ? 1 : 0)
    );
  }
  if (a instanceof DurationValue && b instanceof DurationValue) {
    const na = normalizedSeconds(a);
    const nb = normalizedSeconds(b);
    return (na < nb ? -1 : na > nb ? 1 : 0) || sign(a.nanos - b.nanos) || sign(a.months - b.months) || sign(a.days - b.days);
  }
  return null;
}

/**
 * Cypher `<`, `>`, `<=`, `>=` as one comparison: negative, zero or positive when the values are
 * comparable; NaN when both are numbers and one is NaN (so every comparison with it is false);
 * null when the values are incomparable (different types, null, maps, graph elements, durations,
 * points: Neo4j 5 compares points with `=` only, and `<` between two points is null).
 * Lists compare element by element and are incomparable as soon as one pair is.
 */
export function compareValues(a: Value, b: Value): number | null {
  if (a === null || b === null) return null;
  switch (typeof a) {
    case 'bigint':
      if (typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0;
      if (typeof b === 'number') return compareIntFloat(a, b);
      return null;
    case 'number':
      if (typeof b === 'number') return a < b ? -1 : a > b ? 1 : a === b ? 0 : NaN;
      if (typeof b === 'bigint') return -compareIntFloat(b, a);
      return null;
    case 'string':
      if (typeof b !== 'string') return null;
      return a < b ? -1 : a > b ? 1 : 0;
    case 'boolean':
      if (typeof b !== 'boolean') return null;
      return (a ? 1 : 0) - (b ? 1 : 0);
    default:
      break;
  }
  if (Array.isArray(a)) {
    if (!Array.isArray(b)) return null;
    const la = a as readonly Value[];
    const lb = b as readonly Value[];
    const n = Math.min(la.length, lb.length);
    for (let i = 0; i < n; i++) {
      const c = compareValues(la[i] as Value, lb[i] as Value);
      if (c === null || c !== 0) return c;
    }
    return la.length - lb.length;
  }
  if (a instanceof DurationValue || a instanceof PointValue) return null;
  // Times and datetimes at one instant in different zones are different values: `<` orders them as
  // ORDER BY does, by offset from west to east, then by zone name, so `=` and `<` never disagree.
  return compareTemporal(a, b);
}

/** The four comparison operators, three-valued. */
export function lessThan(a: Value, b: Value): boolean | null {
  const c = compareValues(a, b);
  return c === null ? null : c < 0;
}
export function lessThanOrEqual(a: Value, b: Value): boolean | null {
  const c = compareValues(a, b);
  return c === null ? null : c <= 0;
}
export function greaterThan(a: Value, b: Value): boolean | null {
  const c = compareValues(a, b);
  return c === null ? null : c > 0;
}
export function greaterThanOrEqual(a: Value, b: Value): boolean | null {
  const c = compareValues(a, b);
  return c === null ? null : c >= 0;
}
