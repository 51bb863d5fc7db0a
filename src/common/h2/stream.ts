/**
 * One HTTP/2 stream as either side sees it: its state (RFC 9113 section 5.1, as two "ended" flags
 * and a closed flag), its send queue under flow control, and its receive side with pause and
 * WINDOW_UPDATE on consumption. The connection moves frames; the stream holds what belongs to one
 * request. Events go to a handler object rather than emitters: a unary gRPC call is the hot path.
 */
import type { OutgoingHeaders } from './hpack-encoder.js';

/** Decoded header fields; a repeated name's values are joined by ", ". */
export type H2Headers = Record<string, string>;

/** Why a stream closed. */
export type StreamEnd =
  /** Both sides ended their halves. */
  | { readonly kind: 'done' }
  /** RST_STREAM, sent by us (`by: 'local'`) or by the peer. */
  | { readonly kind: 'reset'; readonly code: number; readonly by: 'local' | 'peer' }
  /** The peer's GOAWAY says it never processed this stream: safe to retry elsewhere. */
  | { readonly kind: 'refused' }
  /** The connection ended under the stream. */
  | { readonly kind: 'connection_lost'; readonly reason: string };

export const stream_done: StreamEnd = Object.freeze({ kind: 'done' });

export interface H2StreamHandler {
  /** Client: the response's headers; `end_stream` for a headers-only (gRPC trailers-only) response. */
  onResponse(headers: H2Headers, end_stream: boolean): void;
  /** Headers after the data: the trailers. The end of the stream follows. */
  onTrailers(headers: H2Headers): void;
  onData(chunk: Buffer): void;
  /** The peer ended its half of the stream. */
  onEnd(): void;
  /** The stream closed; nothing more happens on it. Called exactly once. */
  onClose(end: StreamEnd): void;
  /** write() returned false earlier and the queue has drained below the mark. */
  onDrain(): void;
}

/** What the stream needs from its connection. */
export interface StreamHost {
  sendHeaders(stream: H2Stream, headers: OutgoingHeaders, end_stream: boolean): void;
  /** The stream has data (or its end) queued: the connection sends what the windows allow. */
  wantsToSend(stream: H2Stream): void;
  /** The stream consumed `bytes` of received data: credit its window. */
  consumed(stream: H2Stream, bytes: number): void;
  reset(stream: H2Stream, code: number): void;
}

/** Bytes a stream queues beyond the windows before write() returns false. */
export const stream_queue_bytes_high = 64 * 1024;

const ignore_handler: H2StreamHandler = {
  onResponse() {},
  onTrailers() {},
  onData() {},
  onEnd() {},
  onClose() {},
  onDrain() {},
};

export class H2Stream {
  handler: H2StreamHandler = ignore_handler;
  /** 0 until a client stream is opened (it may wait for a free slot under MAX_CONCURRENT_STREAMS). */
  id = 0;
  /** May go negative when the peer lowers SETTINGS_INITIAL_WINDOW_SIZE (RFC 9113 section 6.9.2). */
  send_window: number;
  /** What the peer may still send us. Invariant: >= 0 (going below is the peer's FLOW_CONTROL_ERROR). */
  recv_window: number;
  /** Received bytes handed to the handler and not yet returned to the peer with WINDOW_UPDATE. */
  recv_unacked = 0;
  /** Data waiting for window, in order; `queue_offset` bytes of queue[0] are already sent. */
  readonly queue: Buffer[] = [];
  queue_offset = 0;
  /** Invariant: the unsent bytes in `queue`. */
  queued_bytes = 0;
  /** Set by end(): after the queue, END_STREAM (on the last DATA, or on these trailers). */
  end_requested: { readonly trailers: OutgoingHeaders | undefined } | undefined;
  local_ended = false;
  remote_ended = false;
  closed = false;
  /** The response's headers arrived (client streams). */
  responded = false;
  /** A server stream's response headers were sent. */
  headers_sent = false;
  private need_drain = false;
  private paused = false;
  /** Chunks (and the end) that arrived while paused, delivered on resume. */
  private held: Buffer[] | undefined;
  private held_end = false;
  /** A clean close that came while data was held: told once the held data is read. */
  private deferred_end: StreamEnd | undefined;

