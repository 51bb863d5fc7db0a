import { Packr, addExtension } from 'msgpackr';
import {
  DateTimeValue,
  DateValue,
  DurationValue,
  LocalDateTimeValue,
  LocalTimeValue,
  TimeValue,
} from '../common/values/temporal.js';
import { crsBySrid, PointValue, pointValue } from '../common/values/spatial.js';
import type { Event } from './events.js';

/**
 * The bytes of a log entry's payload: `{ commit_ts, event }` in MessagePack. Integers that are
 * `bigint` (Cypher integers) stay `bigint`, numbers stay numbers, so an integer never turns into a float
 * through the log. Value types of the value library register themselves as extensions.
 */
/** Duration seconds within this magnitude are written as numbers. */
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

const packr = new Packr({ useRecords: false, int64AsType: 'bigint', moreTypes: true });

/**
 * MessagePack maps decode as plain objects, which is what events are; a value that is a `Map` (a MAP or
 * DOCUMENT property, a default value) travels wrapped, as an extension, so it comes back a `Map`.
 */
class PackedMap {
  constructor(readonly entries: [unknown, unknown][]) {}
}
addExtension({ Class: PackedMap, type: 0x37, write: (m: PackedMap) => m.entries, read: (entries: [unknown, unknown][]) => new Map(entries) });

/** `v` with every Map inside it wrapped; parts without a Map are returned as they are, uncopied. */
function wrapMaps(v: unknown): unknown {
  if (v === null || typeof v !== 'object' || ArrayBuffer.isView(v)) return v;
  if (v instanceof Map) return new PackedMap([...(v as Map<unknown, unknown>)].map(([k, x]) => [k, wrapMaps(x)]));
  if (Array.isArray(v)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < v.length; i++) {
      const w = wrapMaps(v[i]);
      if (w !== v[i]) (out ??= v.slice())[i] = w;
    }
    return out ?? v;
  }
  if (Object.getPrototypeOf(v) !== Object.prototype) return v; // temporal values and other classes
  let out: Record<string, unknown> | undefined;
  for (const [k, x] of Object.entries(v)) {
    const w = wrapMaps(x);
    if (w !== x) (out ??= { ...(v as Record<string, unknown>) })[k] = w;
  }
  return out ?? v;
}

// Temporal values travel as their defining fields. Extension type numbers are part of the engine format.
addExtension({ Class: DateValue, type: 0x31, write: (v: DateValue) => v.epochDay, read: (d: number) => new DateValue(d) });
addExtension({ Class: LocalTimeValue, type: 0x32, write: (v: LocalTimeValue) => v.nanoOfDay, read: (n: number) => new LocalTimeValue(n) });
addExtension({
  Class: TimeValue,
  type: 0x33,
  write: (v: TimeValue) => [v.nanoOfDay, v.offsetSeconds],
  read: ([n, o]: [number, number]) => new TimeValue(n, o),
});
addExtension({
  Class: LocalDateTimeValue,
  type: 0x34,
  write: (v: LocalDateTimeValue) => [v.epochDay, v.nanoOfDay],
  read: ([d, n]: [number, number]) => new LocalDateTimeValue(d, n),
});
addExtension({
  Class: DateTimeValue,
  type: 0x35,
  write: (v: DateTimeValue) => [v.epochDay, v.nanoOfDay, v.offsetSeconds, v.zone],
  read: ([d, n, o, z]: [number, number, number, string | null]) => new DateTimeValue(d, n, o, z),
});
addExtension({
  Class: DurationValue,
  type: 0x36,
  // Seconds go as a number while they are a safe integer (every entry written before they were 64-bit),
  // and as decimal text beyond 2^53.
  write: (v: DurationValue) => [v.months, v.days, -MAX_SAFE <= v.seconds && v.seconds <= MAX_SAFE ? Number(v.seconds) : String(v.seconds), v.nanos],
  read: ([m, d, s, n]: [number, number, number | string, number]) => new DurationValue(m, d, typeof s === 'number' ? s : BigInt(s), n),
});

// A point travels as its SRID and its coordinates as doubles, bit for bit (-0.0 and NaN included).
addExtension({
  Class: PointValue,
  type: 0x38,
  write: (v: PointValue) => [v.srid, Float64Array.from(v.coordinates)],
  read: ([srid, coordinates]: [number, Float64Array]) => {
    const crs = crsBySrid(srid);
    const p = crs === undefined ? `unknown SRID ${srid}` : pointValue(crs, Array.from(coordinates));
    if (typeof p === 'string') throw new Error(`log: a point that cannot be read back: ${p}`);
    return p;
  },
});

export interface Payload {
  readonly commit_ts: number;
  readonly event: Event;
}

export function encodePayload(payload: Payload): Uint8Array {
  return packr.pack(wrapMaps(payload));
}

export function decodePayload(bytes: Uint8Array): Payload {
  return packr.unpack(bytes) as Payload;
}

/** Encodes any state the projections checkpoint, with the same value rules as the log. */
export function encodeState(state: unknown): Uint8Array {
  return packr.pack(wrapMaps(state));
}

export function decodeState(bytes: Uint8Array): unknown {
  return packr.unpack(bytes);
}
