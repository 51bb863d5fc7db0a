import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startLocalCluster } from '../../src/cli/cluster-command.js';

/**
 * `weft cluster`: members as separate OS processes on loopback, each with its own certificate, and
 * all of them stopped by pid. Whether the others are joined depends on the leader serving JoinNode;
 * the launcher reports which it was.
 */
describe('local cluster launcher', () => {
  it('operator: two members start as their own processes with their own identities, answer on loopback, and stop by pid', async () => {
    const said: string[] = [];
    const cluster = await startLocalCluster({ members: 2, say: (l) => said.push(l) });
    try {
      expect(cluster.members.map((m) => m.node_id)).toEqual([1, 2]);
      expect(new Set(cluster.members.map((m) => m.pid)).size).toBe(2);
      expect(cluster.identities).toEqual(['spiffe://weft.local/member/1', 'spiffe://weft.local/member/2']);
      for (const m of cluster.members) {
        expect(m.rest).toMatch(/^127\.0\.0\.1:\d+$/);
        const health = (await (await fetch(`http://${m.ops}/health`)).json()) as { status: string };
        expect(health.status).toBe('SERVING');
      }
      expect(said.join('\n')).toMatch(cluster.joined ? /joined member 2/ : /JoinNode is not available on the leader/);
    } finally {
      await cluster.stop();
      rmSync(cluster.dir, { recursive: true, force: true });
    }
    for (const m of cluster.members) expect(() => process.kill(m.pid, 0)).toThrow();
  });
});
