/**
 * A client's HTTP/2 connection to one gRPC server, over Weft's own HTTP/2 engine (src/common/h2) or,
 * as a fallback, node:http2 (ChannelOptions.http2_engine). It connects on the first call,
 * carries every call of the client as a stream, and connects again after the server restarts, the
 * connection drops or the server sends GOAWAY: in-flight calls finish on the old connection, new
 * ones start on a new one. After a failed connect, calls fail UNAVAILABLE at once until the backoff
 * has passed (growing from `reconnect_backoff_ms_initial` to `reconnect_backoff_ms_max`), as a
 * gRPC channel in TRANSIENT_FAILURE does, so a caller that retries finds the server again soon
 * after it is back without hammering it while it is gone.
 */
import { WeftError } from '../errors.js';
import { ClientCall, type CallOptions, type CallSettings } from './call.js';
import { client_connection_window_bytes, client_http2_engines, client_stream_window_bytes, type ClientHttp2Engine, type ClientSession, type ClientSessionEvents } from './client-stream.js';
import { connectNodeSession } from './node-client-session.js';
import type { StatusDecoder } from './status.js';
import { connectWeftSession } from './weft-client-session.js';
import { targetOf, tlsConnectOptions, usesTls, type ClientTls } from './client-tls.js';
import type { ConnectionOptions } from 'node:tls';

/** HTTP/2 flow-control windows this client offers (client-stream.ts says why they are large). */
export const stream_window_bytes = client_stream_window_bytes;
export const connection_window_bytes = client_connection_window_bytes;

/**
 * The engine a channel uses when its options name none: Weft's own, unless the environment
 * variable WEFT_GRPC_CLIENT_HTTP2_ENGINE says `node` (the fallback, for ruling the engine out).
 */
export function defaultClientHttp2Engine(): ClientHttp2Engine {
  const named = process.env['WEFT_GRPC_CLIENT_HTTP2_ENGINE']?.toLowerCase();
  if (named === undefined || named === '') return 'weft';
  const engine = client_http2_engines.find((e) => e === named);
  if (engine === undefined) throw new WeftError('INVALID_ARGUMENT', `WEFT_GRPC_CLIENT_HTTP2_ENGINE is "${named}"; it takes ${client_http2_engines.join(' or ')}`);
  return engine;
}

export interface ChannelOptions {
  /** Bound on each message, sent and received; a larger one fails RESOURCE_EXHAUSTED. */
  readonly message_bytes_max: number;
  readonly reconnect_backoff_ms_initial: number;
  readonly reconnect_backoff_ms_max: number;
  /** Reads a failed status's google.rpc details into the caller's WeftError. */
  readonly decodeStatus: StatusDecoder;
  readonly user_agent: string;
  /** Absent: defaultClientHttp2Engine(). */
  readonly http2_engine?: ClientHttp2Engine | undefined;
  /**
   * TLS options (client-tls.ts). An `https://` address dials TLS, with Node's default roots when
   * these are absent; given, a bare `host:port` dials TLS too; `http://` is always plain text.
   */
  readonly tls?: ClientTls | undefined;
}

/** One HTTP/2 session and the calls on it; the session holds the process open only while calls run. */
export class Connection {
  /** Invariant: the number of calls started on `session` and not yet ended. */
  private active = 0;
  /** Assigned right after the session is made: the session's events need this object first. */
  session!: ClientSession;

  retain(): void {
    if (this.active++ === 0) this.session.ref();
  }

  release(): void {
    if (--this.active === 0) this.session.unref();
  }
}

export class GrpcChannel {
  private readonly authority: string;
  private readonly settings: CallSettings;
  private connection: Connection | undefined;
  private closed = false;
  /** Calls before this time fail at once; set after a connect failed. */
  private retry_at_ms = 0;
  private backoff_ms: number;
  private last_failure = '';
  private readonly engine: ClientHttp2Engine;
  /** node:tls options when the channel speaks TLS, else undefined. */
  private readonly tls: ConnectionOptions | undefined;

  constructor(address: string, private readonly o: ChannelOptions) {
    const target = targetOf(address);
    this.authority = target.authority;
    this.tls = usesTls(target, o.tls) ? tlsConnectOptions(o.tls) : undefined;
    this.backoff_ms = o.reconnect_backoff_ms_initial;
    this.engine = o.http2_engine ?? defaultClientHttp2Engine();
    this.settings = { message_bytes_max: o.message_bytes_max, decodeStatus: o.decodeStatus, user_agent: o.user_agent };
  }

  /** Starts a call on `path` (`/package.Service/Method`); its request headers are sent at once. */
  start(path: string, options: CallOptions): ClientCall {
    if (this.closed) return ClientCall.failed(new WeftError('CANCELLED', 'the client was closed'));
    let connection: Connection;
    try {
      connection = this.connect();
    } catch (e) {
      return ClientCall.failed(e instanceof WeftError ? e : new WeftError('UNAVAILABLE', String(e)));
    }
    return ClientCall.start(connection, path, options, this.settings, () => this.dropped(connection));
  }

  /**
   * Closes the connection once its calls have ended; later calls fail CANCELLED. Calls still
   * running keep their stream but no longer hold the process open.
   */
  close(): void {
    this.closed = true;
    const c = this.connection;
    this.connection = undefined;
    c?.session.close();
  }

  private connect(): Connection {
    const current = this.connection;
    if (current !== undefined && current.session.accepting) return current;
    this.connection = undefined;
    const now_ms = Date.now();
    if (now_ms < this.retry_at_ms) {
      throw new WeftError('UNAVAILABLE', `${this.authority} is unreachable (${this.last_failure}); trying again in ${this.retry_at_ms - now_ms} ms`);
    }
    const connection = new Connection();
    let connected = false;
    const events: ClientSessionEvents = {
      onConnect: () => {
        connected = true;
        this.backoff_ms = this.o.reconnect_backoff_ms_initial;
        this.retry_at_ms = 0;
      },
      onError: (message) => {
        this.last_failure = message;
      },
      // GOAWAY: the server takes no new streams here; the session closes itself once its calls end.
      onGoaway: () => this.dropped(connection),
      onClose: () => {
        this.dropped(connection);
        if (connected) return;
        this.retry_at_ms = Date.now() + this.backoff_ms;
        this.backoff_ms = Math.min(this.backoff_ms * 2, this.o.reconnect_backoff_ms_max);
      },
    };
    connection.session = this.engine === 'node' ? connectNodeSession(this.authority, events, this.tls) : connectWeftSession(this.authority, events, this.tls);
    this.connection = connection;
    return connection;
  }

  /** `connection` takes no new calls: the next call connects again. */
  private dropped(connection: Connection): void {
    if (this.connection === connection) this.connection = undefined;
  }
}

/** The `host:port` an address dials (targetOf, client-tls.ts, reads every form). */
export function authorityOf(address: string): string {
  return targetOf(address).authority;
}
