/**
 * A gRPC call's stream on node:http2: the `grpc_http2_engine = node` fallback, kept so an
 * operator can go back to nghttp2 should Weft's engine misbehave with some client.
 */
import { once } from 'node:events';
import type { OutgoingHttpHeaders, ServerHttp2Stream } from 'node:http2';
import type { CallStream, CallStreamEvents, OutgoingHeaders } from './grpc-call-stream.js';

export class NodeCallStream implements CallStream {
  constructor(private readonly stream: ServerHttp2Stream) {}

  get destroyed(): boolean {
    return this.stream.destroyed;
  }

  listen(events: CallStreamEvents): void {
    this.stream.on('data', (chunk: Buffer) => events.onData(chunk));
    this.stream.on('end', () => events.onEnd());
    this.stream.once('close', () => events.onClose());
  }

  pause(): void {
    this.stream.pause();
  }

  resume(): void {
    this.stream.resume();
  }

  isPaused(): boolean {
    return this.stream.isPaused();
  }

  respond(headers: OutgoingHeaders, end_stream: boolean): void {
    if (end_stream) this.stream.resume();
    this.stream.respond(headers as OutgoingHttpHeaders, end_stream ? { endStream: true } : { waitForTrailers: true });
  }

  write(chunk: Uint8Array): boolean {
    return this.stream.write(chunk);
  }

  /** A stream that closes instead cancels its call, whose signal ends the wait. */
  async drained(): Promise<void> {
    if (this.stream.destroyed) return;
    await once(this.stream, 'drain');
  }

  end(last: Uint8Array | undefined, trailers: OutgoingHeaders): void {
    this.stream.once('wantTrailers', () => {
      if (!this.stream.destroyed) this.stream.sendTrailers(trailers as OutgoingHttpHeaders);
    });
    if (last === undefined) this.stream.end();
    else this.stream.end(last);
  }
}
