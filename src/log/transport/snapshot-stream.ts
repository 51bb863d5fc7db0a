import { crc32 } from 'node:zlib';
import type { SnapshotMessage } from '../raft/types.js';
import type { PeerCall } from './peer-call.js';
import type { PeerChannel } from './peer-channel.js';
import { decodeFrame, encodeFrame, peer_paths, type SenderHeader, type SnapshotChunk, type SnapshotHead, type SnapshotOutcome } from './peer-wire.js';
import type { IncomingSnapshot, OutgoingSnapshot, SnapshotFiles } from './snapshot-files.js';

/**
 * A snapshot travels apart from the Raft stream: its data can be hundreds of megabytes, and heartbeats
 * must not wait behind it. The sender reads the data a chunk at a time from where it lives (a
 * checkpoint file, see snapshot-files.ts) and writes each chunk only as the stream drains, so about
 * one chunk is in its memory whatever the snapshot's size; it learns from the receiver's answer
 * whether the whole snapshot reached its Raft handler. Each chunk carries its CRC-32 and the last one
 * the CRC-32 of the whole, which the receiver checks before Raft sees anything.
 *
 * Resuming: the head names the snapshot (index, term, CRC-32 of the whole) and where its bytes start.
 * A receiver holding part of that same snapshot from a broken attempt answers at once with
 * `resume_at` (what it holds) and takes nothing; the sender opens a new stream from there. So an
 * attempt after a cut link or a restart of the receiver costs one chunk again, not the whole data.
 */
export async function sendSnapshot(
  channel: PeerChannel,
  header: SenderHeader,
  message: SnapshotMessage,
  chunk_bytes: number,
  files: SnapshotFiles,
  message_bytes_max: number,
): Promise<SnapshotSent> {
  const source = await files.openOutgoing(message.snapshot.data).catch(() => undefined);
  if (source === undefined) return { delivered: false, resumed_at: 0, bytes_sent: 0 };
  let offset = 0;
  const sent = { bytes: 0 };
  try {
    // Once from the first byte, once from where the receiver says it holds: a second resume_at in
    // one send means the receiver's part changed under it, and Raft's next attempt starts afresh.
    for (let stream = 0; stream < resume_streams_max; stream++) {
      const outcome = await streamSnapshot(channel, header, message, chunk_bytes, source, offset, sent, message_bytes_max);
      if (outcome.resume_at === undefined || outcome.resume_at > source.data_bytes || outcome.resume_at === offset) return { delivered: outcome.delivered, resumed_at: offset, bytes_sent: sent.bytes };
      offset = outcome.resume_at;
    }
    return { delivered: false, resumed_at: offset, bytes_sent: sent.bytes };
  } catch {
    return { delivered: false, resumed_at: offset, bytes_sent: sent.bytes };
  } finally {
    await source.close();
  }
}

/** How a send went: whether Raft's handler got the snapshot, and the byte the last stream started at (0, or where a resume began). */
export interface SnapshotSent {
  readonly delivered: boolean;
  readonly resumed_at: number;
  /** Data bytes written to the streams of this send (a probe's first chunk included). */
  readonly bytes_sent: number;
}

/** The header a receiver sends once it took a snapshot stream's head (peer-server.ts). */
export const snapshot_head_taken_key = 'weft-snapshot-head';

/** Streams per send: the first, and one resumed where the receiver holds part of the snapshot. */
const resume_streams_max = 2;

