import { once } from 'node:events';
import { crc32 } from 'node:zlib';
import { type Client, type ClientWritableStream, Metadata } from '@grpc/grpc-js';
import type { SnapshotMessage } from '../raft/types.js';
import { peerServiceDefinition, type SenderHeader, type SnapshotChunk, type SnapshotHead, type SnapshotOutcome } from './peer-wire.js';
import type { IncomingSnapshot, OutgoingSnapshot, SnapshotFiles } from './snapshot-files.js';

/**
 * A snapshot travels apart from the Raft stream: its data can be hundreds of megabytes, and heartbeats
 * must not wait behind it. The sender reads the data a chunk at a time from where it lives (a
 * checkpoint file, see snapshot-files.ts) and writes each chunk only as the stream drains, so about
 * one chunk is in its memory whatever the snapshot's size; it learns from the receiver's answer
 * whether the whole snapshot reached its Raft handler. Each chunk carries its CRC-32 and the last one
 * the CRC-32 of the whole, which the receiver checks before Raft sees anything.
 */
export async function sendSnapshot(client: Client, header: SenderHeader, message: SnapshotMessage, chunk_bytes: number, files: SnapshotFiles): Promise<boolean> {
  const source = await files.openOutgoing(message.snapshot.data).catch(() => undefined);
  if (source === undefined) return false;
  try {
    return await streamSnapshot(client, header, message, chunk_bytes, source);
  } catch {
    return false;
  } finally {
    await source.close();
  }
}

async function streamSnapshot(client: Client, header: SenderHeader, message: SnapshotMessage, chunk_bytes: number, source: OutgoingSnapshot): Promise<boolean> {
  const { snapshot, ...envelope } = message;
  const head: SnapshotHead = { message: { ...envelope, snapshot: { meta: snapshot.meta } }, data_bytes: source.data_bytes, ref: source.ref };
  let settled = false;
  // Assigned synchronously by the Promise executor below.
  let call!: ClientWritableStream<SnapshotChunk>;
  const outcome = new Promise<boolean>((resolve) => {
    call = client.makeClientStreamRequest<SnapshotChunk, SnapshotOutcome>(
      peerServiceDefinition.snapshot.path,
      peerServiceDefinition.snapshot.requestSerialize,
      peerServiceDefinition.snapshot.responseDeserialize,
      new Metadata(),
      {},
      (error, answer) => {
        settled = true;
        resolve(error === null && answer?.delivered === true);
      },
    );
  });
  try {
    await pumpChunks(call, header, head, chunk_bytes, source, () => settled, outcome);
  } catch {
    // The data could not be read: the receiver removes what it has, and Raft is told it was not sent.
    call.cancel();
  }
  return outcome;
}

async function pumpChunks(
  call: ClientWritableStream<SnapshotChunk>,
  header: SenderHeader,
  head: SnapshotHead,
  chunk_bytes: number,
  source: OutgoingSnapshot,
  settled: () => boolean,
  outcome: Promise<boolean>,
): Promise<void> {
  let whole = 0;
  // The first chunk carries the head even when the data is empty.
  for (let offset = 0; !settled(); ) {
    const data = await source.read(offset, Math.min(chunk_bytes, source.data_bytes - offset));
    if (data.byteLength === 0 && offset < source.data_bytes) {
      // The data is shorter than it said: nothing the receiver could install.
      call.cancel();
      break;
    }
    whole = crc32(data, whole);
    const first = offset === 0;
    offset += data.byteLength;
    const last = offset >= source.data_bytes;
    const chunk: SnapshotChunk = { ...header, ...(first ? { head } : {}), data, crc: crc32(data), ...(last ? { data_crc: whole } : {}) };
    const writable = call.write(chunk);
    if (last) {
      call.end();
      break;
    }
    // Wait for the stream to drain, unless it ended (the receiver refused, or the link broke).
    if (!writable) await Promise.race([once(call, 'drain'), outcome]);
  }
}

/** What the receiver makes of a snapshot stream at its end. */
export type SnapshotReceipt = { readonly kind: 'complete'; readonly message: SnapshotMessage } | { readonly kind: 'refused'; readonly why: string };

