/**
 * The online backup's wire and file format. A backup stream is a sequence of frames, each
 * `[u8 tag][u32 LE length][body]`:
 *
 *   head        JSON BackupHead: what follows and the commit_ts the backup stands at
 *   checkpoint  a chunk of the checkpoint file's bytes, in order
 *   graph       a chunk of one of the HNSW graph files saved with that checkpoint: u16 LE name
 *               length, the name, then the bytes (in order; the files one after the other)
 *   entry       one committed log entry after the checkpoint: u64 index, u64 term, then its payload
 *               as the log codec writes it (`{commit_ts, event}`)
 *   chunk       one blob chunk the backed-up state references: its 32-byte id (SHA-256), then its bytes
 *   end         JSON BackupEnd: the count of entries and the SHA-256 of every byte before this frame
 *
 * A stream without its end frame, or whose digest differs, is incomplete. The backup directory keeps
 * the checkpoint file and its graph files as they were and the entry frames, unchanged, in
 * `log-tail.bin`, and the chunks in one blob pack, `blobs.pack` (pack-format.ts). docs/backup.md.
 * Format 2 added the graph frames (format 1 backups have none); format 3 the chunk frames.
 */
import { createHash, type Hash } from 'node:crypto';
import { WeftError } from '../../common/errors.js';

export const backup_format = 3;
/** A checkpoint travels in chunks of at most this many bytes. */
export const backup_checkpoint_chunk_bytes = 1024 * 1024;
/** The largest frame a reader accepts: a log entry's bound plus its header. */
export const backup_frame_bytes_max = 256 * 1024 * 1024 + 64;
export const backup_manifest_file = 'backup.json';
export const backup_tail_file = 'log-tail.bin';
/** The backup's blob chunks, written as one sealed pack (absent before format 3). */
export const backup_chunks_file = 'blobs.pack';

export interface BackupHead {
  readonly format: number;
  readonly engine_format: number;
  /** Hex of the 16-byte deployment id of the member backed up. */
  readonly deployment: string;
  /** 0 when the member had no checkpoint yet; the tail then starts at the log's first entry. */
  readonly checkpoint_index: number;
  /** The checkpoint's file name, empty when there is none. */
  readonly checkpoint_name: string;
  readonly checkpoint_bytes: number;
  /**
   * The vector indexes' graph files saved with the checkpoint (vector-index-file.ts), each sent in
   * `graph` frames after the checkpoint's; absent before format 2.
   */
  readonly graph_files?: readonly { readonly name: string; readonly bytes: number }[];
  /** Chunk frames that follow the entries: every chunk the state at `last_index` references. Absent before format 3. */
  readonly chunks?: number;
  /** Entries `checkpoint_index + 1 ..= last_index` follow. */
  readonly last_index: number;
  /** commit_ts of `last_index`: the restored state equals the member's state AS OF this timestamp. */
  readonly commit_ts: number;
}

export interface BackupEnd {
  readonly entries: number;
  readonly sha256: string;
}

export type BackupFrame =
  | { readonly kind: 'head'; readonly head: BackupHead }
  | { readonly kind: 'checkpoint'; readonly bytes: Uint8Array }
  | { readonly kind: 'graph'; readonly name: string; readonly bytes: Uint8Array }
  | { readonly kind: 'entry'; readonly index: number; readonly term: number; readonly payload: Uint8Array }
  | { readonly kind: 'chunk'; readonly chunk_id: string; readonly bytes: Uint8Array }
  | { readonly kind: 'end'; readonly end: BackupEnd };

const tags = { head: 1, checkpoint: 2, entry: 3, end: 4, graph: 5, chunk: 6 } as const;
const frame_header_bytes = 5;

function frame(tag: number, body: Uint8Array): Buffer {
  const out = Buffer.alloc(frame_header_bytes + body.byteLength);
  out.writeUInt8(tag, 0);
  out.writeUInt32LE(body.byteLength, 1);
  out.set(body, frame_header_bytes);
  return out;
}

