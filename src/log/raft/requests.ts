import type { ConfChange } from './conf-change.js';
import { applyConfChange as applyToTracker, confChangeProblem, encodeConfChange } from './conf-change.js';
import type { Raft } from './raft.js';
import type { ConfState, EntryType, NodeId, ProposeResult, Refusal } from './types.js';
import { NONE } from './types.js';

/**
 * What the application asks of a member (through RawNode): proposals, membership changes,
 * leadership transfer, and reports from the transport. Each is refused, not queued, when this
 * member cannot act on it; the caller retries elsewhere or later.
 */

function refuse(r: Raft, refusal: Refusal): ProposeResult {
  return { ok: false, refusal, lead: r.lead };
}

/** Why this member cannot take a proposal now, or undefined if it can. */
function proposalRefusal(r: Raft): Refusal | undefined {
  if (r.role !== 'leader') return 'not_leader';
  // The target must catch up and take over; new entries would only delay it.
  if (r.lead_transferee !== NONE) return 'transfer_in_progress';
  if (!r.tracker.progress.has(r.id)) return 'not_member';
  return undefined;
}

export function propose(r: Raft, type: EntryType, data: Uint8Array, cc?: ConfChange): ProposeResult {
  const refusal = proposalRefusal(r);
  if (refusal) return refuse(r, refusal);
  if (cc) {
    const guarded = r.cfg.unsafe_bugs.conf_change_while_pending !== true;
    if (guarded && r.pending_conf_index > r.log.applied) return refuse(r, 'conf_change_pending');
    if (confChangeProblem(r.tracker, cc, r.id) !== undefined) return refuse(r, 'conf_change_invalid');
  }
  const index = r.appendEntries([{ type, data }]);
  if (cc) r.pending_conf_index = index;
  r.bcastAppend();
  return { ok: true, index, term: r.term };
}

/** Appends many application entries as one batch: one append message per follower, one persist. */
export function proposeBatch(r: Raft, payloads: readonly Uint8Array[]): ProposeResult {
  const refusal = proposalRefusal(r);
  if (refusal) return refuse(r, refusal);
  const index = r.appendEntries(payloads.map((data) => ({ type: 'normal' as const, data })));
  r.bcastAppend();
  return { ok: true, index, term: r.term };
}

export function proposeConfChange(r: Raft, cc: ConfChange): ProposeResult {
  return propose(r, 'conf_change', encodeConfChange(cc), cc);
}

export function applyConfChange(r: Raft, cc: ConfChange): ConfState {
  // A new member is probed from our last entry: one small append finds where its log stands.
  const cs = applyToTracker(r.tracker, cc, Math.max(r.log.lastIndex(), 1));
  if (r.role !== 'leader') return cs;
  if (!r.tracker.voters.has(r.id)) {
    // Leadership moved here after our removal was proposed elsewhere. A leader outside the
    // membership cannot take proposals, and the voters hear its heartbeats so they never campaign:
    // step down so they elect one of themselves.
    r.becomeFollower(r.term, NONE);
    return cs;
  }
  if (r.lead_transferee !== NONE && !r.tracker.voters.has(r.lead_transferee)) r.lead_transferee = NONE;
  // A smaller quorum may commit more at once; otherwise probe new members now rather than at the
  // next heartbeat.
  if (r.maybeCommit()) r.bcastAppend();
  else for (const id of r.tracker.members()) if (id !== r.id) r.maybeSendAppend(id, false);
  return cs;
}

export function transferLeader(r: Raft, to: NodeId): Refusal | undefined {
  if (r.role !== 'leader') return 'not_leader';
  if (!r.tracker.voters.has(to)) return 'not_member';
  if (to === r.id || r.lead_transferee === to) return undefined;
  // The transfer must finish within one election timeout, counted from now.
  r.election_elapsed = 0;
  r.lead_transferee = to;
  const pr = r.tracker.progress.get(to)!;
  if (pr.match === r.log.lastIndex()) r.sendTimeoutNow(to);
  else r.sendAppend(to);
  return undefined;
}

export function reportUnreachable(r: Raft, id: NodeId): void {
  const pr = r.tracker.progress.get(id);
  if (r.role === 'leader' && pr && pr.state === 'replicate') pr.becomeProbe();
}

/** The driver's report on a snapshot sent to `id`. */
export function reportSnapshot(r: Raft, id: NodeId, ok: boolean): void {
  const pr = r.tracker.progress.get(id);
  if (r.role !== 'leader' || !pr || pr.state !== 'snapshot') return;
  if (!ok) pr.pending_snapshot = 0;
  pr.becomeProbe();
  // Wait for the member's answer (or a heartbeat's) before probing.
  pr.probe_sent = true;
}
