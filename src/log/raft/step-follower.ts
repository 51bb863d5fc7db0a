import type { Raft } from './raft.js';
import type { AppendMessage, HeartbeatMessage, Message, SnapshotMessage } from './types.js';

/** A follower's handling of messages of its own term. */
export function stepFollower(r: Raft, m: Message): void {
  switch (m.type) {
    case 'app':
      r.election_elapsed = 0;
      r.lead = m.from;
      handleAppend(r, m);
      return;
    case 'heartbeat':
      r.election_elapsed = 0;
      r.lead = m.from;
      handleHeartbeat(r, m);
      return;
    case 'snap':
      r.election_elapsed = 0;
      r.lead = m.from;
      handleSnapshot(r, m);
      return;
    case 'timeout_now':
      // The leader hands over: campaign at once, skipping the pre-vote and the lease.
      r.hup('transfer');
      return;
    case 'app_resp':
    case 'heartbeat_resp':
    case 'vote_resp':
    case 'pre_vote_resp':
    case 'vote':
    case 'pre_vote':
      return;
  }
}

export function handleAppend(r: Raft, m: AppendMessage): void {
  if (m.index < r.log.committed) {
    // Everything up to our commit index already matches; tell the leader where we are.
    appendResponse(r, m.from, r.log.committed, false, 0, 0);
    return;
  }
  const last_new = r.log.maybeAppend(m.index, m.log_term, m.commit, m.entries);
  if (last_new !== undefined) {
    // A quiet commit notice taken: the answers to the appends that carried the entries tell the leader as much.
    if (m.quiet !== true || m.entries.length > 0) appendResponse(r, m.from, last_new, false, 0, 0);
    return;
  }
  // Mismatch: offer the largest index whose term is <= the leader's term there, so one round trip
  // skips a whole divergent term instead of one entry.
  const guess = r.log.findConflictByTerm(Math.min(m.index, r.log.lastIndex()), m.log_term);
  appendResponse(r, m.from, m.index, true, guess.index, guess.term);
}

/** Built field by field: this runs once per append received, and object spreads cost here. */
function appendResponse(r: Raft, to: number, index: number, reject: boolean, reject_hint: number, log_term: number): void {
  r.send({ type: 'app_resp', from: r.id, to, term: r.term, index, reject, reject_hint, log_term });
}

export function handleHeartbeat(r: Raft, m: HeartbeatMessage): void {
  r.log.commitTo(m.commit);
  r.send({ type: 'heartbeat_resp', from: r.id, to: m.from, term: r.term, request_ctx: m.request_ctx });
}

export function handleSnapshot(r: Raft, m: SnapshotMessage): void {
  // Installed: we now end at the snapshot. Not needed (already have it or newer): answer with our
  // commit so the leader probes from there.
  const index = restore(r, m) ? r.log.lastIndex() : r.log.committed;
  appendResponse(r, m.from, index, false, 0, 0);
}

/** Installs a snapshot newer than our commit. Returns false when it was not needed. */
function restore(r: Raft, m: SnapshotMessage): boolean {
  const meta = m.snapshot.meta;
  if (meta.index <= r.log.committed) return false;
  // The snapshot's membership may predate our own addition (it was taken before the entry that
  // added us); we still take it and learn our membership from the entries that follow.
  const cs = meta.conf_state;
  if (r.log.matchTerm(meta.index, meta.term)) {
    // Our log already holds the snapshot's last entry: just learn that it is committed.
    r.log.commitTo(meta.index);
    return false;
  }
  r.log.restore(m.snapshot);
  r.tracker.reset(cs, r.log.lastIndex() + 1);
  return true;
}
