import { Packr, addExtension } from 'msgpackr';
import {
  DateTimeValue,
  DateValue,
  DurationValue,
  LocalDateTimeValue,
  LocalTimeValue,
  TimeValue,
} from '../common/values/temporal.js';
import type { Event } from './events.js';

/**
 * The bytes of a log entry's payload: `{ commit_ts, event }` in MessagePack. Integers that are
 * `bigint` (Cypher integers) stay `bigint`, numbers stay numbers, so an integer never turns into a float
 * through the log. Value types of the value library register themselves as extensions.
 */
const packr = new Packr({ useRecords: false, int64AsType: 'bigint', moreTypes: true });

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
  write: (v: DurationValue) => [v.months, v.days, v.seconds, v.nanos],
  read: ([m, d, s, n]: [number, number, number, number]) => new DurationValue(m, d, s, n),
});

export interface Payload {
  readonly commit_ts: number;
  readonly event: Event;
}

export function encodePayload(payload: Payload): Uint8Array {
  return packr.pack(payload);
}

export function decodePayload(bytes: Uint8Array): Payload {
  return packr.unpack(bytes) as Payload;
}

/** Encodes any state the projections checkpoint, with the same value rules as the log. */
export function encodeState(state: unknown): Uint8Array {
  return packr.pack(state);
}

export function decodeState(bytes: Uint8Array): unknown {
  return packr.unpack(bytes);
}
