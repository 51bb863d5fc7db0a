/**
 * One client call on its HTTP/2 stream (PROTOCOL-HTTP2): the request headers (content-type
 * application/grpc, te: trailers, grpc-timeout from the deadline, the caller's metadata), the
 * length-prefixed request messages, and the response read back into messages and a status, from
 * trailers or from a trailers-only response. Deadline, cancellation and the stream's reset end the
 * call with DEADLINE_EXCEEDED, CANCELLED, or the status the reset code stands for.
 *
 * Messages here are bytes; encoding and decoding them is the caller's. A class rather than
 * closures: a unary call is the hot path of every client, and per-call closures are part of its cost.
 */
import { assertNever } from '../assert.js';
import { WeftError } from '../errors.js';
import type { ClientSession, ClientStream, ClientStreamEnd, ClientStreamEvents, ResponseHeaders } from './client-stream.js';
import { MessageDeframer, frameMessage, messagePrefix, messageTooLarge } from './framing.js';
import { h2_no_error, percentDecode, statusName, statusOfHttp, statusOfReset, type CallStatus, type StatusDecoder } from './status.js';
import { grpcTimeoutHeader } from './timeout.js';

export interface CallOptions {
  /** Relative deadline; sent as grpc-timeout, and the call ends DEADLINE_EXCEEDED when it passes. */
  readonly timeout_ms?: number | undefined;
  /** Aborting it cancels the call (RST_STREAM CANCEL) and ends it CANCELLED. */
  readonly signal?: AbortSignal | undefined;
  /** Extra request metadata (text values). */
  readonly metadata?: Readonly<Record<string, string>> | undefined;
}

export interface CallSettings {
  readonly message_bytes_max: number;
  readonly decodeStatus: StatusDecoder;
  readonly user_agent: string;
}

/** The session a call runs on; it holds the process open while any call runs. */
export interface CallConnection {
  readonly session: ClientSession;
  retain(): void;
  release(): void;
}

/**
 * Response messages a call holds unread before its stream is paused; HTTP/2 flow control then stops
 * a server that sends faster than the caller reads.
 */
export const response_messages_queued_max = 16;

/** Headers a caller's metadata may not set: they are the transport's own. */
const reserved_headers: ReadonlySet<string> = new Set(['content-type', 'te', 'grpc-timeout', 'grpc-encoding', 'grpc-accept-encoding', 'user-agent']);

/** gRPC's metadata keys and text values (PROTOCOL-HTTP2: Custom-Metadata). */
const metadata_key = /^[0-9a-z_.-]+$/;
const metadata_text_value = /^[\x20-\x7e]*$/;

interface Waiter {
  /** True when a new message should wake the waiter; false when only the call's end should. */
  readonly for_message: boolean;
  readonly resolve: () => void;
  readonly reject: (e: WeftError) => void;
}

export class ClientCall implements ClientStreamEvents {
  /** A call that could not start (no connection, deadline already past, signal already aborted). */
  static failed(e: WeftError): ClientCall {
    const call = new ClientCall(undefined, undefined, 0);
    call.outcome = e;
    return call;
  }

  static start(connection: CallConnection, path: string, options: CallOptions, settings: CallSettings, onRefused: () => void): ClientCall {
    const { timeout_ms, signal } = options;
    if (signal?.aborted === true) return ClientCall.failed(cancelled());
    if (timeout_ms !== undefined && timeout_ms <= 0) return ClientCall.failed(deadlineExceeded(timeout_ms));
    const headers: Record<string, string> = {
      'content-type': 'application/grpc',
      te: 'trailers',
      'user-agent': settings.user_agent,
      // Responses are never decompressed here: a server must not compress them.
      'grpc-accept-encoding': 'identity',
    };
    if (timeout_ms !== undefined) headers['grpc-timeout'] = grpcTimeoutHeader(timeout_ms);
    if (options.metadata !== undefined) {
      for (const [raw, value] of Object.entries(options.metadata)) {
        const key = raw.toLowerCase();
        if (reserved_headers.has(key)) continue;
        // Checked here: node:http2 answers a malformed header name by destroying the whole session,
        // and Weft's engine would send it as it is.
        if (!metadata_key.test(key) || !metadata_text_value.test(value)) {
          return ClientCall.failed(new WeftError('INVALID_ARGUMENT', `metadata "${raw}" is not a gRPC metadata key ([0-9a-z_.-]) with printable ASCII text`));
        }
        headers[key] = value;
      }
    }
    const opened = connection.session.open(path, headers);
    switch (opened.kind) {
      case 'opened':
        break;
      case 'invalid':
        return ClientCall.failed(new WeftError('INVALID_ARGUMENT', `the request could not be sent: ${opened.reason}`));
      case 'closing':
        // The session closed or was sent GOAWAY between the check and the request: nothing was sent.
        onRefused();
        return ClientCall.failed(new WeftError('UNAVAILABLE', `the connection is closing: ${opened.reason}`));
      default:
        return assertNever(opened, 'open result');
    }
    const call = new ClientCall(opened.stream, settings, settings.message_bytes_max);
    call.connection = connection;
    connection.retain();
    if (timeout_ms !== undefined) {
      call.timeout_ms = timeout_ms;
      call.timer = setTimeout(expire, timeout_ms, call);
    }
    if (signal !== undefined) {
      call.signal = signal;
      signal.addEventListener('abort', call, { once: true });
    }
    return call;
  }

