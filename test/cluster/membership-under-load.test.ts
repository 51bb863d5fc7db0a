import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connect } from '../../src/client/index.js';
import type { RunningServer } from '../../src/server/server.js';
import { MemoryHub } from '../support/memory-transport.js';
import { identity, rest, startMember } from './servers.js';
import { until } from './support.js';

/**
 * Shrinking a group while writes flow (issue 11, membership under load): four whole servers in this
 * process, writers creating nodes through the SDK (at-most-once creations, retried across a change
 * of leader), the leader decommissioned, then a stopped member removed. Every acknowledged creation
 * must be on every remaining member exactly once, and a removed member must stop serving.
 */
let servers: RunningServer[] = [];
let root = '';
afterEach(async () => {
  for (const s of servers.splice(0).reverse()) await s.stop();
  if (root !== '') rmSync(root, { recursive: true, force: true });
  root = '';
});

const writers = 4;
/** Acknowledged writes to wait for between steps, so each change happens under load. */
const acked_between_steps = 40;

function names(s: RunningServer): string[] {
  return [...s.db.latestCommitted().nodesWithLabel('W')].map((n) => String(n.props.get('name')));
}

describe('membership changes under a steady write load', () => {
  it('the leader is decommissioned and a stopped member removed while writers run: no acknowledged write is lost or doubled, the removed members stop serving', async () => {
    root = mkdtempSync(join(tmpdir(), 'weft-membership-load-'));
    const hub = new MemoryHub();
    const start = async (id: number, join_wait: boolean): Promise<RunningServer> => {
      const s = await startMember(hub, root, id, join_wait);
      servers.push(s);
      return s;
    };
    const one = await start(1, false);
    const others = [await start(2, true), await start(3, true), await start(4, true)];
    for (const id of [2, 3, 4]) {
      expect((await rest(one, 'POST', '/v1/admin/cluster/join', { nodeId: String(id), address: `mem:${id}`, nodeIdentity: identity(id) })).status).toBe(200);
      await until(() => one.db.log.membership.conf_state.voters.includes(id), `member ${id} is a voter`);
    }
    const [two, three, four] = others as [RunningServer, RunningServer, RunningServer];

    const client = connect(
      servers.map((s) => `127.0.0.1:${s.ports.grpc}`),
      { failover_ms_max: 30_000, retry_wait_ms: 20 },
    );
    const acked: string[] = [];
    const failed: unknown[] = [];
    let writing = true;
    const loops = Array.from({ length: writers }, async (_, w) => {
      for (let i = 0; writing; i++) {
        const name = `w${w}-${i}`;
        try {
          await client.createNode(['W'], { name });
          acked.push(name);
        } catch (e) {
          // An outcome the client could not learn: the write may or may not be there.
          failed.push(e);
        }
      }
    });
    const afterMore = async (what: string): Promise<void> => {
      const target = acked.length + acked_between_steps;
      await until(() => acked.length >= target, `${acked_between_steps} more writes acknowledged ${what}`, 60_000);
    };
    const leaderAmong = (candidates: readonly RunningServer[]): RunningServer | undefined => candidates.find((s) => s.db.log.acceptsWrites);

    try {
      await afterMore('before the decommission');
      // 1. The leader decommissions itself: leadership moves first, the new leader removes it.
      const decommissioned = await rest(one, 'POST', '/v1/admin/cluster/decommission', { nodeId: '1' });
      expect(decommissioned.status, JSON.stringify(decommissioned.json)).toBe(200);
      await until(() => one.db.log.removed, 'member 1 learned it was removed');
      await afterMore('after the decommission');

      // 2. A follower stops; the leader removes it while it is down. (Leadership moved to any of 2, 3
      // and 4 at the decommission: the member stopped is one that does not lead.)
      await until(() => leaderAmong([two, three, four]) !== undefined, 'member 2, 3 or 4 leads');
      const leader = leaderAmong([two, three, four])!;
      const stopped = leader === four ? three : four;
      const staying = [two, three, four].filter((s) => s !== stopped);
      servers.splice(servers.indexOf(stopped), 1);
      await stopped.stop();
      const removed = await rest(leader, 'DELETE', `/v1/admin/cluster/nodes/${stopped.db.log.nodeId}`);
      expect(removed.status, JSON.stringify(removed.json)).toBe(200);
      await afterMore('after the removal');
      writing = false;
      await Promise.all(loops);

      const final = leaderAmong(staying)!;
      expect(final.db.log.membership.conf_state).toEqual({ voters: staying.map((s) => s.db.log.nodeId), learners: [] });
      for (const s of staying) {
        await until(() => s.db.committedIndex >= final.db.committedIndex, `member ${s.db.log.nodeId} applied every write`);
        const held = names(s);
        const missing = acked.filter((n) => !held.includes(n));
        expect(missing, `acknowledged writes missing on member ${s.db.log.nodeId}`).toEqual([]);
        // At most once: a creation retried across the change of leader is there once.
        expect(held.length).toBe(new Set(held).size);
      }
      console.log(`membership under load: ${acked.length} writes acknowledged, ${failed.length} with an unknown outcome`);

      // The decommissioned member serves nothing but its status.
      const write = await rest(one, 'POST', '/v1/graph/nodes', { labels: ['W'], properties: {} });
      expect(write).toMatchObject({ status: 400, json: { code: 'FAILED_PRECONDITION', reason: 'MEMBER_REMOVED' } });
      const read = await rest(one, 'POST', '/v1/query/cypher', { query: 'MATCH (n:W) RETURN count(n) AS c', readPreference: 'READ_PREFERENCE_SECONDARY' });
      expect(read.json).toMatchObject({ code: 'FAILED_PRECONDITION', reason: 'MEMBER_REMOVED' });
      expect((await rest(one, 'GET', '/v1/admin/cluster/status')).status).toBe(200);
    } finally {
      writing = false;
      await Promise.all(loops);
      client.close();
    }
  });
});
