import { decodeConfChange, type ConfChange } from '../raft/conf-change.js';
import type { Entry as RaftEntry } from '../raft/types.js';
import { decodePayload } from '../codec.js';
import type { Entry, MembershipChanged } from '../events.js';

/**
 * Turns Raft entries into the events the projections apply. Every index becomes exactly one event,
 * so the state machine's indexes stay gapless:
 * - a normal entry with a payload is the event the leader proposed, stamped by it;
 * - a normal entry without one is a new leader's no-op (the core appends it); it is stamped one
 *   microsecond after the entry before it, which every member computes alike from the log;
 * - a membership change carries the event in the change's context; one without a context (a group
 *   bootstrapped by the core's own helper) becomes a membership event with no address.
 * `prev_ts` is the commit_ts of the entry before the first one given.
 */
export function toEvents(entries: readonly RaftEntry[], prev_ts: number): Entry[] {
  const out: Entry[] = [];
  let ts = prev_ts;
  for (const e of entries) {
    const mapped = toEvent(e, ts);
    out.push(mapped);
    ts = mapped.commit_ts;
  }
  return out;
}

export function toEvent(e: RaftEntry, prev_ts: number): Entry {
  switch (e.type) {
    case 'normal': {
      if (e.data.byteLength === 0) return { index: e.index, term: e.term, commit_ts: prev_ts + 1, event: { kind: 'leader_noop' } };
      const payload = decodePayload(e.data);
      return { index: e.index, term: e.term, commit_ts: payload.commit_ts, event: payload.event };
    }
    case 'conf_change': {
      const cc = decodeConfChange(e.data);
      if (cc.context !== undefined && cc.context.byteLength > 0) {
        const payload = decodePayload(cc.context);
        return { index: e.index, term: e.term, commit_ts: payload.commit_ts, event: payload.event };
      }
      return { index: e.index, term: e.term, commit_ts: prev_ts + 1, event: membershipEvent(cc, '', '') };
    }
  }
}

export function membershipEvent(cc: ConfChange, address: string, identity: string): MembershipChanged {
  return { kind: 'membership_changed', change: cc.kind, node_id: cc.node, address, identity };
}
