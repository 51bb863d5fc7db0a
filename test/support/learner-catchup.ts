import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createGrpcClient } from '../../src/api/grpc-client.js';
import { joinMembers, startLocalCluster } from '../../src/cli/cluster-command.js';
import type { MemberProcess } from '../../src/cli/member-process.js';
import { GraphService } from '../../src/gen/weft/v1/graph_pb.js';
import { groupStatus, rest, until } from './group-rest.js';

/**
 * A learner joining a group whose log it can no longer read from the start (issue 11, membership
 * under load): member 1 alone takes `entries` writes with small log segments and frequent
 * checkpoints, so the segments behind its newest checkpoint are deleted; member 2 is then joined,
 * must be sent the checkpoint as a snapshot, catch up from the log after it, and be promoted. The
 * process test runs it small; `npm run bench:learner-catchup` runs it at a million entries.
 */
export interface CatchUpOptions {
  readonly entries: number;
  /** Writers filling the log at once. */
  readonly concurrency: number;
  /** Bound on the catch-up (join to promotion). */
  readonly catchup_wait_ms: number;
}

export interface CatchUpReport {
  readonly entries: number;
  readonly fill_s: number;
  readonly fill_writes_per_s: number;
  /** From JoinNode to the learner reported a voter. */
  readonly catchup_ms: number;
  /** The first index of the learner's log once promoted: above 1 only if it started from a snapshot. */
  readonly learner_log_first_index: number;
  /** Nodes the learner serves once promoted (a SECONDARY read on it). */
  readonly learner_nodes: number;
  /** Peak resident memory of each process, from /proc (0 where /proc is missing). */
  readonly leader_rss_peak_mb: number;
  readonly learner_rss_peak_mb: number;
}

const payload = 'x'.repeat(256);
/** Small segments, so whole segments fall behind a checkpoint and are deleted. */
const segment_bytes = 256 << 10;

export async function learnerCatchUp(o: CatchUpOptions): Promise<CatchUpReport> {
  const checkpoint_every = Math.max(100, Math.floor(o.entries / 4));
  const cluster = await startLocalCluster({
    members: 2,
    join: false,
    args: ['--log-segment-bytes-max', String(segment_bytes), '--checkpoint-interval-entries', String(checkpoint_every)],
  });
  const [leader, learner] = cluster.members as [MemberProcess, MemberProcess];
  const client = createGrpcClient(GraphService, leader.grpc);
  try {
    let written = 0;
    const started = performance.now();
    const node = { labels: ['Fill'], properties: { payload: { kind: { case: 'stringValue' as const, value: payload } } } };
    await Promise.all(
      Array.from({ length: o.concurrency }, async () => {
        while (written < o.entries) {
          written++;
          await client.createNode(node);
        }
      }),
    );
    const fill_s = (performance.now() - started) / 1000;

    const joined_at = performance.now();
    const joined = await joinMembers(leader.rest, [{ node_id: 2, peer: learner.peer, identity: cluster.identities[1]! }], () => {});
    if (!joined) throw new Error('JoinNode is not served by this build');
    await until(
      async () => {
        const s = await groupStatus(leader);
        return s.nodes.some((n) => n.nodeId === '2' && n.role === 'NODE_ROLE_FOLLOWER') ? s : undefined;
      },
      'the learner is promoted to voter',
      o.catchup_wait_ms,
    );
    const catchup_ms = performance.now() - joined_at;
    const count = await rest(learner, 'POST', '/v1/query/cypher', { query: 'MATCH (n:Fill) RETURN count(n) AS c', readPreference: 'READ_PREFERENCE_SECONDARY' });
    const rows = (count.json.rows ?? []) as { values: { intValue?: string }[] }[];
    return {
      entries: o.entries,
      fill_s,
      fill_writes_per_s: o.entries / fill_s,
      catchup_ms,
      learner_log_first_index: firstLogIndex(join(cluster.dir, 'member-2', 'log')),
      learner_nodes: Number(rows[0]?.values[0]?.intValue ?? -1),
      leader_rss_peak_mb: rssPeakMb(leader.pid),
      learner_rss_peak_mb: rssPeakMb(learner.pid),
    };
  } finally {
    client.close();
    await cluster.stop();
    rmSync(cluster.dir, { recursive: true, force: true });
  }
}

function firstLogIndex(dir: string): number {
  const firsts = readdirSync(dir)
    .filter((f) => f.endsWith('.seg'))
    .map((f) => Number(f.slice(0, -'.seg'.length)));
  return Math.min(...firsts);
}

function rssPeakMb(pid: number): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m === null ? 0 : Number(m[1]) / 1024;
  } catch {
    return 0;
  }
}
