/**
 * What a client call needs from an HTTP/2 engine: a session that opens streams, and a stream that
 * sends request bytes and reports the response's headers, data, trailers and end. Two engines stand
 * behind it: Weft's own (src/common/h2, the default) and node:http2 (the fallback), so the call's
 * code (call.ts) and the channel's reconnection (channel.ts) run unchanged on either.
 */

/** Which HTTP/2 implementation a client's channel runs on. */
export type ClientHttp2Engine = 'weft' | 'node';

export const client_http2_engines: readonly ClientHttp2Engine[] = ['weft', 'node'];

/** Response headers or trailers; node:http2 gives `:status` as a number, Weft's engine as text. */
export type ResponseHeaders = Readonly<Record<string, string | readonly string[] | number | undefined>>;

/** Request headers beyond :method, :scheme, :authority and :path, which the session adds. */
export type RequestHeaders = Readonly<Record<string, string>>;

/** Why a stream closed, as far as a call cares. */
export type ClientStreamEnd =
  /** Both halves ended, or the stream was reset with NO_ERROR: the status (if any) decides. */
  | { readonly kind: 'done' }
  /** The server reset the stream with this HTTP/2 error code. */
  | { readonly kind: 'reset'; readonly code: number }
  /** The connection failed, dropped, or refused the stream in a GOAWAY: the call may not have reached the server. */
  | { readonly kind: 'lost'; readonly reason: string };

export interface ClientStreamEvents {
  /** The response headers; for a trailers-only response they carry grpc-status, and onEnd follows. */
  onResponse(headers: ResponseHeaders): void;
  onData(chunk: Buffer): void;
  onTrailers(trailers: ResponseHeaders): void;
  /** The server ended its half. */
  onEnd(): void;
  /** Nothing more happens on the stream. Called once, after onEnd when there was one. */
  onClose(end: ClientStreamEnd): void;
}

export interface ClientStream {
  /** Starts delivering events; called once, before control returns to the event loop. */
  listen(events: ClientStreamEvents): void;
  /** Queues request bytes; false when the stream's buffer is full: wait for drained(). */
  write(chunk: Uint8Array): boolean;
  /** Ends the request half after `last` (when given); a no-op once ended. */
  end(last?: Uint8Array): void;
  /** Resets the stream with CANCEL; onClose follows. A no-op once closed. */
  cancel(): void;
  /** Resolves once the stream takes more writes, or has closed. */
  drained(): Promise<void>;
  /** Stops delivering data; the server's window is not credited, so flow control stops it. */
  pause(): void;
  resume(): void;
  isPaused(): boolean;
}

/** How opening a stream went; nothing was sent unless it is `opened`. */
export type OpenResult =
  | { readonly kind: 'opened'; readonly stream: ClientStream }
  /** The session is closing or closed (GOAWAY either way): try a new connection. */
  | { readonly kind: 'closing'; readonly reason: string }
  /** The engine refused these headers. */
  | { readonly kind: 'invalid'; readonly reason: string };

/** One HTTP/2 connection to a server. */
export interface ClientSession {
  /** Whether new streams may start here. */
  readonly accepting: boolean;
  /** Opens a POST stream to `path` with these headers, sent at once. */
  open(path: string, headers: RequestHeaders): OpenResult;
  /** Holds the process open (while calls run) or stops holding it. */
  ref(): void;
  unref(): void;
  /** Graceful close: no new streams; those running finish, then the connection closes. */
  close(): void;
}

/** What a session tells its channel about the connection. */
export interface ClientSessionEvents {
  /** The transport is up. */
  onConnect(): void;
  /** Why the connection failed, when it did; onClose follows. */
  onError(message: string): void;
  /** The server sent GOAWAY: no new streams here. */
  onGoaway(): void;
  /** The connection closed; every stream on it closed before. */
  onClose(): void;
}

/**
 * HTTP/2 flow-control windows a client offers. The protocol's 64 KiB default lets a server send a
 * quarter of a 256 KiB blob chunk per round trip; these let a whole chunk or several be in flight.
 */
export const client_stream_window_bytes = 4 * 1024 * 1024;
export const client_connection_window_bytes = 16 * 1024 * 1024;
