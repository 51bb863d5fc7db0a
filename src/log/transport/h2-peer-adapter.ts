import * as http2 from 'node:http2';
import type { PeerCertificate } from 'node:tls';
import { unavailable } from '../../common/errors.js';
import { spiffeIdOfCertificate } from './spiffe-id.js';
import type { TlsMaterial } from './tls-material.js';

/**
 * The only place the peer transport touches an HTTP/2 implementation (node:http2 today). Everything
 * above it (gRPC framing and status in peer-call.ts and peer-server-call.ts, the links, the service)
 * sees sessions and streams through the callback interfaces below, so moving the peer port onto
 * another HTTP/2 engine means writing this file again and nothing else.
 *
 * Callbacks rather than Node streams: a Raft append is one small message each way per write, and
 * the events of Node's stream machinery (and the closures a listener per call costs) are a visible
 * part of what a write costs the leader.
 *
 * Security is not optional here: a server requires a client certificate chained to the group's CA,
 * and a client accepts a server only when its certificate proves the SPIFFE ID it expects. There is
 * no plaintext mode to fall into.
 */

/** Header and trailer blocks as they arrive: a name's value, or values when it repeats. */
export type H2Headers = Readonly<Record<string, string | string[] | undefined>>;
/** Header and trailer blocks to send. */
export type H2OutgoingHeaders = Readonly<Record<string, string | number>>;

/** The SNI name every peer is dialed with: peers are dialed by address, and an IP address is no SNI name; the identity is what is checked. */
const peer_tls_server_name = 'weft-peer';

/** HTTP/2's RST_STREAM CANCEL (RFC 9113 section 7). */
const h2_cancel = 0x8;

export interface H2Settings {
  /** Stream and connection flow-control window this end grants, both ways (transport-limits.ts). */
  readonly window_bytes: number;
  /** A ping every this often; a session whose ping goes unanswered this long is destroyed. */
  readonly keepalive_ms: number;
}

// ---- accepting side ----------------------------------------------------------------------------

export interface H2ServerStreamHandlers {
  data(chunk: Buffer): void;
  /** The caller ended its side of the stream. */
  end(): void;
  /** The stream is gone before this side ended it: reset by the caller, or its connection lost. */
  aborted(): void;
}

export interface H2ServerStream {
  readonly path: string;
  readonly headers: H2Headers;
  /** The SPIFFE ID the connection's client certificate proves (read once per connection), or undefined when it proves none. */
  readonly peer_identity: string | undefined;
  /** Set once, before the stream delivers anything (streams start paused until then). */
  handle(handlers: H2ServerStreamHandlers): void;
  pause(): void;
  resume(): void;
  /** Response headers; with `end_stream` the headers end the stream (a trailers-only response). */
  respond(headers: H2OutgoingHeaders, end_stream: boolean): void;
  /** Writes `chunks` as one run (corked); false when the stream's buffer is full: wait for drain. */
  write(chunks: readonly Buffer[]): boolean;
  onDrain(listener: () => void): void;
  /** Ends the stream with trailers after what was written (respond first, without end_stream). */
  endWithTrailers(trailers: H2OutgoingHeaders): void;
  /** True once the stream can take nothing more (ended here, reset, or its connection lost). */
  readonly closed: boolean;
}

export interface H2ListenOptions extends H2Settings {
  readonly host: string;
  /** 0 lets the OS choose. */
  readonly port: number;
  readonly tls: TlsMaterial;
  onStream(stream: H2ServerStream): void;
  /** A connection refused before any stream (TLS failed: a plaintext dialer, a foreign CA, an expired certificate). */
  onRefusedConnection?(why: string): void;
}

export interface H2Listener {
  /** The port bound (the OS's choice when 0 was asked). */
  readonly port: number;
  /** Stops accepting; lets streams under way end for up to `wait_ms`, then cuts them. */
  close(wait_ms: number): Promise<void>;
}

export async function listenH2(options: H2ListenOptions): Promise<H2Listener> {
  const server = http2.createSecureServer({
    ca: options.tls.ca,
    cert: options.tls.cert,
    key: options.tls.key,
    // Mutual TLS: a dialer without a certificate signed by the group's CA (or with an expired one) never gets a stream.
    requestCert: true,
    rejectUnauthorized: true,
    allowHTTP1: false,
    settings: { initialWindowSize: options.window_bytes, enablePush: false },
  });
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on('session', (session: http2.ServerHttp2Session) => {
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
    session.on('error', () => undefined);
    // The connection's window is no SETTINGS value: only the receiving side can widen it, once the session is up.
    if (!session.destroyed) session.setLocalWindowSize(options.window_bytes);
    keepAlive(session, options.keepalive_ms);
  });
  server.on('tlsClientError', (e: Error) => options.onRefusedConnection?.(e.message));
  server.on('stream', (stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders) => {
    options.onStream(new NodeServerStream(stream, headers, identityOf(stream.session)));
  });
  await new Promise<void>((resolve, reject) => {
    const failed = (e: Error): void => reject(unavailable(`peer port ${options.host}:${options.port}: ${e.message}`));
    server.once('error', failed);
    server.listen(options.port, options.host, () => {
      server.off('error', failed);
      resolve();
    });
  });
  server.on('error', () => undefined);
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  return {
    port,
    close: (wait_ms) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          for (const s of sessions) s.destroy();
        }, wait_ms);
        server.close(() => {
          clearTimeout(timer);
          resolve();
        });
        for (const s of sessions) s.close();
      }),
  };
}

