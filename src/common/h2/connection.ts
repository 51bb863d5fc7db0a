/**
 * One HTTP/2 connection (RFC 9113) over a socket, in either role: the preface, SETTINGS and their
 * acknowledgement, streams opened by either side within MAX_CONCURRENT_STREAMS, header blocks
 * (HEADERS + CONTINUATION) through HPACK, flow control both ways on the connection and on each
 * stream, PING, RST_STREAM and GOAWAY. A peer's malformed bytes end its connection with GOAWAY and
 * the right error code, or one stream with RST_STREAM; they never throw out of here.
 */
import type { Socket } from 'node:net';
import { H2ConnectionError, H2StreamError, h2_error } from './errors.js';
import {
  client_preface,
  frameHeader,
  frame_type,
  flag,
  goawayFrame,
  headerFrames,
  pingFrame,
  rstStreamFrame,
  settingsAckFrame,
  settingsFrame,
  window_bytes_default,
  window_bytes_limit,
  windowUpdateFrame,
  type SettingEntry,
} from './frame.js';
import { FrameReader, type Frame } from './frame-parser.js';
import { FrameWriter } from './frame-writer.js';
import { HpackDecoder } from './hpack-decoder.js';
import { HpackEncoder, type OutgoingHeaders } from './hpack-encoder.js';
import { applySettings, default_settings, setting_id, type PeerSettings } from './settings.js';
import { H2Stream, stream_done, type H2Headers, type StreamEnd, type StreamHost } from './stream.js';

export type H2Role = 'client' | 'server';

/** What we announce and enforce on our side of a connection. */
export interface H2LocalSettings {
  /** SETTINGS_MAX_CONCURRENT_STREAMS: streams the peer may have open to us at once. */
  readonly concurrent_streams_max: number;
  /** SETTINGS_INITIAL_WINDOW_SIZE: what the peer may send on one stream before we credit it. */
  readonly stream_window_bytes: number;
  /** The connection's receive window, raised from the protocol's 64 KiB by a WINDOW_UPDATE at start. */
  readonly connection_window_bytes: number;
  /** SETTINGS_MAX_FRAME_SIZE: the largest frame payload we accept. */
  readonly frame_bytes_max: number;
  /** SETTINGS_MAX_HEADER_LIST_SIZE: one header block's decoded size (names, values, 32 bytes each). */
  readonly header_list_bytes_max: number;
}

export const h2_local_settings_default: H2LocalSettings = {
  concurrent_streams_max: 1_000,
  stream_window_bytes: 4 * 1024 * 1024,
  connection_window_bytes: 16 * 1024 * 1024,
  frame_bytes_max: 64 * 1024,
  header_list_bytes_max: 256 * 1024,
};

export interface H2ConnectionEvents {
  /** Server: a stream the peer opened, with its request headers. Set `stream.handler` here. */
  onStream(stream: H2Stream, headers: H2Headers): void;
  /** The peer sent GOAWAY: no new streams here; streams above `last_stream_id` were refused. */
  onGoaway(last_stream_id: number, code: number): void;
  /** The socket closed; every stream was closed before this. `error` says why when it was not asked for. */
  onClose(error: Error | undefined): void;
}

/** Our HPACK table size; we never announce another, so the peer's encoder may use 4 KiB. */
const hpack_table_bytes = 4096;
/** Output held for the socket beyond which DATA waits for it to drain. */
const socket_buffered_bytes_high = 256 * 1024;
/** How long a connection we closed waits for the peer to close before the socket is destroyed. */
const close_linger_ms = 2_000;

interface HeaderBlock {
  readonly stream_id: number;
  readonly end_stream: boolean;
  readonly chunks: Buffer[];
  bytes: number;
}

interface PendingOpen {
  readonly stream: H2Stream;
  readonly headers: OutgoingHeaders;
  readonly end_stream: boolean;
}

