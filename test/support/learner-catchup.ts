import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGrpcClient } from '../../src/api/grpc-client.js';
import { default_trust_domain } from '../../src/cli/certs-command.js';
import { joinMembers, type LocalCluster, startLocalCluster } from '../../src/cli/cluster-command.js';
import { freeLoopbackPort, type MemberProcess } from '../../src/cli/member-process.js';
import { fillEmbedded } from './embedded-fill.js';
import { GraphService } from '../../src/gen/weft/v1/graph_pb.js';
import { groupStatus, rest, until } from './group-rest.js';

/**
 * A learner joining a group whose log it can no longer read from the start (issue 11, membership
 * under load): member 1 alone takes `entries` writes with small log segments and frequent
 * checkpoints, so the segments behind its newest checkpoint are deleted; member 2 is then joined,
 * must be sent the checkpoint as a snapshot, catch up from the log after it, and be promoted. The
 * process test runs it small; `npm run bench:learner-catchup` runs it at a million entries.
 *
 * The fill is 'replicated' (writes over gRPC to the serving leader) or 'embedded' (the leader's data
 * directory filled in this process before it serves, embedded-fill.ts: the same write path and the
 * same one entry per write, without a network round trip each, which is what makes a million
 * entries take minutes rather than hours here). Either way every node carries its write's `seq`, and
 * the learner's state is compared with the leader's by count, sum and bounds of `seq`.
 */
export interface CatchUpOptions {
  readonly entries: number;
  /** Writers filling the log at once. */
  readonly concurrency: number;
  /** Bound on the catch-up (join to promotion). */
  readonly catchup_wait_ms: number;
  readonly fill?: 'replicated' | 'embedded';
}

/** A member's state summed: equal digests on two members mean the same set of `seq`s (with overwhelming likelihood). */
export interface FillDigest {
  readonly count: number;
  readonly seq_sum: string;
  readonly seq_min: string;
  readonly seq_max: string;
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
  /** Peak resident memory of each process over its life, from /proc (0 where /proc is missing). */
  readonly leader_rss_peak_mb: number;
  readonly learner_rss_peak_mb: number;
  /** The leader's resident memory just before the join, and its highest sample during the catch-up. */
  readonly leader_rss_before_join_mb: number;
  readonly leader_rss_catchup_peak_mb: number;
  /** The learner's highest resident memory sampled during the catch-up. */
  readonly learner_rss_catchup_peak_mb: number;
  /** Size of the checkpoint the leader shipped (its newest at the join). */
  readonly snapshot_mb: number;
  readonly leader_digest: FillDigest;
  readonly learner_digest: FillDigest;
}

const payload = 'x'.repeat(256);
/** Small segments, so whole segments fall behind a checkpoint and are deleted. */
const segment_bytes = 256 << 10;

