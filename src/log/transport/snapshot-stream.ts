import { type Client, Metadata } from '@grpc/grpc-js';
import type { SnapshotMessage } from '../raft/types.js';
import { peerServiceDefinition, type SenderHeader, type SnapshotChunk, type SnapshotHead, type SnapshotOutcome } from './peer-wire.js';

/**
 * A snapshot travels apart from the Raft stream: its data can be hundreds of megabytes, and heartbeats
 * must not wait behind it. The sender cuts `snapshot.data` into chunks, writes them as the stream
 * drains (so at most a chunk or two sits in memory beyond the snapshot itself), and learns from the
 * receiver's answer whether the whole snapshot reached its Raft handler.
 */
export async function sendSnapshot(client: Client, header: SenderHeader, message: SnapshotMessage, chunk_bytes: number): Promise<boolean> {
  const { snapshot, ...envelope } = message;
  const head: SnapshotHead = { message: { ...envelope, snapshot: { meta: snapshot.meta } }, data_bytes: snapshot.data.length };
  return new Promise<boolean>((resolve) => {
    const call = client.makeClientStreamRequest<SnapshotChunk, SnapshotOutcome>(
      peerServiceDefinition.snapshot.path,
      peerServiceDefinition.snapshot.requestSerialize,
      peerServiceDefinition.snapshot.responseDeserialize,
      new Metadata(),
      {},
      (error, outcome) => resolve(error === null && outcome?.delivered === true),
    );
    let offset = 0;
    const pump = (): void => {
      // The first chunk carries the head even when the data is empty.
      for (;;) {
        const data = snapshot.data.subarray(offset, offset + chunk_bytes);
        const chunk: SnapshotChunk = offset === 0 ? { ...header, head, data } : { ...header, data };
        offset += data.length;
        const writable = call.write(chunk);
        if (offset >= snapshot.data.length) {
          call.end();
          return;
        }
        if (!writable) {
          call.once('drain', pump);
          return;
        }
      }
    };
    pump();
  });
}

/** What the receiver makes of a snapshot stream, one chunk at a time. */
export type SnapshotAssembly =
  | { readonly kind: 'more' }
  | { readonly kind: 'complete'; readonly message: SnapshotMessage }
  | { readonly kind: 'refused'; readonly why: string };

export class SnapshotAssembler {
  private head: SnapshotHead | undefined;
  private data: Uint8Array | undefined;
  /** Invariant: offset <= data.length. */
  private offset = 0;

  constructor(private readonly snapshot_bytes_max: number) {}

  add(chunk: SnapshotChunk): SnapshotAssembly {
    if (this.head === undefined) {
      if (chunk.head === undefined) return { kind: 'refused', why: 'the first chunk of a snapshot carries no head' };
      if (chunk.head.data_bytes > this.snapshot_bytes_max) {
        return { kind: 'refused', why: `a snapshot of ${chunk.head.data_bytes} bytes is over snapshot_bytes_max ${this.snapshot_bytes_max}` };
      }
      this.head = chunk.head;
      this.data = new Uint8Array(chunk.head.data_bytes);
    } else if (chunk.head !== undefined) {
      return { kind: 'refused', why: 'a snapshot stream carries a second head' };
    }
    const data = this.data!;
    if (this.offset + chunk.data.length > data.length) return { kind: 'refused', why: `snapshot data passes its declared ${data.length} bytes` };
    data.set(chunk.data, this.offset);
    this.offset += chunk.data.length;
    return { kind: 'more' };
  }

  /** At the stream's end: the snapshot whole, or why not. */
  finish(): SnapshotAssembly {
    if (this.head === undefined || this.data === undefined) return { kind: 'refused', why: 'the snapshot stream ended before its head' };
    if (this.offset !== this.data.length) return { kind: 'refused', why: `the snapshot stream ended at ${this.offset} of ${this.data.length} bytes` };
    const { snapshot, ...envelope } = this.head.message;
    return { kind: 'complete', message: { ...envelope, snapshot: { meta: snapshot.meta, data: this.data } } };
  }
}
