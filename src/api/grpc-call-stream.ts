/**
 * The HTTP/2 stream of one gRPC call as the call's code uses it, so that the call, its request
 * reader and its response writer run unchanged on either HTTP/2 engine: Weft's own
 * (src/common/h2, the default) or node:http2 (the `grpc_http2_engine = node` fallback).
 */
import type { OutgoingHeaders } from '../common/h2/hpack-encoder.js';

export type { OutgoingHeaders };

export interface CallStreamEvents {
  onData(chunk: Buffer): void;
  /** The client half-closed: no more request data. */
  onEnd(): void;
  /** The stream is gone (finished, reset by the client, or its connection lost). Called once. */
  onClose(): void;
}

export interface CallStream {
  /** Nothing more can be sent: the stream was reset or closed. */
  readonly destroyed: boolean;
  /** Starts delivering the stream's events; called once, by the call. */
  listen(events: CallStreamEvents): void;
  /** Stops delivering data; flow control then stops the client. */
  pause(): void;
  resume(): void;
  isPaused(): boolean;
  /** The response headers; `end_stream` makes them the whole response (trailers-only). */
  respond(headers: OutgoingHeaders, end_stream: boolean): void;
  /** False when the stream's buffer is full: wait for drained(). */
  write(chunk: Uint8Array): boolean;
  /** Resolves once the stream takes more writes, or is gone. */
  drained(): Promise<void>;
  /** Ends the response: `last` (when given), then the trailers. */
  end(last: Uint8Array | undefined, trailers: OutgoingHeaders): void;
}
