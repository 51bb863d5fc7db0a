import type { VersionPair } from '../../log/version/version-pair.js';
import type { VersionMonitor } from './version-monitor.js';

/** GET /version on the ops port, exactly the fields of SPEC 2.7. */
export interface VersionReportJson {
  readonly node_id: number;
  readonly pair: VersionPair;
  readonly group_pair: { readonly pair: VersionPair; readonly seq: number };
  /** null while the member writes (or could, were it the leader). */
  readonly read_only: ReadOnlyJson | null;
  readonly voters: readonly { readonly node_id: number; readonly pair: VersionPair | null; readonly live: boolean }[];
  readonly majority_pair: VersionPair | null;
  /** ms during which no member this one knows of could write; null while the group writes. */
  readonly pause_ms: number | null;
}

export interface ReadOnlyJson {
  readonly reason: 'MEMBER_READ_ONLY';
  /** True when the group moved past this member (a newer version was recorded without it). */
  readonly behind: boolean;
  /** commit_ts of the last entry this member applied: what its reads see. */
  readonly as_of: number;
  /** The member that writes at the group's version, when known. */
  readonly leader: { readonly node_id: number; readonly address: string } | null;
}

export function versionReport(node_id: number, monitor: VersionMonitor): VersionReportJson {
  // Before this member belongs to a deployment it has no group; it reports its own pair as the group's.
  const group = monitor.group ?? { pair: monitor.pair, seq: 0 };
  const leader = monitor.readOnly ? monitor.writingLeader() : undefined;
  const pause = monitor.pause.current_ms;
  return {
    node_id,
    pair: monitor.pair,
    group_pair: { pair: group.pair, seq: group.seq },
    read_only: monitor.readOnly
      ? {
          reason: 'MEMBER_READ_ONLY',
          behind: monitor.behind,
          as_of: monitor.asOfTs,
          leader: leader === undefined ? null : { node_id: leader, address: monitor.memberAddress(leader) },
        }
      : null,
    voters: monitor.voters().map((v) => ({ node_id: v.node_id, pair: v.pair ?? null, live: v.live })),
    majority_pair: monitor.majorityPair() ?? null,
    pause_ms: pause === undefined ? null : Math.round(pause),
  };
}
