import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { default_trust_domain } from '../../src/cli/certs-command.js';
import { joinMembers, startLocalCluster } from '../../src/cli/cluster-command.js';
import { freeLoopbackPort, type MemberProcess } from '../../src/cli/member-process.js';
import { snapshot_sync_bytes_first } from '../../src/log/driver/snapshot-file-store.js';
import { LinkProxy } from '../chaos/link-proxy.js';
import { fillEmbedded } from '../support/embedded-fill.js';
import { groupStatus, rest, until } from '../support/group-rest.js';
import { sample, scrape } from '../support/metrics-text.js';
import { emptySmallDisk, fillSmallDiskLeaving, freeBytes, mountSmallDisk, unmountSmallDisk } from '../support/small-disk.js';

/**
 * A learner whose disk fills while it installs a snapshot from the leader (docs/cluster.md, "A full
 * disk"): member 2's data directory is a tmpfs. The transfer is slowed by a link proxy; once the
 * learner recorded its last progress before the end, the disk is filled (sized from statfs) so that
 * exactly the rest of the snapshot's bytes fit: the snapshot is received whole, and the first thing
 * installing it writes (its meta) does not fit. The learner must not fail its log: it waits, says
 * `disk full`, and once the space is given back it installs, is promoted and holds the leader's
 * state, without a restart.
 */
const entries = 4_000;
const segment_bytes = 64 << 10;
const args = ['--log-segment-bytes-max', String(segment_bytes), '--checkpoint-interval-entries', String(entries / 4)];
const disk_bytes = 32 * 1024 * 1024;
const wait_ms_max = 60_000;

/** Bytes of the disk the file at `path` holds (its allocated blocks). */
const allocated = (path: string): number => (existsSync(path) ? statSync(path).blocks * 512 : 0);

async function ready(m: MemberProcess): Promise<{ status: number; reason: string }> {
  const res = await fetch(`http://${m.ops}/ready`, { signal: AbortSignal.timeout(5_000) });
  const body = (await res.json()) as { reason?: string };
  return { status: res.status, reason: body.reason ?? '' };
}

async function nodeCount(m: MemberProcess): Promise<number> {
  const r = await rest(m, 'POST', '/v1/query/cypher', { query: 'MATCH (n:Fill) RETURN count(n) AS c', readPreference: 'READ_PREFERENCE_SECONDARY' });
  if (r.status !== 200) throw new Error(`count on member ${m.node_id}: ${r.status} ${JSON.stringify(r.json)}`);
  return Number(((r.json.rows ?? []) as { values: { intValue?: string }[] }[])[0]?.values[0]?.intValue ?? -1);
}

