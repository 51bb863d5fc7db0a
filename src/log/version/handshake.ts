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

/**
 * What each side of a handshake tells the other: the caller in its request, the callee in its answer.
 * A member records the other's pair as heard now (the leader's liveness, SPEC 9.8), and a group
 * version newer than its own tells it the group moved past it.
 */
export interface VersionReport extends VersionStamp {
  readonly node_id: NodeId;
  /** The newest group version the member knows (its log's, or one it learned); null before it joined a group. */
  readonly group: GroupVersion | null;
  /** True when the member leads and takes writes at that group version. */
  readonly leads: boolean;
  /** The leader the member follows; 0 when none is known. */
  readonly leader_id: NodeId;
  /** The last pair the member knows of each voter, itself included. */
  readonly voters: readonly (readonly [NodeId, VersionPair])[];
}

export function isVersionReport(x: unknown): x is VersionReport {
  if (typeof x !== 'object' || x === null) return false;
  const r = x as Record<string, unknown>;
  const group = r['group'];
  const groupOk = group === null || (typeof group === 'object' && isVersionPair((group as Record<string, unknown>)['pair']) && Number.isSafeInteger((group as Record<string, unknown>)['seq']));
  return (
    Number.isSafeInteger(r['node_id']) &&
    isVersionPair(r['pair']) &&
    typeof r['deployment'] === 'string' &&
    groupOk &&
    typeof r['leads'] === 'boolean' &&
    Number.isSafeInteger(r['leader_id']) &&
    Array.isArray(r['voters']) &&
    r['voters'].every((v: unknown) => Array.isArray(v) && Number.isSafeInteger(v[0]) && isVersionPair(v[1]))
  );
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
