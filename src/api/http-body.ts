/**
 * Reading HTTP request bodies with bounds: a whole body up to a byte limit, or newline-delimited
 * JSON one line at a time with a bound per line (so a streamed upload never sits whole in memory).
 */
import type { Readable } from 'node:stream';
import { reasonError } from './error-catalog.js';

/** MESSAGE_TOO_LARGE for `what` ("the request body", "a message of 5000 bytes"). */
export function tooLarge(what: string, limit_bytes: number): Error {
  return reasonError('MESSAGE_TOO_LARGE', `${what} is larger than ${limit_bytes} bytes`, { limit_bytes: String(limit_bytes) });
}

/** The whole body as text. Refuses (MESSAGE_TOO_LARGE) as soon as the declared or read size passes the limit. */
export async function readBody(stream: Readable, declared_length: string | undefined, bytes_max: number): Promise<string> {
  if (declared_length !== undefined && Number(declared_length) > bytes_max) throw tooLarge('the request body', bytes_max);
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const b = chunk as Buffer;
    total += b.length;
    if (total > bytes_max) throw tooLarge('the request body', bytes_max);
    chunks.push(b);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Non-empty lines of a newline-delimited body, each at most `line_bytes_max` bytes. */
export async function* ndjsonLines(stream: Readable, line_bytes_max: number): AsyncGenerator<string, void, undefined> {
  let pending: Buffer[] = [];
  let pending_bytes = 0;
  for await (const chunk of stream) {
    let b = chunk as Buffer;
    for (;;) {
      const nl = b.indexOf(0x0a);
      const part = nl < 0 ? b : b.subarray(0, nl);
      pending_bytes += part.length;
      if (pending_bytes > line_bytes_max) throw tooLarge('a line of the request body', line_bytes_max);
      pending.push(part);
      if (nl < 0) break;
      const line = Buffer.concat(pending).toString('utf8').trim();
      pending = [];
      pending_bytes = 0;
      if (line !== '') yield line;
      b = b.subarray(nl + 1);
    }
  }
  const last = Buffer.concat(pending).toString('utf8').trim();
  if (last !== '') yield last;
}
