import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createGrpcClient } from '../../src/api/grpc-client.js';
import { GraphService } from '../../src/gen/weft/v1/graph_pb.js';
import { QueryService } from '../../src/gen/weft/v1/query_pb.js';
import { prng, testSeed } from '../support/prng.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';

/**
 * A change-feed consumer killed and restarted at random points, across a server restart, during
 * thousands of writes, ends with exactly the committed changes, in order, none missing, none repeated.
 */
const writes = Number(process.env['WEFT_FEED_WRITES'] ?? 10_000);
const consumerKills = 10;

describe('change feed', () => {
  it(`resume: a consumer killed ${consumerKills}+ times during ${writes} writes and a server restart sees every change exactly once`, async () => {
    const random = prng(testSeed('change-feed'));
    const dir = mkdtempSync(join(tmpdir(), 'weft-feed-'));
    let server: ServerProcess = await startServerProcess(dir);
    const created: bigint[] = [];
    const seen: { id: bigint; ts: bigint; ordinal: number }[] = [];
    let lastTs = 0n;
    let kills = 0;
    let done = false;
    try {
      const consumer = async (): Promise<void> => {
        while (!done || seen.length < created.length) {
          const feed = createGrpcClient(QueryService, server.grpc);
          const controller = new AbortController();
          const killAfter = 50 + Math.floor(random() * 900);
          let received = 0;
          try {
            for await (const change of feed.watchChanges({ fromCommitTs: lastTs + 1n }, { signal: controller.signal })) {
              // Whole entries only: an entry's changes share its commit_ts; kill between entries.
              if (change.commitTs !== lastTs && received >= killAfter && kills < consumerKills * 3) {
                kills++;
                controller.abort();
                break;
              }
              seen.push({ id: change.nodeAfter!.nodeId, ts: change.commitTs, ordinal: change.ordinal });
              lastTs = change.commitTs;
              received++;
              if (done && seen.length >= created.length) break;
            }
          } catch {
            // The server went away or the stream was cut: resume from the last commit_ts + 1.
            await new Promise((r) => setTimeout(r, 50));
          } finally {
            feed.close();
          }
        }
      };
      const consuming = consumer();
      for (const phase of [0, 1]) {
        const client = createGrpcClient(GraphService, server.grpc);
        const per = writes / 2;
        let next = 0;
        await Promise.all(
          Array.from({ length: 16 }, async () => {
            while (next < per) {
              next++;
              const node = await client.createNode({ labels: ['Feed'], properties: { phase: { kind: { case: 'intValue', value: BigInt(phase) } } } });
              created.push(node.nodeId);
            }
          }),
        );
        client.close();
        if (phase === 0) {
          await server.stop();
          server = await startServerProcess(dir);
        }
      }
      done = true;
      const deadline = Date.now() + 120_000;
      while (seen.length < created.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      await Promise.race([consuming, new Promise((r) => setTimeout(r, 5000))]);
      expect(kills).toBeGreaterThanOrEqual(consumerKills);
      expect(seen.length).toBe(created.length);
      expect(new Set(seen.map((s) => s.id))).toEqual(new Set(created));
      for (let i = 1; i < seen.length; i++) {
        const a = seen[i - 1]!;
        const b = seen[i]!;
        expect(b.ts > a.ts || (b.ts === a.ts && b.ordinal > a.ordinal), `changes ${i - 1} and ${i} out of order`).toBe(true);
      }
    } finally {
      done = true;
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
