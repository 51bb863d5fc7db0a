/**
 * gRPC's length-prefixed messages on an HTTP/2 stream: a 1-byte compressed flag, a 4-byte big-endian
 * length, then the message. DATA frames do not respect message boundaries, so the deframer takes the
 * stream's chunks as they come: one message may span many chunks, one chunk may hold several messages.
 *
 * Shared by the server (src/api) and the clients (src/client, the typed client in src/api), so both
 * ends of a call frame and bound messages the same way.
 */
import { WeftError } from '../errors.js';

/** The compressed flag and the length before every message. */
export const grpc_prefix_bytes = 5;
/**
 * Below this, a message is copied behind its prefix into one buffer (one write, one DATA frame); at or
 * above it, prefix and message are written as two chunks so a large message is not copied.
 */
export const grpc_frame_copy_bytes_max = 16 * 1024;

/** One message as read off the wire, before decompression. */
export interface WireMessage {
  /** The flag said compressed: the bytes are in the call's `grpc-encoding`. */
  readonly compressed: boolean;
  readonly bytes: Buffer;
}

/**
 * One message as read off the wire, left in the pieces its DATA arrived in (views of them, never
 * copies): for a receiver that can use a large message without joining it first.
 */
export interface WireMessageParts {
  readonly compressed: boolean;
  /** Invariant: the parts' lengths sum to `bytes_total`; no part is empty unless the message is. */
  readonly parts: readonly Buffer[];
  readonly bytes_total: number;
}

/**
 * A message over the receiver's bound: RESOURCE_EXHAUSTED with the catalog's MESSAGE_TOO_LARGE
 * reason, which every transport answers the same way.
 */
export function messageTooLarge(what: string, limit_bytes: number): WeftError {
  return new WeftError('RESOURCE_EXHAUSTED', `${what} is larger than ${limit_bytes} bytes`, 'MESSAGE_TOO_LARGE', { limit_bytes: String(limit_bytes) });
}

export class MessageDeframer {
  private readonly prefix = Buffer.alloc(grpc_prefix_bytes);
  /** Invariant: 0 <= prefix_filled < grpc_prefix_bytes while no message body is being read. */
  private prefix_filled = 0;
  /** Length of the message whose body is being read; undefined while reading a prefix. */
  private body_bytes: number | undefined;
  private compressed = false;
  /** Invariant: the parts' lengths sum to body_filled, and body_filled < body_bytes. */
  private parts: Buffer[] = [];
  private body_filled = 0;

  /** `message_bytes_max` bounds each message as it arrives (its prefix), before any of it is kept. */
  constructor(private readonly message_bytes_max: number) {}

  /** The messages this chunk completes, in order. Throws RESOURCE_EXHAUSTED or INTERNAL. */
  push(chunk: Buffer): WireMessage[] {
    const out: WireMessage[] = [];
    this.deframe(chunk, (compressed, parts, bytes_total) =>
      // A message that came in one chunk is handed on without a copy.
      out.push({ compressed, bytes: parts.length === 1 ? parts[0]! : Buffer.concat(parts, bytes_total) }),
    );
    return out;
  }

  /**
   * The messages this chunk completes, in order, each as the pieces of the chunks it came in: no
   * message is joined. Throws as push() does. One deframer is used with one of the two throughout.
   */
  pushParts(chunk: Buffer): WireMessageParts[] {
    const out: WireMessageParts[] = [];
    this.deframe(chunk, (compressed, parts, bytes_total) => out.push({ compressed, parts, bytes_total }));
    return out;
  }

  private deframe(chunk: Buffer, complete: (compressed: boolean, parts: Buffer[], bytes_total: number) => void): void {
    let offset = 0;
    while (offset < chunk.length) {
      if (this.body_bytes === undefined) {
        const take = Math.min(grpc_prefix_bytes - this.prefix_filled, chunk.length - offset);
        chunk.copy(this.prefix, this.prefix_filled, offset, offset + take);
        this.prefix_filled += take;
        offset += take;
        if (this.prefix_filled < grpc_prefix_bytes) break;
        this.prefix_filled = 0;
        this.startBody();
        if (this.body_bytes === 0) {
          complete(this.compressed, [Buffer.alloc(0)], 0);
          this.body_bytes = undefined;
        }
        continue;
      }
      const body_bytes: number = this.body_bytes;
      const take = Math.min(body_bytes - this.body_filled, chunk.length - offset);
      const part = chunk.subarray(offset, offset + take);
      offset += take;
      if (this.body_filled + take < body_bytes) {
        this.parts.push(part);
        this.body_filled += take;
        continue;
      }
      const parts = this.parts;
      parts.push(part);
      this.parts = [];
      this.body_filled = 0;
      this.body_bytes = undefined;
      complete(this.compressed, parts, body_bytes);
    }
  }

  /** Whether part of a message is held: at the end of the stream, that message was cut short. */
  get midMessage(): boolean {
    return this.prefix_filled > 0 || this.body_bytes !== undefined;
  }

  private startBody(): void {
    const flag = this.prefix[0];
    if (flag !== 0 && flag !== 1) throw new WeftError('INTERNAL', `invalid gRPC message flag ${String(flag)}`);
    const length = this.prefix.readUInt32BE(1);
    if (length > this.message_bytes_max) throw messageTooLarge(`a message of ${length} bytes`, this.message_bytes_max);
    this.compressed = flag === 1;
    this.body_bytes = length;
  }
}

/** The 5-byte prefix of an uncompressed message of `length` bytes, to write before the message itself. */
export function messagePrefix(length: number): Buffer {
  const prefix = Buffer.allocUnsafe(grpc_prefix_bytes);
  prefix[0] = 0;
  prefix.writeUInt32BE(length, 1);
  return prefix;
}

/**
 * An uncompressed message with its prefix, as one chunk or as prefix and message (see
 * grpc_frame_copy_bytes_max). The message's memory is shared, not copied, in the second case.
 */
export function frameMessage(message: Uint8Array): Buffer[] {
  const length = message.byteLength;
  if (length < grpc_frame_copy_bytes_max) {
    const framed = Buffer.allocUnsafe(grpc_prefix_bytes + length);
    framed[0] = 0;
    framed.writeUInt32BE(length, 1);
    framed.set(message, grpc_prefix_bytes);
    return [framed];
  }
  return [messagePrefix(length), Buffer.from(message.buffer, message.byteOffset, length)];
}

/**
 * An uncompressed message given as parts (`length` bytes in all) with its prefix: parts under
 * grpc_frame_copy_bytes_max are copied in behind the prefix (a message's small head, or all of a
 * small message), larger ones are passed on as they are, shared and not copied.
 */
export function frameMessageParts(parts: readonly Uint8Array[], length: number): Buffer[] {
  const out: Buffer[] = [];
  let small: Uint8Array[] = [];
  let small_bytes = grpc_prefix_bytes;
  const gather = (): void => {
    const joined = Buffer.allocUnsafe(small_bytes);
    let at = 0;
    for (const p of small) {
      joined.set(p, at);
      at += p.byteLength;
    }
    out.push(joined);
    small = [];
    small_bytes = 0;
  };
  small.push(messagePrefix(length));
  for (const p of parts) {
    if (p.byteLength < grpc_frame_copy_bytes_max) {
      small.push(p);
      small_bytes += p.byteLength;
      continue;
    }
    if (small.length > 0) gather();
    out.push(Buffer.from(p.buffer, p.byteOffset, p.byteLength));
  }
  if (small.length > 0) gather();
  return out;
}