async function streamSnapshot(
  channel: PeerChannel,
  header: SenderHeader,
  message: SnapshotMessage,
  chunk_bytes: number,
  source: OutgoingSnapshot,
  offset: number,
  sent: { bytes: number },
  message_bytes_max: number,
): Promise<SnapshotOutcome> {
  const { snapshot, ...envelope } = message;
  const head: SnapshotHead = {
    message: { ...envelope, snapshot: { meta: snapshot.meta } },
    data_bytes: source.data_bytes,
    ref: source.ref,
    data_crc: source.data_crc,
    offset,
  };
  let settled = false;
  let settle!: (outcome: SnapshotOutcome) => void;
  const outcome = new Promise<SnapshotOutcome>((resolve) => (settle = resolve));
  // The receiver sends its headers once it took the head (the first chunk): only then is the rest
  // worth sending, for it may answer resume_at instead, and a wide flow-control window would
  // otherwise carry megabytes it throws away before its answer arrives.
  // Headers also come with an early answer (resume_at, a refusal): only the mark says the head was taken.
  let headTaken!: (taken: boolean) => void;
  const accepted = new Promise<boolean>((resolve) => (headTaken = resolve));
  // Invariant: blocked while the last write found the stream's buffer full and no drain came since.
  let blocked = false;
  let drained: (() => void) | undefined;
  const call: PeerCall = channel.start(peer_paths.snapshot, { message_bytes_max }, {
    headers: (headers) => headTaken(headers[snapshot_head_taken_key] === 'taken'),
    drain: () => {
      blocked = false;
      const wake = drained;
      drained = undefined;
      wake?.();
    },
    done: (end) => {
      settled = true;
      settle(end.ok && end.answer !== undefined ? decodeFrame<SnapshotOutcome>(end.answer) : { delivered: false });
    },
  });
  const writer: ChunkWriter = {
    write: (chunk) => {
      blocked = !call.write(encodeFrame(chunk));
      return !blocked;
    },
    end: () => call.close(),
    cancel: () => call.cancel(),
    settled: () => settled,
    // Headers without the mark come with the call's end: wait for it.
    headTaken: Promise.race([accepted.then((taken) => (taken ? undefined : outcome)), outcome]),
    // Wait for the stream to drain, unless it ended (the receiver refused or answered resume_at, or the link broke).
    // A drain that came while the sender waited for the head has already freed the stream.
    drained: () => (blocked ? Promise.race([new Promise<void>((resolve) => (drained = resolve)), outcome]) : Promise.resolve()),
  };
  try {
    await pumpChunks(writer, header, head, chunk_bytes, source, offset, sent);
  } catch {
    // The data could not be read: the receiver keeps what it has, and Raft is told it was not sent.
    call.cancel();
  }
  return outcome;
}

/** The sending end of one snapshot stream, as pumpChunks drives it. */
interface ChunkWriter {
  /** False when the stream's buffer is full: wait for `drained`. */
  write(chunk: SnapshotChunk): boolean;
  end(): void;
  cancel(): void;
  /** True once the call is over. */
  settled(): boolean;
  /** Settles once the receiver took the head, or the call ended. */
  readonly headTaken: Promise<unknown>;
  drained(): Promise<unknown>;
}

async function pumpChunks(writer: ChunkWriter, header: SenderHeader, head: SnapshotHead, chunk_bytes: number, source: OutgoingSnapshot, start: number, sent: { bytes: number }): Promise<void> {
  // The first chunk carries the head even when no data is left to send.
  for (let offset = start; !writer.settled(); ) {
    const data = await source.read(offset, Math.min(chunk_bytes, source.data_bytes - offset));
    if (data.byteLength === 0 && offset < source.data_bytes) {
      // The data is shorter than it said: nothing the receiver could install.
      writer.cancel();
      break;
    }
    const first = offset === start;
    offset += data.byteLength;
    const last = offset >= source.data_bytes;
    const chunk: SnapshotChunk = { ...header, ...(first ? { head } : {}), data, crc: crc32(data), ...(last ? { data_crc: source.data_crc } : {}) };
    const writable = writer.write(chunk);
    sent.bytes += data.byteLength;
    if (last) {
      writer.end();
      break;
    }
    if (first) await writer.headTaken;
    if (!writable) await writer.drained();
  }
}

/** What the receiver makes of a snapshot stream at its end. */
export type SnapshotReceipt = { readonly kind: 'complete'; readonly message: SnapshotMessage } | { readonly kind: 'refused'; readonly why: string };

/** What the receiver makes of one chunk. */
export type ChunkVerdict =
  | { readonly kind: 'taken' }
  /** The transfer is abandoned and what arrived removed. */
  | { readonly kind: 'refused'; readonly why: string }
  /** The receiver holds the first `at` bytes of this snapshot already: the sender starts again there. */
  | { readonly kind: 'resume'; readonly at: number };

