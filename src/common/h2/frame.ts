/**
 * HTTP/2 frames (RFC 9113 section 4 and 6): the 9-byte header, the frame types and flags, and
 * serializers that write each frame type into one buffer. Parsing is in frame-parser.ts.
 */

/** The fixed frame header: length (24 bits), type, flags, reserved bit and stream id (31 bits). */
export const frame_header_bytes = 9;

export const frame_type = {
  DATA: 0x0,
  HEADERS: 0x1,
  PRIORITY: 0x2,
  RST_STREAM: 0x3,
  SETTINGS: 0x4,
  PUSH_PROMISE: 0x5,
  PING: 0x6,
  GOAWAY: 0x7,
  WINDOW_UPDATE: 0x8,
  CONTINUATION: 0x9,
} as const;

export const flag = {
  END_STREAM: 0x1,
  ACK: 0x1,
  END_HEADERS: 0x4,
  PADDED: 0x8,
  PRIORITY: 0x20,
} as const;

/** The client's connection preface (RFC 9113 section 3.4), sent before its SETTINGS. */
export const client_preface = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');

/** Frame payload bounds: the protocol's floor and ceiling for SETTINGS_MAX_FRAME_SIZE. */
export const frame_payload_bytes_default = 16_384;
export const frame_payload_bytes_limit = 16_777_215;
/** The largest flow-control window (2^31 - 1). */
export const window_bytes_limit = 0x7fff_ffff;
/** The protocol's initial window, for streams and the connection alike. */
export const window_bytes_default = 65_535;

function writeHeader(out: Buffer, length: number, type: number, flags: number, stream_id: number): void {
  out[0] = (length >>> 16) & 0xff;
  out[1] = (length >>> 8) & 0xff;
  out[2] = length & 0xff;
  out[3] = type;
  out[4] = flags;
  out.writeUInt32BE(stream_id & 0x7fff_ffff, 5);
}

/** A frame header alone, for a frame whose payload is written after it as its own buffer. */
export function frameHeader(length: number, type: number, flags: number, stream_id: number): Buffer {
  const out = Buffer.allocUnsafe(frame_header_bytes);
  writeHeader(out, length, type, flags, stream_id);
  return out;
}

/** A frame with its payload copied in, for small frames (control frames, header blocks). */
export function frameWith(type: number, flags: number, stream_id: number, payload: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(frame_header_bytes + payload.byteLength);
  writeHeader(out, payload.byteLength, type, flags, stream_id);
  out.set(payload, frame_header_bytes);
  return out;
}

/** One SETTINGS entry: identifier and value (RFC 9113 section 6.5.1). */
export interface SettingEntry {
  readonly id: number;
  readonly value: number;
}

export function settingsFrame(entries: readonly SettingEntry[]): Buffer {
  const out = Buffer.allocUnsafe(frame_header_bytes + entries.length * 6);
  writeHeader(out, entries.length * 6, frame_type.SETTINGS, 0, 0);
  let at = frame_header_bytes;
  for (const e of entries) {
    out.writeUInt16BE(e.id, at);
    out.writeUInt32BE(e.value >>> 0, at + 2);
    at += 6;
  }
  return out;
}

export function settingsAckFrame(): Buffer {
  return frameHeader(0, frame_type.SETTINGS, flag.ACK, 0);
}

export function pingFrame(payload: Uint8Array, ack: boolean): Buffer {
  return frameWith(frame_type.PING, ack ? flag.ACK : 0, 0, payload);
}

export function windowUpdateFrame(stream_id: number, increment: number): Buffer {
  const out = Buffer.allocUnsafe(frame_header_bytes + 4);
  writeHeader(out, 4, frame_type.WINDOW_UPDATE, 0, stream_id);
  out.writeUInt32BE(increment & 0x7fff_ffff, frame_header_bytes);
  return out;
}

export function rstStreamFrame(stream_id: number, code: number): Buffer {
  const out = Buffer.allocUnsafe(frame_header_bytes + 4);
  writeHeader(out, 4, frame_type.RST_STREAM, 0, stream_id);
  out.writeUInt32BE(code >>> 0, frame_header_bytes);
  return out;
}

export function goawayFrame(last_stream_id: number, code: number, debug: string): Buffer {
  const text = Buffer.from(debug, 'utf8');
  const out = Buffer.allocUnsafe(frame_header_bytes + 8 + text.byteLength);
  writeHeader(out, 8 + text.byteLength, frame_type.GOAWAY, 0, 0);
  out.writeUInt32BE(last_stream_id & 0x7fff_ffff, frame_header_bytes);
  out.writeUInt32BE(code >>> 0, frame_header_bytes + 4);
  text.copy(out, frame_header_bytes + 8);
  return out;
}

/**
 * A header block as HEADERS and, when it is larger than one frame may carry, CONTINUATION frames
 * (RFC 9113 section 6.10); END_HEADERS marks the last of them.
 */
export function headerFrames(stream_id: number, block: Uint8Array, end_stream: boolean, frame_bytes_max: number): Buffer[] {
  const first_flags = end_stream ? flag.END_STREAM : 0;
  if (block.byteLength <= frame_bytes_max) return [frameWith(frame_type.HEADERS, first_flags | flag.END_HEADERS, stream_id, block)];
  const frames: Buffer[] = [];
  for (let at = 0; at < block.byteLength; at += frame_bytes_max) {
    const end = Math.min(at + frame_bytes_max, block.byteLength);
    const last = end === block.byteLength;
    const type = at === 0 ? frame_type.HEADERS : frame_type.CONTINUATION;
    const flags = (at === 0 ? first_flags : 0) | (last ? flag.END_HEADERS : 0);
    frames.push(frameWith(type, flags, stream_id, block.subarray(at, end)));
  }
  return frames;
}
