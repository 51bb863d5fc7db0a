import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createGrpcClient } from '../../src/api/grpc-client.js';
import { joinMembers, startLocalCluster } from '../../src/cli/cluster-command.js';
import type { MemberProcess } from '../../src/cli/member-process.js';
import { GraphService } from '../../src/gen/weft/v1/graph_pb.js';
import { groupStatus, rest, until } from '../support/group-rest.js';
import { testSeed } from '../support/prng.js';

/**
 * The HNSW graphs saved beside a checkpoint travel with it when it is shipped as a snapshot: a
 * learner installing it opens them as a restart does (their CRCs and digests checked at load) rather
 * than rebuilding every vector index from the checkpoint's nodes.
 */
const nodes = 200;
const dimensions = 8;
/** Small segments and frequent checkpoints, so the log before the newest checkpoint is deleted. */
const args = ['--log-segment-bytes-max', String(16 << 10), '--checkpoint-interval-entries', '50'];

async function cypher(m: MemberProcess, query: string, readPreference = 'READ_PREFERENCE_PRIMARY'): Promise<Record<string, unknown>> {
  const r = await rest(m, 'POST', '/v1/query/cypher', { query, readPreference });
  if (r.status !== 200) throw new Error(`${query} on member ${m.node_id}: ${r.status} ${JSON.stringify(r.json)}`);
  return r.json;
}

describe('snapshots carry the saved vector graphs', () => {
  it('a learner behind compaction installs the checkpoint with its saved HNSW graph and opens it without rebuilding the index', async () => {
    const seed = testSeed('snapshot vector graphs');
    const cluster = await startLocalCluster({ members: 2, join: false, args });
    const [leader, learner] = cluster.members as [MemberProcess, MemberProcess];
    const client = createGrpcClient(GraphService, leader.grpc);
    try {
      await cypher(leader, "CREATE VECTOR INDEX p_v FOR (p:P) ON (p.v) OPTIONS {indexConfig: {`vector.dimensions`: 8, `vector.similarity_function`: 'euclidean'}}");
      // One write at a time: a checkpoint saves the graphs only with nothing applied past it.
      let state = seed;
      const random = (): number => ((state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32);
      for (let i = 0; i < nodes; i++) {
        await client.createNode({
          labels: ['P'],
          properties: {
            id: { kind: { case: 'intValue' as const, value: BigInt(i) } },
            v: { kind: { case: 'vectorValue' as const, value: { values: Array.from({ length: dimensions }, random) } } },
          },
        });
      }
      const leader_checkpoints = join(cluster.dir, 'member-1', 'checkpoints');
      const shipped = readdirSync(leader_checkpoints).filter((f) => f.endsWith('.ckpt')).sort().pop()!;
      const shipped_index = shipped.slice('checkpoint-'.length, -'.ckpt'.length);
      expect(readdirSync(leader_checkpoints).some((f) => f.startsWith(`vector-${shipped_index}-`) && f.endsWith('.hnsw')), 'the leader saved the graph with its newest checkpoint').toBe(true);

      const joined = await joinMembers(leader.rest, [{ node_id: 2, peer: learner.peer, identity: cluster.identities[1]! }], () => {});
      expect(joined).toBe(true);
      await until(async () => ((await groupStatus(leader)).nodes.some((n) => n.nodeId === '2' && n.role === 'NODE_ROLE_FOLLOWER') ? true : undefined), 'the learner is promoted', 60_000);

      // The learner started from the shipped checkpoint (its log begins after it) ...
      const learner_log = readdirSync(join(cluster.dir, 'member-2', 'log')).filter((f) => f.endsWith('.seg'));
      expect(Math.min(...learner_log.map((f) => Number(f.slice(0, -'.seg'.length))))).toBeGreaterThan(1);
      // ... with the graph beside it, and read it instead of rebuilding (a rebuild says so on stderr).
      expect(readdirSync(join(cluster.dir, 'member-2', 'checkpoints')).some((f) => f.startsWith('vector-') && f.endsWith('.hnsw'))).toBe(true);
      expect(learner.output()).not.toMatch(/rebuilding it from the checkpoint's nodes/);
      const counted = await cypher(learner, 'MATCH (p:P) RETURN count(p) AS c', 'READ_PREFERENCE_SECONDARY');
      expect(JSON.stringify(counted)).toContain(`"intValue":"${nodes}"`);
    } finally {
      client.close();
      await cluster.stop();
      rmSync(cluster.dir, { recursive: true, force: true });
    }
  });
});
