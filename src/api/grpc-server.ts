/**
 * The gRPC server: gRPC over HTTP/2 (the protocol of grpc/grpc's PROTOCOL-HTTP2.md) on Weft's own
 * HTTP/2 engine (src/common/h2) or, as a fallback, node:http2, serving services built generically
 * from their descriptors. Messages are decoded and encoded with protobuf-es, so a malformed request
 * is the client's INVALID_ARGUMENT, not our INTERNAL. Health checking and reflection are always served.
 *
 * Why not grpc-js's server: on an idle machine it was measured to add about 200 µs per unary call
 * beyond what node:http2 needs, most of a point lookup; and node:http2 itself costs about 160 µs
 * per request over a bare socket (a stream object, nghttp2 callbacks, header objects), which our
 * engine does not (docs/api.md, "The gRPC server").
 */
import type { IncomingHttpHeaders } from 'node:http2';
import type { AddressInfo } from 'node:net';
import type { DescMethod } from '@bufbuild/protobuf';
import { WeftError } from '../common/errors.js';
import { drain } from './call-context.js';
import { logFaultToStderr, type FaultLogger } from './error-catalog.js';
import { refuse, serveCall, type CallSettings } from './grpc-call.js';
import { healthService, HealthBoard, ServingStatus } from './grpc-health.js';
import { reflectionServices } from './grpc-reflection.js';
import type { CallStream } from './grpc-call-stream.js';
import { listenerFor, type Http2Engine, type ServerTls } from './grpc-listeners.js';
import type { CallObserver, RegisteredService } from './handlers.js';

export { decodeRequest } from './grpc-decode.js';

/** Default bound on one message either way; a larger request is refused with RESOURCE_EXHAUSTED. */
export const grpc_message_bytes_max_default = 16 * 1024 * 1024;
/** How long stop() lets calls in flight finish before cutting them. */
export const grpc_shutdown_grace_ms_default = 5_000;
/** Calls one connection may have open at once (the HTTP/2 SETTINGS_MAX_CONCURRENT_STREAMS we send). */
export const grpc_streams_per_connection_max_default = 1_000;
/**
 * A connection silent this long is pinged; one that does not answer within the timeout is closed,
 * which cancels its calls. gRPC's own server default interval is two hours.
 */
export const grpc_keepalive_interval_ms_default = 2 * 60 * 60 * 1000;
export const grpc_keepalive_timeout_ms_default = 20_000;
/** Weft's own engine unless the operator falls back to node:http2 (setting grpc_http2_engine). */
export const grpc_http2_engine_default: Http2Engine = 'weft';

export interface GrpcServerOptions {
  /** Default 127.0.0.1. */
  readonly host?: string;
  /** 0 picks a free port; the handle reports it. */
  readonly port: number;
  readonly services: readonly RegisteredService[];
  readonly message_bytes_max?: number;
  readonly shutdown_grace_ms?: number;
  readonly streams_per_connection_max?: number;
  readonly keepalive_interval_ms?: number;
  readonly keepalive_timeout_ms?: number;
  /** Which HTTP/2 implementation serves the port. */
  readonly http2_engine?: Http2Engine;
  /** TLS on the port (certificate, key, and a CA for client certificates); absent: plain text. */
  readonly tls?: ServerTls | undefined;
  /** The health board to serve; one reporting SERVING is made when absent. */
  readonly health?: HealthBoard;
  readonly log?: FaultLogger;
  /** Told about every call when it ends (for metrics). */
  readonly observe?: CallObserver;
}

export interface GrpcServerHandle {
  readonly port: number;
  readonly health: HealthBoard;
  /**
   * Marks every service NOT_SERVING and refuses new calls (GOAWAY), lets calls in flight finish for
   * up to `drain_ms`, ends the rest with UNAVAILABLE, and closes after the grace period.
   */
  stop(drain_ms?: number): Promise<void>;
}

interface Route {
  readonly registered: RegisteredService;
  readonly method: DescMethod;
}

