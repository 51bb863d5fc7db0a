import { Packr } from 'msgpackr';
import type { Message, NodeId, SnapshotMessage } from '../raft/types.js';
import type { VersionStamp } from '../version/handshake.js';

/**
 * The peer service on the wire. src/log may not import the generated protobuf code, and members of
 * one group speak only to each other, so the service is defined by hand here and its messages are
 * msgpack: the same encoding the log uses for events, with byte strings carried as they are.
 *
 *   Raft      client stream of RaftBatch, one stream per (sender, receiver) pair, answered once at its end
 *   Snapshot  client stream of SnapshotChunk for one snapshot, answered with its outcome
 *   Call      unary PeerCallRequest -> PeerCallResponse
 */

/**
 * Every frame a member sends names itself, where it can be dialed back (for a member not yet bound,
 * see admission.ts), and its version pair and deployment (the handshake of SPEC 9.3, see
 * version/handshake.ts). A frame of a release before the handshake carries no pair: it is refused.
 */
export interface SenderHeader extends Partial<VersionStamp> {
  readonly from: NodeId;
  /** host:port of the sender's transport. */
  readonly from_address: string;
}

export interface RaftBatch extends SenderHeader {
  /** Invariant: every message's `from` equals the header's `from`. */
  readonly messages: readonly Message[];
}

/** A snapshot message with its data cut out: sent first, then the data in chunks. */
export interface SnapshotHead {
  readonly message: Omit<SnapshotMessage, 'snapshot'> & { readonly snapshot: { readonly meta: SnapshotMessage['snapshot']['meta'] } };
  /** The whole data's length, so the receiver can refuse a snapshot too large before holding it. */
  readonly data_bytes: number;
  /** The small part of the snapshot's data that is not the bytes (see snapshot-files.ts). */
  readonly ref: Uint8Array;
  /**
   * CRC-32 of the whole data, known before the first byte: with the index and term it tells the
   * receiver whether a part it holds from a broken transfer is of this snapshot. Absent from a sender
   * that cannot resume (then nothing held is kept).
   */
  readonly data_crc?: number;
  /** Where in the data this stream's bytes start: 0, or what the receiver said it held (resume_at). */
  readonly offset?: number;
}

export interface SnapshotChunk extends SenderHeader {
  /** Present on the first chunk only. */
  readonly head?: SnapshotHead;
  /** Bytes of snapshot.data, in order. */
  readonly data: Uint8Array;
  /** CRC-32 of `data`: a damaged chunk is refused, not written. */
  readonly crc: number;
  /** Present on the last chunk only: CRC-32 of the whole data, checked before Raft sees it. */
  readonly data_crc?: number;
}

export interface SnapshotOutcome {
  readonly delivered: boolean;
  /**
   * The receiver holds the first `resume_at` bytes of this same snapshot from an earlier attempt and
   * took nothing from this stream: send again from there.
   */
  readonly resume_at?: number;
}

export interface PeerCallRequest extends SenderHeader {
  readonly method: string;
  readonly payload: Uint8Array;
}

export interface PeerCallResponse {
  readonly payload: Uint8Array;
}

/** A WeftError's reason and metadata, sent in trailing metadata beside the gRPC status. */
export interface PeerCallErrorDetail {
  readonly reason: string;
  readonly metadata: Readonly<Record<string, string>>;
}
export const error_detail_key = 'weft-error-bin';

// Records off: every frame is a plain map, so a frame written by one version reads in another.
const packr = new Packr({ useRecords: false });

export function encodeFrame(value: unknown): Buffer {
  return packr.pack(value);
}

export function decodeFrame<T>(bytes: Buffer): T {
  return packr.unpack(bytes) as T;
}

const codec = { serialize: encodeFrame, deserialize: decodeFrame } as const;

export const peer_service_name = 'weft.peer.v1.Peer';

/**
 * The service as any gRPC implementation describes one: each method's path, shape and codecs. The
 * transport itself needs only the paths (peer_paths); the rest lets a second implementation of the
 * wire (a test's grpc-js server or client) speak to a member.
 */
export const peerServiceDefinition = {
  raft: {
    path: `/${peer_service_name}/Raft`,
    requestStream: true,
    responseStream: false,
    requestSerialize: codec.serialize,
    requestDeserialize: (b: Buffer) => decodeFrame<RaftBatch>(b),
    responseSerialize: codec.serialize,
    responseDeserialize: (b: Buffer) => decodeFrame<Record<string, never>>(b),
  },
  snapshot: {
    path: `/${peer_service_name}/Snapshot`,
    requestStream: true,
    responseStream: false,
    requestSerialize: codec.serialize,
    requestDeserialize: (b: Buffer) => decodeFrame<SnapshotChunk>(b),
    responseSerialize: codec.serialize,
    responseDeserialize: (b: Buffer) => decodeFrame<SnapshotOutcome>(b),
  },
  call: {
    path: `/${peer_service_name}/Call`,
    requestStream: false,
    responseStream: false,
    requestSerialize: codec.serialize,
    requestDeserialize: (b: Buffer) => decodeFrame<PeerCallRequest>(b),
    responseSerialize: codec.serialize,
    responseDeserialize: (b: Buffer) => decodeFrame<PeerCallResponse>(b),
  },
} as const;

/** The method paths the peer port serves. */
export const peer_paths = {
  raft: peerServiceDefinition.raft.path,
  snapshot: peerServiceDefinition.snapshot.path,
  call: peerServiceDefinition.call.path,
} as const;
