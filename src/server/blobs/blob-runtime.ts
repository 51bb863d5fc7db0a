import type { BlobBackend } from '../../api/blob-service.js';
import type { ConcernWait } from '../../log/driver/log-driver.js';
import type { ServerConfig } from '../config.js';
import type { Database } from '../database.js';
import { BlobManager } from './blob-manager.js';

/**
 * The blob store of a serving member: the manager, the service backend over it, and orphan
 * collection at start (no upload can be in progress then, so nothing needs a grace period) and
 * every `blob_orphan_sweep_secs` while serving.
 */
export interface BlobRuntime {
  readonly manager: BlobManager;
  readonly backend: BlobBackend;
  stop(): void;
}

export async function startBlobs(
  db: Database,
  config: Pick<ServerConfig, 'blob_chunk_writes_in_flight_max' | 'blob_orphan_grace_secs' | 'blob_orphan_sweep_secs'>,
  concern: () => ConcernWait,
  log: (line: string) => void,
): Promise<BlobRuntime> {
  const manager = BlobManager.open(db, {
    chunk_writes_in_flight_max: config.blob_chunk_writes_in_flight_max,
    orphan_grace_ms: config.blob_orphan_grace_secs * 1000,
    concern,
  });
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
            .catch((e: unknown) => log(`weft: orphan chunk collection failed: ${e instanceof Error ? e.message : String(e)}`))
            .finally(() => (sweeping = false));
        }, config.blob_orphan_sweep_secs * 1000)
      : undefined;
  timer?.unref();
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
      manager.close();
    },
  };
}
