import { describe, expect, it } from 'vitest';
import type { NodeId } from '../../src/log/raft/types.js';
import type { PeerAddress } from '../../src/log/transport/peer-transport.js';
import { TestGroup, until } from './support.js';

/**
 * A member joined on a leader that is not in the group's first membership, with nothing compacted:
 * the new member replays the log from its first entry, passing through memberships that do not name
 * the leader. Binding its peers to those alone refused the leader's frames and the learner never
 * caught up (chaos seed 82112). It must keep admitting the members the leader introduced until it
 * applies its own join.
 */
describe('a member joining replays the group past memberships without losing its leader', () => {
  it('every peer set it binds between the introduction and its own join names the leader', async () => {
    const g = new TestGroup();
    try {
      await g.form(2);
      g.members.get(1)!.db.log.transferLeadership(2);
      await until(() => g.members.get(2)!.db.log.acceptsWrites, 'member 2 leads');
      const three = await g.open(3, true);
      const bound: ReadonlyMap<NodeId, PeerAddress>[] = [];
      const setPeers = three.transport.setPeers.bind(three.transport);
      three.transport.setPeers = (peers) => {
        bound.push(new Map(peers));
        setPeers(peers);
      };
      await g.join(3);
      await until(() => three.db.log.membership.conf_state.voters.includes(3), 'member 3 applied its promotion');
      const introduced = bound.findIndex((p) => p.has(2));
      expect(introduced).toBeGreaterThanOrEqual(0);
      const lost = bound.slice(introduced).filter((p) => !p.has(2)).map((p) => [...p.keys()]);
      expect(lost).toEqual([]);
    } finally {
      await g.close();
    }
  });
});
