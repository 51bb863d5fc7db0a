/**
 * The client's HTTP/2 engine on Weft's own (src/common/h2), the default: a stream's events go
 * straight from the frame parser to the call, with no emitter and no closure per call, and a unary
 * call's HEADERS and DATA leave in one socket write.
 */
import { assertNever } from '../assert.js';
import { connectH2 } from '../h2/client.js';
import { h2_local_settings_default, type H2Connection } from '../h2/connection.js';
import type { H2Headers, H2Stream, H2StreamHandler, StreamEnd } from '../h2/stream.js';
import {
  client_connection_window_bytes,
  client_stream_window_bytes,
  type ClientSession,
  type ClientSessionEvents,
  type ClientStream,
  type ClientStreamEnd,
  type ClientStreamEvents,
  type OpenResult,
  type RequestHeaders,
} from './client-stream.js';
import { h2_cancel } from './status.js';
import { tlsHandshakeError } from './client-tls.js';
import type { ConnectionOptions } from 'node:tls';

/** `tls`: dial TLS with these options (client-tls.ts), else plain text. */
export function connectWeftSession(authority: string, events: ClientSessionEvents, tls?: ConnectionOptions): ClientSession {
  const { host, port } = hostAndPort(authority);
  const connection = connectH2({
    host,
    port,
    ...(tls !== undefined ? { tls, describeHandshakeError: (e: Error) => tlsHandshakeError(e, authority) } : {}),
    settings: { ...h2_local_settings_default, stream_window_bytes: client_stream_window_bytes, connection_window_bytes: client_connection_window_bytes },
    onConnect: () => events.onConnect(),
    onGoaway: () => events.onGoaway(),
    onClose: (error) => {
      if (error !== undefined) events.onError(error.message);
      events.onClose();
    },
  });
  connection.unref();
  return new WeftClientSession(connection, authority, tls !== undefined ? 'https' : 'http');
}

/** `host:port` or `[v6]:port`, as authorityOf leaves it. */
function hostAndPort(authority: string): { host: string; port: number } {
  const colon = authority.lastIndexOf(':');
  const host = authority.slice(0, colon);
  return { host: host.startsWith('[') ? host.slice(1, -1) : host, port: Number(authority.slice(colon + 1)) };
}

class WeftClientSession implements ClientSession {
  constructor(
    private readonly connection: H2Connection,
    private readonly authority: string,
    private readonly scheme: 'http' | 'https',
  ) {}

  get accepting(): boolean {
    return this.connection.accepting;
  }

  open(path: string, headers: RequestHeaders): OpenResult {
    const stream = this.connection.request({ ':method': 'POST', ':scheme': this.scheme, ':authority': this.authority, ':path': path, ...headers });
    if (stream === undefined) return { kind: 'closing', reason: 'the connection takes no new streams' };
    return { kind: 'opened', stream: new WeftClientStream(stream) };
  }

  ref(): void {
    this.connection.ref();
  }

  unref(): void {
    this.connection.unref();
  }

  close(): void {
    this.connection.goaway();
    this.connection.unref();
  }
}

const no_events: ClientStreamEvents = {
  onResponse() {},
  onData() {},
  onTrailers() {},
  onEnd() {},
  onClose() {},
};

/** One call's stream; it is its H2Stream's handler, so events reach the call without a closure. */
class WeftClientStream implements ClientStream, H2StreamHandler {
  private events: ClientStreamEvents = no_events;
  /** Callers of drained() waiting for the queue to fall below its mark, or for the stream to close. */
  private drain_waiters: (() => void)[] | undefined;
  private need_drain = false;

  constructor(private readonly stream: H2Stream) {
    stream.handler = this;
  }

  listen(events: ClientStreamEvents): void {
    this.events = events;
  }

  write(chunk: Uint8Array): boolean {
    const ok = this.stream.write(chunk);
    if (!ok) this.need_drain = !this.stream.closed;
    return ok;
  }

  end(last?: Uint8Array): void {
    if (!this.stream.writable) return;
    if (last !== undefined) this.stream.write(last);
    this.stream.end();
  }

  cancel(): void {
    this.stream.cancel(h2_cancel);
  }

  drained(): Promise<void> {
    if (!this.need_drain || this.stream.closed) return Promise.resolve();
    return new Promise((resolve) => (this.drain_waiters ??= []).push(resolve));
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

  // --- H2StreamHandler

  onResponse(headers: H2Headers): void {
    // A trailers-only response's end arrives as onEnd, right after.
    this.events.onResponse(headers);
  }

  onTrailers(headers: H2Headers): void {
    this.events.onTrailers(headers);
  }

  onData(chunk: Buffer): void {
    this.events.onData(chunk);
  }

  onEnd(): void {
    this.events.onEnd();
  }

  onDrain(): void {
    this.need_drain = false;
    this.wakeDrainWaiters();
  }

  onClose(end: StreamEnd): void {
    this.need_drain = false;
    this.wakeDrainWaiters();
    this.events.onClose(endOf(end));
  }

  private wakeDrainWaiters(): void {
    const waiters = this.drain_waiters;
    this.drain_waiters = undefined;
    if (waiters !== undefined) for (const wake of waiters) wake();
  }
}

function endOf(end: StreamEnd): ClientStreamEnd {
  switch (end.kind) {
    case 'done':
      return end;
    case 'reset':
      return { kind: 'reset', code: end.code };
    case 'refused':
      return { kind: 'lost', reason: 'the server refused the stream before processing it (GOAWAY)' };
    case 'connection_lost':
      return { kind: 'lost', reason: end.reason };
    default:
      return assertNever(end, 'stream end');
  }
}