/**
 * The receiving end of one snapshot stream: checks each chunk and hands it to the store as it
 * arrives (the caller feeds chunks one at a time, awaiting each). A refusal removes what arrived; a
 * broken stream (suspend) keeps what is durable, so the same snapshot offered again resumes.
 */
export class SnapshotReceiver {
  private head: SnapshotHead | undefined;
  private incoming: IncomingSnapshot | undefined;
  /** Invariant: offset <= head.data_bytes. */
  private offset = 0;
  /** CRC-32 of the bytes received so far (those held from an earlier attempt included). */
  private whole = 0;
  private data_crc: number | undefined;

  constructor(
    private readonly self: number,
    private readonly files: SnapshotFiles,
    private readonly snapshot_bytes_max: number,
  ) {}

  /** Takes the next chunk; a refusal abandons the transfer, a resume leaves what is held in place. */
  async add(chunk: SnapshotChunk): Promise<ChunkVerdict> {
    const verdict = await this.take(chunk).catch((e: unknown): ChunkVerdict => ({ kind: 'refused', why: `the snapshot could not be written: ${e instanceof Error ? e.message : String(e)}` }));
    if (verdict.kind === 'refused') await this.abort();
    if (verdict.kind === 'resume') await this.suspend();
    return verdict;
  }

  private async take(chunk: SnapshotChunk): Promise<ChunkVerdict> {
    if (this.head === undefined) {
      if (chunk.head === undefined) return refused('the first chunk of a snapshot carries no head');
      const head = chunk.head;
      if (head.message.to !== this.self) return refused(`a snapshot for member ${head.message.to} reached member ${this.self}`);
      if (head.data_bytes > this.snapshot_bytes_max) return refused(`a snapshot of ${head.data_bytes} bytes is over snapshot_bytes_max ${this.snapshot_bytes_max}`);
      this.head = head;
      const meta = head.message.snapshot.meta;
      try {
        // A sender that names no CRC cannot resume: an identity no earlier part matches (-1) keeps nothing.
        this.incoming = await this.files.openIncoming(head.ref, { index: meta.index, term: meta.term, data_bytes: head.data_bytes, data_crc: head.data_crc ?? -1 });
      } catch (e) {
        return refused(`the snapshot cannot be received here: ${e instanceof Error ? e.message : String(e)}`);
      }
      const held = this.incoming.held;
      if ((head.offset ?? 0) !== held.bytes) return { kind: 'resume', at: held.bytes };
      this.offset = held.bytes;
      this.whole = held.crc;
    } else if (chunk.head !== undefined) {
      return refused('a snapshot stream carries a second head');
    }
    if (this.data_crc !== undefined) return refused('a chunk after the last one');
    if (crc32(chunk.data) !== chunk.crc) return refused(`chunk at byte ${this.offset} fails its CRC`);
    if (this.offset + chunk.data.byteLength > this.head.data_bytes) return refused(`snapshot data passes its declared ${this.head.data_bytes} bytes`);
    await this.incoming!.append(chunk.data);
    this.offset += chunk.data.byteLength;
    this.whole = crc32(chunk.data, this.whole);
    if (chunk.data_crc !== undefined) this.data_crc = chunk.data_crc;
    return { kind: 'taken' };
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
    if (this.data_crc !== this.whole || (this.head.data_crc !== undefined && this.head.data_crc !== this.whole)) return 'the snapshot fails its whole CRC';
    return undefined;
  }

  /** The stream was refused: removes what arrived. */
  async abort(): Promise<void> {
    const incoming = this.incoming;
    this.incoming = undefined;
    await incoming?.abort();
  }

  /** The stream broke: keeps what is durable for the next attempt at the same snapshot. */
  async suspend(): Promise<void> {
    const incoming = this.incoming;
    this.incoming = undefined;
    await incoming?.suspend();
  }
}

function refused(why: string): ChunkVerdict {
  return { kind: 'refused', why };
}
