import * as tls from 'node:tls';
import { connectH2 } from '../../common/h2/client.js';
import type { H2Connection, H2LocalSettings } from '../../common/h2/connection.js';
import { h2_error } from '../../common/h2/errors.js';
import { serveH2 } from '../../common/h2/server.js';
import type { H2Headers as EngineHeaders, H2Stream, H2StreamHandler, StreamEnd } from '../../common/h2/stream.js';
import { assertNever } from '../../common/assert.js';
import {
  peer_tls_server_name,
  type H2ClientSession,
  type H2ClientSessionEvents,
  type H2ClientStream,
  type H2ClientStreamHandlers,
  type H2DialOptions,
  type H2Headers,
  type H2Listener,
  type H2ListenOptions,
  type H2OutgoingHeaders,
  type H2ServerStream,
  type H2ServerStreamHandlers,
} from './h2-peer-interface.js';
import { listenPeerPort } from './peer-listen.js';
import { spiffeIdOfCertificate } from './spiffe-id.js';

/**
 * The peer transport's HTTP/2 on Weft's own engine (src/common/h2; setting `peer_http2_engine =
 * WEFT`, the default). The engine moves frames; this file adds what the peer port needs on top:
 * mutual TLS (a `tls.Server` with requestCert and rejectUnauthorized, a dial with the member's own
 * certificate whose server is accepted only when it proves the expected SPIFFE ID), the windows of
 * `stream_window_bytes` both ways, the caller's identity read once per connection, and keepalive.
 *
 * Why not node:http2: each of its streams is a Node stream object with nghttp2 callbacks and
 * header objects behind it, and a Raft append costs the leader one stream write and one answer
 * per peer per write; the engine hands bytes to a handler object and writes each connection's
 * frames of one turn with one socket write.
 */

/** What both ends announce: the peer transport's window on every stream and on the connection. */
function engineSettings(window_bytes: number): Partial<H2LocalSettings> {
  return { stream_window_bytes: window_bytes, connection_window_bytes: window_bytes };
}

// ---- accepting side ----------------------------------------------------------------------------

export async function listenWeftH2(options: H2ListenOptions): Promise<H2Listener> {
  const server = tls.createServer({
    ca: options.tls.ca,
    cert: options.tls.cert,
    key: options.tls.key,
    // Mutual TLS: a dialer without a certificate signed by the group's CA (or with an expired one) never gets a stream.
    requestCert: true,
    rejectUnauthorized: true,
    ALPNProtocols: ['h2'],
  });
  server.on('tlsClientError', (e: Error) => options.onRefusedConnection?.(e.message));
  const identities = new WeakMap<H2Connection, string | undefined>();
  const h2 = serveH2(server, {
    settings: engineSettings(options.window_bytes),
    onStream(stream, headers, connection) {
      let identity = identities.get(connection);
      if (identity === undefined && !identities.has(connection)) {
        // Read once per connection: reading it copies and parses the certificate.
        identity = spiffeIdOfCertificate((connection.socket as tls.TLSSocket).getPeerCertificate());
        identities.set(connection, identity);
      }
      options.onStream(new WeftServerStream(stream, headers, identity));
    },
  });
  // Keepalive per connection, started once the TLS handshake is through (serveH2 makes the connection then).
  server.on('secureConnection', (socket: tls.TLSSocket) => {
    for (const c of h2.connections) if (c.socket === socket) keepAlive(c, options.keepalive_ms);
  });
  const port = await listenPeerPort(server, options.host, options.port);
  return {
    port,
    close: (wait_ms) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          for (const c of h2.connections) c.destroy();
        }, wait_ms);
        server.close(() => {
          clearTimeout(timer);
          resolve();
        });
        for (const c of h2.connections) c.goaway();
      }),
  };
}

class WeftServerStream implements H2ServerStream {
  readonly path: string;
  /** Set by handle(); the engine's events reach it through ServerStreamEvents. */
  handlers: H2ServerStreamHandlers | undefined;
  readonly drain_listeners: (() => void)[] = [];

