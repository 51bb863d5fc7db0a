import { ENGINE_FORMAT, SERVER_HOST_EPOCH } from '../engine-format.js';

/**
 * A member's version (SPEC 9.2): the engine format it reads and writes, and the host format epoch of
 * the application embedding it. Two members exchange more than a version handshake only when their
 * pairs are equal (SPEC 9.3).
 */
export interface VersionPair {
  /** Invariant: a positive whole number. */
  readonly engine: number;
  /** Invariant: a whole number >= 0; a server always runs 0. */
  readonly host_epoch: number;
}

/** The pair this build of the server runs unless a test sets another engine format. */
export const server_pair: VersionPair = { engine: ENGINE_FORMAT, host_epoch: SERVER_HOST_EPOCH };

/**
 * A group's version as its log records it: the pair and the ordinal of the record. The entry that
 * formed the deployment is record 1; each move of the group to a new pair adds one.
 */
export interface GroupVersion {
  readonly pair: VersionPair;
  /** Invariant: >= 1; a later record has a larger seq. */
  readonly seq: number;
}

export function samePair(a: VersionPair, b: VersionPair): boolean {
  return a.engine === b.engine && a.host_epoch === b.host_epoch;
}

/** `engine.host_epoch`, the way logs and messages name a pair. */
export function pairText(p: VersionPair): string {
  return `${p.engine}.${p.host_epoch}`;
}

/** The newer of two recorded group versions (the larger seq); `a` on a tie. */
export function newerGroupVersion(a: GroupVersion, b: GroupVersion | undefined): GroupVersion {
  return b !== undefined && b.seq > a.seq ? b : a;
}

export function isVersionPair(x: unknown): x is VersionPair {
  if (typeof x !== 'object' || x === null) return false;
  const r = x as Record<string, unknown>;
  return Number.isSafeInteger(r['engine']) && Number.isSafeInteger(r['host_epoch']);
}
