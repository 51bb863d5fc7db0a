import { afterEach, describe, expect, it } from 'vitest';
import { TestGroup, majority, until } from './support.js';

let group: TestGroup | undefined;
afterEach(async () => {
  await group?.close();
  group = undefined;
});

function names(db: import('../../src/server/database.js').Database): string[] {
  return [...db.latestCommitted().nodesWithLabel('Person')].map((n) => String(n.props.get('name'))).sort();
}

describe('a replicated group in one process', () => {
  it('forms: member 1 founds the group, 2 and 3 join as learners and are promoted; writes reach every member', async () => {
    group = new TestGroup();
    await group.form(3);
    const leader = group.leader();
    expect(leader.id).toBe(1);
    expect(leader.db.log.membership.conf_state).toEqual({ voters: [1, 2, 3], learners: [] });
    for (let i = 0; i < 20; i++) {
      await leader.db.write((ws) => ws.createNode(['Person'], new Map([['name', `p${i}`]])), { concern: majority });
    }
    const expected = [...Array(20).keys()].map((i) => `p${i}`).sort();
    for (const m of group.members.values()) {
      await until(() => m.db.committedIndex >= leader.db.committedIndex, `member ${m.id} applied the writes`);
      expect(names(m.db)).toEqual(expected);
      // Every member learned the deployment and the directory of members from the log.
      expect(Buffer.from(m.db.deployment).toString('hex')).toBe(Buffer.from(leader.db.deployment).toString('hex'));
      expect(m.db.log.membership.members.map((r) => [r.node_id, r.address])).toEqual([
        [1, 'mem:1'],
        [2, 'mem:2'],
        [3, 'mem:3'],
      ]);
    }
  });

  it('a follower refuses writes with NOT_LEADER naming the leader', async () => {
    group = new TestGroup();
    await group.form(3);
    const follower = group.members.get(2)!;
    await until(() => follower.db.log.leaderId === 1, 'member 2 knows its leader');
    await expect(follower.db.write((ws) => ws.createNode(['Person'], new Map()), { concern: majority })).rejects.toMatchObject({
      code: 'UNAVAILABLE',
      reason: 'NOT_LEADER',
      metadata: { leader_id: '1', leader_addr: 'mem:1' },
    });
  });

  it('the leader dies: the others elect a new leader and every acknowledged write survives', async () => {
    group = new TestGroup();
    await group.form(3);
    const acked: string[] = [];
    const old = group.leader();
    for (let i = 0; i < 30; i++) {
      await old.db.write((ws) => ws.createNode(['Person'], new Map([['name', `a${i}`]])), { concern: majority });
      acked.push(`a${i}`);
    }
    await group.kill(old.id);
    const next = await group.awaitLeader();
    expect(next.id).not.toBe(old.id);
    for (let i = 0; i < 10; i++) {
      await next.db.write((ws) => ws.createNode(['Person'], new Map([['name', `b${i}`]])), { concern: majority });
      acked.push(`b${i}`);
    }
    for (const m of group.members.values()) {
      await until(() => m.db.committedIndex >= next.db.committedIndex, `member ${m.id} applied the writes`);
      expect(names(m.db)).toEqual([...acked].sort());
    }
  });

  it('pending writes of a leader cut off from the others are rolled back and their callers told the outcome is unknown', async () => {
    group = new TestGroup();
    await group.form(3);
    const old = group.leader();
    await old.db.write((ws) => ws.createNode(['Person'], new Map([['name', 'before']])), { concern: majority });
    group.hub.isolate(old.address);
    // Accepted by the isolated leader, applied there as pending; it can never reach a majority.
    const lost = old.db.write((ws) => ws.createNode(['Person'], new Map([['name', 'lost']])), { concern: majority });
    lost.catch(() => undefined);
    await until(() => [...old.db.sm.latestView().nodesWithLabel('Person')].length === 2, 'the write is applied as pending');
    expect(names(old.db)).toEqual(['before']);
    // CheckQuorum: the cut-off leader steps down within an election timeout.
    await expect(lost).rejects.toMatchObject({ code: 'UNAVAILABLE', reason: 'LEADERSHIP_LOST' });
    expect([...old.db.sm.latestView().nodesWithLabel('Person')].length).toBe(1);
    const others = [...group.members.values()].filter((m) => m.id !== old.id);
    await until(() => others.some((m) => m.db.log.acceptsWrites), 'the others elect a leader');
    const next = others.find((m) => m.db.log.acceptsWrites)!;
    await next.db.write((ws) => ws.createNode(['Person'], new Map([['name', 'after']])), { concern: majority });
    group.hub.heal(old.address);
    await until(() => old.db.committedIndex >= next.db.committedIndex, 'the old leader catches up');
    expect(names(old.db)).toEqual(['after', 'before']);
  });

  it('write concerns count members: acks 3 waits for every member\'s fsync, more than the group has is refused, a timeout does not undo the write', async () => {
    group = new TestGroup();
    await group.form(3);
    const leader = group.leader();
    const all = { acks: 3, level: 'journal', timeout_ms: 0 } as const;
    const { receipt } = await leader.db.write((ws) => ws.createNode(['Person'], new Map([['name', 'everywhere']])), { concern: all });
    for (const [id, pr] of leader.db.log.progress()) expect(pr.match, `member ${id}`).toBeGreaterThanOrEqual(receipt.index);
    await expect(leader.db.write((ws) => ws.createNode(['Person'], new Map()), { concern: { acks: 4, level: 'journal', timeout_ms: 0 } })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    // One follower cut off: acks 3 cannot hold, the caller gets DEADLINE_EXCEEDED, and the write commits anyway.
    group.hub.isolate('mem:3');
    const late = leader.db.write((ws) => ws.createNode(['Person'], new Map([['name', 'late']])), { concern: { acks: 3, level: 'journal', timeout_ms: 200 } });
    await expect(late).rejects.toMatchObject({ code: 'DEADLINE_EXCEEDED' });
    await until(() => names(leader.db).includes('late'), 'the timed-out write commits on the majority');
    group.hub.heal('mem:3');
    const three = group.members.get(3)!;
    await until(() => names(three.db).includes('late'), 'the healed member receives it');
  });

  it('two joins back to back: the second waits for the first one\'s membership changes instead of failing', async () => {
    group = new TestGroup();
    const founder = await group.open(1, false);
    await group.open(2, true);
    await group.open(3, true);
    for (const id of [2, 3]) {
      await founder.admin.join({ node_id: id, address: `mem:${id}`, identity: group.identity(id), pre_seeded: false });
    }
    await until(() => founder.db.log.membership.conf_state.voters.length === 3, 'both are promoted');
    expect(founder.db.log.membership.conf_state).toEqual({ voters: [1, 2, 3], learners: [] });
  });
});
