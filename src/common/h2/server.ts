/**
 * The server side of the engine: each accepted socket (plain TCP, or TLS with ALPN "h2") becomes
 * an H2Connection whose peer-opened streams go to `onStream`. Keepalive pings a connection that
 * has been silent and closes it when the ping goes unanswered.
 */
import * as net from 'node:net';
import type * as tls from 'node:tls';
import { H2Connection, h2_local_settings_default, type H2LocalSettings } from './connection.js';
import type { H2Headers, H2Stream } from './stream.js';

export interface H2ServerOptions {
  readonly settings?: Partial<H2LocalSettings>;
  /** A request stream and its headers; set `stream.handler` before returning. */
  onStream(stream: H2Stream, headers: H2Headers, connection: H2Connection): void;
  /** Silence after which a connection is pinged; 0 or absent: never. */
  readonly keepalive_interval_ms?: number;
  readonly keepalive_timeout_ms?: number;
}

export interface H2Server {
  readonly server: net.Server | tls.Server;
  readonly connections: ReadonlySet<H2Connection>;
}

/** Serves HTTP/2 on every socket `server` accepts (net.createServer() or tls.createServer()). */
export function serveH2(server: net.Server | tls.Server, o: H2ServerOptions): H2Server {
  const settings: H2LocalSettings = { ...h2_local_settings_default, ...o.settings };
  const connections = new Set<H2Connection>();
  // A TLS server's 'connection' is the raw socket; its streams come after the handshake.
  const event = isTlsServer(server) ? 'secureConnection' : 'connection';
  server.on(event, (socket: net.Socket) => {
    const connection: H2Connection = new H2Connection(socket, 'server', settings, {
      onStream: (stream, headers) => o.onStream(stream, headers, connection),
      onGoaway: () => {},
      onClose: () => connections.delete(connection),
    });
    connections.add(connection);
    if (o.keepalive_interval_ms !== undefined && o.keepalive_interval_ms > 0) keepAlive(connection, o.keepalive_interval_ms, o.keepalive_timeout_ms ?? 20_000);
  });
  return { server, connections };
}

function isTlsServer(server: net.Server): boolean {
  return typeof (server as Partial<tls.Server>).addContext === 'function';
}

/** Pings a connection silent for interval_ms; destroys it when no answer comes within timeout_ms. */
function keepAlive(connection: H2Connection, interval_ms: number, timeout_ms: number): void {
  const socket = connection.socket;
  socket.setTimeout(interval_ms, () => {
    const unanswered = setTimeout(() => connection.destroy(), timeout_ms);
    unanswered.unref();
    const sent = connection.ping((ok) => {
      clearTimeout(unanswered);
      if (!ok) connection.destroy();
    });
    if (!sent) clearTimeout(unanswered);
  });
}
