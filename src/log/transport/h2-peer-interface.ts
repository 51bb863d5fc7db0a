import type { TlsMaterial } from './tls-material.js';

/**
 * What the peer transport needs of an HTTP/2 implementation, and the only shape in which it sees
 * one. Everything above it (gRPC framing and status in peer-call.ts and peer-server-call.ts, the
 * links, the service) sees sessions and streams through the callback interfaces below; two engines
 * implement them, chosen by the setting `peer_http2_engine` (h2-peer-engine.ts): Weft's own
 * (src/common/h2, weft-h2-peer-adapter.ts, the default) and node:http2 (node-h2-peer-adapter.ts).
 *
 * Callbacks rather than Node streams: a Raft append is one small message each way per write, and
 * the events of Node's stream machinery (and the closures a listener per call costs) are a visible
 * part of what a write costs the leader.
 *
 * Security is not optional in either engine: a server requires a client certificate chained to the
 * group's CA (requestCert, rejectUnauthorized), and a client accepts a server only when its
 * certificate proves the SPIFFE ID it expects. There is no plaintext mode to fall into.
 */

/** The SNI name every peer is dialed with: peers are dialed by address, and an IP address is no SNI name; the identity is what is checked. */
export const peer_tls_server_name = 'weft-peer';

/** Header and trailer blocks as they arrive: a name's value, or values when it repeats. */
export type H2Headers = Readonly<Record<string, string | string[] | undefined>>;
/** Header and trailer blocks to send. */
export type H2OutgoingHeaders = Readonly<Record<string, string | number>>;

export interface H2Settings {
  /** Stream and connection flow-control window this end grants, both ways (transport-limits.ts). */
  readonly window_bytes: number;
  /** A ping every this often; a session whose ping goes unanswered this long is destroyed. */
  readonly keepalive_ms: number;
}

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