/**
 * The receiving end of one snapshot stream: checks each chunk and hands it to the store as it
 * arrives (the caller feeds chunks one at a time, awaiting each). Any refusal or an abort removes
 * what arrived, so a broken transfer leaves nothing behind and Raft's next attempt starts afresh.
 */
export class SnapshotReceiver {
  private head: SnapshotHead | undefined;
  private incoming: IncomingSnapshot | undefined;
  /** Invariant: offset <= head.data_bytes. */
  private offset = 0;
  /** CRC-32 of the bytes received so far. */
  private whole = 0;
  private data_crc: number | undefined;

  constructor(
    private readonly self: number,
    private readonly files: SnapshotFiles,
    private readonly snapshot_bytes_max: number,
  ) {}

  /** Takes the next chunk; the reason it is refused, if it is (then the transfer is abandoned). */
  async add(chunk: SnapshotChunk): Promise<string | undefined> {
    const why = await this.take(chunk).catch((e: unknown) => `the snapshot could not be written: ${e instanceof Error ? e.message : String(e)}`);
    if (why !== undefined) await this.abort();
    return why;
  }

  private async take(chunk: SnapshotChunk): Promise<string | undefined> {
    if (this.head === undefined) {
      if (chunk.head === undefined) return 'the first chunk of a snapshot carries no head';
      if (chunk.head.message.to !== this.self) return `a snapshot for member ${chunk.head.message.to} reached member ${this.self}`;
      if (chunk.head.data_bytes > this.snapshot_bytes_max) return `a snapshot of ${chunk.head.data_bytes} bytes is over snapshot_bytes_max ${this.snapshot_bytes_max}`;
      this.head = chunk.head;
      try {
        this.incoming = await this.files.openIncoming(chunk.head.ref, chunk.head.data_bytes);
      } catch (e) {
        return `the snapshot cannot be received here: ${e instanceof Error ? e.message : String(e)}`;
      }
    } else if (chunk.head !== undefined) {
      return 'a snapshot stream carries a second head';
    }
    if (this.data_crc !== undefined) return 'a chunk after the last one';
    if (crc32(chunk.data) !== chunk.crc) return `chunk at byte ${this.offset} fails its CRC`;
    if (this.offset + chunk.data.byteLength > this.head.data_bytes) return `snapshot data passes its declared ${this.head.data_bytes} bytes`;
    await this.incoming!.append(chunk.data);
    this.offset += chunk.data.byteLength;
    this.whole = crc32(chunk.data, this.whole);
    if (chunk.data_crc !== undefined) this.data_crc = chunk.data_crc;
    return undefined;
  }

  /** At the stream's end: the snapshot message Raft is handed, or why not (then nothing is kept). */
  async finish(): Promise<SnapshotReceipt> {
    const why = this.complete();
    if (why !== undefined) {
      await this.abort();
      return { kind: 'refused', why };
    }
    let data: Uint8Array;
    try {
      data = await this.incoming!.finish();
    } catch (e) {
      await this.abort();
      return { kind: 'refused', why: `the snapshot could not be made durable: ${e instanceof Error ? e.message : String(e)}` };
    }
    this.incoming = undefined;
    const { snapshot, ...envelope } = this.head!.message;
    return { kind: 'complete', message: { ...envelope, snapshot: { meta: snapshot.meta, data } } };
  }

  private complete(): string | undefined {
    if (this.head === undefined || this.incoming === undefined) return 'the snapshot stream ended before its head';
    if (this.offset !== this.head.data_bytes) return `the snapshot stream ended at ${this.offset} of ${this.head.data_bytes} bytes`;
    if (this.data_crc === undefined) return 'the snapshot stream ended without its last chunk';
    if (this.data_crc !== this.whole) return 'the snapshot fails its whole CRC';
    return undefined;
  }

  /** The stream broke or was refused: removes what arrived. */
  async abort(): Promise<void> {
    const incoming = this.incoming;
    this.incoming = undefined;
    await incoming?.abort();
  }
}
