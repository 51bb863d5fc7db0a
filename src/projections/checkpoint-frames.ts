import { closeSync, fstatSync, fsyncSync, openSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { crc32 } from 'node:zlib';
import { decodeState, encodeState } from '../log/codec.js';
import { fsyncDir } from '../log/storage/fsync-dir.js';

/**
 * The framed checkpoint file (format 2): written and read a frame at a time, so neither a checkpoint
 * nor its load ever holds the whole file, or the whole decoded body, in memory beside the state.
 *
 *   magic     8 bytes, "WEFTCKP2"
 *   frame*    u32 LE payload length, u32 LE CRC-32 of the payload, payload (MessagePack)
 *
 * The last frame is an `end` frame counting the frames before it: a file without it was cut short.
 * Format 1 (a CRC-32 then one MessagePack body) has no magic; its first four bytes are a CRC, which
 * equals the magic's first four only by a 1-in-2^32 chance, and then the next four must match too.
 */
export const checkpoint_magic = Buffer.from('WEFTCKP2', 'latin1');

/** Bytes read from the file per read call while loading. */
const read_block_bytes = 1024 * 1024;
/** A frame announcing more than this is damage, not data (writers keep frames near a megabyte). */
export const checkpoint_frame_bytes_max = 512 * 1024 * 1024;
const frame_header_bytes = 8;

/** Thrown by the reader when the file is not a whole, undamaged framed checkpoint. */
export class CheckpointDamaged extends Error {}

/** Writes frames to `<path>.tmp`; `finish` adds the end frame, fsyncs, and renames it to `path`. */
export class CheckpointFrameWriter {
  private readonly fd: number;
  private readonly tmp: string;
  /** Frames written, the end frame excluded. */
  private frames = 0;
  private position = 0;

  constructor(private readonly path: string) {
    this.tmp = `${path}.tmp`;
    this.fd = openSync(this.tmp, 'w');
    this.write(checkpoint_magic);
  }

  frame(record: object): void {
    this.writeFrame(encodeState(record));
    this.frames++;
  }

  /** Ends the file and puts it in place whole: a crash leaves the old name's file or the new one. */
  finish(): void {
    try {
      this.writeFrame(encodeState({ kind: 'end', frames: this.frames }));
      fsyncSync(this.fd);
    } catch (e) {
      this.abandon();
      throw e;
    }
    closeSync(this.fd);
    renameSync(this.tmp, this.path);
    fsyncDir(dirname(this.path));
  }

  /** Gives up: the temporary file goes, so a disk that filled gets its space back at once. */
  abandon(): void {
    closeSync(this.fd);
    rmSync(this.tmp, { force: true });
  }

  private writeFrame(payload: Uint8Array): void {
    const header = Buffer.alloc(frame_header_bytes);
    header.writeUInt32LE(payload.byteLength, 0);
    header.writeUInt32LE(crc32(payload), 4);
    this.write(header);
    this.write(payload);
  }

  private write(bytes: Uint8Array): void {
    let written = 0;
    while (written < bytes.byteLength) written += writeSync(this.fd, bytes, written, bytes.byteLength - written, this.position + written);
    this.position += bytes.byteLength;
  }
}

/** Whether the open file starts with the framed format's magic. */
export function isFramedCheckpoint(fd: number): boolean {
  const head = Buffer.alloc(checkpoint_magic.byteLength);
  const got = readSync(fd, head, 0, head.byteLength, 0);
  return got === head.byteLength && head.equals(checkpoint_magic);
}

/**
 * The frames of a framed checkpoint, decoded one at a time, the end frame checked and not yielded.
 * Throws CheckpointDamaged at the first damaged or missing byte; what was yielded before is then to
 * be thrown away by the caller.
 */
export function* checkpointFrames(fd: number): Generator<Record<string, unknown> & { readonly kind: string }> {
  const reader = new BlockReader(fd, checkpoint_magic.byteLength);
  let frames = 0;
  for (;;) {
    const header = reader.take(frame_header_bytes);
    if (header === undefined) throw new CheckpointDamaged(`the file ends after ${frames} frames, before its end frame`);
    const length = header.readUInt32LE(0);
    const crc = header.readUInt32LE(4);
    if (length > checkpoint_frame_bytes_max) throw new CheckpointDamaged(`frame ${frames} announces ${length} bytes`);
    const payload = reader.take(length);
    if (payload === undefined) throw new CheckpointDamaged(`frame ${frames} is cut short`);
    if (crc32(payload) !== crc) throw new CheckpointDamaged(`frame ${frames} fails its CRC`);
    // A fresh buffer per frame: decoded byte strings may be views of it, so it must not be reused.
    const frame = decodeState(Buffer.from(payload)) as Record<string, unknown> & { readonly kind: string };
    if (frame.kind === 'end') {
      if (frame['frames'] !== frames) throw new CheckpointDamaged(`the end frame counts ${String(frame['frames'])} frames, ${frames} were read`);
      if (reader.take(1) !== undefined) throw new CheckpointDamaged('bytes follow the end frame');
      return;
    }
    frames++;
    yield frame;
  }
}

/** Reads a file forward in blocks, handing out byte ranges that stay valid until the next take. */
class BlockReader {
  private buffer = Buffer.allocUnsafe(read_block_bytes);
  /** Invariant: 0 <= start <= end <= buffer.length; buffer[start, end) is unread file data. */
  private start = 0;
  private end = 0;
  private readonly size: number;

  constructor(
    private readonly fd: number,
    /** File offset of buffer[end]. */
    private position: number,
  ) {
    this.size = fstatSync(fd).size;
  }

  /** The next `n` bytes, or undefined when the file ends first. */
  take(n: number): Buffer | undefined {
    if (this.end - this.start < n) this.fill(n);
    if (this.end - this.start < n) return undefined;
    const out = this.buffer.subarray(this.start, this.start + n);
    this.start += n;
    return out;
  }

  private fill(n: number): void {
    const held = this.end - this.start;
    if (n > this.buffer.byteLength) {
      const bigger = Buffer.allocUnsafe(n);
      this.buffer.copy(bigger, 0, this.start, this.end);
      this.buffer = bigger;
    } else {
      this.buffer.copyWithin(0, this.start, this.end);
    }
    this.start = 0;
    this.end = held;
    while (this.end < n && this.position < this.size) {
      const got = readSync(this.fd, this.buffer, this.end, this.buffer.byteLength - this.end, this.position);
      if (got === 0) break;
      this.end += got;
      this.position += got;
    }
  }
}

/**
 * Whether `bytes`, a whole framed checkpoint in memory (an online backup copies it so), is intact:
 * every frame's CRC holds and the end frame counts them. Payloads other than the end are not decoded.
 */
export function framedCheckpointIntact(bytes: Buffer): boolean {
  if (bytes.byteLength < checkpoint_magic.byteLength || !bytes.subarray(0, checkpoint_magic.byteLength).equals(checkpoint_magic)) return false;
  let frames = 0;
  for (let at = checkpoint_magic.byteLength; at + frame_header_bytes <= bytes.byteLength; ) {
    const length = bytes.readUInt32LE(at);
    const payload = bytes.subarray(at + frame_header_bytes, at + frame_header_bytes + length);
    if (payload.byteLength !== length || crc32(payload) !== bytes.readUInt32LE(at + 4)) return false;
    at += frame_header_bytes + length;
    if (at === bytes.byteLength) {
      const end = decodeState(payload) as { kind?: unknown; frames?: unknown };
      return end.kind === 'end' && end.frames === frames;
    }
    frames++;
  }
  return false;
}