export function encodeFrame(f: BackupFrame): Buffer {
  switch (f.kind) {
    case 'head':
      return frame(tags.head, Buffer.from(JSON.stringify(f.head)));
    case 'checkpoint':
      return frame(tags.checkpoint, f.bytes);
    case 'graph': {
      const name = Buffer.from(f.name);
      const body = Buffer.alloc(2 + name.byteLength + f.bytes.byteLength);
      body.writeUInt16LE(name.byteLength, 0);
      body.set(name, 2);
      body.set(f.bytes, 2 + name.byteLength);
      return frame(tags.graph, body);
    }
    case 'entry': {
      const body = Buffer.alloc(16 + f.payload.byteLength);
      body.writeBigUInt64LE(BigInt(f.index), 0);
      body.writeBigUInt64LE(BigInt(f.term), 8);
      body.set(f.payload, 16);
      return frame(tags.entry, body);
    }
    case 'chunk': {
      const body = Buffer.alloc(32 + f.bytes.byteLength);
      body.write(f.chunk_id, 0, 32, 'hex');
      body.set(f.bytes, 32);
      return frame(tags.chunk, body);
    }
    case 'end':
      return frame(tags.end, Buffer.from(JSON.stringify(f.end)));
  }
}

export function damaged(file: string, detail: string): WeftError {
  return new WeftError('DATA_LOSS', `backup ${file}: ${detail}`, 'BACKUP_DAMAGED', { file, detail });
}

function decodeBody(tag: number, body: Buffer, source: string): BackupFrame {
  try {
    switch (tag) {
      case tags.head:
        return { kind: 'head', head: JSON.parse(body.toString('utf8')) as BackupHead };
      case tags.checkpoint:
        return { kind: 'checkpoint', bytes: body };
      case tags.entry:
        if (body.byteLength < 16) throw new Error('entry frame shorter than its header');
        return { kind: 'entry', index: Number(body.readBigUInt64LE(0)), term: Number(body.readBigUInt64LE(8)), payload: body.subarray(16) };
      case tags.end:
        return { kind: 'end', end: JSON.parse(body.toString('utf8')) as BackupEnd };
      case tags.graph: {
        const length = body.byteLength < 2 ? -1 : body.readUInt16LE(0);
        if (length < 0 || body.byteLength < 2 + length) throw new Error('graph frame shorter than its name');
        return { kind: 'graph', name: body.subarray(2, 2 + length).toString('utf8'), bytes: body.subarray(2 + length) };
      }
      case tags.chunk:
        if (body.byteLength < 32) throw new Error('chunk frame shorter than its id');
        return { kind: 'chunk', chunk_id: body.toString('hex', 0, 32), bytes: body.subarray(32) };
      default:
        throw new Error(`unknown frame tag ${tag}`);
    }
  } catch (e) {
    throw damaged(source, (e as Error).message);
  }
}

/**
 * Reads frames from chunks of bytes. `digest`, when given, is fed every byte of every frame before
 * the end frame, which is what the end frame's sha256 covers.
 */
export async function* decodeFrames(chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, source: string, digest?: Hash): AsyncGenerator<BackupFrame> {
  let buffered = Buffer.alloc(0);
  for await (const chunk of chunks) {
    buffered = buffered.byteLength === 0 ? Buffer.from(chunk) : Buffer.concat([buffered, chunk]);
    for (;;) {
      if (buffered.byteLength < frame_header_bytes) break;
      const length = buffered.readUInt32LE(1);
      if (length > backup_frame_bytes_max) throw damaged(source, `a frame of ${length} bytes exceeds ${backup_frame_bytes_max}`);
      if (buffered.byteLength < frame_header_bytes + length) break;
      const tag = buffered.readUInt8(0);
      const whole = buffered.subarray(0, frame_header_bytes + length);
      if (tag !== tags.end) digest?.update(whole);
      yield decodeBody(tag, Buffer.from(whole.subarray(frame_header_bytes)), source);
      buffered = buffered.subarray(frame_header_bytes + length);
    }
  }
  if (buffered.byteLength > 0) throw damaged(source, `ends inside a frame (${buffered.byteLength} bytes left over)`);
}

export function sha256(): Hash {
  return createHash('sha256');
}
