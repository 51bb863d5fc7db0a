import { assert } from '../../common/assert.js';
import type { NodeId, RandomInt } from './types.js';

/**
 * Deliberate bugs for proving the simulator's checker bites. Never set outside tests: each one breaks
 * a safety property of Raft.
 */
export interface UnsafeBugs {
  /** Grant a vote to any up-to-date candidate, even after voting for another in the same term. */
  readonly double_vote?: boolean;
  /** Commit by counting replicas even for entries of an older term (the mistake of Raft paper figure 8). */
  readonly commit_old_term_by_count?: boolean;
  /** Take a membership change while another is still pending (appended, not applied): two steps at once. */
  readonly conf_change_while_pending?: boolean;
}

export interface RaftConfig {
  readonly id: NodeId;
  /** A follower campaigns after hearing nothing for a random number of ticks in [election_ticks, 2 * election_ticks). */
  readonly election_ticks: number;
  /** A leader sends heartbeats every heartbeat_ticks. Invariant: heartbeat_ticks < election_ticks. */
  readonly heartbeat_ticks: number;
  /** The only source of randomness: it spreads election timeouts. */
  readonly random_int: RandomInt;
  /** The last index the application already applied (after a restart); 0 = from the snapshot. */
  readonly applied?: number;
  /** Campaign in two phases so a member that cannot win does not disrupt the cluster by raising the term. */
  readonly pre_vote?: boolean;
  /** A leader steps down when it has not heard from a majority for an election timeout. */
  readonly check_quorum?: boolean;
  /** Byte budget of entries in one append message (at least one entry is always sent). */
  readonly msg_bytes_max?: number;
  /** Appends in flight per follower in replicate state. */
  readonly inflight_msgs_max?: number;
  /** Bytes of entries in flight per follower; 0 = no byte limit. */
  readonly inflight_bytes_max?: number;
  /** Byte budget of committed entries handed out in one Ready. */
  readonly committed_bytes_max?: number;
  /**
   * When a leader counts its own entries toward a commit. 'on_append' (the default): as it appends
   * them, so the driver must persist a Ready before any commit it carries can be seen.
   * 'on_persist': only once the driver reports them fsynced (RawNode.persisted), so the driver may
   * carry on with further Readies while its own fsync runs and still never commit an entry a
   * majority has not durably stored.
   */
  readonly leader_self_ack?: LeaderSelfAck;
  /**
   * A leader marks a commit notice to a member in replicate state `quiet`, and the member does not
   * answer it when taken (types.ts, AppendMessage). Off by default, as in the reference traces:
   * every append answered.
   */
  readonly quiet_commit_notices?: boolean;
  readonly unsafe_bugs?: UnsafeBugs;
}

export type LeaderSelfAck = 'on_append' | 'on_persist';

export interface ResolvedConfig {
  readonly id: NodeId;
  readonly election_ticks: number;
  readonly heartbeat_ticks: number;
  readonly random_int: RandomInt;
  readonly applied: number;
  readonly pre_vote: boolean;
  readonly check_quorum: boolean;
  readonly msg_bytes_max: number;
  readonly inflight_msgs_max: number;
  readonly inflight_bytes_max: number;
  readonly committed_bytes_max: number;
  readonly leader_self_ack: LeaderSelfAck;
  readonly quiet_commit_notices: boolean;
  readonly unsafe_bugs: UnsafeBugs;
}

export const DEFAULT_MSG_BYTES_MAX = 1 << 20;
export const DEFAULT_INFLIGHT_MSGS_MAX = 256;
export const DEFAULT_INFLIGHT_BYTES_MAX = 32 << 20;
export const DEFAULT_COMMITTED_BYTES_MAX = 64 << 20;

export function resolveConfig(c: RaftConfig): ResolvedConfig {
  assert(Number.isSafeInteger(c.id) && c.id > 0, `member id must be a positive integer, got ${c.id}`);
  assert(c.heartbeat_ticks > 0, 'heartbeat_ticks must be positive');
  assert(c.election_ticks > c.heartbeat_ticks, 'election_ticks must exceed heartbeat_ticks');
  const r: ResolvedConfig = {
    id: c.id,
    election_ticks: c.election_ticks,
    heartbeat_ticks: c.heartbeat_ticks,
    random_int: c.random_int,
    applied: c.applied ?? 0,
    pre_vote: c.pre_vote ?? true,
    check_quorum: c.check_quorum ?? true,
    msg_bytes_max: c.msg_bytes_max ?? DEFAULT_MSG_BYTES_MAX,
    inflight_msgs_max: c.inflight_msgs_max ?? DEFAULT_INFLIGHT_MSGS_MAX,
    inflight_bytes_max: c.inflight_bytes_max ?? DEFAULT_INFLIGHT_BYTES_MAX,
    committed_bytes_max: c.committed_bytes_max ?? DEFAULT_COMMITTED_BYTES_MAX,
    leader_self_ack: c.leader_self_ack ?? 'on_append',
    quiet_commit_notices: c.quiet_commit_notices ?? false,
    unsafe_bugs: c.unsafe_bugs ?? {},
  };
  assert(r.inflight_msgs_max > 0, 'inflight_msgs_max must be positive');
  return r;
}