  private readonly deframer: MessageDeframer;
  /** Received messages not yet read. Invariant: at most response_messages_queued_max unless paused. */
  private readonly queue: Buffer[] = [];
  /** undefined while the call runs; null once it ended OK; the failure once it failed. */
  private outcome: WeftError | null | undefined;
  /** The status read from trailers (or a trailers-only response), applied once the messages before it are read. */
  private status: CallStatus | undefined;
  private waiter: Waiter | undefined;
  private connection: CallConnection | undefined;
  private timer: NodeJS.Timeout | undefined;
  private timeout_ms = 0;
  private signal: AbortSignal | undefined;

  private constructor(
    private readonly stream: ClientStream | undefined,
    private readonly settings: CallSettings | undefined,
    private readonly message_bytes_max: number,
  ) {
    this.deframer = new MessageDeframer(message_bytes_max);
    stream?.listen(this);
  }

  /** Whether the call has ended: further writes are dropped. */
  get ended(): boolean {
    return this.outcome !== undefined;
  }

  /**
   * Sends one encoded message; `last` half-closes the request with it. Returns false when the
   * stream's buffer is full: wait for drained() before the next. A message over the bound fails
   * the call RESOURCE_EXHAUSTED without sending it.
   */
  send(message: Uint8Array, last: boolean): boolean {
    const stream = this.stream;
    if (stream === undefined || this.outcome !== undefined) return false;
    if (message.byteLength > this.message_bytes_max) {
      this.fail(messageTooLarge(`a request message of ${message.byteLength} bytes`, this.message_bytes_max));
      return false;
    }
    const chunks = frameMessage(message);
    if (chunks.length === 1 && last) {
      stream.end(chunks[0]);
      return true;
    }
    let ok = true;
    for (const chunk of chunks) ok = stream.write(chunk);
    if (last) stream.end();
    return ok;
  }

  /**
   * Sends one message given as its parts in order (an encoded head and a large payload, say),
   * writing each as it is: the payload is never copied into a message buffer.
   */
  sendParts(parts: readonly Uint8Array[]): boolean {
    const stream = this.stream;
    if (stream === undefined || this.outcome !== undefined) return false;
    let length = 0;
    for (const part of parts) length += part.byteLength;
    if (length > this.message_bytes_max) {
      this.fail(messageTooLarge(`a request message of ${length} bytes`, this.message_bytes_max));
      return false;
    }
    let ok = stream.write(messagePrefix(length));
    for (const part of parts) ok = stream.write(part);
    return ok;
  }

  /** Half-closes the request: no more messages. */
  end(): void {
    if (this.stream !== undefined && this.outcome === undefined) this.stream.end();
  }

  /** Resolves when the stream takes more writes, or the call has ended. */
  drained(): Promise<void> {
    const stream = this.stream;
    if (stream === undefined || this.outcome !== undefined) return Promise.resolve();
    return stream.drained();
  }

  /** The next response message, or undefined once the call ended OK. Rejects with the call's failure. */
  async next(): Promise<Buffer | undefined> {
    for (;;) {
      const message = this.queue.shift();
      if (message !== undefined) {
        if (this.stream?.isPaused() === true && this.queue.length < response_messages_queued_max / 2) this.stream.resume();
        return message;
      }
      if (this.outcome === null) return undefined;
      if (this.outcome !== undefined) throw this.outcome;
      await new Promise<void>((resolve, reject) => (this.waiter = { for_message: true, resolve, reject }));
    }
  }

  /** The one response message of a unary or client-streaming call, once the call ended OK. */
  async response(): Promise<Buffer> {
    if (this.outcome === undefined) await new Promise<void>((resolve, reject) => (this.waiter = { for_message: false, resolve, reject }));
    if (this.outcome !== null && this.outcome !== undefined) throw this.outcome;
    const [message] = this.queue;
    if (message === undefined || this.queue.length > 1) {
      throw new WeftError('INTERNAL', `a call that answers one message ended OK with ${this.queue.length}`);
    }
    return message;
  }

  /** Cancels the call: RST_STREAM CANCEL to the server, CANCELLED to the reader. No-op once ended. */
  cancel(): void {
    this.fail(cancelled());
  }

  /** The abort signal's listener (an EventListener object, so no closure per call). */
  handleEvent(): void {
    this.cancel();
  }

  /** The deadline passed. */
  expire(): void {
    this.timer = undefined;
    this.fail(deadlineExceeded(this.timeout_ms));
  }

