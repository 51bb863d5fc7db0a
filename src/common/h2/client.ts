/**
 * The client side of the engine: a TCP or TLS connection (ALPN "h2"; any tls.connect options,
 * client certificates included, pass through) carrying one H2Connection. Requests may start at
 * once: bytes written before the connection is up are sent when it is.
 */
import * as net from 'node:net';
import * as tls from 'node:tls';
import { H2Connection, h2_local_settings_default, type H2LocalSettings } from './connection.js';

export interface H2ConnectOptions {
  readonly host: string;
  readonly port: number;
  /** TLS: the options of tls.connect (ca, cert, key, servername, checkServerIdentity...); ALPN is h2. */
  readonly tls?: tls.ConnectionOptions;
  /** TLS: what an error before the handshake completed is reported as (streams' and onClose's reason). */
  readonly describeHandshakeError?: (e: Error) => Error;
  readonly settings?: Partial<H2LocalSettings>;
  /** The transport (and TLS handshake) is up. */
  onConnect?(): void;
  onGoaway?(last_stream_id: number, code: number): void;
  onClose?(error: Error | undefined): void;
}

export function connectH2(o: H2ConnectOptions): H2Connection {
  let socket: net.Socket;
  let secured = false;
  if (o.tls === undefined) {
    socket = net.connect({ host: o.host, port: o.port });
    socket.once('connect', () => o.onConnect?.());
  } else {
    const servername = net.isIP(o.host) === 0 ? o.host : undefined;
    socket = tls.connect({ host: o.host, port: o.port, ALPNProtocols: ['h2'], ...(servername !== undefined ? { servername } : {}), ...o.tls });
    socket.once('secureConnect', () => {
      secured = true;
      o.onConnect?.();
    });
  }
  const connection = new H2Connection(socket, 'client', { ...h2_local_settings_default, ...o.settings }, {
    onStream: (stream) => stream.cancel(0x1 /* PROTOCOL_ERROR: servers do not open streams here */),
    onGoaway: (last, code) => o.onGoaway?.(last, code),
    onClose: (error) => o.onClose?.(error),
  });
  const describe = o.describeHandshakeError;
  // Ahead of the connection's own listener, so its reason is the described one.
  if (o.tls !== undefined && describe !== undefined) {
    socket.prependListener('error', (e: Error) => {
      if (!secured) connection.noteError(describe(e));
    });
  }
  return connection;
}
