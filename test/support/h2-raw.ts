/**
 * A bare HTTP/2 client for gRPC wire tests: sends exactly the headers and DATA chunks given, and
 * returns the response's headers, trailers and messages as they arrived, so framing edge cases
 * (split messages, several per frame, compression, bad headers) can be sent and checked.
 */
import * as http2 from 'node:http2';
import { MessageDeframer } from '../../src/api/grpc-framing.js';

export interface RawAnswer {
  readonly headers: http2.IncomingHttpHeaders;
  /** Empty for a trailers-only response (the status is then in `headers`). */
  readonly trailers: http2.IncomingHttpHeaders;
  readonly messages: Buffer[];
  /** The status from the trailers, or from the headers of a trailers-only response. */
  readonly grpc_status: string | undefined;
}

export interface RawRequest {
  readonly path: string;
  readonly headers?: http2.OutgoingHttpHeaders;
  /** Written one at a time, each after the previous was flushed, so each goes in its own DATA frame. */
  readonly chunks: readonly Buffer[];
  /** Leave the request open (no END_STREAM) after the chunks. */
  readonly keep_open?: boolean;
}

/** A length-prefixed message: flag 0, or 1 with `compressed` set. */
export function framed(message: Uint8Array, compressed = false): Buffer {
  const out = Buffer.alloc(5 + message.length);
  out[0] = compressed ? 1 : 0;
  out.writeUInt32BE(message.length, 1);
  out.set(message, 5);
  return out;
}

export function rawRequest(session: http2.ClientHttp2Session, r: RawRequest): { stream: http2.ClientHttp2Stream; answer: Promise<RawAnswer> } {
  const stream = session.request({
    ':method': 'POST',
    ':path': r.path,
    'content-type': 'application/grpc',
    te: 'trailers',
    ...r.headers,
  });
  const answer = new Promise<RawAnswer>((resolve, reject) => {
    let headers: http2.IncomingHttpHeaders = {};
    let trailers: http2.IncomingHttpHeaders = {};
    const messages: Buffer[] = [];
    const deframer = new MessageDeframer(64 * 1024 * 1024);
    stream.on('response', (h) => (headers = h));
    stream.on('trailers', (t) => (trailers = t));
    stream.on('data', (chunk: Buffer) => {
      for (const m of deframer.push(chunk)) messages.push(m.bytes);
    });
    stream.on('error', reject);
    stream.on('close', () => {
      const status = trailers['grpc-status'] ?? headers['grpc-status'];
      resolve({ headers, trailers, messages, grpc_status: typeof status === 'string' ? status : undefined });
    });
  });
  void (async () => {
    for (const chunk of r.chunks) {
      await new Promise<void>((resolve) => stream.write(chunk, () => resolve()));
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    if (r.keep_open !== true) stream.end();
  })();
  return { stream, answer };
}

export async function call(session: http2.ClientHttp2Session, r: RawRequest): Promise<RawAnswer> {
  return rawRequest(session, r).answer;
}
