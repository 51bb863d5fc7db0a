import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { default_trust_domain } from '../../src/cli/certs-command.js';
import { joinMembers, startLocalCluster } from '../../src/cli/cluster-command.js';
import { freeLoopbackPort, type MemberProcess, startMemberProcess } from '../../src/cli/member-process.js';
import { LinkProxy } from '../chaos/link-proxy.js';
import { fillEmbedded } from '../support/embedded-fill.js';
import { groupStatus, rest, until } from '../support/group-rest.js';
import { metricNameProblems, sample, scrape } from '../support/metrics-text.js';

/**
 * A snapshot transfer cut by the link and by a restart of the learner resumes where the learner's
 * durable part ends: member 1 (its log compacted behind a checkpoint) dials member 2 through the chaos
 * harness's link proxy, which is slowed so the transfer is caught midway, then dropped; member 2
 * records its durable part as the stream breaks, is killed and started again on the same directory
 * while the link is down; once the link heals, what
 * crosses it toward member 2 is less than the snapshot, and member 2 ends with the leader's state.
 */
const entries = 40_000;
const segment_bytes = 64 << 10;
const args = ['--log-segment-bytes-max', String(segment_bytes), '--checkpoint-interval-entries', String(entries / 4)];
const wait_ms_max = 60_000;

async function nodeCount(m: MemberProcess, readPreference: string): Promise<number> {
  const r = await rest(m, 'POST', '/v1/query/cypher', { query: 'MATCH (n:Fill) RETURN count(n) AS c', readPreference });
  if (r.status !== 200) throw new Error(`count on member ${m.node_id}: ${r.status} ${JSON.stringify(r.json)}`);
  return Number(((r.json.rows ?? []) as { values: { intValue?: string }[] }[])[0]?.values[0]?.intValue ?? -1);
}

async function poll(what: string, ok: () => boolean, interval_ms = 10): Promise<void> {
  const deadline = Date.now() + wait_ms_max;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`not within ${wait_ms_max} ms: ${what}`);
    await new Promise((r) => setTimeout(r, interval_ms));
  }
}

describe('a snapshot transfer resumes after a cut link and a restarted learner', () => {
  it('cut midway, learner killed and restarted, link healed: the rest crosses the link, not the whole snapshot again, and the learner equals the leader', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-snapshot-resume-'));
    const peer_ports = [await freeLoopbackPort(), await freeLoopbackPort()] as const;
    const proxy = await LinkProxy.start(`127.0.0.1:${peer_ports[1]}`);
    await fillEmbedded({
      data_dir: join(dir, 'member-1'),
      entries,
      concurrency: 64,
      payload: 'x'.repeat(256),
      log_segment_bytes_max: segment_bytes,
      checkpoint_interval_entries: entries / 4,
      self: { address: `127.0.0.1:${peer_ports[0]}`, identity: `spiffe://${default_trust_domain}/member/1` },
    });
    // Member 1 dials member 2 through the proxy; nothing else changes.
    const cluster = await startLocalCluster({ members: 2, join: false, dir, peer_ports, args: [...args, '--peer-dial-overrides', `127.0.0.1:${peer_ports[1]}=${proxy.address}`] });
    const [leader, first] = cluster.members as [MemberProcess, MemberProcess];
    let learner: MemberProcess = first;
    try {
      const checkpoints = readdirSync(join(dir, 'member-1', 'checkpoints')).filter((f) => f.endsWith('.ckpt')).sort();
      const snapshot_bytes = statSync(join(dir, 'member-1', 'checkpoints', checkpoints[checkpoints.length - 1]!)).size;
      const partial = join(dir, 'member-2', 'snapshot-incoming', 'partial', checkpoints[checkpoints.length - 1]!);
      // Slow enough that the transfer is caught with part of it written.
      proxy.set({ kind: 'delay', ms: 200 });
      expect(await joinMembers(leader.rest, [{ node_id: 2, peer: learner.peer, identity: cluster.identities[1]! }], () => {})).toBe(true);
      await poll('half the snapshot is on the learner\'s disk', () => existsSync(partial) && statSync(partial).size >= snapshot_bytes / 2);
      proxy.set({ kind: 'drop' });
      // The learner makes what it wrote durable as the stream breaks, and records how much.
      const progress = join(dir, 'member-2', 'snapshot-incoming', 'partial', 'progress');
      const recorded = (): number => (existsSync(progress) ? (JSON.parse(readFileSync(progress, 'utf8')) as { bytes: number }).bytes : 0);
      await poll('the learner recorded a durable part', () => recorded() > 0);
      await learner.kill();
      learner = await startMemberProcess({
        node_id: 2,
        data_dir: join(dir, 'member-2'),
        peer_port: peer_ports[1],
        args: ['--tls-ca-file', join(dir, 'certs', 'ca.crt'), '--tls-cert-file', join(dir, 'certs', 'member-2.crt'), '--tls-key-file', join(dir, 'certs', 'member-2.key'), ...args],
        env: { WEFT_JOIN_WAIT: 'true' },
      });
      // The restarted learner kept the part it had made durable.
      const held = recorded();
      expect(statSync(partial).size).toBeGreaterThanOrEqual(held);
      expect(held).toBeGreaterThan(0);
      expect(held).toBeLessThan(snapshot_bytes);
      const before_heal = proxy.forwarded_bytes;
      proxy.set({ kind: 'pass' });
      await until(async () => ((await groupStatus(leader)).nodes.some((n) => n.nodeId === '2' && n.role === 'NODE_ROLE_FOLLOWER') ? true : undefined), 'the learner is promoted', wait_ms_max);
      const after_heal = proxy.forwarded_bytes - before_heal;
      console.log(`snapshot resume: snapshot ${snapshot_bytes} bytes, ${held} held by the restarted learner, ${after_heal} bytes crossed the healed link`);
      // The rest of the snapshot (and the first chunk or two of the probe that learns where to resume), the log after it and heartbeats: not the whole again.
      expect(after_heal).toBeLessThan(snapshot_bytes);
      expect(await nodeCount(learner, 'READ_PREFERENCE_SECONDARY')).toBe(entries);
      expect(readdirSync(join(dir, 'member-2', 'snapshot-incoming'))).toEqual([]);
      // /metrics tells the same story: the leader's resumed send, delivered; the restarted learner's
      // probe answered with where to resume, then the rest received whole.
      const sent = await scrape(leader.ops);
      const received = await scrape(learner.ops);
      expect(sample(sent, 'graphdb_snapshot_sends_resumed_total')).toBeGreaterThanOrEqual(1);
      expect(sample(sent, 'graphdb_snapshot_sends_delivered_total')).toBeGreaterThanOrEqual(1);
      expect(sample(sent, 'graphdb_snapshot_resumed_bytes_total')).toBeGreaterThanOrEqual(held);
      expect(sample(received, 'graphdb_snapshot_receives_total{outcome="resume_offered"}')).toBeGreaterThanOrEqual(1);
      expect(sample(received, 'graphdb_snapshot_receives_total{outcome="complete"}')).toBe(1);
      expect(sample(received, 'graphdb_snapshot_received_bytes_total')).toBeLessThanOrEqual(snapshot_bytes - held);
      expect(sample(received, 'graphdb_snapshot_sync_interval_max_bytes')).toBe(16 * 1024 * 1024);
      expect(metricNameProblems(sent)).toEqual([]);
    } finally {
      await learner.stop();
      await cluster.stop();
      await proxy.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
