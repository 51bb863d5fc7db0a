/**
 * The operational HTTP port (SPEC 4.6): GET /health, /ready, /metrics and /version. The server
 * supplies the function behind each answer; this file only speaks HTTP. Plain node:http keeps the
 * probes independent of the REST stack, so they still answer when that one is wedged.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { errorJson, logFaultToStderr, reasonError, toWireError, type FaultLogger } from './error-catalog.js';

export type Readiness = { readonly ready: true } | { readonly ready: false; readonly reason: string };

export interface OpsAnswers {
  /** Liveness: always answered with 200 while the process runs; `status` says how it feels ("ok", "degraded"). */
  health(): { readonly status: string } | Promise<{ readonly status: string }>;
  /** 200 when ready to serve, else 503 with the reason. */
  ready(): Readiness | Promise<Readiness>;
  /** Prometheus text 0.0.4. */
  metrics(): string | Promise<string>;
  /** The version report of SPEC 2.7, as a JSON-serializable object. */
  version(): object | Promise<object>;
}

/**
 * A GET answered with a stream of bytes (an online backup). An error before the first chunk gets its
 * own status and JSON body; after it, the connection is cut, so the reader sees a truncated stream.
 */
export interface OpsStream {
  readonly content_type: string;
  open(signal: AbortSignal): AsyncIterable<Uint8Array>;
}

export interface OpsServerOptions {
  /** Default 127.0.0.1. */
  readonly host?: string;
  readonly port: number;
  readonly answers: OpsAnswers;
  /** Further GET paths answered with byte streams, e.g. "/backup". */
  readonly streams?: Readonly<Record<string, OpsStream>>;
  readonly log?: FaultLogger;
}

export interface OpsServerHandle {
  readonly port: number;
  stop(): Promise<void>;
}

const json_type = 'application/json; charset=utf-8';
const metrics_type = 'text/plain; version=0.0.4; charset=utf-8';

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

async function streamAnswer(res: ServerResponse, stream: OpsStream, log: FaultLogger): Promise<void> {
  const controller = new AbortController();
  res.on('close', () => controller.abort());
  let started = false;
  try {
    for await (const chunk of stream.open(controller.signal)) {
      if (!started) {
        res.writeHead(200, { 'content-type': stream.content_type, 'cache-control': 'no-store' });
        started = true;
      }
      if (!res.write(chunk)) await once(res, 'drain', { signal: controller.signal });
    }
    if (!started) res.writeHead(200, { 'content-type': stream.content_type, 'cache-control': 'no-store' });
    res.end();
  } catch (e) {
    const wire = toWireError(e, log);
    if (!started) send(res, wire.http_status, json_type, JSON.stringify(errorJson(wire)));
    else res.destroy();
  }
}

async function answer(req: IncomingMessage, res: ServerResponse, answers: OpsAnswers, log: FaultLogger, streams: Readonly<Record<string, OpsStream>> = {}): Promise<void> {
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    send(res, 405, json_type, JSON.stringify({ code: 'UNIMPLEMENTED', message: `${req.method ?? ''} is not served; use GET` }));
    return;
  }
  const stream = streams[path];
  if (stream !== undefined && req.method === 'GET') return streamAnswer(res, stream, log);
  try {
    switch (path) {
      case '/health':
        send(res, 200, json_type, JSON.stringify(await answers.health()));
        return;
      case '/ready': {
        const r = await answers.ready();
        send(res, r.ready ? 200 : 503, json_type, JSON.stringify(r));
        return;
      }
      case '/metrics':
        send(res, 200, metrics_type, await answers.metrics());
        return;
      case '/version':
        send(res, 200, json_type, JSON.stringify(await answers.version()));
        return;
      default: {
        const wire = toWireError(reasonError('ROUTE_NOT_FOUND', `no route GET ${path}`, { method: 'GET', path }), log);
        send(res, 404, json_type, JSON.stringify(errorJson(wire)));
      }
    }
  } catch (e) {
    const wire = toWireError(e, log);
    send(res, wire.http_status, json_type, JSON.stringify(errorJson(wire)));
  }
}

export async function startOpsServer(o: OpsServerOptions): Promise<OpsServerHandle> {
  const log = o.log ?? logFaultToStderr;
  const server = createServer((req, res) => void answer(req, res, o.answers, log, o.streams));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err === undefined ? resolve() : reject(err)));
        server.closeIdleConnections();
      }),
  };
}
