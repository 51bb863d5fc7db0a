/**
 * How a gRPC call ends, as the client reads it: the status code by number, `grpc-message`
 * percent-decoding, and the codes the HTTP/2 layer's own failures (a non-200 response, a reset
 * stream, a refused connection) stand for, as PROTOCOL-HTTP2 and grpc's http-grpc-status-mapping
 * define them.
 */
import { WeftError, type StatusCode } from '../errors.js';

/** gRPC status names by code number; 0 (OK) is never an error, so a peer that sends it as one is UNKNOWN. */
const status_names: readonly StatusCode[] = [
  'UNKNOWN',
  'CANCELLED',
  'UNKNOWN',
  'INVALID_ARGUMENT',
  'DEADLINE_EXCEEDED',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'PERMISSION_DENIED',
  'RESOURCE_EXHAUSTED',
  'FAILED_PRECONDITION',
  'ABORTED',
  'OUT_OF_RANGE',
  'UNIMPLEMENTED',
  'INTERNAL',
  'UNAVAILABLE',
  'DATA_LOSS',
  'UNAUTHENTICATED',
];

export function statusName(code: number): StatusCode {
  return status_names[code] ?? 'UNKNOWN';
}

/** The end of a call as its trailers (or a trailers-only response) state it. */
export interface CallStatus {
  /** 0 is OK. */
  readonly code: number;
  /** `grpc-message`, percent-decoded. */
  readonly message: string;
  /** `grpc-status-details-bin`: a google.rpc.Status, when the server sent one. */
  readonly details_bin: Buffer | undefined;
}

/** Turns a failed status into the WeftError it stands for, reading google.rpc details when present. */
export type StatusDecoder = (status: CallStatus) => WeftError;

/**
 * `grpc-message` as sent: UTF-8 with bytes outside printable ASCII written as %XX. A '%' not followed
 * by two hex digits is kept as it is, as the spec asks of a decoder.
 */
export function percentDecode(text: string): string {
  if (!text.includes('%')) return text;
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x25 && /^[0-9a-fA-F]{2}$/.test(text.slice(i + 1, i + 3))) {
      bytes.push(parseInt(text.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (c < 0x80) {
      bytes.push(c);
    } else {
      // Not valid on the wire, but keep whatever a lenient peer sent.
      for (const b of Buffer.from(text[i] ?? '', 'utf8')) bytes.push(b);
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/**
 * The status of a response that is not gRPC: a proxy or a plain HTTP server answered. The mapping is
 * grpc's http-grpc-status-mapping.
 */
export function statusOfHttp(http_status: number): StatusCode {
  switch (http_status) {
    case 400:
      return 'INTERNAL';
    case 401:
      return 'UNAUTHENTICATED';
    case 403:
      return 'PERMISSION_DENIED';
    case 404:
      return 'UNIMPLEMENTED';
    case 429:
    case 502:
    case 503:
    case 504:
      return 'UNAVAILABLE';
    default:
      return 'UNKNOWN';
  }
}

/** HTTP/2 error codes (RFC 9113 section 7) a peer may reset a stream with. */
export const h2_no_error = 0x0;
export const h2_refused_stream = 0x7;
export const h2_cancel = 0x8;
const h2_enhance_your_calm = 0xb;
const h2_inadequate_security = 0xc;

/** The status a stream reset by the server stands for (PROTOCOL-HTTP2, "Errors"). */
export function statusOfReset(h2_code: number): StatusCode {
  switch (h2_code) {
    case h2_refused_stream:
      // The server did not start the call: safe to send again.
      return 'UNAVAILABLE';
    case h2_cancel:
      return 'CANCELLED';
    case h2_enhance_your_calm:
      return 'RESOURCE_EXHAUSTED';
    case h2_inadequate_security:
      return 'PERMISSION_DENIED';
    default:
      return 'INTERNAL';
  }
}

/** gRPC status code numbers by name (the inverse of statusName). */
const status_numbers: ReadonlyMap<StatusCode, number> = new Map(status_names.map((name, code) => [name, code] as const).filter(([name, code]) => name !== 'UNKNOWN' || code === 2));

/** The number a status is sent as in `grpc-status`. */
export function statusNumber(name: StatusCode): number {
  return status_numbers.get(name) ?? 2;
}

/**
 * `grpc-message` encoding: the UTF-8 bytes of the text, each byte outside printable ASCII
 * (0x20-0x7E) and '%' itself written as %XX (the inverse of percentDecode).
 */
export function percentEncode(text: string): string {
  if (/^[\x20-\x24\x26-\x7e]*$/.test(text)) return text;
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    out += byte >= 0x20 && byte <= 0x7e && byte !== 0x25 ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}