  constructor(
    private readonly host: StreamHost,
    send_window: number,
    recv_window: number,
  ) {
    this.send_window = send_window;
    this.recv_window = recv_window;
  }

  /** Server: the response headers; `end_stream` sends them as the whole response. */
  respond(headers: OutgoingHeaders, end_stream = false): void {
    if (this.closed || this.headers_sent) return;
    this.headers_sent = true;
    this.host.sendHeaders(this, headers, end_stream);
  }

  /** Queues data; false when the queue is over its mark: wait for onDrain. */
  write(chunk: Uint8Array): boolean {
    if (this.closed || this.local_ended || this.end_requested !== undefined) return false;
    if (chunk.byteLength > 0) {
      this.queue.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      this.queued_bytes += chunk.byteLength;
      this.host.wantsToSend(this);
    }
    if (this.queued_bytes < stream_queue_bytes_high) return true;
    this.need_drain = true;
    return false;
  }

  /** Ends our half: after the queued data, END_STREAM, with trailers when given. */
  end(trailers?: OutgoingHeaders): void {
    if (this.closed || this.local_ended || this.end_requested !== undefined) return;
    this.end_requested = { trailers };
    this.host.wantsToSend(this);
  }

  /** Resets the stream (RST_STREAM); the handler's onClose follows. */
  cancel(code = 0x8 /* CANCEL */): void {
    if (!this.closed) this.host.reset(this, code);
  }

  /** Whether the stream can still send. */
  get writable(): boolean {
    return !this.closed && !this.local_ended && this.end_requested === undefined;
  }

  get isPaused(): boolean {
    return this.paused;
  }

  /** Stops handing data to the handler; the peer's window is not credited, so flow control stops it. */
  pause(): void {
    this.paused = true;
  }

  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    const held = this.held;
    this.held = undefined;
    if (held !== undefined) for (const chunk of held) this.deliver(chunk);
    if (this.held_end && !this.paused) {
      this.held_end = false;
      this.handler.onEnd();
    }
    const end = this.deferred_end;
    if (end !== undefined && !this.paused) {
      this.deferred_end = undefined;
      this.handler.onClose(end);
    }
  }

  /** A DATA frame's payload arrived (its flow bytes already counted by the connection). */
  receive(chunk: Buffer, padding_bytes: number): void {
    if (padding_bytes > 0) this.host.consumed(this, padding_bytes);
    if (chunk.length === 0) return;
    if (this.paused) {
      (this.held ??= []).push(chunk);
      return;
    }
    this.deliver(chunk);
  }

  receiveEnd(): void {
    this.remote_ended = true;
    if (this.paused) this.held_end = true;
    else this.handler.onEnd();
  }

  private deliver(chunk: Buffer): void {
    this.host.consumed(this, chunk.length);
    this.handler.onData(chunk);
  }

  /** Called by the connection after it sent data from the queue. */
  drained(): void {
    if (this.need_drain && this.queued_bytes < stream_queue_bytes_high / 2) {
      this.need_drain = false;
      this.handler.onDrain();
    }
  }

  /** Called by the connection once: the stream is over. */
  finish(end: StreamEnd): void {
    if (this.closed) return;
    this.closed = true;
    this.queue.length = 0;
    this.queued_bytes = 0;
    // A stream that ended cleanly still owes its reader the data it holds; a reset one does not.
    if (end.kind === 'done' && (this.held !== undefined || this.held_end)) {
      this.deferred_end = end;
      return;
    }
    this.held = undefined;
    this.held_end = false;
    this.handler.onClose(end);
  }
}
