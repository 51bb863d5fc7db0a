import { createHash } from 'node:crypto';
import { invalidArgument } from '../../common/errors.js';
import type { NodeId } from '../../log/raft/types.js';
import type { PeerTransport } from '../../log/transport/peer-transport.js';
import type { PackStore } from './pack-store.js';

/**
 * Chunk files between members. Chunks live outside the log (docs/blobs.md): a `blob_put` entry
 * reaches every member through replication, its chunks only on the member that took the upload.
 * Every member therefore serves its chunks to its peers, and fetches a chunk it lacks from them:
 * in the background for every chunk its blob projection references, and at once when a download
 * needs one. A fetched chunk is checked against its name before it is stored or served.
 */
const CHUNK_METHOD = 'weft.blob.chunk';
const chunk_id_pattern = /^[0-9a-f]{64}$/;

/** Bound on one peer's answer for one chunk (at most 256 KiB). */
export const chunk_fetch_timeout_ms = 10_000;

/** Answers peers' requests for this member's chunks; a chunk it lacks is refused (BLOB_CHUNK_LOST). */
export function serveChunks(transport: PeerTransport, store: PackStore): void {
  transport.handle(CHUNK_METHOD, async (_from, payload) => {
    const chunk_id = Buffer.from(payload).toString('utf8');
    if (!chunk_id_pattern.test(chunk_id)) throw invalidArgument(`not a chunk id: ${chunk_id.slice(0, 80)}`, 'INVALID_CHUNK_ID');
    return store.read(chunk_id);
  });
}

export type ChunkFetch = (chunk_id: string) => Promise<Uint8Array | undefined>;

/**
 * Asks the members `peers()` names, in order (the leader first: it took every upload of its term),
 * for a chunk; answers the first copy whose SHA-256 is its name, or undefined when none has it.
 */
export function chunkFetcher(transport: PeerTransport, self: NodeId, peers: () => readonly NodeId[]): ChunkFetch {
  return async (chunk_id) => {
    const asked = new Set<NodeId>([self, 0]);
    for (const peer of peers()) {
      if (asked.has(peer)) continue;
      asked.add(peer);
      try {
        const data = await transport.call(peer, CHUNK_METHOD, Buffer.from(chunk_id, 'utf8'), chunk_fetch_timeout_ms);
        if (createHash('sha256').update(data).digest('hex') === chunk_id) return data;
      } catch {
        // Down, cut off, or without the chunk itself: ask the next member.
      }
    }
    return undefined;
  };
}
