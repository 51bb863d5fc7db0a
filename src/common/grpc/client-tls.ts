/**
 * TLS for a client's gRPC channel: what the caller gives (the CA the server's certificate must chain
 * to, and a certificate of its own when the server asks for one), the address forms that choose TLS,
 * and the error a refused handshake turns into. Both HTTP/2 engines dial with the same options.
 */
import type { ConnectionOptions } from 'node:tls';
import { WeftError } from '../errors.js';

export interface ClientTls {
  /**
   * PEM certificate(s) of the authority the server's certificate must be issued by. Absent: Node's
   * default trusted roots. The server's name (or IP address) must also be in its certificate.
   */
  readonly ca?: string | Uint8Array;
  /** PEM certificate and key this client proves itself with, for a server that asks (mutual TLS). */
  readonly cert?: string | Uint8Array;
  readonly key?: string | Uint8Array;
  /** The name the server's certificate is checked against, when it is not the address's host. */
  readonly servername?: string;
}

/** A dial target: `host:port`, and whether the address itself asked for TLS or for plain text. */
export interface Target {
  readonly authority: string;
  /** `https://` gives true, `http://` false; a bare address leaves the choice to the options. */
  readonly tls: boolean | undefined;
}

/**
 * The `host:port` to connect to, from the forms gRPC clients accept: `host:port`, `[v6]:port`,
 * `dns:host:port`, `dns:///host:port`, `http://host:port` (plain text), `https://host:port` (TLS).
 */
export function targetOf(address: string): Target {
  const tls = address.startsWith('https://') ? true : address.startsWith('http://') ? false : undefined;
  const bare = address.replace(/^dns:(\/\/\/)?/, '').replace(/^https?:\/\//, '').replace(/\/$/, '');
  if (!/^(\[[0-9a-fA-F:.]+\]|[^:/\[\]\s]+):\d{1,5}$/.test(bare)) {
    throw new WeftError('INVALID_ARGUMENT', `"${address}" is not a gRPC address of the form host:port`);
  }
  return { authority: bare, tls };
}

/**
 * Whether a channel to `target` speaks TLS: as its address says, else when the caller gave TLS
 * options (so the leader addresses a group announces, bare `host:port`, are dialed as the first was).
 */
export function usesTls(target: Target, options: ClientTls | undefined): boolean {
  return target.tls ?? options !== undefined;
}

/** node:tls options for these: verification always on, ALPN left to the engine. */
export function tlsConnectOptions(o: ClientTls | undefined): ConnectionOptions {
  return {
    rejectUnauthorized: true,
    ...(o?.ca !== undefined ? { ca: pem(o.ca) } : {}),
    ...(o?.cert !== undefined ? { cert: pem(o.cert) } : {}),
    ...(o?.key !== undefined ? { key: pem(o.key) } : {}),
    ...(o?.servername !== undefined ? { servername: o.servername } : {}),
  };
}

function pem(v: string | Uint8Array): string | Buffer {
  return typeof v === 'string' ? v : Buffer.from(v.buffer, v.byteOffset, v.byteLength);
}

/** OpenSSL's and node's codes for a server certificate the client does not trust. */
const untrusted_codes: ReadonlySet<string> = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_SIGNATURE_FAILURE',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/**
 * The error a failed handshake with `authority` stands for, saying whose certificate was refused and
 * why; an error of the connection itself (refused, reset before any TLS) is returned as it is.
 */
export function tlsHandshakeError(e: Error, authority: string): Error {
  const code = (e as NodeJS.ErrnoException).code;
  if (code !== undefined && untrusted_codes.has(code)) {
    return new Error(`the TLS certificate of ${authority} is not trusted (${code}: ${e.message}); the client verifies it against the CA it was given (tls.ca)`);
  }
  // EPROTO: OpenSSL's protocol error as a socket error (a server that does not speak TLS, say).
  if (code === 'EPROTO' || code?.startsWith('ERR_SSL_') === true || code?.startsWith('ERR_TLS_') === true) {
    return new Error(`the TLS handshake with ${authority} failed: ${e.message} (${code})`);
  }
  return e;
}
