/**
 * HTTP/2 error codes (RFC 9113 section 7) and the two scopes a protocol failure has: a connection
 * error ends the whole connection with GOAWAY, a stream error ends one stream with RST_STREAM.
 * Both are expected failures of a peer's bytes, so the frame parser and the HPACK decoder throw
 * nothing else; anything else thrown from them is a bug.
 */
export const h2_error = {
  NO_ERROR: 0x0,
  PROTOCOL_ERROR: 0x1,
  INTERNAL_ERROR: 0x2,
  FLOW_CONTROL_ERROR: 0x3,
  SETTINGS_TIMEOUT: 0x4,
  STREAM_CLOSED: 0x5,
  FRAME_SIZE_ERROR: 0x6,
  REFUSED_STREAM: 0x7,
  CANCEL: 0x8,
  COMPRESSION_ERROR: 0x9,
  CONNECT_ERROR: 0xa,
  ENHANCE_YOUR_CALM: 0xb,
  INADEQUATE_SECURITY: 0xc,
  HTTP_1_1_REQUIRED: 0xd,
} as const;

export type H2ErrorCode = (typeof h2_error)[keyof typeof h2_error];

/** A failure that ends the connection: the peer is sent GOAWAY with `code`. */
export class H2ConnectionError extends Error {
  override readonly name = 'H2ConnectionError';
  constructor(
    readonly code: H2ErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** A failure that ends one stream: the peer is sent RST_STREAM with `code`; the connection lives on. */
export class H2StreamError extends Error {
  override readonly name = 'H2StreamError';
  constructor(
    readonly stream_id: number,
    readonly code: H2ErrorCode,
    message: string,
  ) {
    super(message);
  }
}