/** Every method of every service by its gRPC path, "/package.Service/Method". */
function routesOf(services: readonly RegisteredService[]): Map<string, Route> {
  const routes = new Map<string, Route>();
  const names = new Set<string>();
  for (const registered of services) {
    const typeName = registered.service.typeName;
    if (names.has(typeName)) throw new Error(`service ${typeName} registered twice`);
    names.add(typeName);
    for (const method of registered.service.methods) routes.set(`/${typeName}/${method.name}`, { registered, method });
  }
  return routes;
}

/** application/grpc and application/grpc+proto, with or without parameters; the codec is protobuf only. */
export function isGrpcContentType(value: string | undefined): boolean {
  if (value === undefined) return false;
  const semicolon = value.indexOf(';');
  const type = (semicolon < 0 ? value : value.slice(0, semicolon)).trim().toLowerCase();
  return type === 'application/grpc' || type === 'application/grpc+proto';
}

export async function startGrpcServer(o: GrpcServerOptions): Promise<GrpcServerHandle> {
  const host = o.host ?? '127.0.0.1';
  const settings: CallSettings = {
    log: o.log ?? logFaultToStderr,
    observe: o.observe,
    active: new Set(),
    message_bytes_max: o.message_bytes_max ?? grpc_message_bytes_max_default,
  };
  const health = o.health ?? new HealthBoard();
  // Each served service starts SERVING unless the server already set it, so a probe of one
  // service by name gets an answer rather than NOT_FOUND.
  for (const r of o.services) if (health.get(r.service.typeName) === undefined) health.set(r.service.typeName, ServingStatus.SERVING);
  const served = [...o.services, healthService(health)];
  const routes = routesOf([...served, ...reflectionServices(served.map((r) => r.service))]);

  const dispatch = (stream: CallStream, headers: IncomingHttpHeaders, peer: string): void => {
    if (headers[':method'] !== 'POST') {
      stream.respond({ ':status': 405, allow: 'POST' }, true);
      return;
    }
    // The spec's answer to a content type that is not gRPC is HTTP 415, so that a plain HTTP/2
    // client does not read a gRPC error's 200 as success.
    if (!isGrpcContentType(headers['content-type'])) {
      stream.respond({ ':status': 415 }, true);
      return;
    }
    const path = headers[':path'] ?? '';
    const route = routes.get(path);
    if (route === undefined) {
      refuse(stream, new WeftError('UNIMPLEMENTED', `no method ${path} on this server`), settings);
      return;
    }
    serveCall(stream, headers, route.registered, route.method, peer, settings);
  };
  const listener = listenerFor(
    o.http2_engine ?? grpc_http2_engine_default,
    {
      streams_per_connection_max: o.streams_per_connection_max ?? grpc_streams_per_connection_max_default,
      keepalive_interval_ms: o.keepalive_interval_ms ?? grpc_keepalive_interval_ms_default,
      keepalive_timeout_ms: o.keepalive_timeout_ms ?? grpc_keepalive_timeout_ms_default,
      tls: o.tls,
    },
    dispatch,
  );
  const server = listener.server;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const grace_ms = o.shutdown_grace_ms ?? grpc_shutdown_grace_ms_default;
  let stopped: Promise<void> | undefined;
  return {
    port,
    health,
    stop(drain_ms = 0) {
      stopped ??= new Promise<void>((resolve) => {
        health.stopServing();
        let cut: NodeJS.Timeout | undefined;
        server.close(() => {
          clearTimeout(cut);
          resolve();
        });
        // GOAWAY: clients open no new calls here; calls in flight get up to drain_ms on their own.
        listener.goaway();
        void drain(settings.active, drain_ms).then(() => {
          for (const call of settings.active) call.cancel(new WeftError('UNAVAILABLE', 'the server is stopping'));
          cut = setTimeout(() => listener.destroyAll(), grace_ms);
        });
      });
      return stopped;
    },
  };
}
