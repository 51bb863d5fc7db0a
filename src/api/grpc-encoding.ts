/**
 * Message compression on the gRPC port: a client may compress its messages with `grpc-encoding`
 * gzip or deflate (each message's flag says whether it is). Replies are sent uncompressed, which
 * every client accepts; `grpc-accept-encoding` tells clients what they may send.
 */
import { gunzipSync, inflateSync } from 'node:zlib';
import { WeftError } from '../common/errors.js';
import { tooLarge } from './http-body.js';

export type MessageEncoding = 'identity' | 'gzip' | 'deflate';

/** Sent on every response so a client knows what it may compress with. */
export const grpc_accept_encoding = 'identity,deflate,gzip';

/** The call's encoding from its `grpc-encoding` header, or undefined when this server has none such. */
export function messageEncodingOf(header: string | undefined): MessageEncoding | undefined {
  const name = header === undefined ? 'identity' : header.trim().toLowerCase();
  switch (name) {
    case 'identity':
    case 'gzip':
    case 'deflate':
      return name;
    default:
      return undefined;
  }
}

export function unsupportedEncoding(header: string): WeftError {
  return new WeftError('UNIMPLEMENTED', `message encoding "${header}" is not supported; this server accepts ${grpc_accept_encoding}`);
}

/**
 * A received message's plain bytes. Decompression is synchronous: a message is bounded by
 * `message_bytes_max` (zlib stops at that output size) and the order of messages must be kept.
 */
export function decompress(encoding: MessageEncoding, compressed: boolean, bytes: Buffer, message_bytes_max: number): Buffer {
  if (!compressed) return bytes;
  const options = { maxOutputLength: Math.max(1, message_bytes_max) };
  try {
    switch (encoding) {
      case 'identity':
        // The spec makes a set flag without an encoding a protocol error.
        throw new WeftError('INTERNAL', 'a message is flagged compressed but the call has no grpc-encoding');
      case 'gzip':
        return gunzipSync(bytes, options);
      case 'deflate':
        return inflateSync(bytes, options);
    }
  } catch (e) {
    if (e instanceof WeftError) throw e;
    if (e instanceof RangeError) throw tooLarge(`a ${encoding} message once decompressed`, message_bytes_max);
    throw new WeftError('INTERNAL', `a ${encoding} message could not be decompressed: ${e instanceof Error ? e.message : String(e)}`);
  }
}
