import type { Message, MessageType } from '../raft/types.js';
import type { PeerCallRequest, RaftBatch, SenderHeader, SnapshotChunk } from './peer-wire.js';

/**
 * Shape checks for frames read off the wire. A peer is authenticated, but it may run another version
 * or be broken; a frame that is not what this version expects is refused as a whole instead of
 * reaching Raft, whose exhaustive switches treat an unknown message as a bug.
 */
const message_types: ReadonlySet<string> = new Set<MessageType>(['app', 'app_resp', 'vote', 'pre_vote', 'vote_resp', 'pre_vote_resp', 'snap', 'heartbeat', 'heartbeat_resp', 'timeout_now']);

const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const isCount = (x: unknown): x is number => typeof x === 'number' && Number.isSafeInteger(x) && x >= 0;

export function isSenderHeader(x: unknown): x is SenderHeader {
  return isRecord(x) && isCount(x['from']) && typeof x['from_address'] === 'string';
}

function isMessage(x: unknown): x is Message {
  if (!isRecord(x) || typeof x['type'] !== 'string' || !message_types.has(x['type'])) return false;
  if (!isCount(x['from']) || !isCount(x['to']) || !isCount(x['term'])) return false;
  // 'snap' travels on its own stream, never inside a batch.
  if (x['type'] === 'snap') return false;
  if (x['type'] !== 'app') return true;
  if (x['quiet'] !== undefined && x['quiet'] !== true) return false;
  const entries = x['entries'];
  return Array.isArray(entries) && entries.every((e: unknown) => isRecord(e) && isCount(e['index']) && isCount(e['term']) && e['data'] instanceof Uint8Array);
}

export function isRaftBatch(x: unknown): x is RaftBatch {
  if (!isSenderHeader(x)) return false;
  const messages = (x as unknown as Record<string, unknown>)['messages'];
  return Array.isArray(messages) && messages.every(isMessage);
}

export function isSnapshotChunk(x: unknown): x is SnapshotChunk {
  if (!isSenderHeader(x)) return false;
  const r = x as unknown as Record<string, unknown>;
  if (!(r['data'] instanceof Uint8Array) || !isCount(r['crc'])) return false;
  if (r['data_crc'] !== undefined && !isCount(r['data_crc'])) return false;
  const head = r['head'];
  if (head === undefined) return true;
  if (!isRecord(head) || !isCount(head['data_bytes']) || !(head['ref'] instanceof Uint8Array) || !isRecord(head['message'])) return false;
  if ((head['data_crc'] !== undefined && !isCount(head['data_crc'])) || (head['offset'] !== undefined && !isCount(head['offset']))) return false;
  const message = head['message'];
  const snapshot = message['snapshot'];
  return message['type'] === 'snap' && isCount(message['from']) && isCount(message['to']) && isCount(message['term']) && isRecord(snapshot) && isRecord(snapshot['meta']);
}

export function isPeerCallRequest(x: unknown): x is PeerCallRequest {
  if (!isSenderHeader(x)) return false;
  const r = x as unknown as Record<string, unknown>;
  return typeof r['method'] === 'string' && r['payload'] instanceof Uint8Array;
}
