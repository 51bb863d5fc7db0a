import { equivalent } from './equality.js';
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
 * A 32-bit hash consistent with `equivalent`: equivalent values hash alike. In particular an INTEGER
 * and a FLOAT of the same numeric value hash alike (`1` and `1.0` group together), all NaNs hash alike,
 * and a map's hash does not depend on key order. Numbers and strings hash without allocating.
 */
export function hashValue(v: Value): number {
  switch (typeof v) {
    case 'bigint':
      return hashBigint(v);
    case 'number':
      return hashNumber(v);
    case 'string':
      return hashString(v);
    case 'boolean':
      return v ? 0x3c6ef372 : 0x1b873593;
    default:
      break;
  }
  if (v === null) return 0x9e3779b9 | 0;
  if (Array.isArray(v)) {
    let h = 0x2545f491 ^ v.length;
    for (const x of v as readonly Value[]) h = mix(h, hashValue(x));
    return fmix(h);
  }
  if (v instanceof Map) {
    // Order-independent: sum of per-entry hashes.
    let h = 0;
    for (const [k, x] of v as ValueMap) h = (h + mix(hashString(k), hashValue(x))) | 0;
    return fmix(h ^ 0x7f4a7c15);
  }
  if (v instanceof Uint8Array || v instanceof Float32Array) {
    let h = v instanceof Uint8Array ? 0x1f83d9ab : 0x5be0cd19;
    for (let i = 0; i < v.length; i++) h = mix(h, hashNumber(v[i] as number));
    return fmix(h);
  }
  if (v instanceof DateValue) return fmix(mix(0x0d, hashNumber(v.epochDay)));
  if (v instanceof LocalTimeValue) return fmix(mix(0x0e, hashNumber(v.nanoOfDay)));
  if (v instanceof TimeValue) return fmix(mix(0x0f, hashNumber(v.utcNanoOfDay)));
  if (v instanceof LocalDateTimeValue) return fmix(mix(mix(0x10, hashNumber(v.epochDay)), hashNumber(v.nanoOfDay)));
  if (v instanceof DateTimeValue) return fmix(mix(mix(0x11, hashNumber(v.utcEpochDay)), hashNumber(v.utcNanoOfDay)));
  if (v instanceof DurationValue) {
    return fmix(mix(mix(mix(mix(0x12, hashNumber(v.months)), hashNumber(v.days)), hashNumber(Number(v.seconds))), v.nanos));
  }
  if (v instanceof PointValue) {
    let h = mix(0x16, v.srid);
    for (const c of v.coordinates) h = mix(h, hashNumber(c));
    return fmix(h);
  }
  const kind = (v as { kind: string }).kind;
  if (kind === 'path') {
    const p = v as { nodes: readonly number[]; rels: readonly number[] };
    let h = 0x13;
    for (const n of p.nodes) h = mix(h, hashNumber(n));
    for (const r of p.rels) h = mix(h, hashNumber(r));
    return fmix(h);
  }
  return fmix(mix(kind === 'node' ? 0x14 : 0x15, hashNumber((v as { id: number }).id)));
}

const scratch = new Float64Array(1);
const scratchWords = new Int32Array(scratch.buffer);

/** Hash of a double; integral doubles hash like the INTEGER of the same value. */
export function hashNumber(f: number): number {
  if (Number.isSafeInteger(f)) return hashSafeInteger(f);
  if (f !== f) return 0x7ff80000;
  if (f === 0) return hashSafeInteger(0); // -0.0
  scratch[0] = f;
  return fmix(mix(scratchWords[0] as number, scratchWords[1] as number));
}

/**
 * Number(i) is exact below 2^53, and beyond it a FLOAT equal to `i` is exactly Number(i); either way
 * the double is the value to hash.
 */
export function hashBigint(i: bigint): number {
  return hashNumber(Number(i));
}

function hashSafeInteger(n: number): number {
  const lo = n | 0;
  const hi = Math.floor(n / 4294967296) | 0;
  return fmix(mix(lo, hi ^ 0x6a09e667));
}

export function hashString(s: string): number {
  let h = 0x811c9dc5 ^ s.length;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return fmix(h);
}

function mix(h: number, k: number): number {
  k = Math.imul(k, 0xcc9e2d51);
  k = (k << 15) | (k >>> 17);
  k = Math.imul(k, 0x1b873593);
  h ^= k;
  h = (h << 13) | (h >>> 19);
  return (Math.imul(h, 5) + 0xe6546b64) | 0;
}

function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h;
}

/**
 * A hash map keyed by Cypher values under equivalence: the grouping table of aggregation and the seen-set
 * of DISTINCT. Keys of several columns are passed as one list value. Insertion order is kept, so
 * iterating groups is deterministic.
 */
export class ValueHashMap<T> {
  // Buckets hold a single entry directly; a collision upgrades the bucket to an array of entries.
  private readonly buckets = new Map<number, Entry<T> | Entry<T>[]>();
  private readonly order: Entry<T>[] = [];

  get size(): number {
    return this.order.length;
  }

  get(key: Value): T | undefined {
    return this.find(key, hashValue(key))?.value;
  }

  has(key: Value): boolean {
    return this.find(key, hashValue(key)) !== undefined;
  }

  set(key: Value, value: T): void {
    const h = hashValue(key);
    const found = this.find(key, h);
    if (found !== undefined) {
      found.value = value;
      return;
    }
    const entry: Entry<T> = { key, value };
    const bucket = this.buckets.get(h);
    if (bucket === undefined) this.buckets.set(h, entry);
    else if (Array.isArray(bucket)) bucket.push(entry);
    else this.buckets.set(h, [bucket, entry]);
    this.order.push(entry);
  }

  /** The value under `key`, created by `make` when absent. */
  getOrCreate(key: Value, make: () => T): T {
    const h = hashValue(key);
    const found = this.find(key, h);
    if (found !== undefined) return found.value;
    const value = make();
    const entry: Entry<T> = { key, value };
    const bucket = this.buckets.get(h);
    if (bucket === undefined) this.buckets.set(h, entry);
    else if (Array.isArray(bucket)) bucket.push(entry);
    else this.buckets.set(h, [bucket, entry]);
    this.order.push(entry);
    return value;
  }

  *entries(): IterableIterator<[Value, T]> {
    for (const e of this.order) yield [e.key, e.value];
  }

  private find(key: Value, h: number): Entry<T> | undefined {
    const bucket = this.buckets.get(h);
    if (bucket === undefined) return undefined;
    if (!Array.isArray(bucket)) return equivalent(bucket.key, key) ? bucket : undefined;
    for (const e of bucket) if (equivalent(e.key, key)) return e;
    return undefined;
  }
}

const alwaysTrue = (): true => true;

interface Entry<T> {
  readonly key: Value;
  value: T;
}

/** A set of values under equivalence (DISTINCT). `add` answers whether the value was new. */
export class ValueHashSet {
  private readonly map = new ValueHashMap<true>();
  get size(): number {
    return this.map.size;
  }
  add(v: Value): boolean {
    const before = this.map.size;
    this.map.getOrCreate(v, alwaysTrue);
    return this.map.size !== before;
  }
  has(v: Value): boolean {
    return this.map.has(v);
  }
}