export class H2Connection implements StreamHost {
  private readonly writer: FrameWriter;
  private readonly reader: FrameReader;
  private readonly decoder: HpackDecoder;
  private readonly encoder = new HpackEncoder(hpack_table_bytes);
  private peer: PeerSettings = default_settings;
  private peer_settings_seen = false;
  private readonly streams = new Map<number, H2Stream>();
  /** Streams with data or an end to send, in round-robin order. */
  private readonly sendable = new Set<H2Stream>();
  private flushing = false;
  /** Client streams waiting for a slot under the peer's MAX_CONCURRENT_STREAMS. */
  private readonly pending_open: PendingOpen[] = [];
  /** Invariant: the open streams in `streams` that the peer (resp. we) opened. */
  private peer_streams_active = 0;
  private local_streams_active = 0;
  /** The highest stream id the peer opened; higher ids are idle, lower ones not in `streams` are closed. */
  private last_peer_stream_id = 0;
  private next_local_id: number;
  /** May go negative never: we send only within it. Invariant: 0 <= send_window <= 2^31-1. */
  private send_window = window_bytes_default;
  /** What the peer may still send on the connection. */
  private recv_window: number;
  private recv_unacked = 0;
  private block: HeaderBlock | undefined;
  /** Server: bytes of the client preface still expected. */
  private preface_left: number;
  /** The last stream id our GOAWAY admitted, once we sent one. */
  private goaway_sent: number | undefined;
  private goaway_received = false;
  private readonly pings = new Map<string, (answered: boolean) => void>();
  private ping_count = 0;
  private close_error: Error | undefined;
  private closed = false;

