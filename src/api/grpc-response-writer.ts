/**
 * The response side of one gRPC call on an HTTP/2 stream: headers before the first message, each
 * message framed, and the status in trailers (or, for a call that ends before any message, in a
 * trailers-only response). Writes respect the stream's backpressure: when `write` returns false the
 * next message waits for 'drain'; HTTP/2 flow control does the rest.
 */
import type { OutgoingHttpHeaders } from 'node:http2';
import type { CallStream } from './grpc-call-stream.js';
import { frameMessage, frameMessageParts } from './grpc-framing.js';
import { tooLarge } from './http-body.js';
import { metadataHeaders, ok_trailers, response_headers, type MetadataValue } from './grpc-metadata.js';
import { untilAborted } from './invoke.js';

export class ResponseWriter {
  private headers_sent = false;
  /** Set once the status is on its way; nothing is written after it. */
  private ended = false;
  /** Custom metadata a handler added; made on first use, since most calls add none. */
  private header_metadata: Record<string, MetadataValue> | undefined;
  private trailer_metadata: Record<string, MetadataValue> | undefined;

  constructor(
    private readonly stream: CallStream,
    private readonly message_bytes_max: number,
  ) {}

  /** Whether the status has been sent. */
  get finished(): boolean {
    return this.ended;
  }

  /** Nothing more can be written: the status was sent or the stream is gone. */
  private get closed(): boolean {
    return this.ended || this.stream.destroyed;
  }

  /** Custom metadata for the response headers while they are unsent, for the trailers after. */
  addMetadata(key: string, value: MetadataValue): void {
    if (this.headers_sent) (this.trailer_metadata ??= {})[key] = value;
    else (this.header_metadata ??= {})[key] = value;
  }

  /** One reply of a stream; resolves once the stream can take more, or rejects when the signal aborts. */
  async write(message: Uint8Array, signal: AbortSignal): Promise<void> {
    if (this.closed) return;
    if (message.byteLength > this.message_bytes_max) throw tooLarge(`a reply of ${message.byteLength} bytes`, this.message_bytes_max);
    this.sendHeaders();
    let ready = true;
    for (const chunk of frameMessage(message)) ready = this.stream.write(chunk);
    if (!ready) await untilAborted(this.stream.drained(), signal);
  }

  /**
   * One reply of a stream given as parts (encodeMessageParts: a large bytes field apart from the
   * rest), written as they are: the prefix and a small head are joined, a large part is not copied.
   */
  async writeParts(parts: readonly Uint8Array[], signal: AbortSignal): Promise<void> {
    if (this.closed) return;
    let length = 0;
    for (const p of parts) length += p.byteLength;
    if (length > this.message_bytes_max) throw tooLarge(`a reply of ${length} bytes`, this.message_bytes_max);
    this.sendHeaders();
    let ready = true;
    for (const chunk of frameMessageParts(parts, length)) ready = this.stream.write(chunk);
    if (!ready) await untilAborted(this.stream.drained(), signal);
  }

  /** The reply of a unary call and its OK status, together. */
  endWith(message: Uint8Array): void {
    if (this.closed) return;
    if (message.byteLength > this.message_bytes_max) throw tooLarge(`a reply of ${message.byteLength} bytes`, this.message_bytes_max);
    this.sendHeaders();
    const chunks = frameMessage(message);
    const last = chunks.pop();
    for (const chunk of chunks) this.stream.write(chunk);
    this.sendTrailersAfter(ok_trailers, last);
  }

  /** Ends the call with OK after the messages written so far. */
  endOk(): void {
    this.end(ok_trailers);
  }

  /** Ends the call with these status trailers. Idempotent; a gone stream is left alone. */
  end(trailers: Readonly<OutgoingHttpHeaders>): void {
    if (this.closed) return;
    if (!this.headers_sent) {
      this.ended = true;
      this.headers_sent = true;
      this.stream.respond({ ...response_headers, ...metadataHeaders(this.header_metadata ?? {}), ...trailers }, true);
      return;
    }
    this.sendTrailersAfter(trailers, undefined);
  }

  private sendHeaders(): void {
    if (this.headers_sent) return;
    this.headers_sent = true;
    const headers = this.header_metadata === undefined ? response_headers : { ...response_headers, ...metadataHeaders(this.header_metadata) };
    this.stream.respond(headers, false);
  }

  private sendTrailersAfter(trailers: Readonly<OutgoingHttpHeaders>, last: Buffer | undefined): void {
    this.ended = true;
    const all = this.trailer_metadata === undefined ? trailers : { ...metadataHeaders(this.trailer_metadata), ...trailers };
    this.stream.end(last, all);
  }
}
