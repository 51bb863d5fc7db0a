import type { Entry as RaftEntry, EntryType } from '../raft/types.js';

/**
 * How a Raft entry is kept in a segment record, which holds only (index, term, data). A normal entry
 * is stored as its payload unchanged, so logs written before replication read the same. A membership
 * change is stored behind the tag byte 0xC1: MessagePack never begins a value with it (the format
 * reserves it as "never used"), so it cannot be mistaken for an event payload. An empty payload is a
 * new leader's no-op.
 */
const CONF_CHANGE_TAG = 0xc1;

export function encodeStored(type: EntryType, data: Uint8Array): Uint8Array {
  switch (type) {
    case 'normal':
      return data;
    case 'conf_change': {
      const out = new Uint8Array(data.byteLength + 1);
      out[0] = CONF_CHANGE_TAG;
      out.set(data, 1);
      return out;
    }
  }
}

export function decodeStored(index: number, term: number, stored: Uint8Array): RaftEntry {
  if (stored.byteLength > 0 && stored[0] === CONF_CHANGE_TAG) {
    return { index, term, type: 'conf_change', data: stored.subarray(1) };
  }
  return { index, term, type: 'normal', data: stored };
}
