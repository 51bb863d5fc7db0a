import type { MessageInitShape } from '@bufbuild/protobuf';
import { describe, expect, it } from 'vitest';
import { createGrpcClient } from '../../src/api/grpc-client.js';
import { VectorConsistency } from '../../src/gen/weft/v1/consistency_pb.js';
import { QueryService, type ExecuteCypherRequestSchema } from '../../src/gen/weft/v1/query_pb.js';
import { DistanceMetric, IndexBuildState } from '../../src/gen/weft/v2/schema_pb.js';
import { seconds, startHarness } from '../schema/harness.js';
import { prng, testSeed } from '../support/prng.js';
import { clusteredVectors } from './data.js';

/**
 * A real `weft serve` checkpointing every few entries, each checkpoint saving the HNSW graph beside
 * it, is killed with SIGKILL at a seeded moment while vectors are written one by one: the kill lands
 * before, during or after a graph save or a checkpoint. Every restart finds each acknowledged vector
 * (its own nearest neighbour) and answers as EXACT does.
 */
const d = 16;
const rounds = 2;
const vec = (v: Float32Array) => ({ kind: { case: 'vectorValue' as const, value: { values: [...v] } } });
const int = (i: number) => ({ kind: { case: 'intValue' as const, value: BigInt(i) } });
type CypherReq = MessageInitShape<typeof ExecuteCypherRequestSchema>;
const query = "MATCH (k:K) RETURN k.id ORDER BY vector_distance(k.v, $q, 'euclidean') LIMIT 10";

describe('saved vector graphs across kill -9', () => {
  it(`${rounds} kills while writes checkpoint every 4 entries: each restart finds every acknowledged vector`, async () => {
    const seed = testSeed('vector saved graph kill');
    const random = prng(seed);
    const h = await startHarness(['--checkpoint_interval_entries', '4']);
    try {
      const base = clusteredVectors(seed, 400, d, 8);
      await h.graph('grpc', 'createNodesBatch', { nodes: base.map((v, i) => ({ labels: ['K'], properties: { id: int(i), v: vec(v) } })) });
      const b = await h.schema('grpc', 'createSearchIndex', { label: 'K', properties: ['v'], kind: { case: 'vector', value: { dimensions: d, metric: DistanceMetric.L2 } }, wait: seconds(30) });
      expect(b.state).toBe(IndexBuildState.PUBLISHED);
      /** Acknowledged vectors by id. */
      const acked = new Map(base.map((v, i) => [i, v] as const));
      let next = base.length;
      for (let round = 0; round < rounds; round++) {
        const fresh = clusteredVectors(seed + 1 + round, 200, d, 8);
        let killed = false;
        const writer = (async () => {
          for (const v of fresh) {
            if (killed) return;
            const id = next++;
            try {
              await h.graph('grpc', 'createNode', { labels: ['K'], properties: { id: int(id), v: vec(v) } });
            } catch {
              return; // the kill: this write may or may not have committed
            }
            if (!killed) acked.set(id, v);
          }
        })();
        await new Promise((r) => setTimeout(r, 500 + Math.floor(random() * 1500)));
        killed = true;
        await h.restart(true);
        await writer;
        console.log(`round ${round}: ${acked.size - base.length} vectors acknowledged so far`);

        const q = createGrpcClient(QueryService, h.server.grpc);
        try {
          const ids = async (req: CypherReq): Promise<number[]> =>
            (await q.executeCypher(req)).rows.map((r) => {
              const k = r.values[0]?.kind;
              return k?.case === 'intValue' ? Number(k.value) : -1;
            });
          // The vectors written in this round, and a sample of the rest: each is its own nearest.
          const check = [...acked].filter(([id]) => id >= base.length || random() < 0.05);
          for (const [id, v] of check) {
            expect((await ids({ query, parameters: { q: vec(v) } }))[0], `node ${id} after round ${round} (seed ${seed})`).toBe(id);
          }
          for (const probe of clusteredVectors(seed + 100 + round, 4, d, 8)) {
            const exact = await ids({ query, parameters: { q: vec(probe) }, vectorConsistency: VectorConsistency.EXACT });
            const got = await ids({ query, parameters: { q: vec(probe) } });
            expect(got.filter((x) => exact.includes(x)).length).toBeGreaterThanOrEqual(9);
          }
        } finally {
          q.close();
        }
        expect(h.server.output()).not.toMatch(/internal error/);
      }
    } finally {
      await h.close();
    }
  }, 180_000);
});
