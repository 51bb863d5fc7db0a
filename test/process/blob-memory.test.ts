import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createGrpcClient } from '../../src/api/grpc-client.js';
import { BlobService } from '../../src/gen/weft/v1/blob_pb.js';
import { startServerProcess } from '../support/server-process.js';

/**
 * Streaming, not buffering: a blob several times larger than the server's heap limit goes up and
 * comes back over gRPC, and the server's peak resident memory rises by less than half the blob.
 * `npm run test:blob-memory` runs it with a 2 GiB blob.
 */
const blob_mb = Number(process.env['WEFT_BLOB_MEMORY_MB'] ?? 192);
const message_bytes = 256 * 1024;
/** The server's old-space limit; the blob is far larger. */
const heap_mb_max = 64;
/** How far the server's peak resident memory may rise during the transfer: bounded buffers, half the blob at most. */
const rss_growth_mb_max = 128;

function peakRssMb(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m?.[1] ?? 0) / 1024;
}

describe('blob streaming memory', () => {
  it(`a ${blob_mb} MiB blob uploads and downloads through a server limited to ${heap_mb_max} MiB of heap`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-blobmem-'));
    const server = await startServerProcess(dir, [], [`--max-old-space-size=${heap_mb_max}`]);
    const client = createGrpcClient(BlobService, server.grpc);
    try {
      // The runtime's own peak (start-up, compiling the sources) is the baseline the transfer adds to.
      await client.getBlobMeta({ blobId: '0'.repeat(64) }).catch(() => undefined);
      const baseline = peakRssMb(server.pid);
      const base = randomBytes(message_bytes);
      const messages = (blob_mb * 1024 * 1024) / message_bytes;
      const sent = createHash('sha256');
      // Every message differs (a counter in its first bytes), so every chunk is really written.
      function* frames(): Iterable<{ data: Uint8Array; sequence: number }> {
        for (let i = 0; i < messages; i++) {
          const data = Buffer.from(base);
          data.writeUInt32LE(i, 0);
          sent.update(data);
          yield { data, sequence: i };
        }
      }
      const up = await client.uploadBlob(frames());
      expect(up.totalSize).toBe(BigInt(blob_mb * 1024 * 1024));
      expect(up.chunkIds.length).toBe(messages);
      const received = createHash('sha256');
      let bytes = 0;
      for await (const c of client.downloadBlob({ blobId: up.blobId })) {
        received.update(c.data);
        bytes += c.data.byteLength;
      }
      expect(bytes).toBe(blob_mb * 1024 * 1024);
      expect(received.digest('hex')).toBe(sent.digest('hex'));
      const peak = peakRssMb(server.pid);
      console.log(`blob-memory: ${blob_mb} MiB blob, server peak RSS ${baseline.toFixed(0)} MiB before, ${peak.toFixed(0)} MiB after`);
      expect(peak - baseline).toBeLessThan(Math.min(rss_growth_mb_max, blob_mb / 2));
    } finally {
      client.close();
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
