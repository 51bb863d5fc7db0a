/**
 * The data the Raft core reads and writes: entries, hard state, membership, snapshots and the
 * messages members exchange. Everything here is plain data; the core never does I/O with it.
 */

/** A member's id. SPEC calls it uint64; every id Weft hands out fits in 2^53, so a number is exact. */
export type NodeId = number;

/** No member: the vote nobody has cast yet, the leader nobody knows. */
export const NONE: NodeId = 0;

/** 'normal' entries carry the application's payload; 'conf_change' entries carry an encoded ConfChange. */
export type EntryType = 'normal' | 'conf_change';

export interface Entry {
  readonly index: number;
  readonly term: number;
  readonly type: EntryType;
  /** Opaque to the core (Weft puts a msgpack-encoded event here); an empty payload is the leader's no-op. */
  readonly data: Uint8Array;
}

/** What must survive a crash for this member to keep its promises. */
export interface HardState {
  readonly term: number;
  /** The member voted for in `term`, or NONE. Invariant: at most one vote per term, ever. */
  readonly vote: NodeId;
  /** Highest index known committed. It may be persisted lazily: a lower value after restart is safe. */
  readonly commit: number;
}

export const EMPTY_HARD_STATE: HardState = { term: 0, vote: NONE, commit: 0 };

/** Membership. Invariant: a member is in at most one of the two lists. */
export interface ConfState {
  readonly voters: readonly NodeId[];
  /** Members that receive the log but neither vote nor count towards commit. */
  readonly learners: readonly NodeId[];
}

export interface SnapshotMeta {
  /** The last entry the snapshot covers, and its term. */
  readonly index: number;
  readonly term: number;
  /** The membership as of `index`. */
  readonly conf_state: ConfState;
}

export interface Snapshot {
  readonly meta: SnapshotMeta;
  /** Opaque application state as of `meta.index`. */
  readonly data: Uint8Array;
}

export type Role = 'follower' | 'pre_candidate' | 'candidate' | 'leader';

/** Volatile state the driver may want to observe (who leads, what this member is). */
export interface SoftState {
  readonly lead: NodeId;
  readonly role: Role;
}

/** A linearizable read is safe at `index` once this member has applied it. */
export interface ReadState {
  readonly index: number;
  /** The caller's request id, returned unchanged. */
  readonly request_ctx: string;
}

/** Fields every message between members carries. */
interface Envelope {
  readonly from: NodeId;
  readonly to: NodeId;
  /** The sender's term; for vote responses, the term of the request answered. */
  readonly term: number;
}

/** Append entries after (index, log_term); also the probe a leader sends to find a follower's log end. */
export interface AppendMessage extends Envelope {
  readonly type: 'app';
  readonly index: number;
  readonly log_term: number;
  readonly entries: readonly Entry[];
  readonly commit: number;
  /**
   * Set only on a commit notice (an append without entries sent because the commit index moved) to
   * a member in replicate state, which answers the appends that carried the entries: a member that
   * takes it does not answer it; a rejection is still answered. A sender without the field asks for
   * an answer; a receiver that ignores the field answers anyway.
   */
  readonly quiet?: true;
}

export interface AppendResponse extends Envelope {
  readonly type: 'app_resp';
  /** On success the last index now matching the leader; on rejection the `index` of the rejected append. */
  readonly index: number;
  readonly reject: boolean;
  /** On rejection: the follower's guess of where its log can match (index and its term), to skip a term at once. */
  readonly reject_hint: number;
  readonly log_term: number;
  /**
   * Reserved for the write concern: how durable the follower's copy is ('journal' = fsynced).
   * The core itself only ever sends responses after the driver persisted (and synced) the entries.
   */
  readonly durability?: 'memory' | 'cache' | 'journal';
}

/** A vote request. For a pre-vote, `term` is the term the sender would campaign in; nobody changes term for it. */
export interface VoteMessage extends Envelope {
  readonly type: 'vote' | 'pre_vote';
  readonly index: number;
  readonly log_term: number;
  /** Set by a leadership transfer: the voter must not ignore the request because it believes a leader is alive. */
  readonly force: boolean;
}

export interface VoteResponse extends Envelope {
  readonly type: 'vote_resp' | 'pre_vote_resp';
  readonly reject: boolean;
}

export interface SnapshotMessage extends Envelope {
  readonly type: 'snap';
  readonly snapshot: Snapshot;
}

export interface HeartbeatMessage extends Envelope {
  readonly type: 'heartbeat';
  /** min(commit, follower's match): a follower must not commit entries it may not hold. */
  readonly commit: number;
  /** The newest pending read request, echoed back so the leader can confirm it is still leader. */
  readonly request_ctx: string;
}

export interface HeartbeatResponse extends Envelope {
  readonly type: 'heartbeat_resp';
  readonly request_ctx: string;
}

/** Tells the transfer target to campaign at once. */
export interface TimeoutNowMessage extends Envelope {
  readonly type: 'timeout_now';
}

export type Message =
  | AppendMessage
  | AppendResponse
  | VoteMessage
  | VoteResponse
  | SnapshotMessage
  | HeartbeatMessage
  | HeartbeatResponse
  | TimeoutNowMessage;

export type MessageType = Message['type'];

/** Integer in [0, n): the only randomness the core uses (for election timeouts). Inject a seeded PRNG in tests. */
export type RandomInt = (n: number) => number;

/** Why a proposal, transfer or read was not accepted. The caller may retry elsewhere or later. */
export type Refusal =
  | 'not_leader'
  | 'transfer_in_progress'
  | 'conf_change_pending'
  | 'conf_change_invalid'
  | 'not_member';

export type ProposeResult =
  | { readonly ok: true; readonly index: number; readonly term: number }
  | { readonly ok: false; readonly refusal: Refusal; readonly lead: NodeId };

export function entryBytes(e: Entry): number {
  return e.data.byteLength;
}
