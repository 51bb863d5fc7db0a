/**
 * gRPC metadata on HTTP/2 headers: what a handler sees of the request's headers, and how a status
 * and custom metadata are written as response headers and trailers. Keys are lowercase (HTTP/2
 * lowercases them); a key ending in `-bin` carries bytes, base64-encoded on the wire.
 */
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http2';
import type { WireError } from './error-catalog.js';
import { statusDetails } from './error-catalog.js';
import { grpc_accept_encoding } from './grpc-encoding.js';
import { percentEncode } from '../common/grpc/status.js';

/** Custom metadata a handler may send: text, or bytes under a key ending in `-bin`. */
export type MetadataValue = string | Uint8Array;

/** Headers the transport consumes itself; the rest is the call's metadata. */
const transport_headers: ReadonlySet<string> = new Set([
  'content-type',
  'te',
  'grpc-timeout',
  'grpc-encoding',
  'grpc-accept-encoding',
  'accept-encoding',
  'content-length',
]);

/**
 * The call's metadata as CallContext.headers: pseudo-headers and transport headers left out,
 * repeated values joined by ", ". A `-bin` value stays as the base64 text it arrived as, since the
 * context holds strings; a handler that wants its bytes decodes it.
 */
export function requestMetadata(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key in headers) {
    if (key.charCodeAt(0) === 0x3a /* ':' */ || transport_headers.has(key)) continue;
    const value = headers[key];
    if (value === undefined) continue;
    out[key] = typeof value === 'string' ? value : value.join(', ');
  }
  return out;
}

/** One request header as text; a repeated header's values joined by ", ". */
export function headerText(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return value === undefined || typeof value === 'string' ? value : value.join(', ');
}

/** The response's first headers; the reply's messages follow them. */
export const response_headers: Readonly<OutgoingHttpHeaders> = Object.freeze({
  ':status': 200,
  'content-type': 'application/grpc+proto',
  'grpc-accept-encoding': grpc_accept_encoding,
});

/** Custom metadata as HTTP/2 header values: `-bin` values base64 (unpadded, as the spec allows). */
export function metadataHeaders(metadata: Readonly<Record<string, MetadataValue>>): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [raw, value] of Object.entries(metadata)) {
    const key = raw.toLowerCase();
    if (key.endsWith('-bin')) {
      const bytes = typeof value === 'string' ? Buffer.from(value, 'utf8') : value;
      out[key] = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64').replace(/=+$/, '');
    } else {
      out[key] = typeof value === 'string' ? value : Buffer.from(value).toString('utf8');
    }
  }
  return out;
}

/** Trailers ending a call that succeeded. */
export const ok_trailers: Readonly<OutgoingHttpHeaders> = Object.freeze({ 'grpc-status': '0' });

/** Trailers ending a call that failed: code, percent-encoded message, google.rpc.Status details. */
export function errorTrailers(wire: WireError): OutgoingHttpHeaders {
  return {
    'grpc-status': String(wire.grpc_code),
    'grpc-message': percentEncode(wire.message),
    'grpc-status-details-bin': Buffer.from(statusDetails(wire)).toString('base64').replace(/=+$/, ''),
  };
}

/** A trailers-only response (no headers or messages before it), for a call that fails at once. */
export function trailersOnly(wire: WireError): OutgoingHttpHeaders {
  return { ...response_headers, ...errorTrailers(wire) };
}

/** `grpc-message` encoding, shared with the peer transport (src/common/grpc/status.ts). */
export { percentEncode };
