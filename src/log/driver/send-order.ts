import type { Ready } from '../raft/raw-node.js';
import type { HardState, Message, Role } from '../raft/types.js';

/**
 * Whether a Ready's messages may leave before its entries are fsynced (docs/raft.md, "A leader sends
 * before its own fsync"). Only a leader's replication traffic qualifies: appends, heartbeats,
 * snapshots and TimeoutNow promise nothing about the leader's own disk, and the leader's own match
 * reaches a commit only through the next Ready, which the driver takes after this one's fsync.
 * Votes and acknowledgements do promise what is persisted, and a changed term or vote must be on
 * disk before anyone hears of it, so any of those keeps the persist-then-send order. So does a commit
 * index that covers this Ready's own entries: a leader that is alone a quorum (one voter, with
 * learners) commits them at once, and a learner told so before they are durable could apply entries
 * the leader loses in a crash.
 */
export function sendsBeforePersist(role: Role, rd: Ready, persisted: HardState): boolean {
  if (role !== 'leader' || rd.messages.length === 0 || rd.snapshot !== undefined) return false;
  if (rd.hard_state !== undefined && (rd.hard_state.term !== persisted.term || rd.hard_state.vote !== persisted.vote)) return false;
  // Entries below this index were fsynced by earlier Readies.
  const first_unsynced = rd.entries[0]?.index ?? Number.POSITIVE_INFINITY;
  return rd.messages.every((m) => isLeaderReplication(m, first_unsynced));
}

function isLeaderReplication(m: Message, first_unsynced: number): boolean {
  switch (m.type) {
    case 'app':
    case 'heartbeat':
      return m.commit < first_unsynced;
    case 'snap':
    case 'timeout_now':
      return true;
    case 'app_resp':
    case 'heartbeat_resp':
    case 'vote':
    case 'pre_vote':
    case 'vote_resp':
    case 'pre_vote_resp':
      return false;
  }
}