/** The identity a connection's client certificate proves, read once: reading it copies and parses the certificate. */
const session_identities = new WeakMap<object, { readonly identity: string | undefined }>();

function identityOf(session: http2.Http2Session | undefined): string | undefined {
  if (session === undefined) return undefined;
  let known = session_identities.get(session);
  if (known === undefined) {
    const socket = session.socket as unknown as { getPeerCertificate?: () => PeerCertificate };
    known = { identity: spiffeIdOfCertificate(socket.getPeerCertificate?.()) };
    session_identities.set(session, known);
  }
  return known.identity;
}

class NodeServerStream implements H2ServerStream {
  readonly path: string;

  constructor(
    private readonly stream: http2.ServerHttp2Stream,
    readonly headers: H2Headers,
    readonly peer_identity: string | undefined,
  ) {
    const path = headers[':path'];
    this.path = typeof path === 'string' ? path : '';
    stream.on('error', () => undefined);
  }

  get closed(): boolean {
    return this.stream.destroyed || this.stream.closed || this.stream.writableEnded;
  }

  handle(handlers: H2ServerStreamHandlers): void {
    const stream = this.stream;
    let ended = false;
    stream.on('data', (chunk: Buffer) => handlers.data(chunk));
    stream.once('end', () => {
      ended = true;
      handlers.end();
    });
    stream.once('close', () => {
      // A stream that closes before the caller ended its side, or that was reset, was cut short.
      if (!ended || stream.rstCode !== http2.constants.NGHTTP2_NO_ERROR) handlers.aborted();
    });
  }

  pause(): void {
    this.stream.pause();
  }

  resume(): void {
    this.stream.resume();
  }

  respond(headers: H2OutgoingHeaders, end_stream: boolean): void {
    if (this.stream.destroyed || this.stream.headersSent) return;
    this.stream.respond(headers, end_stream ? { endStream: true } : { waitForTrailers: true });
  }

  write(chunks: readonly Buffer[]): boolean {
    if (chunks.length === 1) return this.stream.write(chunks[0]);
    this.stream.cork();
    let ok = true;
    for (const c of chunks) ok = this.stream.write(c);
    this.stream.uncork();
    return ok;
  }

  onDrain(listener: () => void): void {
    this.stream.on('drain', listener);
  }

  endWithTrailers(trailers: H2OutgoingHeaders): void {
    const stream = this.stream;
    if (stream.destroyed || stream.writableEnded) return;
    stream.once('wantTrailers', () => {
      if (!stream.destroyed) stream.sendTrailers(trailers);
    });
    stream.end();
  }
}

// ---- dialing side ------------------------------------------------------------------------------

export interface H2ClientStreamHandlers {
  /** Response headers: with a trailers-only response, the status is among them. */
  headers(headers: H2Headers): void;
  data(chunk: Buffer): void;
  trailers(trailers: H2Headers): void;
  drain(): void;
  /**
   * The stream is over. `reset_code` is the RST_STREAM code (0 when it ended normally);
   * `connection_failure` says why the connection was lost when that is what ended it.
   */
  closed(reset_code: number, connection_failure: string | undefined): void;
}

export interface H2ClientStream {
  /** Writes `chunks` as one run (corked); false when the stream's buffer is full: wait for drain. */
  write(chunks: readonly Buffer[]): boolean;
  /** Ends this side of the stream. */
  end(): void;
  /** Resets the stream (CANCEL); `closed` follows. */
  cancel(): void;
  /** The call's status arrived: resets the stream (NO_ERROR) if this side is still open, so neither end holds it. */
  release(): void;
}

export interface H2DialOptions extends H2Settings {
  /** host:port to connect to (a proxy in between may stand for the member). */
  readonly address: string;
  readonly tls: TlsMaterial;
  /** The SPIFFE ID the server's certificate must prove, compared whole; the host name proves nothing. */
  readonly expected_identity: string;
}

export interface H2ClientSession {
  /** True once the session can open no stream (closing, closed, or failed). */
  readonly closed: boolean;
  /** Opens a stream with request headers; its events arrive through `handlers`. */
  open(headers: H2OutgoingHeaders, handlers: H2ClientStreamHandlers): H2ClientStream;
  /** Ends the session once its streams end; destroys it when `now`. */
  close(now: boolean): void;
}

