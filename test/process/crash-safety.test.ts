import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createGrpcClient } from '../../src/api/grpc-client.js';
import { GraphService } from '../../src/gen/weft/v1/graph_pb.js';
import { Database } from '../../src/server/database.js';
import { prng, testSeed } from '../support/prng.js';
import { startServerProcess } from '../support/server-process.js';

/**
 * Crash safety: writers keep sending batches while the server is killed with SIGKILL at random
 * moments. After each kill the data directory is recovered and checked: every acknowledged batch is
 * there whole, and no batch is there in part.
 */
const rounds = Number(process.env['WEFT_CRASH_ROUNDS'] ?? 20);
const writers = 8;

describe('crash safety', () => {
  it(`recovery: ${rounds} rounds of kill -9 under concurrent batch writes lose no acknowledged write and leave no partial batch`, async () => {
    const random = prng(testSeed('crash-safety'));
    const dir = mkdtempSync(join(tmpdir(), 'weft-crash-'));
    const acked = new Map<string, { ids: bigint[]; size: number }>();
    try {
      for (let round = 0; round < rounds; round++) {
        const server = await startServerProcess(dir);
        const client = createGrpcClient(GraphService, server.grpc);
        let stop = false;
        let sent = 0;
        const writer = async (w: number): Promise<void> => {
          for (let seq = 0; !stop && seq < 10_000; seq++) {
            const batch = `${round}/${w}/${seq}`;
            const size = 1 + Math.floor(random() * 20);
            const nodes = Array.from({ length: size }, (_, i) => ({
              labels: ['Crash'],
              properties: {
                batch: { kind: { case: 'stringValue' as const, value: batch } },
                size: { kind: { case: 'intValue' as const, value: BigInt(size) } },
                i: { kind: { case: 'intValue' as const, value: BigInt(i) } },
              },
            }));
            sent++;
            try {
              const res = await client.createNodesBatch({ nodes });
              acked.set(batch, { ids: res.nodes.map((n) => n.nodeId), size });
            } catch {
              return; // the server is gone
            }
          }
        };
        const running = Array.from({ length: writers }, (_, w) => writer(w));
        await new Promise((r) => setTimeout(r, 100 + random() * 400));
        await server.kill();
        stop = true;
        await Promise.all(running);
        client.close();
        expect(sent).toBeGreaterThan(0);

        // Recover in-process and check what the directory holds.
        const db = await Database.open({ data_dir: dir, node_id: 1, mvcc_retention_secs: 300, checkpoint_interval_entries: 50_000, log_segment_bytes_max: 64 << 20 });
        const view = db.latestCommitted();
        // One pass over the label: how many nodes each batch has, and the size its nodes declare.
        const seen = new Map<string, number>();
        const declared = new Map<string, number>();
        for (const n of view.nodesWithLabel('Crash')) {
          const b = n.props.get('batch') as string;
          seen.set(b, (seen.get(b) ?? 0) + 1);
          declared.set(b, Number(n.props.get('size')));
        }
        for (const [batch, count] of seen) expect(count, `batch ${batch} is partial`).toBe(declared.get(batch));
        for (const [batch, { ids, size }] of acked) {
          expect(seen.get(batch), `acknowledged batch ${batch} is missing`).toBe(size);
          for (const id of ids) expect(view.node(Number(id))?.props.get('batch')).toBe(batch);
        }
        await db.close();
      }
      expect(acked.size).toBeGreaterThan(rounds);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 600_000);
});
