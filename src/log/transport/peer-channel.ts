import type { H2ClientSession, H2ClientStream, H2ClientStreamHandlers, H2DialOptions } from './h2-peer-interface.js';
import type { PeerH2Engine } from './h2-peer-engine.js';
import { PeerCall, type PeerCallEvents, type PeerCallOptions } from './peer-call.js';

/**
 * The connection to one peer: one HTTP/2 session over mutual TLS that carries every call to it (the
 * Raft stream, snapshot streams, unary calls). It connects on the first call and again on the first
 * call after the session ended. After a connect that failed (refused, TLS or identity refused),
 * calls fail UNAVAILABLE at once until a backoff has passed (doubling from
 * reconnect_backoff_ms_min to reconnect_backoff_ms_max, reset by a connect that succeeds), so a
 * member that is down is not dialed once per Raft message.
 */
export interface PeerChannelOptions extends H2DialOptions {
  readonly reconnect_backoff_ms_min: number;
  readonly reconnect_backoff_ms_max: number;
  /** The HTTP/2 engine that dials (setting peer_http2_engine). */
  readonly engine: PeerH2Engine;
}

/** HTTP/2's REFUSED_STREAM: the call never reached the peer. */
const h2_refused_stream = 0x7;

export class PeerChannel {
  private session: H2ClientSession | undefined;
  private closed = false;
  /** Calls before this time fail at once; set when a connect failed. */
  private retry_at_ms = 0;
  private backoff_ms: number;
  private last_failure = '';

  constructor(private readonly options: PeerChannelOptions) {
    this.backoff_ms = options.reconnect_backoff_ms_min;
  }

  /** Starts a call on `path`; its end arrives through `events.done`, never as a throw. */
  start(path: string, call_options: PeerCallOptions, events: PeerCallEvents): PeerCall {
    return new PeerCall(this.connect(), path, call_options, events);
  }

  /** Ends the session: calls under way are cut, and later ones fail. */
  close(): void {
    this.closed = true;
    this.session?.close(true);
    this.session = undefined;
  }

  private connect(): H2ClientSession {
    if (this.closed) return refusedSession('the transport was closed');
    const current = this.session;
    if (current !== undefined && !current.closed) return current;
    this.session = undefined;
    const now_ms = Date.now();
    if (now_ms < this.retry_at_ms) return refusedSession(`${this.options.address} is unreachable (${this.last_failure}); trying again in ${this.retry_at_ms - now_ms} ms`);
    let connected = false;
    const session = this.options.engine.dial(this.options, {
      connected: () => {
        connected = true;
        this.backoff_ms = this.options.reconnect_backoff_ms_min;
        this.retry_at_ms = 0;
      },
      closed: (failure) => {
        if (this.session === session) this.session = undefined;
        if (connected) return;
        this.last_failure = failure ?? 'the connection closed';
        this.retry_at_ms = Date.now() + this.backoff_ms;
        this.backoff_ms = Math.min(this.backoff_ms * 2, this.options.reconnect_backoff_ms_max);
      },
    });
    this.session = session;
    return session;
  }
}

/** A session that takes no stream: each is closed at once as refused, with `why`. */
function refusedSession(why: string): H2ClientSession {
  return {
    closed: true,
    open(_headers, handlers: H2ClientStreamHandlers): H2ClientStream {
      queueMicrotask(() => handlers.closed(h2_refused_stream, why));
      return { write: () => true, end: () => undefined, cancel: () => undefined, release: () => undefined };
    },
    close: () => undefined,
  };
}