export async function learnerCatchUp(o: CatchUpOptions): Promise<CatchUpReport> {
  const checkpoint_every = Math.max(100, Math.floor(o.entries / 4));
  const args = ['--log-segment-bytes-max', String(segment_bytes), '--checkpoint-interval-entries', String(checkpoint_every)];
  let fill_s = 0;
  let cluster: LocalCluster;
  if (o.fill === 'embedded') {
    const dir = mkdtempSync(join(tmpdir(), 'weft-catchup-'));
    const peer_ports = [await freeLoopbackPort(), await freeLoopbackPort()];
    const filled = await fillEmbedded({
      data_dir: join(dir, 'member-1'),
      entries: o.entries,
      concurrency: o.concurrency,
      payload,
      log_segment_bytes_max: segment_bytes,
      checkpoint_interval_entries: checkpoint_every,
      self: { address: `127.0.0.1:${peer_ports[0]}`, identity: `spiffe://${default_trust_domain}/member/1` },
    });
    fill_s = filled.fill_s;
    // Member 1 loads the filled checkpoint and replays the log after it before it serves.
    cluster = await startLocalCluster({ members: 2, join: false, dir, peer_ports, args, start_wait_ms: o.catchup_wait_ms });
  } else {
    cluster = await startLocalCluster({ members: 2, join: false, args });
  }
  const [leader, learner] = cluster.members as [MemberProcess, MemberProcess];
  const client = createGrpcClient(GraphService, leader.grpc);
  try {
    if (o.fill !== 'embedded') {
      let written = 0;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: o.concurrency }, async () => {
          while (written < o.entries) {
            const seq = BigInt(written++);
            await client.createNode({
              labels: ['Fill'],
              properties: { payload: { kind: { case: 'stringValue' as const, value: payload } }, seq: { kind: { case: 'intValue' as const, value: seq } } },
            });
          }
        }),
      );
      fill_s = (performance.now() - started) / 1000;
    }

    const snapshot_mb = newestCheckpointMb(join(cluster.dir, 'member-1', 'checkpoints'));
    const leader_rss_before_join_mb = rssMb(leader.pid, 'VmRSS');
    const sampler = new RssSampler([leader.pid, learner.pid]);
    const joined_at = performance.now();
    try {
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
    } finally {
      sampler.stop();
    }
    const catchup_ms = performance.now() - joined_at;
    // A sum over a million nodes on a busy machine can take longer than an ordinary call's bound.
    const leader_digest = await digest(leader, 'READ_PREFERENCE_PRIMARY', o.catchup_wait_ms);
    const learner_digest = await digest(learner, 'READ_PREFERENCE_SECONDARY', o.catchup_wait_ms);
    return {
      entries: o.entries,
      fill_s,
      fill_writes_per_s: o.entries / fill_s,
      catchup_ms,
      learner_log_first_index: firstLogIndex(join(cluster.dir, 'member-2', 'log')),
      learner_nodes: learner_digest.count,
      leader_rss_peak_mb: rssMb(leader.pid, 'VmHWM'),
      learner_rss_peak_mb: rssMb(learner.pid, 'VmHWM'),
      leader_rss_before_join_mb,
      leader_rss_catchup_peak_mb: sampler.peakMb(leader.pid),
      learner_rss_catchup_peak_mb: sampler.peakMb(learner.pid),
      snapshot_mb,
      leader_digest,
      learner_digest,
    };
  } finally {
    client.close();
    await cluster.stop();
    rmSync(cluster.dir, { recursive: true, force: true });
  }
}

/** Count, sum and bounds of `seq` over the Fill nodes `m` serves. */
async function digest(m: MemberProcess, readPreference: string, timeout_ms: number): Promise<FillDigest> {
  const r = await rest(
    m,
    'POST',
    '/v1/query/cypher',
    { query: 'MATCH (n:Fill) RETURN count(n) AS c, sum(n.seq) AS s, min(n.seq) AS lo, max(n.seq) AS hi', readPreference },
    timeout_ms,
  );
  if (r.status !== 200) throw new Error(`digest query on member ${m.node_id}: ${r.status} ${JSON.stringify(r.json)}`);
  const values = ((r.json.rows ?? []) as { values: { intValue?: string }[] }[])[0]?.values ?? [];
  return { count: Number(values[0]?.intValue ?? -1), seq_sum: values[1]?.intValue ?? '', seq_min: values[2]?.intValue ?? '', seq_max: values[3]?.intValue ?? '' };
}

function newestCheckpointMb(dir: string): number {
  const names = readdirSync(dir).filter((f) => f.endsWith('.ckpt')).sort();
  const newest = names[names.length - 1];
  return newest === undefined ? 0 : statSync(join(dir, newest)).size / 2 ** 20;
}

/** Samples each process's resident memory every `sample_ms` while a phase runs. */
class RssSampler {
  private readonly peaks = new Map<number, number>();
  private readonly timer: NodeJS.Timeout;

  constructor(pids: readonly number[], sample_ms = 100) {
    const sample = (): void => {
      for (const pid of pids) this.peaks.set(pid, Math.max(this.peaks.get(pid) ?? 0, rssMb(pid, 'VmRSS')));
    };
    sample();
    this.timer = setInterval(sample, sample_ms);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  peakMb(pid: number): number {
    return this.peaks.get(pid) ?? 0;
  }
}

function firstLogIndex(dir: string): number {
  const firsts = readdirSync(dir)
    .filter((f) => f.endsWith('.seg'))
    .map((f) => Number(f.slice(0, -'.seg'.length)));
  return Math.min(...firsts);
}

/** A memory figure of /proc/<pid>/status in MiB: VmRSS now, VmHWM the peak (0 where /proc is missing). */
function rssMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m === null ? 0 : Number(m[1]) / 1024;
  } catch {
    return 0;
  }
}
