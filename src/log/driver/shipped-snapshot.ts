import type { MembershipSnapshot } from './membership.js';

/**
 * A snapshot's `data` as the Raft core carries it on a member with a disk: not the state itself but
 * where it is, a checkpoint file (the leader's newest, or one a follower received whole), and the
 * membership as of the snapshot's index. The bytes of the file travel a chunk at a time
 * (snapshot-file-store.ts), so no member holds a whole snapshot in memory to send or receive it.
 */
export interface SnapshotRef {
  readonly membership: MembershipSnapshot;
  /** The checkpoint file holding the state as of the snapshot's index. */
  readonly path: string;
  /**
   * Files saved beside the checkpoint that travel with it (the HNSW graphs of its vector indexes), so
   * the receiver opens them as a restart does instead of rebuilding; absent when there are none.
   */
  readonly companions?: readonly string[];
}

export function encodeSnapshotRef(ref: SnapshotRef): Uint8Array {
  return Buffer.from(JSON.stringify(ref));
}

export function decodeSnapshotRef(data: Uint8Array): SnapshotRef {
  return JSON.parse(Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('utf8')) as SnapshotRef;
}
