/**
 * Raw byte bodies for REST, the documented alternative to newline-delimited JSON for methods that
 * stream bytes. A method streams bytes when its streamed message is exactly `bytes data` and
 * `uint32 sequence` (weft.v1.BlobChunk). Then:
 *   - a client-streaming request with `Content-Type: application/octet-stream` is the bytes
 *     themselves; the server frames them into messages of at most `raw_message_bytes_max`,
 *     numbered from 0, without holding the body;
 *   - a server-streaming response to a request with `Accept: application/octet-stream` is the
 *     concatenated `data`, with Content-Length when the handler announced the size. An error before
 *     the first byte is the usual JSON error; after it, the connection is cut short of that length.
 */
import { once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { create, ScalarType, type DescField, type DescMessage, type Message } from '@bufbuild/protobuf';
import type { OpenCall } from './call-context.js';
import { untilAborted } from './invoke.js';

export const octet_stream_type = 'application/octet-stream';
/** Largest message a raw request body is framed into (the BlobChunk bound of SPEC 2.5). */
export const raw_message_bytes_max = 256 * 1024;

export interface ByteChunkShape {
  readonly data: DescField;
  readonly sequence: DescField;
}

/** The two fields of a byte-chunk message, or undefined when `message` is not one. */
export function byteChunkShape(message: DescMessage): ByteChunkShape | undefined {
  if (message.fields.length !== 2) return undefined;
  const data = message.fields.find((f) => f.name === 'data' && f.fieldKind === 'scalar' && f.scalar === ScalarType.BYTES);
  const sequence = message.fields.find((f) => f.name === 'sequence' && f.fieldKind === 'scalar' && f.scalar === ScalarType.UINT32);
  return data !== undefined && sequence !== undefined ? { data, sequence } : undefined;
}

/** Whether a header value (Content-Type or Accept) names application/octet-stream. */
export function namesOctetStream(header: string | undefined): boolean {
  return header !== undefined && header.split(',').some((part) => part.split(';')[0]?.trim().toLowerCase() === octet_stream_type);
}

/** The request body as numbered byte-chunk messages of at most `raw_message_bytes_max` bytes. */
export async function* rawBodyMessages(message: DescMessage, shape: ByteChunkShape, body: IncomingMessage): AsyncGenerator<Message, void, undefined> {
  let sequence = 0;
  for await (const piece of body) {
    const bytes = piece as Buffer;
    for (let at = 0; at < bytes.byteLength; at += raw_message_bytes_max) {
      yield create(message, {
        [shape.data.localName]: bytes.subarray(at, at + raw_message_bytes_max),
        [shape.sequence.localName]: sequence++,
      } as Record<string, unknown>);
    }
  }
}

/**
 * Writes the replies' `data` as the response body. The first reply is awaited before the headers
 * so an early failure still gets its own status (thrown to the caller); later failures cut the body.
 */
export async function writeRawReplies(
  replies: AsyncIterator<Message, void>,
  shape: ByteChunkShape,
  res: ServerResponse,
  call: OpenCall,
  announced: () => number | undefined,
  hijack: () => void,
): Promise<void> {
  let result = await replies.next();
  hijack();
  const size = announced();
  res.writeHead(200, { 'content-type': octet_stream_type, 'cache-control': 'no-store', ...(size !== undefined ? { 'content-length': String(size) } : {}) });
  try {
    while (result.done !== true) {
      const data = (result.value as unknown as Record<string, unknown>)[shape.data.localName] as Uint8Array;
      if (!res.write(data)) await untilAborted(once(res, 'drain'), call.ctx.signal);
      result = await replies.next();
    }
    res.end();
  } catch {
    // Past the headers there is no status left to send: a short body tells the client.
    res.destroy();
  } finally {
    void replies.return?.().catch(() => {});
  }
}
