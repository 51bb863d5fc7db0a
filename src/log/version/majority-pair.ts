import type { NodeId } from '../raft/types.js';
import { pairText, type VersionPair } from './version-pair.js';

/**
 * One voter as a member sees it (SPEC 9.8). On the leader a voter is live when it answered within an
 * election timeout; a follower, which hears only its leader, counts every voter it has heard of,
 * with the last version it knows.
 */
export interface VoterVersion {
  readonly node_id: NodeId;
  /** Absent when this member never learned the voter's pair. */
  readonly pair: VersionPair | undefined;
  readonly live: boolean;
}

/**
 * The pair run by more than half of all voters, counting only live voters with a known pair; absent
 * when no pair has that many. A pair that holds a majority is the only pair that can elect a leader,
 * since votes pass only between equal pairs.
 */
export function majorityPair(voters: readonly VoterVersion[]): VersionPair | undefined {
  const needed = Math.floor(voters.length / 2) + 1;
  const counts = new Map<string, { pair: VersionPair; n: number }>();
  for (const v of voters) {
    if (!v.live || v.pair === undefined) continue;
    const key = pairText(v.pair);
    const c = counts.get(key) ?? { pair: v.pair, n: 0 };
    c.n++;
    counts.set(key, c);
  }
  for (const c of counts.values()) if (c.n >= needed) return c.pair;
  return undefined;
}
