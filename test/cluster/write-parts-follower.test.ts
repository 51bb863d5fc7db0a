import { afterEach, describe, expect, it } from 'vitest';
import { TestGroup, majority, until } from './support.js';

/**
 * A follower applies the commit part of a write in parts in steps, as the leader does: its readers
 * read committed state, which shows none of the write until the last step and all of it after, and
 * every member ends with the same graph.
 */
let group: TestGroup | undefined;
afterEach(async () => {
  await group?.close();
  group = undefined;
});

const nodes = 30_000;

describe('a write in parts on a follower', () => {
  it('the commit part applies in steps on the follower; its readers see none of the write, then all of it', async () => {
    group = new TestGroup();
    await group.form(3);
    const leader = group.leader();
    const follower = group.members.get(2)!;
    await until(() => follower.db.committedIndex >= leader.db.committedIndex, 'the follower caught up');
    const count = (): number => [...follower.db.latestCommitted().nodesWithLabel('Big')].length;

    const write = leader.db.writeSliced(
      async (ws) => {
        for (let i = 0; i < nodes; i++) ws.createNode(['Big'], new Map([['i', BigInt(i)]]));
      },
      { concern: majority },
    );
    let settled = false;
    void write.finally(() => (settled = true));
    const seen = new Set<number>();
    let steppedAt = 0;
    // Turns of the event loop: the follower gives it back between the steps of its apply.
    while (!settled || follower.db.committedIndex < leader.db.committedIndex) {
      if (follower.db.sm.appliedIndex > follower.db.committedIndex) {
        steppedAt++;
        seen.add(count());
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
    await write;
    expect(steppedAt).toBeGreaterThan(0);
    expect([...seen]).toEqual([0]);
    for (const m of group.members.values()) {
      await until(() => m.db.committedIndex >= leader.db.committedIndex, `member ${m.id} applied the write`);
      expect([...m.db.latestCommitted().nodesWithLabel('Big')].length).toBe(nodes);
    }
    // The group takes writes after it.
    await leader.db.write((ws) => ws.createNode(['After'], new Map()), { concern: majority });
    await until(() => [...follower.db.latestCommitted().nodesWithLabel('After')].length === 1, 'the follower applied the next write');
  });
});
