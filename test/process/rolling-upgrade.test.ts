import { describe, expect, it } from 'vitest';
import type { MemberProcess } from '../../src/cli/member-process.js';
import { createGrpcClient } from '../../src/api/grpc-client.js';
import { GraphService } from '../../src/gen/weft/v1/graph_pb.js';
import { allMatched, leaderOf, metric, new_format, old_format, rest, until, UpgradeGroup, version, type VersionJson } from './upgrade-group.js';
import { WriteLoad } from './write-load.js';

const log = (line: string): void => void process.stderr.write(`rolling upgrade: ${line}\n`);

async function keys(m: MemberProcess, label: string): Promise<Set<string>> {
  const r = await rest(m, 'POST', '/v1/query/cypher', { query: `MATCH (n:${label}) RETURN n.k AS k` });
  if (r.status !== 200) throw new Error(`query answered ${r.status}: ${JSON.stringify(r.json)}`);
  const rows = (r.json.rows ?? []) as { values: { stringValue?: string }[] }[];
  return new Set(rows.map((row) => row.values[0]?.stringValue ?? ''));
}

/** Polls /version of `members` until `stop` resolves, keeping the longest pause_ms any of them reported. */
function watchPauses(members: () => MemberProcess[], stop: Promise<void>): Promise<number> {
  let longest = 0;
  let stopped = false;
  void stop.then(() => (stopped = true));
  return (async () => {
    while (!stopped) {
      for (const m of members()) {
        const v = await version(m).catch(() => undefined);
        if (v?.pause_ms !== null && v?.pause_ms !== undefined) longest = Math.max(longest, v.pause_ms);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    return longest;
  })();
}

/**
 * SPEC 9.5 on three `weft serve` processes under a steady write load: the non-leaders are updated one
 * at a time, the second update completes the new majority and starts the one write pause, which ends
 * when a member at the new version leads and has recorded the version; the old leader goes last.
 */
describe('rolling upgrade of a 3-member group (SPEC 9.5)', () => {
  it('moves the group to the new version with exactly one write pause and no acknowledged write lost', async () => {
    const g = await UpgradeGroup.start(3, log);
    const load = new WriteLoad(() => g.running(), 'W');
    let endWatch: () => void = () => {};
    const watched = watchPauses(() => g.running(), new Promise<void>((r) => (endWatch = r)));
    try {
      await allMatched(g, old_format, 3);
      const leader = await until(() => leaderOf(g.member(1)), 'a leader is known');
      const [first, second] = [1, 2, 3].filter((id) => id !== leader) as [number, number];
      log(`leader ${leader}; updating ${first}, then ${second}, then ${leader}`);
      load.start();
      await until(async () => (load.acked.length >= 20 ? true : undefined), 'the load writes');

      // 1. The first non-leader: it runs the new version alone, so it is read-only; the group writes on.
      const updated = await g.update(first, new_format);
      const ro = await until(async () => {
        const v = await version(updated);
        return v.read_only !== null && v.read_only.leader !== null ? v : undefined;
      }, `member ${first} reports itself read-only with the leader`);
      expect(ro.pair).toEqual({ engine: new_format, host_epoch: 0 });
      expect(ro.group_pair.pair).toEqual({ engine: old_format, host_epoch: 0 });
      expect(ro.read_only).toMatchObject({ reason: 'MEMBER_READ_ONLY', behind: false, leader: { node_id: leader } });
      expect(ro.majority_pair).toEqual({ engine: old_format, host_epoch: 0 });
      // A write there is refused, not forwarded, with the metadata of SPEC 7; a read is served as of what it applied.
      const refused = await rest(updated, 'POST', '/v1/graph/nodes', { labels: ['Probe'], properties: {} });
      expect(refused.status).toBe(400);
      expect(refused.json).toMatchObject({
        code: 'FAILED_PRECONDITION',
        reason: 'MEMBER_READ_ONLY',
        metadata: {
          member_engine_format: String(new_format),
          member_host_epoch: '0',
          group_engine_format: String(old_format),
          group_host_epoch: '0',
          behind: 'false',
          leader_id: String(leader),
        },
      });
      expect(Number((refused.json.metadata as Record<string, string>)['as_of_ts'])).toBeGreaterThan(0);
      const read = await rest(updated, 'POST', '/v1/query/cypher', { query: 'MATCH (n:W) RETURN count(n) AS c' });
      expect(read.status, JSON.stringify(read.json)).toBe(200);
      expect(Number((read.json.stats as { readAsOfTs: string }).readAsOfTs)).toBeGreaterThan(0);
      // The same refusal on gRPC, for a Cypher write, a transaction and a read that must be current.
      const grpc = createGrpcClient(GraphService, updated.grpc);
      try {
        await expect(grpc.createNode({ labels: ['Probe'] })).rejects.toMatchObject({ code: 'FAILED_PRECONDITION', reason: 'MEMBER_READ_ONLY' });
      } finally {
        grpc.close();
      }
      for (const [path, body] of [
        ['/v1/query/cypher', { query: 'CREATE (:Probe)', readPreference: 'READ_PREFERENCE_SECONDARY' }],
        ['/v1/query/transaction/begin', {}],
        ['/v1/query/cypher', { query: 'MATCH (n:W) RETURN count(n)', readConcern: { level: 'READ_CONCERN_LEVEL_LINEARIZABLE' } }],
      ] as const) {
        const r = await rest(updated, 'POST', path, body);
        expect([r.status, r.json.reason], `${path} ${JSON.stringify(body)}`).toEqual([400, 'MEMBER_READ_ONLY']);
      }
      expect(await metric(updated, 'graphdb_version_read_only')).toBe(1);
      expect(await metric(updated, 'graphdb_version_refused_writes_total')).toBeGreaterThanOrEqual(1);
      const before_pause = load.pauses().length;

      // 2. The second non-leader completes the new majority: the one write pause, until it or the first leads at the new version.
      await g.update(second, new_format);
      const moved = await until(async () => {
        const v = await version(g.member(second));
        return v.read_only === null && v.group_pair.pair.engine === new_format ? v : undefined;
      }, 'the new majority records the new version');
      expect(moved.group_pair.seq).toBe(2);
      await until(async () => (load.pauses().length > before_pause ? true : undefined), 'writes resume after the pause');

      // The old leader now runs a version its group moved past: read-only and behind.
      const old = await until(async () => {
        const v = await version(g.member(leader));
        return v.read_only?.behind === true ? v : undefined;
      }, `member ${leader} learns the group moved past it`);
      expect(old.group_pair.pair.engine).toBe(new_format);
      expect(await metric(g.member(leader), 'graphdb_version_refused_calls_total')).toBeGreaterThan(0);

      // 3. The old leader last.
      await g.update(leader, new_format);
      const reports: VersionJson[] = await allMatched(g, new_format, 3);
      expect(reports.map((r) => r.group_pair)).toEqual([1, 2, 3].map(() => ({ pair: { engine: new_format, host_epoch: 0 }, seq: 2 })));
      await until(async () => (load.acked.length >= before_pause + 20 ? true : undefined), 'the load writes after the upgrade');
      await load.stop();
      endWatch();

      const pauses = load.pauses();
      const writer = await until(() => leaderOf(g.member(first)), 'the new leader is known');
      const last_pause_s = await metric(g.member(writer), 'graphdb_version_last_pause_seconds');
      log(
        `writes: ${load.attempts.length} attempted, ${load.acked.length} acknowledged; pauses seen by the client: ` +
          pauses.map((p) => `${p.to_ms - p.from_ms} ms (${p.failed} failed writes)`).join(', ') +
          `; longest pause_ms on /version ${await watched} ms; graphdb_version_last_pause_seconds on the new leader ${last_pause_s}`,
      );
      expect(pauses).toHaveLength(1);
      const stored = await until(async () => {
        const k = await keys(g.member(writer), 'W');
        return load.acked.every((a) => k.has(a)) ? k : undefined;
      }, 'every acknowledged write is on the new leader', 10_000).catch(() => undefined);
      const missing = load.acked.filter((a) => stored === undefined || !stored.has(a));
      expect(missing).toEqual([]);
    } finally {
      endWatch();
      await load.stop();
      await g.stop();
    }
  }, 120_000);
});