  constructor(
    private readonly stream: H2Stream,
    readonly headers: EngineHeaders,
    readonly peer_identity: string | undefined,
  ) {
    this.path = headers[':path'] ?? '';
    // Nothing is delivered until the service sets its handlers; the window holds the caller back meanwhile.
    stream.pause();
    stream.handler = new ServerStreamEvents(this);
  }

  get closed(): boolean {
    return !this.stream.writable;
  }

  handle(handlers: H2ServerStreamHandlers): void {
    this.handlers = handlers;
    this.stream.resume();
  }

  pause(): void {
    this.stream.pause();
  }

  resume(): void {
    if (this.handlers !== undefined) this.stream.resume();
  }

  respond(headers: H2OutgoingHeaders, end_stream: boolean): void {
    this.stream.respond(headers, end_stream);
  }

  write(chunks: readonly Buffer[]): boolean {
    if (!this.stream.writable) return true;
    let ok = true;
    for (const c of chunks) ok = this.stream.write(c);
    return ok;
  }

  onDrain(listener: () => void): void {
    this.drain_listeners.push(listener);
  }

  endWithTrailers(trailers: H2OutgoingHeaders): void {
    this.stream.end(trailers);
  }

}

/** What the engine tells an accepted stream, passed on to the service's handlers. */
class ServerStreamEvents implements H2StreamHandler {
  /** The caller ended its side. */
  private ended = false;

  constructor(private readonly of: WeftServerStream) {}

  onResponse(): void {}

  onTrailers(): void {}

  onData(chunk: Buffer): void {
    this.of.handlers?.data(chunk);
  }

  onEnd(): void {
    this.ended = true;
    this.of.handlers?.end();
  }

  onClose(end: StreamEnd): void {
    // A stream that closes before the caller ended its side, or that was reset with an error, was cut short.
    if (end.kind === 'done') return;
    if (end.kind === 'reset' && end.code === h2_error.NO_ERROR && this.ended) return;
    this.of.handlers?.aborted();
  }

  onDrain(): void {
    for (const listener of this.of.drain_listeners) listener();
  }
}

// ---- dialing side ------------------------------------------------------------------------------

export function dialWeftH2(options: H2DialOptions, events: H2ClientSessionEvents): H2ClientSession {
  const expected = options.expected_identity;
  const { host, port } = splitAddress(options.address);
  return new WeftClientSession(options.address, options.keepalive_ms, events, (session) =>
    connectH2({
      host,
      port,
      tls: {
        ca: options.tls.ca,
        cert: options.tls.cert,
        key: options.tls.key,
        servername: peer_tls_server_name,
        // Called once the chain is verified against the group's CA (rejectUnauthorized stays on).
        checkServerIdentity: (_host: string, cert: tls.PeerCertificate) => {
          const proved = spiffeIdOfCertificate(cert);
          return proved === expected ? undefined : new Error(`the peer proves ${proved ?? 'no SPIFFE ID'}, expected ${expected}`);
        },
      },
      settings: engineSettings(options.window_bytes),
      onConnect: () => session.connected(),
      onGoaway: () => session.goaway(),
      onClose: (error) => session.ended(error),
    }),
  );
}

/** host:port, with an IPv6 host in brackets. */
function splitAddress(address: string): { host: string; port: number } {
  const at = address.lastIndexOf(':');
  const host = address.slice(0, at).replace(/^\[(.*)\]$/, '$1');
  return { host, port: Number(address.slice(at + 1)) };
}

class WeftClientSession implements H2ClientSession {
  private readonly connection: H2Connection;
  private failure: string | undefined;

  constructor(
    /** What :authority names: the address dialed. */
    private readonly authority: string,
    private readonly keepalive_ms: number,
    private readonly events: H2ClientSessionEvents,
    connect: (session: WeftClientSession) => H2Connection,
  ) {
    this.connection = connect(this);
  }

  get closed(): boolean {
    return !this.connection.accepting;
  }

  /** @internal TLS is up and the server proved the expected identity. */
  connected(): void {
    if (this.connection.isClosed) return;
    keepAlive(this.connection, this.keepalive_ms);
    this.events.connected();
  }

  /** @internal */
  goaway(): void {
    this.failure ??= 'the peer sent GOAWAY';
  }

