import { Packr } from 'msgpackr';
import type { Event } from './events.js';

/**
 * The bytes of a log entry's payload: `{ commit_ts, event }` in MessagePack. Integers that are
 * `bigint` (Cypher integers) stay `bigint`, numbers stay numbers, so an integer never turns into a float
 * through the log. Value types of the value library register themselves as extensions.
 */
const packr = new Packr({ useRecords: false, int64AsType: 'bigint', moreTypes: true });

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
