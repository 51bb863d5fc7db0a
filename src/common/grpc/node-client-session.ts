/**
 * The client's HTTP/2 engine on node:http2: the fallback behind `http2_engine: 'node'`, kept so an
 * operator can rule Weft's own engine in or out when a call misbehaves.
 */
import * as http2 from 'node:http2';
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
import { h2_cancel, h2_no_error } from './status.js';
import { tlsHandshakeError } from './client-tls.js';
import type { ConnectionOptions } from 'node:tls';

/** `tls`: dial TLS with these options (client-tls.ts), else plain text. */
export function connectNodeSession(authority: string, events: ClientSessionEvents, tls?: ConnectionOptions): ClientSession {
  const session = http2.connect(`${tls !== undefined ? 'https' : 'http'}://${authority}`, {
    ...tls,
    settings: { enablePush: false, initialWindowSize: client_stream_window_bytes },
  });
  const failure = new SessionFailure(tls !== undefined ? (e) => tlsHandshakeError(e, authority) : undefined);
  session.once('connect', () => {
    failure.connected = true;
    session.setLocalWindowSize(client_connection_window_bytes);
    events.onConnect();
  });
  session.on('error', (e: Error) => events.onError(failure.handshake(e).message));
  // GOAWAY: the server takes no new streams here; the session closes itself once its calls end.
  session.once('goaway', () => events.onGoaway());
  session.once('close', () => events.onClose());
  session.unref();
  return new NodeClientSession(session, failure);
}

/**
 * A refused TLS handshake, told as such to the calls that were waiting for it: node reports it to
 * each stream first (as the cause of a cancel), then to the session.
 */
class SessionFailure {
  /** The described handshake failure, once one happened. */
  private error: Error | undefined;
  connected = false;

  constructor(private readonly describe?: (e: Error) => Error) {}

  /** `e` as the handshake's failure when the session is TLS and never connected; else `e` itself. */
  handshake(e: Error): Error {
    if (this.describe === undefined || this.connected) return e;
    this.error ??= this.describe(e.cause instanceof Error ? e.cause : e);
    return this.error;
  }
}

class NodeClientSession implements ClientSession {
  constructor(
    private readonly session: http2.ClientHttp2Session,
    private readonly failure: SessionFailure,
  ) {}

  get accepting(): boolean {
    return !this.session.closed && !this.session.destroyed;
  }

  open(path: string, headers: RequestHeaders): OpenResult {
    try {
      const stream = this.session.request({ ':method': 'POST', ':path': path, ...headers }, { endStream: false });
      return { kind: 'opened', stream: new NodeClientStream(stream, this.session, this.failure) };
    } catch (e) {
      const reason = e instanceof Error ? e.message : String(e);
      // The session closed or was sent GOAWAY between the check and the request: nothing was sent.
      return this.accepting ? { kind: 'invalid', reason } : { kind: 'closing', reason };
    }
  }

  ref(): void {
    if (!this.session.destroyed) this.session.ref();
  }

  unref(): void {
    if (!this.session.destroyed) this.session.unref();
  }

  close(): void {
    if (this.session.destroyed) return;
    this.session.close();
    this.session.unref();
  }
}

class NodeClientStream implements ClientStream {
  /** The stream's error, which says why it closed when no status came. */
  private stream_error: NodeJS.ErrnoException | undefined;

  constructor(
    private readonly stream: http2.ClientHttp2Stream,
    /** A closed stream no longer knows its session; the adapter still does. */
    private readonly session: http2.ClientHttp2Session,
    private readonly failure: SessionFailure,
  ) {}

  listen(events: ClientStreamEvents): void {
    const stream = this.stream;
    stream.on('response', (headers: http2.IncomingHttpHeaders & http2.IncomingHttpStatusHeader) => events.onResponse(headers));
    stream.on('data', (chunk: Buffer) => events.onData(chunk));
    stream.on('trailers', (trailers: http2.IncomingHttpHeaders) => events.onTrailers(trailers));
    stream.on('end', () => events.onEnd());
    stream.on('error', (e: NodeJS.ErrnoException) => (this.stream_error = e));
    stream.on('close', () => events.onClose(this.endOf()));
  }

  private endOf(): ClientStreamEnd {
    const session = this.session;
    const connection_error = this.stream_error?.code !== undefined && this.stream_error.code !== 'ERR_HTTP2_STREAM_ERROR';
    if (session.destroyed || session.closed || connection_error) {
      const e = this.stream_error;
      return { kind: 'lost', reason: e !== undefined ? this.failure.handshake(e).message : 'the connection closed' };
    }
    const rst = this.stream.rstCode;
    return rst !== undefined && rst !== h2_no_error ? { kind: 'reset', code: rst } : { kind: 'done' };
  }

  write(chunk: Uint8Array): boolean {
    return this.stream.write(chunk);
  }

  end(last?: Uint8Array): void {
    if (this.stream.writableEnded) return;
    if (last === undefined) this.stream.end();
    else this.stream.end(last);
  }

  cancel(): void {
    const stream = this.stream;
    if (!stream.closed && !stream.destroyed) stream.close(h2_cancel);
  }

  drained(): Promise<void> {
    const stream = this.stream;
    if (stream.closed || !stream.writableNeedDrain) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        stream.off('drain', done);
        stream.off('close', done);
        resolve();
      };
      stream.on('drain', done);
      stream.on('close', done);
    });
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
}
