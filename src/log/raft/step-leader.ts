import type { Raft } from './raft.js';
import type { AppendResponse, HeartbeatResponse, Message } from './types.js';

/** A leader's handling of messages of its own term. */
export function stepLeader(r: Raft, m: Message): void {
  switch (m.type) {
    case 'app_resp':
      onAppendResponse(r, m);
      return;
    case 'heartbeat_resp':
      onHeartbeatResponse(r, m);
      return;
    case 'app':
    case 'heartbeat':
    case 'snap':
      // Another leader of the same term cannot exist (election safety); nothing to do.
      return;
    case 'vote_resp':
    case 'pre_vote_resp':
    case 'timeout_now':
      // Late answers from the election this member already won; a leader ignores TimeoutNow.
      return;
    case 'vote':
    case 'pre_vote':
      return; // handled before role dispatch
  }
}

function onAppendResponse(r: Raft, m: AppendResponse): void {
  const pr = r.tracker.progress.get(m.from);
  if (!pr) return;
  pr.recent_active = true;
  if (m.reject) {
    // Jump back using the follower's hint: to its guess, or to where our log has an entry no newer than its term.
    let hint = m.reject_hint;
    if (m.log_term > 0) hint = r.log.findConflictByTerm(m.reject_hint, m.log_term).index;
    if (pr.maybeDecrTo(m.index, hint)) {
      if (pr.state === 'replicate') pr.becomeProbe();
      r.sendAppend(m.from);
    }
    return;
  }
  const was_paused = pr.isPaused();
  if (pr.maybeUpdate(m.index) || (pr.match === m.index && pr.state === 'probe')) {
    if (pr.state === 'probe') pr.becomeReplicate();
    else if (pr.state === 'snapshot' && pr.match + 1 >= r.log.firstIndex()) {
      // The member caught up (through the snapshot or otherwise): resume normal replication.
      pr.becomeProbe();
      pr.becomeReplicate();
    } else if (pr.state === 'replicate') pr.inflights.freeLE(m.index);

    if (r.maybeCommit()) r.bcastCommit();
    else if (was_paused) r.sendAppend(m.from);
    // Pipelining: fill the inflight window while there is something to send.
    while (r.maybeSendAppend(m.from, false)) {
      /* keep sending */
    }
    if (m.from === r.lead_transferee && pr.match === r.log.lastIndex()) r.sendTimeoutNow(m.from);
  }
}

function onHeartbeatResponse(r: Raft, m: HeartbeatResponse): void {
  const pr = r.tracker.progress.get(m.from);
  if (!pr) return;
  pr.recent_active = true;
  pr.probe_sent = false;
  // The member is alive; if the window is full of appends that may have been lost, free one slot so
  // the next append goes out and either moves the window or is rejected back into probing.
  if (pr.state === 'replicate' && pr.inflights.full()) pr.inflights.freeFirst();
  if (pr.match < r.log.lastIndex()) r.sendAppend(m.from);
  if (m.request_ctx === '') return;
  const acks = r.read_only.ack(m.from, m.request_ctx);
  if (!acks) return;
  if (r.tracker.quorumOf((id) => (acks.has(id) ? true : undefined)) !== 'won') return;
  for (const rs of r.read_only.advance(m.request_ctx)) r.read_states.push(rs);
}
