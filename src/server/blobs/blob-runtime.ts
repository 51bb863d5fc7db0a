import type { BlobBackend } from '../../api/blob-service.js';
import type { ConcernWait } from '../../log/driver/log-driver.js';
import type { ServerConfig } from '../config.js';
import type { Database } from '../database.js';
import type { NodeId } from '../../log/raft/types.js';
import type { PeerTransport } from '../../log/transport/peer-transport.js';
import { BlobManager } from './blob-manager.js';
import { chunkFetcher, serveChunks } from './chunk-peers.js';

/** How often a member of a group looks for chunks its blobs reference and it lacks. */
export const chunk_fill_interval_ms = 1000;
/** Chunks fetched from peers in one pass, at most (256 KiB each). */
export const chunk_fill_batch_max = 64;

/** The member's group, for chunks between members: absent for a member without a peer transport. */
export interface BlobPeers {
  readonly transport: PeerTransport;
  readonly self: NodeId;
  /** Whom to ask for a chunk, in order: the leader first, then the other members. */
  readonly members: () => readonly NodeId[];
}

/**
 * The blob store of a serving member: the manager, the service backend over it, and orphan
 * collection at start (no upload can be in progress then, so nothing needs a grace period) and
 * every `blob_orphan_sweep_secs` while serving, each sweep followed by compaction of the packs
 * that are mostly dead space.
 */
export interface BlobRuntime {
  readonly manager: BlobManager;
  readonly backend: BlobBackend;
  stop(): void;
}

export async function startBlobs(
  db: Database,
  config: Pick<ServerConfig, 'blob_chunk_writes_in_flight_max' | 'blob_pack_bytes_max' | 'blob_orphan_grace_secs' | 'blob_orphan_sweep_secs'>,
  concern: () => ConcernWait,
  log: (line: string) => void,
  peers?: BlobPeers,
): Promise<BlobRuntime> {
  const manager = BlobManager.open(db, {
    chunk_writes_in_flight_max: config.blob_chunk_writes_in_flight_max,
    pack_bytes_max: config.blob_pack_bytes_max,
    orphan_grace_ms: config.blob_orphan_grace_secs * 1000,
    concern,
    ...(peers !== undefined && { fetchChunk: chunkFetcher(peers.transport, peers.self, peers.members) }),
  });
  if (peers !== undefined) serveChunks(peers.transport, manager.store);
  const atStart = await manager.collectOrphans(0);
  if (atStart.chunks_deleted + atStart.temporaries_deleted > 0) {
    log(`weft: collected ${atStart.chunks_deleted} orphan blob chunks and ${atStart.temporaries_deleted} partial chunk files`);
  }
  let sweeping = false;
  const timer =
    config.blob_orphan_sweep_secs > 0
      ? setInterval(() => {
          if (sweeping) return;
          sweeping = true;
          manager
            .collectOrphans()
            .then(() => manager.compactPacks())
            .catch((e: unknown) => log(`weft: orphan chunk collection or pack compaction failed: ${e instanceof Error ? e.message : String(e)}`))
            .finally(() => (sweeping = false));
        }, config.blob_orphan_sweep_secs * 1000)
      : undefined;
  timer?.unref();
  // A member of a group keeps a copy of every chunk its blobs reference (docs/blobs.md).
  let filling = false;
  const fill =
    peers !== undefined
      ? setInterval(() => {
          if (filling) return;
          filling = true;
          manager
            .fillMissing(chunk_fill_batch_max)
            .catch((e: unknown) => log(`weft: fetching blob chunks from peers failed: ${e instanceof Error ? e.message : String(e)}`))
            .finally(() => (filling = false));
        }, chunk_fill_interval_ms)
      : undefined;
  fill?.unref();
  const backend: BlobBackend = {
    upload: (data, signal) => manager.upload(data, signal),
    meta: (blob_id) => manager.meta(blob_id),
    chunks: (blob, signal) => manager.chunks(blob, signal),
    delete: (blob_id) => manager.delete(blob_id),
  };
  return {
    manager,
    backend,
    stop() {
      clearInterval(timer);
      clearInterval(fill);
      manager.close();
    },
  };
}
