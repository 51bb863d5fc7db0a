import type { Message, NodeId } from '../raft/types.js';
import type { SnapshotFiles } from './snapshot-files.js';

/**
 * The channel between members of one group (DESIGN 6, SPEC 5.1). Raft messages are fire-and-forget:
 * Raft retries what is lost, so a message to an unreachable or unknown peer is dropped, never queued
 * without bound. Unary calls carry what is not Raft (a write forwarded to the leader, a read-index
 * request from a follower, a join's progress); each names a method the receiving member registered.
 *
 * Identity: every member proves a SPIFFE ID in its certificate's URI SAN. A member sends to and
 * accepts from a peer only under the identity the membership binds to that peer's id; a message whose
 * `from` is not the id bound to the caller's certificate is dropped.
 */
export interface PeerAddress {
  /** host:port of the peer's transport. */
  readonly address: string;
  /** The SPIFFE ID the peer must present, compared whole. */
  readonly identity: string;
}

export type RaftMessageHandler = (message: Message) => void;

/** Answers a unary call from peer `from`; a thrown WeftError reaches the caller with its code. */
export type PeerCallHandler = (from: NodeId, payload: Uint8Array, signal: AbortSignal) => Promise<Uint8Array>;

export interface PeerTransport {
  /** This member's own address as the transport listens on it (the port resolved when 0 was asked). */
  readonly address: string;
  /** Replaces the peers this member talks to: the membership's ids, addresses and bound identities. */
  setPeers(peers: ReadonlyMap<NodeId, PeerAddress>): void;
  /** Sends Raft messages; each goes to `message.to`. Never throws for an unreachable peer. */
  send(messages: readonly Message[]): void;
  onRaftMessage(handler: RaftMessageHandler): void;
  /** Called when a message to `to` could not be delivered (Raft's reportUnreachable). */
  onUnreachable(handler: (to: NodeId) => void): void;
  /** Called with the outcome of sending a snapshot message (Raft's reportSnapshot). */
  onSnapshotSent(handler: (to: NodeId, ok: boolean) => void): void;
  /** A unary call to peer `to`; rejects with UNAVAILABLE when it cannot be reached within `timeout_ms`. */
  call(to: NodeId, method: string, payload: Uint8Array, timeout_ms: number): Promise<Uint8Array>;
  /** Identities of members removed from the group: a frame from one is refused MEMBER_REMOVED, telling it. */
  setDeparted(identities: readonly string[]): void;
  /** Reads snapshots sent and writes those received through `files` (snapshot-files.ts), not in memory. */
  useSnapshotFiles(files: SnapshotFiles): void;
  /** Registers the handler of unary calls named `method`. */
  handle(method: string, handler: PeerCallHandler): void;
  close(): Promise<void>;
}
