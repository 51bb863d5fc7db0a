import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startLocalCluster } from '../../src/cli/cluster-command.js';
import type { MemberProcess } from '../../src/cli/member-process.js';
import { connect } from '../../src/client/index.js';
import { groupStatus, until, votersReady } from '../support/group-rest.js';

/**
 * The SDK against a real group of three `weft serve` processes: a client given only a follower's
 * address learns the leader, writes, and when the leader is killed with SIGKILL it finds the new
 * leader and its next write succeeds; a client given every address passes over the dead one. Every
 * acknowledged write is on both survivors, each exactly once.
 */
describe('SDK leader discovery in a replicated group', () => {
  it('a client on a follower follows the leader through a SIGKILL and loses no acknowledged write', async () => {
    const cluster = await startLocalCluster({ members: 3, args: ['--tick-ms', '50'] });
    const members = cluster.members as readonly MemberProcess[];
    try {
      expect(cluster.joined).toBe(true);
      const before = await votersReady(members[0]!, 3);
      const old_leader = members.find((m) => String(m.node_id) === before.leaderId)!;
      const follower = members.find((m) => m !== old_leader)!;
      const other = members.find((m) => m !== old_leader && m !== follower)!;

      const client = connect(follower.grpc, { retry_wait_ms: 50 });
      const every = connect(members.map((m) => m.grpc), { retry_wait_ms: 50 });
      try {
        const seen = await client.leader();
        expect(seen.leader_id).toBe(before.leaderId);
        // The status names the leader's own gRPC address: the client dials the leader there.
        expect(seen.entry).toBe(old_leader.grpc);

        const acked: string[] = [];
        for (let i = 0; i < 10; i++) {
          const n = await client.createNode(['Person'], { name: `w${i}` });
          expect(n.labels).toEqual(['Person']);
          acked.push(`w${i}`);
        }

        process.kill(old_leader.pid, 'SIGKILL');
        await old_leader.exited;
        // The first write after the kill: it is retried (it carries an OperationRef) until the
        // survivors elect a leader, then acknowledged.
        await client.createNode(['Person'], { name: 'after0' });
        acked.push('after0');
        const now = await client.leader();
        expect([String(follower.node_id), String(other.node_id)]).toContain(now.leader_id);
        expect(now.raft_term).toBeGreaterThan(BigInt(before.raftTerm));
        expect(now.entry).toBe(members.find((m) => String(m.node_id) === now.leader_id)!.grpc);
        for (let i = 1; i < 5; i++) {
          await client.createNode(['Person'], { name: `after${i}` });
          acked.push(`after${i}`);
        }
        // The client that knows every member skips the dead one.
        await every.createNode(['Person'], { name: 'via-every' });
        acked.push('via-every');
        expect((await every.leader()).leader_id).toBe(now.leader_id);

        // A PRIMARY read sees every acknowledged write once; SECONDARY_PREFERRED reads, sent to any
        // member, see them too once the members applied them.
        const names = async (c: typeof client, pref: 'PRIMARY' | 'SECONDARY_PREFERRED'): Promise<string[]> =>
          (await c.query<{ name: string }>('MATCH (p:Person) RETURN p.name AS name', {}, { readPreference: pref })).rows.map((r) => r.name).sort();
        expect(await names(client, 'PRIMARY')).toEqual([...acked].sort());
        for (let k = 0; k < 4; k++) {
          await until(async () => ((await names(every, 'SECONDARY_PREFERRED')).length === acked.length ? true : undefined), 'a secondary read sees every write', 15_000);
        }
        for (const m of [follower, other]) {
          const s = await groupStatus(m);
          expect(s.leaderId).toBe(now.leader_id);
        }
      } finally {
        client.close();
        every.close();
      }
    } finally {
      await cluster.stop();
      rmSync(cluster.dir, { recursive: true, force: true });
    }
  }, 90_000);
});
