/**
 * A gRPC call's stream on Weft's own HTTP/2 engine (src/common/h2): one object per call that is
 * both the call's CallStream and the engine stream's event handler, so a call costs no closures
 * or emitters here.
 */
import type { H2Headers, H2Stream, H2StreamHandler } from '../common/h2/stream.js';
import type { CallStream, CallStreamEvents, OutgoingHeaders } from './grpc-call-stream.js';

const h2_cancel = 0x8;

export class WeftCallStream implements CallStream, H2StreamHandler {
  private events: CallStreamEvents | undefined;
  private drain_waiters: (() => void)[] | undefined;
  private gone = false;

  constructor(private readonly stream: H2Stream) {
    stream.handler = this;
  }

  get destroyed(): boolean {
    return this.gone || this.stream.closed;
  }

  listen(events: CallStreamEvents): void {
    this.events = events;
  }

  pause(): void {
    this.stream.pause();
  }

  resume(): void {
    this.stream.resume();
  }

  isPaused(): boolean {
    return this.stream.isPaused;
  }

  respond(headers: OutgoingHeaders, end_stream: boolean): void {
    this.stream.respond(headers, end_stream);
    // A trailers-only response while the client still sends: the rest of its request is not wanted.
    if (end_stream && !this.stream.remote_ended) this.stream.cancel(0 /* NO_ERROR */);
  }

  write(chunk: Uint8Array): boolean {
    return this.stream.write(chunk);
  }

  drained(): Promise<void> {
    if (this.destroyed) return Promise.resolve();
    return new Promise((resolve) => (this.drain_waiters ??= []).push(resolve));
  }

  end(last: Uint8Array | undefined, trailers: OutgoingHeaders): void {
    if (last !== undefined) this.stream.write(last);
    this.stream.end(trailers);
  }

  /** Resets the stream (CANCEL): the server is cutting the call. */
  cancel(): void {
    this.stream.cancel(h2_cancel);
  }

  // --- H2StreamHandler

  onResponse(): void {}

  onTrailers(_trailers: H2Headers): void {}

  onData(chunk: Buffer): void {
    this.events?.onData(chunk);
  }

  onEnd(): void {
    this.events?.onEnd();
  }

  onClose(): void {
    this.gone = true;
    this.onDrain();
    this.events?.onClose();
  }

  onDrain(): void {
    const waiters = this.drain_waiters;
    this.drain_waiters = undefined;
    if (waiters !== undefined) for (const w of waiters) w();
  }
}