describe('a snapshot installed on a full disk', () => {
  it('the learner waits for space instead of failing its log, then installs, is promoted and holds the leader\'s state', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-snapshot-disk-full-'));
    const disk = join(dir, 'member-2');
    mountSmallDisk(disk, disk_bytes);
    const peer_ports = [await freeLoopbackPort(), await freeLoopbackPort()] as const;
    await fillEmbedded({
      data_dir: join(dir, 'member-1'),
      entries,
      concurrency: 64,
      payload: 'x'.repeat(256),
      log_segment_bytes_max: segment_bytes,
      checkpoint_interval_entries: entries / 4,
      self: { address: `127.0.0.1:${peer_ports[0]}`, identity: `spiffe://${default_trust_domain}/member/1` },
    });
    // Member 1 dials member 2 through the proxy, slowed so the transfer is caught before its end.
    const proxy = await LinkProxy.start(`127.0.0.1:${peer_ports[1]}`);
    const cluster = await startLocalCluster({ members: 2, join: false, dir, peer_ports, args: [...args, '--peer-dial-overrides', `127.0.0.1:${peer_ports[1]}=${proxy.address}`] });
    const [leader, learner] = cluster.members as [MemberProcess, MemberProcess];
    try {
      const checkpoints = readdirSync(join(dir, 'member-1', 'checkpoints')).filter((f) => f.endsWith('.ckpt')).sort();
      const snapshot_bytes = statSync(join(dir, 'member-1', 'checkpoints', checkpoints[checkpoints.length - 1]!)).size;
      const name = checkpoints[checkpoints.length - 1]!;
      const partial = join(disk, 'snapshot-incoming', 'partial', name);
      const progress = join(disk, 'snapshot-incoming', 'partial', 'progress');
      const recorded = (): number => (existsSync(progress) ? (JSON.parse(readFileSync(progress, 'utf8')) as { bytes: number }).bytes : 0);
      // Past its first progress record the transfer records none until its end (snapshot_sync_bytes_first).
      expect(snapshot_bytes).toBeGreaterThan(snapshot_sync_bytes_first);
      expect(snapshot_bytes).toBeLessThan(2 * snapshot_sync_bytes_first);
      proxy.set({ kind: 'delay', ms: 100 });
      expect(await joinMembers(leader.rest, [{ node_id: 2, peer: learner.peer, identity: cluster.identities[1]! }], () => {})).toBe(true);
      await until(async () => (recorded() >= snapshot_sync_bytes_first ? true : undefined), 'the learner recorded its progress past the first MiB', wait_ms_max);
      // Leave room for the rest of the snapshot's pages only; chunks landing meanwhile free none.
      const whole = Math.ceil(snapshot_bytes / 4096) * 4096;
      let left = 0;
      for (let i = 0; i < 3; i++) left = fillSmallDiskLeaving(disk, Math.max(0, whole - allocated(partial)));
      console.log(`snapshot ${snapshot_bytes} bytes, ${allocated(partial)} on the learner's disk; ${left} bytes left free`);
      expect(allocated(partial)).toBeLessThan(whole);
      const said = await until(async () => {
        const r = await ready(learner);
        return r.reason.startsWith('disk full') || r.reason.startsWith('log failed') ? r.reason : undefined;
      }, 'the learner says its disk is full', wait_ms_max).catch(async (e: unknown) => {
        const m = await scrape(learner.ops);
        console.log(m.split('\n').filter((l) => /snapshot_receives|disk_full|checkpoints_refused/.test(l) && !l.startsWith('#')).join('\n'));
        console.log(learner.output().slice(-3000));
        console.log(JSON.stringify(await groupStatus(leader)));
        throw e;
      });
      const metrics = await scrape(learner.ops);
      console.log(`learner: ${said}; received ${sample(metrics, 'graphdb_snapshot_receives_total{outcome="complete"}')}, refused ${sample(metrics, 'graphdb_snapshot_receives_total{outcome="refused"}')}, refusals ${sample(metrics, 'graphdb_disk_full_refusals_total')}, free ${freeBytes(disk)}`);
      expect(said).toMatch(/^disk full: .*ENOSPC/);
      // The snapshot arrived whole: what waits is its install.
      expect(sample(metrics, 'graphdb_snapshot_receives_total{outcome="complete"}')).toBe(1);
      expect(sample(metrics, 'graphdb_disk_full_refusals_total')).toBeGreaterThanOrEqual(1);
      // It stays waiting (not failed) while the disk is full.
      await new Promise((r) => setTimeout(r, 1_000));
      expect((await ready(learner)).reason).toMatch(/^disk full/);
      emptySmallDisk(disk);
      await until(async () => ((await groupStatus(leader)).nodes.some((n) => n.nodeId === '2' && n.role === 'NODE_ROLE_FOLLOWER') ? true : undefined), 'the learner is promoted', wait_ms_max);
      expect((await ready(learner)).status).toBe(200);
      expect(await nodeCount(learner)).toBe(entries);
      expect(sample(await scrape(learner.ops), 'graphdb_disk_full')).toBe(0);
    } finally {
      await cluster.stop();
      await proxy.close();
      unmountSmallDisk(disk);
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
