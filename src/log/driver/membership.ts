import type { ConfState, NodeId } from '../raft/types.js';

/**
 * Where each member of the group is and who it must prove to be. The Raft core knows members only by
 * id; the membership change entries carry the rest (the conf change's context), so every member
 * learns the same directory from the log and binds peers by identity as the entries apply.
 */
export interface MemberRecord {
  readonly node_id: NodeId;
  /** host:port of the member's peer transport; empty for a member that was never given one. */
  readonly address: string;
  /** The SPIFFE ID the member proves in its certificate; empty when peers run without TLS (tests). */
  readonly identity: string;
}

/** The membership as of one log index: the core's voters and learners and the directory of members. */
export interface MembershipSnapshot {
  readonly conf_state: ConfState;
  /** Every current member's record. Invariant: exactly the ids of conf_state's voters and learners. */
  readonly members: readonly MemberRecord[];
  /** Identities of members that were removed; a removed identity is never admitted again. */
  readonly departed: readonly string[];
}

export const EMPTY_MEMBERSHIP: MembershipSnapshot = { conf_state: { voters: [], learners: [] }, members: [], departed: [] };

export function isMember(cs: ConfState, id: NodeId): boolean {
  return cs.voters.includes(id) || cs.learners.includes(id);
}
