import { WeftError } from '../../common/errors.js';
import type { NodeId } from '../raft/types.js';
import { isVersionPair, pairText, samePair, type GroupVersion, type VersionPair } from './version-pair.js';

/**
 * The version handshake (SPEC 9.3). Every peer frame names the sender's pair and deployment; a
 * receiver whose pair or deployment differs answers nothing but the handshake: Raft streams,
 * snapshots and calls (forwarded writes, read indexes, joins) are refused with VERSION_MISMATCH, so to
 * Raft the sender is an unreachable peer, and neither side replicates to or votes for the other.
 *
 * The handshake itself is a unary peer call any member answers whatever the caller's version: it
 * tells what the answering member runs, the group version its log recorded, whether it leads, and
 * the last version it knows of each voter.
 */
export const HANDSHAKE_METHOD = 'weft.version.handshake';

/** What a member says of itself in every frame. */
export interface VersionStamp {
  readonly pair: VersionPair;
  /** The deployment id as 32 hex digits; empty on a member not joined yet. */
  readonly deployment: string;
}

export interface HandshakeRequest extends VersionStamp {
  /** The newest group version the caller knows. */
  readonly group: GroupVersion | null;
}

export interface HandshakeAnswer extends VersionStamp {
  readonly node_id: NodeId;
  /** The newest group version the answering member knows (its log's, or one it learned). */
  readonly group: GroupVersion | null;
  /** True when the answering member leads and takes writes at that group version. */
  readonly leads: boolean;
  /** The leader the answering member follows; 0 when none is known. */
  readonly leader_id: NodeId;
  /** The last pair the answering member knows of each voter, itself included. */
  readonly voters: readonly (readonly [NodeId, VersionPair])[];
}

/** Why a frame from a sender stamped `theirs` is refused by a member stamped `own`; undefined to admit it. */
export function versionVerdict(own: VersionStamp, theirs: Partial<VersionStamp>): string | undefined {
  if (!isVersionPair(theirs.pair)) return `the sender names no version pair; this member runs ${pairText(own.pair)}`;
  if (!samePair(own.pair, theirs.pair)) return `the sender runs version ${pairText(theirs.pair)}; this member runs ${pairText(own.pair)}`;
  const deployment = typeof theirs.deployment === 'string' ? theirs.deployment : '';
  if (own.deployment !== '' && deployment !== '' && own.deployment !== deployment) {
    return `the sender belongs to deployment ${deployment}; this member to ${own.deployment}`;
  }
  return undefined;
}

/** The typed refusal a sender of another version or deployment receives. */
export function versionRefusal(own: VersionStamp, why: string): WeftError {
  return new WeftError('FAILED_PRECONDITION', `version handshake only: ${why}`, 'VERSION_MISMATCH', {
    engine_format: String(own.pair.engine),
    host_epoch: String(own.pair.host_epoch),
    deployment: own.deployment,
  });
}
