/**
 * A client's HTTP/2 connection to one gRPC server, over node:http2. It connects on the first call,
 * carries every call of the client as a stream, and connects again after the server restarts, the
 * connection drops or the server sends GOAWAY: in-flight calls finish on the old connection, new
 * ones start on a new one. After a failed connect, calls fail UNAVAILABLE at once until the backoff
 * has passed (growing from `reconnect_backoff_ms_initial` to `reconnect_backoff_ms_max`), as a
 * gRPC channel in TRANSIENT_FAILURE does, so a caller that retries finds the server again soon
 * after it is back without hammering it while it is gone.
 */
import * as http2 from 'node:http2';
import { WeftError } from '../errors.js';
import { ClientCall, type CallOptions, type CallSettings } from './call.js';
import type { StatusDecoder } from './status.js';

/**
 * HTTP/2 flow-control windows this client offers. The protocol's 64 KiB default lets a server send
 * a quarter of a 256 KiB blob chunk per round trip; these let a whole chunk or several be in flight.
 */
export const stream_window_bytes = 4 * 1024 * 1024;
export const connection_window_bytes = 16 * 1024 * 1024;

export interface ChannelOptions {
  /** Bound on each message, sent and received; a larger one fails RESOURCE_EXHAUSTED. */
  readonly message_bytes_max: number;
  readonly reconnect_backoff_ms_initial: number;
  readonly reconnect_backoff_ms_max: number;
  /** Reads a failed status's google.rpc details into the caller's WeftError. */
  readonly decodeStatus: StatusDecoder;
  readonly user_agent: string;
}

/** One HTTP/2 session and the calls on it; the session holds the process open only while calls run. */
export class Connection {
  /** Invariant: the number of calls started on `session` and not yet ended. */
  private active = 0;

  constructor(readonly session: http2.ClientHttp2Session) {}

  retain(): void {
    if (this.active++ === 0 && !this.session.destroyed) this.session.ref();
  }

  release(): void {
    if (--this.active === 0 && !this.session.destroyed) this.session.unref();
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

  constructor(address: string, private readonly o: ChannelOptions) {
    this.authority = authorityOf(address);
    this.backoff_ms = o.reconnect_backoff_ms_initial;
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
    if (c === undefined || c.session.destroyed) return;
    c.session.close();
    c.session.unref();
  }

  private connect(): Connection {
    const current = this.connection;
    if (current !== undefined && !current.session.closed && !current.session.destroyed) return current;
    this.connection = undefined;
    const now_ms = Date.now();
    if (now_ms < this.retry_at_ms) {
      throw new WeftError('UNAVAILABLE', `${this.authority} is unreachable (${this.last_failure}); trying again in ${this.retry_at_ms - now_ms} ms`);
    }
    const session = http2.connect(`http://${this.authority}`, {
      settings: { enablePush: false, initialWindowSize: stream_window_bytes },
    });
    const connection = new Connection(session);
    this.connection = connection;
    let connected = false;
    session.once('connect', () => {
      connected = true;
      this.backoff_ms = this.o.reconnect_backoff_ms_initial;
      this.retry_at_ms = 0;
      session.setLocalWindowSize(connection_window_bytes);
    });
    session.on('error', (e: Error) => {
      this.last_failure = e.message;
    });
    // GOAWAY: the server takes no new streams here; the session closes itself once its calls end.
    session.once('goaway', () => this.dropped(connection));
    session.once('close', () => {
      this.dropped(connection);
      if (connected) return;
      this.retry_at_ms = Date.now() + this.backoff_ms;
      this.backoff_ms = Math.min(this.backoff_ms * 2, this.o.reconnect_backoff_ms_max);
    });
    session.unref();
    return connection;
  }

  /** `connection` takes no new calls: the next call connects again. */
  private dropped(connection: Connection): void {
    if (this.connection === connection) this.connection = undefined;
  }
}

/**
 * The `host:port` to connect to, from the forms gRPC clients accept for a plain-text target:
 * `host:port`, `[v6]:port`, `dns:host:port`, `dns:///host:port`, `http://host:port`.
 */
export function authorityOf(address: string): string {
  if (address.startsWith('https://')) {
    throw new WeftError('UNIMPLEMENTED', `"${address}" asks for TLS; this client speaks plain-text HTTP/2 only`);
  }
  const bare = address.replace(/^dns:(\/\/\/)?/, '').replace(/^http:\/\//, '').replace(/\/$/, '');
  if (!/^(\[[0-9a-fA-F:.]+\]|[^:/\[\]\s]+):\d{1,5}$/.test(bare)) {
    throw new WeftError('INVALID_ARGUMENT', `"${address}" is not a gRPC address of the form host:port`);
  }
  return bare;
}
