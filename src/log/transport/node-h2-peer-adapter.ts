import * as http2 from 'node:http2';
import type { PeerCertificate } from 'node:tls';
import { listenPeerPort } from './peer-listen.js';
import { spiffeIdOfCertificate } from './spiffe-id.js';
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
  type H2Settings,
} from './h2-peer-interface.js';

/**
 * The peer transport's HTTP/2 on node:http2 (setting `peer_http2_engine = NODE`), kept as the
 * operator's fallback behind the interface of h2-peer-interface.ts; weft-h2-peer-adapter.ts is the
 * default. Security is not optional here: a server requires a client certificate chained to the
 * group's CA, and a client accepts a server only when its certificate proves the SPIFFE ID it
 * expects. There is no plaintext mode to fall into.
 */

/** HTTP/2's RST_STREAM CANCEL (RFC 9113 section 7). */
const h2_cancel = 0x8;

// ---- accepting side ----------------------------------------------------------------------------

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
  const port = await listenPeerPort(server, options.host, options.port);
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
