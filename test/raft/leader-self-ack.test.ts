import { describe, expect, it } from 'vitest';
import { bootstrap, decodeConfChange, MemoryStorage, RawNode } from '../../src/log/raft/index.js';
import type { Ready } from '../../src/log/raft/index.js';

const payload = new Uint8Array([7]);

/** A single-voter group whose member campaigned and leads; its no-op is persisted and reported. */
function soleLeader(): { node: RawNode; storage: MemoryStorage; carry: () => Ready } {
  const storage = new MemoryStorage();
  bootstrap(storage, [1]);
  const node = new RawNode({ id: 1, election_ticks: 10, heartbeat_ticks: 1, random_int: () => 0, leader_self_ack: 'on_persist' }, storage);
  // Carries out one Ready as the member driver does for a leader: write the entries, advance, fsync later.
  const carry = (): Ready => {
    const rd = node.ready();
    storage.append(rd.entries);
    if (rd.hard_state) storage.setHardState(rd.hard_state);
    for (const e of rd.committed_entries) if (e.type === 'conf_change') node.applyConfChange(decodeConfChange(e.data));
    node.advance();
    return rd;
  };
  // The bootstrap's membership applies first: a member campaigns with no change unapplied.
  while (node.hasReady()) carry();
  node.campaign();
  while (node.hasReady()) carry();
  expect(node.raft.role).toBe('leader');
  node.persisted(storage.lastIndex());
  while (node.hasReady()) carry();
  return { node, storage, carry };
}

describe("raft: a leader counts its own entries only once fsynced (leader_self_ack 'on_persist')", () => {
  it('an entry written but not fsynced does not commit, even for a group of one; reporting the fsync commits it', () => {
    const { node, carry } = soleLeader();
    const before = node.raft.log.committed;
    const r = node.propose(payload);
    expect(r.ok).toBe(true);
    const written = carry();
    expect(written.entries.map((e) => e.index)).toEqual([before + 1]);
    expect(node.raft.log.committed).toBe(before);
    node.persisted(before + 1);
    expect(node.raft.log.committed).toBe(before + 1);
    expect(carry().committed_entries.map((e) => e.index)).toEqual([before + 1]);
  });

  it('a report past the log or from a member that does not lead changes nothing', () => {
    const { node } = soleLeader();
    const last = node.raft.log.lastIndex();
    node.persisted(last + 10);
    expect(node.raft.tracker.progress.get(1)!.match).toBe(last);

    const storage = new MemoryStorage();
    bootstrap(storage, [1, 2, 3]);
    const follower = new RawNode({ id: 2, election_ticks: 10, heartbeat_ticks: 1, random_int: () => 0, leader_self_ack: 'on_persist' }, storage);
    follower.persisted(5);
    expect(follower.raft.log.committed).toBe(storage.hardState().commit);
  });
});
