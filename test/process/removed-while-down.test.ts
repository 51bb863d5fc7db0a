import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { authorityFiles } from '../../src/cli/certs-command.js';
import { startLocalCluster } from '../../src/cli/cluster-command.js';
import { type MemberProcess, startMemberProcess } from '../../src/cli/member-process.js';
import { groupStatus, rest, rest_call_timeout_ms, until, votersReady } from '../support/group-rest.js';

/**
 * A member removed while it was down learns it when it comes back (issue 11, remove a DOWN member).
 * Four `weft serve` processes: member 4 is paused (SIGSTOP) and removed, member 3 is killed
 * (SIGKILL) and removed; then 4 resumes and 3 restarts from its data directory, both still believing
 * they are voters. Each must report itself removed (its API refuses MEMBER_REMOVED) and leave the
 * group alone: the leader and the raft_term the survivors report do not move.
 */
const tick_ms = 50;
/** Election timeouts the survivors are watched for after both returned and learned. */
const quiet_election_timeouts = 4;
const election_ticks = 10;

async function removeNode(leader: MemberProcess, id: number): Promise<void> {
  const res = await fetch(`http://${leader.rest}/v1/admin/cluster/nodes/${id}`, { method: 'DELETE', signal: AbortSignal.timeout(rest_call_timeout_ms) });
  expect(res.status, await res.text()).toBe(200);
}

/** True once `m` refuses a write because it was removed from its group. */
async function reportsRemoved(m: MemberProcess): Promise<true | undefined> {
  const r = await rest(m, 'POST', '/v1/graph/nodes', { labels: ['Late'], properties: {} });
  return r.json['reason'] === 'MEMBER_REMOVED' ? true : undefined;
}

describe('a member removed while it was down', () => {
  it('paused and removed, or killed and removed: back again, it learns it was removed and the group keeps its leader and term', async () => {
    const cluster = await startLocalCluster({ members: 4, args: ['--tick-ms', String(tick_ms)] });
    const extra: MemberProcess[] = [];
    try {
      expect(cluster.joined).toBe(true);
      const [one, two, three, four] = cluster.members as [MemberProcess, MemberProcess, MemberProcess, MemberProcess];
      await votersReady(one, 4);
      expect((await rest(two, 'POST', '/v1/graph/nodes', { labels: ['Early'], properties: {} })).status).toBe(200);

      four.signal('SIGSTOP');
      await removeNode(one, 4);
      await three.kill();
      await removeNode(one, 3);
      const before = await votersReady(one, 2);
      expect(before.leaderId).toBe('1');

      four.signal('SIGCONT');
      const certs = join(cluster.dir, 'certs');
      const again = await startMemberProcess({
        node_id: 3,
        data_dir: join(cluster.dir, 'member-3'),
        peer_port: Number(three.peer.split(':')[1]),
        args: ['--tick-ms', String(tick_ms), '--tls-ca-file', authorityFiles(certs).ca_file, '--tls-cert-file', join(certs, 'member-3.crt'), '--tls-key-file', join(certs, 'member-3.key')],
        env: { WEFT_JOIN_WAIT: 'true' },
      });
      extra.push(again);
      await until(() => reportsRemoved(four), 'the resumed member 4 reports itself removed');
      await until(() => reportsRemoved(again), 'the restarted member 3 reports itself removed');

      await new Promise((r) => setTimeout(r, quiet_election_timeouts * election_ticks * tick_ms));
      for (const m of [one, two]) {
        const after = await groupStatus(m);
        expect([after.leaderId, after.raftTerm], `member ${m.node_id}'s leader and term`).toEqual([before.leaderId, before.raftTerm]);
      }
      // The group still takes writes with its two members.
      expect((await rest(two, 'POST', '/v1/graph/nodes', { labels: ['After'], properties: {} })).status).toBe(200);
    } finally {
      await Promise.all(extra.map((m) => m.stop()));
      await cluster.stop();
      rmSync(cluster.dir, { recursive: true, force: true });
    }
  }, 120_000);
});