  /** @internal */
  ended(error: Error | undefined): void {
    if (error !== undefined) this.failure = error.message;
    this.events.closed(this.failure);
  }

  open(headers: H2OutgoingHeaders, handlers: H2ClientStreamHandlers): H2ClientStream {
    // The engine sends the headers it is given; a request also needs :scheme and :authority (RFC 9113 section 8.3.1), which node:http2 adds itself.
    const stream = this.connection.request({ ':scheme': 'https', ':authority': this.authority, ...headers }, false);
    if (stream === undefined) {
      // The session takes no new stream (closing, closed, or failed): nothing was sent.
      const why = this.failure ?? 'the connection takes no new streams';
      queueMicrotask(() => handlers.closed(h2_error.REFUSED_STREAM, why));
      return closed_stream;
    }
    return new WeftClientStream(stream, handlers, this);
  }

  close(now: boolean): void {
    if (now) this.connection.destroy();
    else this.connection.goaway();
  }

  /** @internal why the connection ended, for a stream it ended: what the session saw, else the engine's reason. */
  lostBecause(reason: string): string {
    return this.failure ?? reason;
  }
}

class WeftClientStream implements H2ClientStream, H2StreamHandler {
  constructor(
    private readonly stream: H2Stream,
    private readonly handlers: H2ClientStreamHandlers,
    private readonly session: WeftClientSession,
  ) {
    stream.handler = this;
  }

  write(chunks: readonly Buffer[]): boolean {
    if (!this.stream.writable) return true;
    let ok = true;
    for (const c of chunks) ok = this.stream.write(c);
    return ok;
  }

  end(): void {
    if (this.stream.writable) this.stream.end();
  }

  cancel(): void {
    this.stream.cancel(h2_error.CANCEL);
  }

  release(): void {
    if (this.stream.writable) this.stream.cancel(h2_error.NO_ERROR);
  }

  // --- H2StreamHandler: what the engine tells the stream, passed on in the adapter's terms.

  onResponse(headers: EngineHeaders): void {
    this.handlers.headers(headers satisfies H2Headers);
  }

  onTrailers(trailers: EngineHeaders): void {
    this.handlers.trailers(trailers);
  }

  onData(chunk: Buffer): void {
    this.handlers.data(chunk);
  }

  onEnd(): void {}

  onDrain(): void {
    this.handlers.drain();
  }

  onClose(end: StreamEnd): void {
    switch (end.kind) {
      case 'done':
        return this.handlers.closed(h2_error.NO_ERROR, undefined);
      case 'reset':
        return this.handlers.closed(end.code, undefined);
      case 'refused':
        return this.handlers.closed(h2_error.REFUSED_STREAM, 'the peer took no new streams (GOAWAY)');
      case 'connection_lost':
        return this.handlers.closed(h2_error.CANCEL, this.session.lostBecause(end.reason));
      default:
        assertNever(end, 'stream end');
    }
  }
}

/** A stream that was never opened: writes go nowhere, and its handlers were told it closed. */
const closed_stream: H2ClientStream = { write: () => true, end: () => undefined, cancel: () => undefined, release: () => undefined };

/**
 * Pings the other end when nothing arrived from it for `interval_ms`, and destroys the connection
 * when the next check finds the ping unanswered and still nothing read: a paused process or a cut
 * link is found even while this side keeps writing into it. A connection that is receiving (Raft
 * answers, appends) costs no ping at all; the check reads the socket's byte count, nothing per frame.
 */
function keepAlive(connection: H2Connection, interval_ms: number): void {
  const socket = connection.socket;
  let bytes_read = socket.bytesRead;
  let outstanding = false;
  const timer = setInterval(() => {
    if (connection.isClosed) {
      clearInterval(timer);
      return;
    }
    const now_read = socket.bytesRead;
    if (now_read !== bytes_read) {
      bytes_read = now_read;
      outstanding = false;
      return;
    }
    if (outstanding) {
      connection.destroy(h2_error.NO_ERROR, `no answer to a ping within ${interval_ms} ms`);
      return;
    }
    outstanding = connection.ping(() => undefined);
  }, interval_ms);
  timer.unref();
  socket.once('close', () => clearInterval(timer));
}
