/**
 * Bytes to frames (RFC 9113 sections 4 and 6): the reader gathers a connection's bytes into whole
 * frames, and `parseFrame` checks each frame type's fixed layout (lengths, stream id zero or not,
 * padding) and strips padding and priority fields. What the frames mean for the connection is the
 * connection's business; this file only says whether they are well formed.
 */
import { H2ConnectionError, h2_error } from './errors.js';
import { flag, frame_header_bytes, frame_type } from './frame.js';

export type Frame =
  | { readonly type: 'data'; readonly stream_id: number; readonly end_stream: boolean; readonly data: Buffer; readonly flow_bytes: number }
  | { readonly type: 'headers'; readonly stream_id: number; readonly end_stream: boolean; readonly end_headers: boolean; readonly block: Buffer }
  | { readonly type: 'continuation'; readonly stream_id: number; readonly end_headers: boolean; readonly block: Buffer }
  | { readonly type: 'priority'; readonly stream_id: number }
  | { readonly type: 'rst_stream'; readonly stream_id: number; readonly code: number }
  | { readonly type: 'settings'; readonly ack: boolean; readonly entries: readonly { id: number; value: number }[] }
  | { readonly type: 'push_promise'; readonly stream_id: number }
  | { readonly type: 'ping'; readonly ack: boolean; readonly payload: Buffer }
  | { readonly type: 'goaway'; readonly last_stream_id: number; readonly code: number; readonly debug: Buffer }
  | { readonly type: 'window_update'; readonly stream_id: number; readonly increment: number }
  | { readonly type: 'unknown'; readonly frame_type: number };

/**
 * Gathers bytes into whole frames; a frame longer than `frame_bytes_max` is a FRAME_SIZE_ERROR.
 * A frame that arrives in pieces (a 64 KiB DATA frame comes as TLS records of 16 KiB) is held as
 * its pieces and joined once, when the last arrives: joining at every piece copied a large frame
 * over and over, and made receiving bulk data (a snapshot) cost more CPU than sending it.
 */
export class FrameReader {
  /** Bytes received and not yet a whole frame, in arrival order. */
  private pending: Buffer[] = [];
  /** Invariant: the bytes in `pending`. */
  private pending_bytes = 0;
  /** The held frame's whole size (header and payload) once its header is held; 0 before. */
  private pending_frame_bytes = 0;

  /** The largest payload we accept: our SETTINGS_MAX_FRAME_SIZE. */
  constructor(private frame_bytes_max: number) {}

  /** Calls `onFrame` for each whole frame in what has arrived so far; throws H2ConnectionError. */
  push(chunk: Buffer, onFrame: (frame: Frame) => void): void {
    let buf = chunk;
    if (this.pending_bytes > 0) {
      this.pending.push(chunk);
      this.pending_bytes += chunk.length;
      if (this.pending_frame_bytes > 0 && this.pending_bytes < this.pending_frame_bytes) return;
      buf = Buffer.concat(this.pending, this.pending_bytes);
      this.pending = [];
      this.pending_bytes = 0;
      this.pending_frame_bytes = 0;
    }
    let at = 0;
    while (buf.length - at >= frame_header_bytes) {
      const length = (buf[at]! << 16) | (buf[at + 1]! << 8) | buf[at + 2]!;
      if (length > this.frame_bytes_max) {
        throw new H2ConnectionError(h2_error.FRAME_SIZE_ERROR, `a frame of ${length} bytes is over the limit of ${this.frame_bytes_max}`);
      }
      const end = at + frame_header_bytes + length;
      if (end > buf.length) {
        this.pending_frame_bytes = frame_header_bytes + length;
        break;
      }
      const type = buf[at + 3]!;
      const flags = buf[at + 4]!;
      const stream_id = buf.readUInt32BE(at + 5) & 0x7fff_ffff;
      onFrame(parseFrame(type, flags, stream_id, buf.subarray(at + frame_header_bytes, end)));
      at = end;
    }
    if (at < buf.length) {
      const rest = at === 0 ? buf : buf.subarray(at);
      this.pending.push(rest);
      this.pending_bytes = rest.length;
    }
  }

  /** Whether bytes of an incomplete frame are held. */
  get midFrame(): boolean {
    return this.pending_bytes > 0;
  }
}

function protocolError(message: string): H2ConnectionError {
  return new H2ConnectionError(h2_error.PROTOCOL_ERROR, message);
}

function frameSizeError(message: string): H2ConnectionError {
  return new H2ConnectionError(h2_error.FRAME_SIZE_ERROR, message);
}