  constructor(
    readonly socket: Socket,
    readonly role: H2Role,
    private readonly local: H2LocalSettings,
    private readonly events: H2ConnectionEvents,
  ) {
    this.writer = new FrameWriter(socket);
    // DATA payloads go on to their streams as they arrive, as views of the socket's reads.
    this.reader = new FrameReader(local.frame_bytes_max, { data_pieces: true });
    this.decoder = new HpackDecoder(hpack_table_bytes, local.header_list_bytes_max);
    this.next_local_id = role === 'client' ? 1 : 2;
    this.preface_left = role === 'server' ? client_preface.length : 0;
    this.recv_window = local.connection_window_bytes;
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.onSocketData(chunk));
    socket.on('drain', () => this.flushData());
    socket.on('error', (e: Error) => (this.close_error ??= e));
    socket.on('close', () => this.onSocketClose());
    if (role === 'client') this.writer.push(client_preface);
    const entries: SettingEntry[] = [
      { id: setting_id.MAX_CONCURRENT_STREAMS, value: local.concurrent_streams_max },
      { id: setting_id.INITIAL_WINDOW_SIZE, value: local.stream_window_bytes },
      { id: setting_id.MAX_FRAME_SIZE, value: local.frame_bytes_max },
      { id: setting_id.MAX_HEADER_LIST_SIZE, value: local.header_list_bytes_max },
    ];
    // We take no pushes (PUSH_PROMISE is refused as a PROTOCOL_ERROR).
    if (role === 'client') entries.unshift({ id: setting_id.ENABLE_PUSH, value: 0 });
    this.writer.push(settingsFrame(entries));
    if (local.connection_window_bytes > window_bytes_default) this.writer.push(windowUpdateFrame(0, local.connection_window_bytes - window_bytes_default));
  }

  /** Whether new streams can start here: open, and no GOAWAY either way. */
  get accepting(): boolean {
    return !this.closed && this.goaway_sent === undefined && !this.goaway_received;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Streams open or waiting to open. */
  get stream_count(): number {
    return this.streams.size + this.pending_open.length;
  }

  /** The peer's settings as last announced. */
  get peer_settings(): PeerSettings {
    return this.peer;
  }

  /**
   * Client: opens a stream with these request headers; set `handler` on it before returning to the
   * event loop. Undefined when the connection takes no new streams.
   */
  request(headers: OutgoingHeaders, end_stream = false): H2Stream | undefined {
    if (this.role !== 'client' || !this.accepting || this.next_local_id > window_bytes_limit) return undefined;
    const stream = new H2Stream(this, this.peer.initial_window_bytes, this.local.stream_window_bytes);
    if (this.local_streams_active >= this.peer.concurrent_streams_max) this.pending_open.push({ stream, headers, end_stream });
    else this.open(stream, headers, end_stream);
    return stream;
  }

  /** Sends a PING; `answered` is false when the connection closes first. False when closed. */
  ping(answered: (ok: boolean) => void): boolean {
    if (this.closed) return false;
    const payload = Buffer.alloc(8);
    payload.writeUInt32BE(++this.ping_count, 4);
    this.pings.set(payload.toString('latin1'), answered);
    this.writer.push(pingFrame(payload, false));
    return true;
  }

  /**
   * Graceful close: GOAWAY (NO_ERROR) naming the last stream we took; streams up to it finish,
   * then the connection closes.
   */
  goaway(): void {
    if (this.closed || this.goaway_sent !== undefined) return;
    this.goaway_sent = this.last_peer_stream_id;
    this.writer.push(goawayFrame(this.last_peer_stream_id, h2_error.NO_ERROR, ''));
    for (const p of this.pending_open.splice(0)) this.closeStream(p.stream, { kind: 'refused' });
    if (this.streams.size === 0) this.shutdown();
  }

  /** Ends the connection now: GOAWAY with `code`, every stream closed as lost. */
  destroy(code: number = h2_error.NO_ERROR, reason = ''): void {
    if (this.closed) return;
    if (this.goaway_sent === undefined) {
      this.goaway_sent = this.last_peer_stream_id;
      this.writer.push(goawayFrame(this.last_peer_stream_id, code, reason));
    }
    const why = reason === '' ? 'the connection was closed' : reason;
    for (const p of this.pending_open.splice(0)) this.closeStream(p.stream, { kind: 'connection_lost', reason: why });
    for (const s of [...this.streams.values()]) this.closeStream(s, { kind: 'connection_lost', reason: why });
    this.shutdown();
  }

  /**
   * Records why the connection fails, ahead of the socket's own error (a client describing its TLS
   * handshake's refusal): the first reason recorded is the one streams and onClose report.
   */
  noteError(e: Error): void {
    this.close_error ??= e;
  }

  ref(): void {
    this.socket.ref();
  }

  unref(): void {
    this.socket.unref();
  }

  // --- StreamHost: what streams ask of the connection.

  sendHeaders(stream: H2Stream, headers: OutgoingHeaders, end_stream: boolean): void {
    if (this.closed || stream.id === 0) return;
    const block = this.encoder.encode(headers);
    for (const frame of headerFrames(stream.id, block, end_stream, this.peer.frame_bytes_max)) this.writer.push(frame);
    if (end_stream) this.localEnd(stream);
  }

  wantsToSend(stream: H2Stream): void {
    if (stream.id === 0 || stream.closed) return;
    this.sendable.add(stream);
    this.flushData();
  }

  consumed(stream: H2Stream, bytes: number): void {
    if (stream.closed || stream.remote_ended || this.closed) return;
    stream.recv_unacked += bytes;
    if (stream.recv_unacked >= this.local.stream_window_bytes / 2) {
      this.writer.push(windowUpdateFrame(stream.id, stream.recv_unacked));
      stream.recv_window += stream.recv_unacked;
      stream.recv_unacked = 0;
    }
  }

  reset(stream: H2Stream, code: number): void {
    if (stream.closed) return;
    if (stream.id === 0) {
      const at = this.pending_open.findIndex((p) => p.stream === stream);
      if (at >= 0) this.pending_open.splice(at, 1);
    } else if (!this.closed) this.writer.push(rstStreamFrame(stream.id, code));
    this.closeStream(stream, { kind: 'reset', code, by: 'local' });
  }

  // --- Sending.

  private open(stream: H2Stream, headers: OutgoingHeaders, end_stream: boolean): void {
    stream.id = this.next_local_id;
    this.next_local_id += 2;
    stream.send_window = this.peer.initial_window_bytes;
    this.streams.set(stream.id, stream);
    this.local_streams_active++;
    stream.headers_sent = true;
    this.sendHeaders(stream, headers, end_stream);
    if (stream.queued_bytes > 0 || stream.end_requested !== undefined) this.wantsToSend(stream);
  }

  private openPending(): void {
    while (this.pending_open.length > 0 && this.local_streams_active < this.peer.concurrent_streams_max && this.accepting) {
      const p = this.pending_open.shift()!;
      this.open(p.stream, p.headers, p.end_stream);
    }
  }

  /**
   * Sends queued data within the windows, one frame per stream per round so that one large
   * response does not hold up the others, then each finished stream's end.
   */
  private flushData(): void {
    if (this.flushing || this.closed) return;
    this.flushing = true;
    try {
      let progressed = true;
      while (progressed && this.sendable.size > 0) {
        progressed = false;
        for (const s of this.sendable) {
          if (s.closed) {
            this.sendable.delete(s);
            continue;
          }
          if (s.queued_bytes > 0) {
            if (this.send_window <= 0 || this.writer.buffered_bytes > socket_buffered_bytes_high) return;
            if (s.send_window <= 0) {
              // Back in the set when a WINDOW_UPDATE or SETTINGS opens its window.
              this.sendable.delete(s);
              continue;
            }
            this.sendDataFrame(s);
            progressed = true;
          }
          if (s.queued_bytes === 0) {
            this.sendable.delete(s);
            const end = s.end_requested;
            if (end !== undefined && !s.local_ended && !s.closed) {
              if (end.trailers !== undefined) this.sendHeaders(s, end.trailers, true);
              else {
                this.writer.push(frameHeader(0, frame_type.DATA, flag.END_STREAM, s.id));
                this.localEnd(s);
              }
              progressed = true;
            }
          }
          s.drained();
        }
      }
    } finally {
      this.flushing = false;
    }
  }

  private sendDataFrame(s: H2Stream): void {
    const n = Math.min(s.queued_bytes, s.send_window, this.send_window, this.peer.frame_bytes_max);
    s.queued_bytes -= n;
    s.send_window -= n;
    this.send_window -= n;
    // END_STREAM rides on the last DATA frame when there are no trailers.
    const last = s.queued_bytes === 0 && s.end_requested !== undefined && s.end_requested.trailers === undefined;
    this.writer.push(frameHeader(n, frame_type.DATA, last ? flag.END_STREAM : 0, s.id));
    // The payload goes to the socket as views of the queued pieces it spans, never copied here (a
    // reply's small head and its large payload share a frame without being joined).
    for (let filled = 0; filled < n; ) {
      const piece = s.queue[0]!;
      const take = Math.min(piece.length - s.queue_offset, n - filled);
      this.writer.push(take === piece.length ? piece : piece.subarray(s.queue_offset, s.queue_offset + take));
      filled += take;
      s.queue_offset += take;
      if (s.queue_offset === piece.length) {
        s.queue.shift();
        s.queue_offset = 0;
      }
    }
    if (last) this.localEnd(s);
  }

  private localEnd(s: H2Stream): void {
    s.local_ended = true;
    if (s.remote_ended) this.closeStream(s, stream_done);
  }

  private remoteEnd(s: H2Stream): void {
    if (s.closed) return;
    s.receiveEnd();
    if (s.local_ended) this.closeStream(s, stream_done);
  }

  private closeStream(s: H2Stream, end: StreamEnd): void {
    if (s.closed) return;
    if (s.id !== 0 && this.streams.delete(s.id)) {
      const peer_opened = (s.id % 2 === 1) === (this.role === 'server');
      if (peer_opened) this.peer_streams_active--;
      else this.local_streams_active--;
    }
    this.sendable.delete(s);
    s.finish(end);
    if (this.closed) return;
    this.openPending();
    if ((this.goaway_sent !== undefined || this.goaway_received) && this.streams.size === 0 && this.pending_open.length === 0) this.shutdown();
  }

  /** Sends what is gathered and closes our side; the socket is destroyed if the peer lingers. */
  private shutdown(): void {
    if (this.socket.destroyed) return;
    this.writer.close();
    this.socket.end();
    setTimeout(() => this.socket.destroy(), close_linger_ms).unref();
  }

  // --- Receiving.

  private onSocketData(chunk: Buffer): void {
    if (this.closed) return;
    try {
      let data = chunk;
      if (this.preface_left > 0) {
        const at = client_preface.length - this.preface_left;
        const n = Math.min(this.preface_left, data.length);
        if (!data.subarray(0, n).equals(client_preface.subarray(at, at + n))) {
          throw new H2ConnectionError(h2_error.PROTOCOL_ERROR, 'the client preface is missing');
        }
        this.preface_left -= n;
        data = data.subarray(n);
        if (data.length === 0) return;
      }
      this.reader.push(data, (frame) => this.onFrame(frame));
    } catch (e) {
      if (!(e instanceof H2ConnectionError)) throw e;
      this.close_error ??= e;
      this.destroy(e.code, e.message);
    }
  }

  private onFrame(frame: Frame): void {
    if (this.closed) return;
    if (!this.peer_settings_seen && (frame.type !== 'settings' || frame.ack)) {
      throw new H2ConnectionError(h2_error.PROTOCOL_ERROR, `the peer's first frame is ${frame.type.toUpperCase()}, not SETTINGS`);
    }
    if (this.block !== undefined && frame.type !== 'continuation') {
      throw new H2ConnectionError(h2_error.PROTOCOL_ERROR, `a ${frame.type.toUpperCase()} frame inside a header block`);
    }
    try {
      this.dispatch(frame);
    } catch (e) {
      if (!(e instanceof H2StreamError)) throw e;
      this.writer.push(rstStreamFrame(e.stream_id, e.code));
      const s = this.streams.get(e.stream_id);
      if (s !== undefined) this.closeStream(s, { kind: 'reset', code: e.code, by: 'local' });
    }
  }

  private dispatch(frame: Frame): void {
    switch (frame.type) {
      case 'data':
        return this.onData(frame.stream_id, frame.data, frame.flow_bytes, frame.end_stream);
      case 'headers':
        this.block = { stream_id: frame.stream_id, end_stream: frame.end_stream, chunks: [frame.block], bytes: frame.block.length };
        if (frame.end_headers) this.endBlock();
        return;
      case 'continuation': {
        const block = this.block;
        if (block === undefined || block.stream_id !== frame.stream_id) {
          throw new H2ConnectionError(h2_error.PROTOCOL_ERROR, `a CONTINUATION frame on stream ${frame.stream_id} outside its header block`);
        }
        block.chunks.push(frame.block);
        block.bytes += frame.block.length;
        if (block.bytes > this.local.header_list_bytes_max) {
          throw new H2ConnectionError(h2_error.ENHANCE_YOUR_CALM, `a header block over ${this.local.header_list_bytes_max} bytes`);
        }
        if (frame.end_headers) this.endBlock();
        return;
      }
      case 'priority':
        return;
      case 'rst_stream':
        return this.onReset(frame.stream_id, frame.code);
      case 'settings':
        return this.onSettings(frame.ack, frame.entries);
      case 'push_promise':
        throw new H2ConnectionError(h2_error.PROTOCOL_ERROR, 'PUSH_PROMISE, though we disabled push');
      case 'ping':
        if (frame.ack) {
          const key = frame.payload.toString('latin1');
          const answered = this.pings.get(key);
          this.pings.delete(key);
          answered?.(true);
        } else this.writer.push(pingFrame(frame.payload, true));
        return;
      case 'goaway':
        return this.onGoaway(frame.last_stream_id, frame.code);
      case 'window_update':
        return this.onWindowUpdate(frame.stream_id, frame.increment);
      case 'unknown':
        return;
    }
  }

  /** Whether `id` is a stream that has not been opened yet by whichever side opens it. */
  private isIdle(id: number): boolean {
    const peer_opens = (id % 2 === 1) === (this.role === 'server');
    return peer_opens ? id > this.last_peer_stream_id : id >= this.next_local_id;
  }

  private onData(id: number, data: Buffer, flow_bytes: number, end_stream: boolean): void {
    this.recv_window -= flow_bytes;
    if (this.recv_window < 0) throw new H2ConnectionError(h2_error.FLOW_CONTROL_ERROR, 'DATA beyond the connection window');
    // The connection's window is credited on arrival: each stream's own window bounds what it holds.
    this.recv_unacked += flow_bytes;
    if (this.recv_unacked >= this.local.connection_window_bytes / 2) {
      this.writer.push(windowUpdateFrame(0, this.recv_unacked));
      this.recv_window += this.recv_unacked;
      this.recv_unacked = 0;
    }
    const s = this.streams.get(id);
    if (s === undefined) {
      if (this.isIdle(id)) throw new H2ConnectionError(h2_error.PROTOCOL_ERROR, `DATA on idle stream ${id}`);
      // A stream we closed (reset, most likely): frames already in flight are dropped.
      return;
    }
    if (s.remote_ended) throw new H2StreamError(id, h2_error.STREAM_CLOSED, `DATA after the end of stream ${id}`);
    s.recv_window -= flow_bytes;
    if (s.recv_window < 0) throw new H2StreamError(id, h2_error.FLOW_CONTROL_ERROR, `DATA beyond stream ${id}'s window`);
    s.receive(data, flow_bytes - data.length);
    if (end_stream) this.remoteEnd(s);
  }

  private endBlock(): void {
    const block = this.block!;
    this.block = undefined;
    const bytes = block.chunks.length === 1 ? block.chunks[0]! : Buffer.concat(block.chunks, block.bytes);
    // Decoded whatever becomes of the stream: the HPACK table must stay in step with the peer's.
    const headers: H2Headers = Object.create(null) as H2Headers;
    let malformed: string | undefined;
    let regular_seen = false;
    this.decoder.decode(bytes, (name, value) => {
      if (name.charCodeAt(0) === 0x3a) {
        if (regular_seen) malformed ??= `pseudo-header ${name} after a regular header`;
      } else regular_seen = true;
      if (/[A-Z]/.test(name)) malformed ??= `header name "${name}" is not lowercase`;
      const before = headers[name];
      headers[name] = before === undefined ? value : `${before}, ${value}`;
    });
    const id = block.stream_id;
    const s = this.streams.get(id);
    if (s !== undefined) {
      if (malformed !== undefined) throw new H2StreamError(id, h2_error.PROTOCOL_ERROR, malformed);
      return this.onStreamHeaders(s, headers, block.end_stream);
    }
    if (!this.isIdle(id)) return; // headers for a stream we already closed
    if (this.role === 'client' || id % 2 === 0) throw new H2ConnectionError(h2_error.PROTOCOL_ERROR, `stream ${id} opened by the wrong side`);
    this.last_peer_stream_id = id;
    if (this.goaway_sent !== undefined || this.peer_streams_active >= this.local.concurrent_streams_max) {
      throw new H2StreamError(id, h2_error.REFUSED_STREAM, 'no new streams are taken');
    }
    if (malformed === undefined && (headers[':method'] === undefined || headers[':path'] === undefined)) malformed = 'a request without :method or :path';
    if (malformed !== undefined) throw new H2StreamError(id, h2_error.PROTOCOL_ERROR, malformed);
    const stream = new H2Stream(this, this.peer.initial_window_bytes, this.local.stream_window_bytes);
    stream.id = id;
    this.streams.set(id, stream);
    this.peer_streams_active++;
    this.events.onStream(stream, headers);
    if (block.end_stream) this.remoteEnd(stream);
  }

  private onStreamHeaders(s: H2Stream, headers: H2Headers, end_stream: boolean): void {
    if (s.remote_ended) throw new H2StreamError(s.id, h2_error.STREAM_CLOSED, `HEADERS after the end of stream ${s.id}`);
    if (this.role === 'client' && !s.responded) {
      const status = headers[':status'];
      if (status === undefined) throw new H2StreamError(s.id, h2_error.PROTOCOL_ERROR, 'a response without :status');
      // Informational responses (1xx) precede the real one and carry nothing for us.
      if (status.startsWith('1') && !end_stream) return;
      s.responded = true;
      s.handler.onResponse(headers, end_stream);
    } else {
      if (!end_stream) throw new H2StreamError(s.id, h2_error.PROTOCOL_ERROR, 'trailers without END_STREAM');
      s.handler.onTrailers(headers);
    }
    if (end_stream) this.remoteEnd(s);
  }

  private onReset(id: number, code: number): void {
    if (this.isIdle(id)) throw new H2ConnectionError(h2_error.PROTOCOL_ERROR, `RST_STREAM on idle stream ${id}`);
    const s = this.streams.get(id);
    if (s !== undefined) this.closeStream(s, { kind: 'reset', code, by: 'peer' });
  }

  private onSettings(ack: boolean, entries: readonly { id: number; value: number }[]): void {
    if (ack) return;
    this.peer_settings_seen = true;
    const before = this.peer;
    this.peer = applySettings(before, entries, this.role === 'client');
    const delta = this.peer.initial_window_bytes - before.initial_window_bytes;
    if (delta !== 0) {
      for (const s of this.streams.values()) {
        s.send_window += delta;
        if (s.send_window > window_bytes_limit) throw new H2ConnectionError(h2_error.FLOW_CONTROL_ERROR, `stream ${s.id}'s window passed 2^31-1`);
        if (s.queued_bytes > 0 && s.send_window > 0) this.sendable.add(s);
      }
    }
    if (this.peer.header_table_bytes !== before.header_table_bytes) this.encoder.setTableLimit(this.peer.header_table_bytes);
    this.writer.push(settingsAckFrame());
    this.openPending();
    this.flushData();
  }

  private onGoaway(last_stream_id: number, code: number): void {
    this.goaway_received = true;
    // Streams we opened above last_stream_id were never processed: they may be retried elsewhere.
    for (const s of [...this.streams.values()]) {
      const ours = (s.id % 2 === 1) === (this.role === 'client');
      if (ours && s.id > last_stream_id) this.closeStream(s, { kind: 'refused' });
    }
    for (const p of this.pending_open.splice(0)) this.closeStream(p.stream, { kind: 'refused' });
    this.events.onGoaway(last_stream_id, code);
    if (this.streams.size === 0) this.shutdown();
  }

  private onWindowUpdate(id: number, increment: number): void {
    if (id === 0) {
      if (increment === 0) throw new H2ConnectionError(h2_error.PROTOCOL_ERROR, 'a WINDOW_UPDATE of 0 on the connection');
      this.send_window += increment;
      if (this.send_window > window_bytes_limit) throw new H2ConnectionError(h2_error.FLOW_CONTROL_ERROR, 'the connection window passed 2^31-1');
      for (const s of this.streams.values()) if (s.queued_bytes > 0 && s.send_window > 0) this.sendable.add(s);
      this.flushData();
      return;
    }
    if (this.isIdle(id)) throw new H2ConnectionError(h2_error.PROTOCOL_ERROR, `WINDOW_UPDATE on idle stream ${id}`);
    const s = this.streams.get(id);
    if (s === undefined) return;
    if (increment === 0) throw new H2StreamError(id, h2_error.PROTOCOL_ERROR, `a WINDOW_UPDATE of 0 on stream ${id}`);
    s.send_window += increment;
    if (s.send_window > window_bytes_limit) throw new H2StreamError(id, h2_error.FLOW_CONTROL_ERROR, `stream ${id}'s window passed 2^31-1`);
    if (s.queued_bytes > 0 || s.end_requested !== undefined) {
      this.sendable.add(s);
      this.flushData();
    }
  }

  private onSocketClose(): void {
    if (this.closed) return;
    const reason = this.close_error?.message ?? 'the connection closed';
    for (const p of this.pending_open.splice(0)) this.closeStream(p.stream, { kind: 'connection_lost', reason });
    for (const s of [...this.streams.values()]) this.closeStream(s, { kind: 'connection_lost', reason });
    this.closed = true;
    this.writer.close();
    for (const answered of this.pings.values()) answered(false);
    this.pings.clear();
    this.events.onClose(this.close_error);
  }
}
