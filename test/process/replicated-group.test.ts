import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startLocalCluster } from '../../src/cli/cluster-command.js';
import type { MemberProcess } from '../../src/cli/member-process.js';
import { groupStatus as status, rest, until } from '../support/group-rest.js';

async function names(m: MemberProcess): Promise<string[]> {
  const r = await rest(m, 'POST', '/v1/query/cypher', { query: 'MATCH (p:Person) RETURN p.name AS name', readPreference: 'READ_PREFERENCE_SECONDARY' });
  if (r.status !== 200) throw new Error(`query ${r.status}`);
  const rows = (r.json.rows ?? []) as { values: { stringValue?: string }[] }[];
  return rows.map((row) => row.values[0]?.stringValue ?? '').sort();
}

/**
 * Three `weft serve` processes with certificates: member 1 founds the group, 2 and 3 are joined
 * through JoinNode; writes go through a follower; the leader is killed with SIGKILL; every
 * acknowledged write is then read back on both survivors.
 */
describe('a replicated group of processes', () => {
  it('joins 2 and 3, writes through a follower, survives SIGKILL of the leader with every acknowledged write', async () => {
    const cluster = await startLocalCluster({ members: 3, args: ['--tick-ms', '50'] });
    try {
      expect(cluster.joined).toBe(true);
      const [one, two, three] = cluster.members as [MemberProcess, MemberProcess, MemberProcess];
      await until(async () => {
        const s = await status(one);
        return s.nodes.filter((n) => n.role !== 'NODE_ROLE_LEARNER').length === 3 ? s : undefined;
      }, 'members 2 and 3 are voters');

      const acked: string[] = [];
      for (let i = 0; i < 20; i++) {
        const r = await rest(two, 'POST', '/v1/graph/nodes', { labels: ['Person'], properties: { name: { stringValue: `w${i}` } } });
        expect(r.status, JSON.stringify(r.json)).toBe(200);
        acked.push(`w${i}`);
      }
      process.kill(one.pid, 'SIGKILL');
      const survivors = [two, three];
      const leader = await until(async () => {
        const s = await status(two);
        return s.leaderId === '2' || s.leaderId === '3' ? s.leaderId : undefined;
      }, 'a survivor leads');
      expect(['2', '3']).toContain(leader);
      for (let i = 0; i < 10; i++) {
        const via = survivors[i % 2]!;
        const r = await until(async () => {
          const a = await rest(via, 'POST', '/v1/graph/nodes', { labels: ['Person'], properties: { name: { stringValue: `after${i}` } } });
          return a.status === 200 ? a : undefined;
        }, `write after${i} is acknowledged`);
        expect(r.status).toBe(200);
        acked.push(`after${i}`);
      }
      for (const m of survivors) {
        const seen = await until(async () => {
          const n = await names(m);
          return n.length === acked.length ? n : undefined;
        }, `member ${m.node_id} holds every acknowledged write`);
        expect(seen).toEqual([...acked].sort());
      }
    } finally {
      await cluster.stop();
      rmSync(cluster.dir, { recursive: true, force: true });
    }
  }, 120_000);
});