/** Removes the padding of a PADDED frame (RFC 9113 section 6.1): a length octet, then padding at the end. */
function unpad(payload: Buffer, flags: number, what: string): Buffer {
  if ((flags & flag.PADDED) === 0) return payload;
  if (payload.length < 1) throw frameSizeError(`a padded ${what} frame without its pad length`);
  const pad = payload[0]!;
  if (pad >= payload.length) throw protocolError(`a ${what} frame's padding (${pad}) is not shorter than its payload`);
  return payload.subarray(1, payload.length - pad);
}

function needStream(stream_id: number, what: string): void {
  if (stream_id === 0) throw protocolError(`a ${what} frame on stream 0`);
}

function needConnection(stream_id: number, what: string): void {
  if (stream_id !== 0) throw protocolError(`a ${what} frame on stream ${stream_id}, not 0`);
}

export function parseFrame(type: number, flags: number, stream_id: number, payload: Buffer): Frame {
  switch (type) {
    case frame_type.DATA: {
      needStream(stream_id, 'DATA');
      // The whole payload, padding included, counts against flow control.
      return { type: 'data', stream_id, end_stream: (flags & flag.END_STREAM) !== 0, data: unpad(payload, flags, 'DATA'), flow_bytes: payload.length };
    }
    case frame_type.HEADERS: {
      needStream(stream_id, 'HEADERS');
      let block = unpad(payload, flags, 'HEADERS');
      // Priority fields are read past and ignored (RFC 9113 deprecates the priority scheme).
      if ((flags & flag.PRIORITY) !== 0) {
        if (block.length < 5) throw frameSizeError('a HEADERS frame too short for its priority fields');
        if ((block.readUInt32BE(0) & 0x7fff_ffff) === stream_id) throw protocolError(`stream ${stream_id} depends on itself`);
        block = block.subarray(5);
      }
      return { type: 'headers', stream_id, end_stream: (flags & flag.END_STREAM) !== 0, end_headers: (flags & flag.END_HEADERS) !== 0, block };
    }
    case frame_type.PRIORITY:
      needStream(stream_id, 'PRIORITY');
      if (payload.length !== 5) throw frameSizeError(`a PRIORITY frame of ${payload.length} bytes, not 5`);
      return { type: 'priority', stream_id };
    case frame_type.RST_STREAM:
      needStream(stream_id, 'RST_STREAM');
      if (payload.length !== 4) throw frameSizeError(`a RST_STREAM frame of ${payload.length} bytes, not 4`);
      return { type: 'rst_stream', stream_id, code: payload.readUInt32BE(0) };
    case frame_type.SETTINGS: {
      needConnection(stream_id, 'SETTINGS');
      const ack = (flags & flag.ACK) !== 0;
      if (ack && payload.length !== 0) throw frameSizeError('a SETTINGS acknowledgement with a payload');
      if (payload.length % 6 !== 0) throw frameSizeError(`a SETTINGS frame of ${payload.length} bytes, not a multiple of 6`);
      const entries: { id: number; value: number }[] = [];
      for (let at = 0; at < payload.length; at += 6) entries.push({ id: payload.readUInt16BE(at), value: payload.readUInt32BE(at + 2) });
      return { type: 'settings', ack, entries };
    }
    case frame_type.PUSH_PROMISE:
      needStream(stream_id, 'PUSH_PROMISE');
      return { type: 'push_promise', stream_id };
    case frame_type.PING:
      needConnection(stream_id, 'PING');
      if (payload.length !== 8) throw frameSizeError(`a PING frame of ${payload.length} bytes, not 8`);
      return { type: 'ping', ack: (flags & flag.ACK) !== 0, payload };
    case frame_type.GOAWAY:
      needConnection(stream_id, 'GOAWAY');
      if (payload.length < 8) throw frameSizeError(`a GOAWAY frame of ${payload.length} bytes, under 8`);
      return { type: 'goaway', last_stream_id: payload.readUInt32BE(0) & 0x7fff_ffff, code: payload.readUInt32BE(4), debug: payload.subarray(8) };
    case frame_type.WINDOW_UPDATE: {
      if (payload.length !== 4) throw frameSizeError(`a WINDOW_UPDATE frame of ${payload.length} bytes, not 4`);
      return { type: 'window_update', stream_id, increment: payload.readUInt32BE(0) & 0x7fff_ffff };
    }
    case frame_type.CONTINUATION:
      needStream(stream_id, 'CONTINUATION');
      return { type: 'continuation', stream_id, end_headers: (flags & flag.END_HEADERS) !== 0, block: payload };
    default:
      // Unknown frame types are ignored (RFC 9113 section 4.1), except inside a header block.
      return { type: 'unknown', frame_type: type };
  }
}