export interface H2ClientSessionEvents {
  /** TLS and the HTTP/2 preface are done: the server proved the expected identity. */
  connected(): void;
  /** The session is over; `failure` says why when it did not close cleanly. */
  closed(failure: string | undefined): void;
}

export function dialH2(options: H2DialOptions, events: H2ClientSessionEvents): H2ClientSession {
  const expected = options.expected_identity;
  const session = http2.connect(`https://${options.address}`, {
    ca: options.tls.ca,
    cert: options.tls.cert,
    key: options.tls.key,
    servername: peer_tls_server_name,
    checkServerIdentity: (_host: string, cert: PeerCertificate) => {
      const proved = spiffeIdOfCertificate(cert);
      return proved === expected ? undefined : new Error(`the peer proves ${proved ?? 'no SPIFFE ID'}, expected ${expected}`);
    },
    settings: { initialWindowSize: options.window_bytes, enablePush: false },
  });
  return new NodeClientSession(session, options, events);
}

class NodeClientSession implements H2ClientSession {
  private failure: string | undefined;

  constructor(
    private readonly session: http2.ClientHttp2Session,
    options: H2Settings,
    events: H2ClientSessionEvents,
  ) {
    session.on('error', (e: Error) => {
      this.failure ??= e.message;
    });
    session.once('connect', () => {
      if (session.destroyed) return;
      // What the peer sends back (answers, errors) flows within the same raised window as what it receives.
      session.setLocalWindowSize(options.window_bytes);
      events.connected();
    });
    session.once('goaway', () => {
      this.failure ??= 'the peer sent GOAWAY';
    });
    session.once('close', () => events.closed(this.failure));
    keepAlive(session, options.keepalive_ms);
  }

  get closed(): boolean {
    return this.session.closed || this.session.destroyed;
  }

  open(headers: H2OutgoingHeaders, handlers: H2ClientStreamHandlers): H2ClientStream {
    let stream: http2.ClientHttp2Stream;
    try {
      stream = this.session.request(headers, { endStream: false });
    } catch (e) {
      // The session closed between the check and the request: nothing was sent.
      const why = e instanceof Error ? e.message : String(e);
      queueMicrotask(() => handlers.closed(http2.constants.NGHTTP2_REFUSED_STREAM, this.failure ?? why));
      return closed_stream;
    }
    // Handlers may be an object's methods: called through it, never detached.
    stream.on('response', (headers: http2.IncomingHttpHeaders) => handlers.headers(headers));
    stream.on('data', (chunk: Buffer) => handlers.data(chunk));
    stream.on('trailers', (trailers: http2.IncomingHttpHeaders) => handlers.trailers(trailers));
    stream.on('drain', () => handlers.drain());
    // A stream's own error (a reset) is read from its rstCode at close; a lost connection from the session's error.
    stream.on('error', () => undefined);
    stream.once('close', () => handlers.closed(stream.rstCode ?? 0, this.session.destroyed || this.session.closed ? (this.failure ?? 'the connection closed') : undefined));
    return new NodeClientStream(stream);
  }

  close(now: boolean): void {
    if (this.session.destroyed) return;
    if (now) this.session.destroy();
    else this.session.close();
  }
}

class NodeClientStream implements H2ClientStream {
  constructor(private readonly stream: http2.ClientHttp2Stream) {}

  write(chunks: readonly Buffer[]): boolean {
    const stream = this.stream;
    if (stream.destroyed || stream.writableEnded) return true;
    if (chunks.length === 1) return stream.write(chunks[0]);
    stream.cork();
    let ok = true;
    for (const c of chunks) ok = stream.write(c);
    stream.uncork();
    return ok;
  }

  end(): void {
    if (!this.stream.destroyed && !this.stream.writableEnded) this.stream.end();
  }

  cancel(): void {
    if (!this.stream.destroyed) this.stream.close(h2_cancel);
  }

  release(): void {
    if (!this.stream.destroyed && !this.stream.writableEnded) this.stream.close(http2.constants.NGHTTP2_NO_ERROR);
  }
}

/** A stream that was never opened: writes go nowhere, and its handlers were told it closed. */
const closed_stream: H2ClientStream = { write: () => true, end: () => undefined, cancel: () => undefined, release: () => undefined };

/**
 * Pings the other end every `interval_ms` and destroys the session when a ping goes unanswered that
 * long: a paused process or a cut link is found even while this side keeps writing into it.
 */
function keepAlive(session: http2.Http2Session, interval_ms: number): void {
  let outstanding = false;
  const timer = setInterval(() => {
    if (session.destroyed) return;
    if (outstanding) {
      session.destroy(new Error(`no answer to a ping within ${interval_ms} ms`));
      return;
    }
    outstanding = true;
    const sent = session.ping((err) => {
      outstanding = false;
      if (err !== null && !session.destroyed) session.destroy(err);
    });
    if (!sent) outstanding = false;
  }, interval_ms);
  timer.unref();
  session.once('close', () => clearInterval(timer));
}
