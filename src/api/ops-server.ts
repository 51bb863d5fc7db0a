/**
 * The operational HTTP port (SPEC 4.6): GET /health, /ready, /metrics and /version. The server
 * supplies the function behind each answer; this file only speaks HTTP. Plain node:http keeps the
 * probes independent of the REST stack, so they still answer when that one is wedged.
 */
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

export interface OpsServerOptions {
  /** Default 127.0.0.1. */
  readonly host?: string;
  readonly port: number;
  readonly answers: OpsAnswers;
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

async function answer(req: IncomingMessage, res: ServerResponse, answers: OpsAnswers, log: FaultLogger): Promise<void> {
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    send(res, 405, json_type, JSON.stringify({ code: 'UNIMPLEMENTED', message: `${req.method ?? ''} is not served; use GET` }));
    return;
  }
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
  const server = createServer((req, res) => void answer(req, res, o.answers, log));
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