  /** The stream's events (ClientStreamEvents): the call is its own listener, so no closure per call. */
  onResponse(headers: ResponseHeaders): void {
    const http_status = Number(headers[':status']);
    const content_type = headers['content-type'];
    const grpc_status = headers['grpc-status'];
    if (http_status !== 200) {
      this.fail(new WeftError(statusOfHttp(http_status), `the server answered HTTP ${http_status}, not a gRPC response`));
    } else if (typeof content_type !== 'string' || !content_type.startsWith('application/grpc')) {
      this.fail(new WeftError('UNKNOWN', `the server answered content-type "${String(content_type)}", not application/grpc`));
    } else if (grpc_status !== undefined) {
      // Trailers-only: the call failed (or succeeded with no message) before any response.
      this.status = statusOf(headers);
    }
  }

  onData(chunk: Buffer): void {
    if (this.outcome !== undefined) return;
    try {
      for (const wire of this.deframer.push(chunk)) {
        if (wire.compressed) {
          throw new WeftError('INTERNAL', 'the server sent a compressed message; this client accepts identity only (grpc-accept-encoding)');
        }
        this.queue.push(wire.bytes);
      }
    } catch (e) {
      this.fail(e instanceof WeftError ? e : new WeftError('INTERNAL', String(e)));
      return;
    }
    if (this.queue.length >= response_messages_queued_max) this.stream?.pause();
    if (this.waiter?.for_message === true) this.wake();
  }

  onTrailers(trailers: ResponseHeaders): void {
    this.status = statusOf(trailers);
  }

  onEnd(): void {
    // Without a status the end means nothing yet: 'close' says whether the stream was reset.
    if (this.outcome !== undefined || this.status === undefined) return;
    if (this.deframer.midMessage) this.fail(new WeftError('INTERNAL', 'the response ended inside a message'));
    else this.conclude(this.status);
  }

  onClose(end: ClientStreamEnd): void {
    if (this.outcome !== undefined) return this.settle();
    // A status that arrived but whose 'end' never came (the stream was reset right after it).
    if (this.status !== undefined && !this.deframer.midMessage) return this.conclude(this.status);
    switch (end.kind) {
      case 'lost':
        // The connection failed or dropped: the call may not have reached the server.
        return this.fail(new WeftError('UNAVAILABLE', `the connection was lost: ${end.reason}`));
      case 'reset':
        if (end.code !== h2_no_error) return this.fail(new WeftError(statusOfReset(end.code), `the server reset the stream (HTTP/2 error ${end.code})`));
        break;
      case 'done':
        break;
      default:
        return assertNever(end, 'stream end');
    }
    this.fail(new WeftError('INTERNAL', this.deframer.midMessage ? 'the response ended inside a message' : 'the response ended without a grpc-status'));
  }

  private conclude(status: CallStatus): void {
    if (status.code === 0) {
      this.outcome = null;
      this.settle();
    } else {
      // The server's status comes after its messages: a reader gets those first.
      this.outcome = (this.settings?.decodeStatus ?? plainError)(status);
      this.settle();
    }
  }

  /** Ends the call with `e` at once: unread messages are dropped and the stream reset. */
  private fail(e: WeftError): void {
    if (this.outcome !== undefined) return;
    this.outcome = e;
    this.queue.length = 0;
    this.stream?.cancel();
    this.settle();
  }

  /** Releases what the call held once its outcome is known, and wakes its reader. */
  private settle(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.signal?.removeEventListener('abort', this);
    this.signal = undefined;
    const connection = this.connection;
    this.connection = undefined;
    connection?.release();
    this.wake();
  }

  private wake(): void {
    const waiter = this.waiter;
    if (waiter === undefined) return;
    this.waiter = undefined;
    if (this.outcome !== null && this.outcome !== undefined && this.queue.length === 0) waiter.reject(this.outcome);
    else waiter.resolve();
  }
}

function expire(call: ClientCall): void {
  call.expire();
}

function cancelled(): WeftError {
  return new WeftError('CANCELLED', 'the call was cancelled');
}

function deadlineExceeded(timeout_ms: number): WeftError {
  return new WeftError('DEADLINE_EXCEEDED', `the call's deadline of ${timeout_ms} ms passed`);
}

function plainError(status: CallStatus): WeftError {
  return new WeftError(statusName(status.code), status.message);
}

function statusOf(headers: ResponseHeaders): CallStatus {
  const code = Number(headerText(headers['grpc-status']));
  const message = headerText(headers['grpc-message']);
  const details = headerText(headers['grpc-status-details-bin']);
  return {
    code: Number.isInteger(code) && code >= 0 ? code : 2,
    message: message === undefined ? '' : percentDecode(message),
    details_bin: details === undefined ? undefined : Buffer.from(details, 'base64'),
  };
}

function headerText(value: ResponseHeaders[string]): string | undefined {
  if (value === undefined || typeof value === 'string') return value;
  return typeof value === 'number' ? String(value) : value.join(',');
}
