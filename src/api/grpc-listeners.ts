/**
 * The two HTTP/2 engines the gRPC server can listen with, behind one shape: Weft's own engine
 * (src/common/h2; the default, `grpc_http2_engine = weft`) and node:http2 (`node`, kept as the
 * operator's fallback). Each hands every request stream to the server as a CallStream.
 */
import * as http2 from 'node:http2';
import * as net from 'node:net';
import * as tls from 'node:tls';
import type { IncomingHttpHeaders } from 'node:http2';
import type { H2Connection } from '../common/h2/connection.js';
import { serveH2 } from '../common/h2/server.js';
import type { CallStream } from './grpc-call-stream.js';
import { NodeCallStream } from './grpc-node-stream.js';
import { WeftCallStream } from './grpc-weft-stream.js';

export type Http2Engine = 'weft' | 'node';
export const http2_engines: readonly Http2Engine[] = ['weft', 'node'];

/** Where a listener hands each request stream: its headers, and the client's address. */
export type StreamSink = (stream: CallStream, headers: IncomingHttpHeaders, peer: string) => void;

export interface ListenerOptions {
  readonly streams_per_connection_max: number;
  readonly keepalive_interval_ms: number;
  readonly keepalive_timeout_ms: number;
  /** Absent: plain text. */
  readonly tls?: ServerTls | undefined;
}

/** TLS on the port: PEM certificate and key; with `ca`, clients must present a certificate it issued. */
export interface ServerTls {
  readonly cert: Buffer;
  readonly key: Buffer;
  readonly ca?: Buffer | undefined;
}

/** node:tls server options for `t`: gRPC's ALPN protocol only, and client certificates when a CA is given. */
function tlsServerOptions(t: ServerTls): tls.TlsOptions {
  const mutual = t.ca !== undefined;
  return { cert: t.cert, key: t.key, ALPNProtocols: ['h2'], ...(mutual ? { ca: t.ca, requestCert: true, rejectUnauthorized: true } : {}) };
}

export interface Http2Listener {
  readonly server: net.Server;
  /** GOAWAY on every connection: clients open no new calls; calls in flight go on. */
  goaway(): void;
  /** Cuts every connection. */
  destroyAll(): void;
}

/**
 * What one connection may hold in nghttp2's buffers. Flow control already bounds it; node's default
 * (10 MB) would instead reset busy connections with ENHANCE_YOUR_CALM under many concurrent calls.
 */
const http2_session_memory_mb_max = 1_000;

export function listenerFor(engine: Http2Engine, o: ListenerOptions, sink: StreamSink): Http2Listener {
  switch (engine) {
    case 'weft':
      return weftListener(o, sink);
    case 'node':
      return nodeListener(o, sink);
  }
}

function peerOf(socket: net.Socket | undefined): string {
  return `${socket?.remoteAddress ?? 'unknown'}:${socket?.remotePort ?? 0}`;
}

function weftListener(o: ListenerOptions, sink: StreamSink): Http2Listener {
  const server = o.tls === undefined ? net.createServer() : tls.createServer(tlsServerOptions(o.tls));
  const peers = new WeakMap<H2Connection, string>();
  const h2 = serveH2(server, {
    settings: { concurrent_streams_max: o.streams_per_connection_max },
    keepalive_interval_ms: o.keepalive_interval_ms,
    keepalive_timeout_ms: o.keepalive_timeout_ms,
    onStream(stream, headers, connection) {
      let peer = peers.get(connection);
      if (peer === undefined) {
        peer = peerOf(connection.socket);
        peers.set(connection, peer);
      }
      sink(new WeftCallStream(stream), headers, peer);
    },
  });
  return {
    server,
    goaway() {
      for (const c of h2.connections) c.goaway();
    },
    destroyAll() {
      for (const c of h2.connections) c.destroy();
    },
  };
}

function nodeListener(o: ListenerOptions, sink: StreamSink): Http2Listener {
  const options: http2.ServerOptions = {
    settings: { maxConcurrentStreams: o.streams_per_connection_max },
    maxSessionMemory: http2_session_memory_mb_max,
  };
  const server = o.tls === undefined ? http2.createServer(options) : http2.createSecureServer({ ...options, ...tlsServerOptions(o.tls) });
  const sessions = new Set<http2.ServerHttp2Session>();
  const peers = new WeakMap<http2.Http2Session, string>();
  server.on('session', (session) => {
    sessions.add(session);
    peers.set(session, peerOf(session.socket as net.Socket));
    // Errors end in 'close', which cancels the session's calls; there is no one else to tell.
    session.on('error', () => {});
    session.once('close', () => sessions.delete(session));
    keepAlive(session, o.keepalive_interval_ms, o.keepalive_timeout_ms);
  });
  server.on('stream', (stream, headers) => {
    stream.on('error', () => {});
    sink(new NodeCallStream(stream), headers, peers.get(stream.session as http2.Http2Session) ?? 'unknown');
  });
  return {
    server,
    goaway() {
      for (const session of sessions) session.close();
    },
    destroyAll() {
      for (const session of sessions) session.destroy();
    },
  };
}

/** Pings a connection that has been silent for interval_ms; closes it when no answer comes in timeout_ms. */
function keepAlive(session: http2.ServerHttp2Session, interval_ms: number, timeout_ms: number): void {
  session.setTimeout(interval_ms, () => {
    const unanswered = setTimeout(() => session.destroy(), timeout_ms);
    unanswered.unref();
    const sent = session.ping((err) => {
      clearTimeout(unanswered);
      if (err !== null) session.destroy();
    });
    if (!sent) {
      clearTimeout(unanswered);
      session.destroy();
    }
  });
}
