import { crc32 } from 'node:zlib';
import { resourceExhausted } from '../../common/errors.js';

/**
 * Where a snapshot's data lives at either end of a transfer. The Raft core carries a snapshot's
 * `data` as an opaque byte string; with a member's disk store (driver/snapshot-file-store.ts) that
 * string is a small reference to a checkpoint file, so neither end ever holds the whole state in
 * memory while it travels: the sender reads the file a chunk at a time, the receiver writes each
 * chunk to a file of its own and hands Raft a reference to it.
 *
 * Without a store (a transport alone, as in its own tests and bench) `data` is the bytes themselves
 * and the receiver assembles them in memory, bounded by `snapshot_bytes_max`.
 */
export interface SnapshotFiles {
  /**
   * Opens the data a snapshot message refers to, for reading. Undefined when it is gone (a checkpoint
   * replaced since Raft asked for it): the snapshot is reported not sent and Raft asks again.
   */
  openOutgoing(data: Uint8Array): Promise<OutgoingSnapshot | undefined>;
  /**
   * Starts receiving the snapshot `identity` names, whose small part travelled as `ref`; rejects when
   * it cannot. What an earlier attempt at the same snapshot left durable is kept (`held`); anything
   * else half received is dropped.
   */
  openIncoming(ref: Uint8Array, identity: SnapshotIdentity): Promise<IncomingSnapshot>;
}

/** What makes two offers of a snapshot the same one, so a broken transfer may resume. */
export interface SnapshotIdentity {
  readonly index: number;
  readonly term: number;
  readonly data_bytes: number;
  /** CRC-32 of the whole data. */
  readonly data_crc: number;
}

export interface OutgoingSnapshot {
  /** What travels in the stream's head besides the bytes (e.g. the membership as of the snapshot). */
  readonly ref: Uint8Array;
  /** Length of the data read by `read`. */
  readonly data_bytes: number;
  /** CRC-32 of the whole data, sent ahead in the head: with the index and term it names the snapshot. */
  readonly data_crc: number;
  /** Reads up to `length` bytes at `offset` (fewer only at the end). */
  read(offset: number, length: number): Promise<Uint8Array>;
  /** Releases what pins the data (an open file). */
  close(): Promise<void>;
}

export interface IncomingSnapshot {
  /** The first `bytes` of the data are held already (durable, CRC-32 `crc`): the transfer resumes there. */
  readonly held: { readonly bytes: number; readonly crc: number };
  /** Appends the next chunk; resolves once it is written. */
  append(chunk: Uint8Array): Promise<void>;
  /** Every byte arrived and was checked: makes it durable and returns the `data` Raft is handed. */
  finish(): Promise<Uint8Array>;
  /** The link broke: keeps what is durable for another attempt at the same snapshot. */
  suspend(): Promise<void>;
  /** The transfer was refused: forgets what arrived (removes a half-received file). */
  abort(): Promise<void>;
}

/** The store of a transport without one: data is the bytes, assembled in memory at the receiver. */
export function memorySnapshotFiles(snapshot_bytes_max: number): SnapshotFiles {
  return {
    async openOutgoing(data) {
      return {
        ref: new Uint8Array(),
        data_bytes: data.byteLength,
        data_crc: crc32(data),
        read: async (offset, length) => data.subarray(offset, offset + length),
        close: async () => {},
      };
    },
    async openIncoming(_ref, identity) {
      if (identity.data_bytes > snapshot_bytes_max) {
        throw resourceExhausted(`a snapshot of ${identity.data_bytes} bytes is over snapshot_bytes_max ${snapshot_bytes_max}`, 'SNAPSHOT_TOO_LARGE');
      }
      const data = new Uint8Array(identity.data_bytes);
      // Invariant: offset <= data_bytes (the receiver refuses a chunk past the declared length).
      let offset = 0;
      return {
        // Memory does not outlive the stream: every attempt starts from the first byte.
        held: { bytes: 0, crc: 0 },
        append: async (chunk) => {
          data.set(chunk, offset);
          offset += chunk.byteLength;
        },
        finish: async () => data,
        suspend: async () => {},
        abort: async () => {},
      };
    },
  };
}
