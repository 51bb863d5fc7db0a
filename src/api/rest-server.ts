/**
 * The REST server (fastify): one generic transcoder serves every route the `google.api.http` options
 * declare. Unary and client-streaming methods answer one JSON document; server-streaming methods
 * answer newline-delimited JSON. Errors use the catalog's HTTP status and JSON body. docs/api.md
 * describes the behaviour for clients.
 */
import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import type { Message } from '@bufbuild/protobuf';
import { cancelledError, deadlineFromHeaders, drain, openCall, type OpenCall } from './call-context.js';
import { errorJson, logFaultToStderr, reasonError, toWireError, type FaultLogger, type WireError } from './error-catalog.js';
import { WeftError, type StatusCode } from '../common/errors.js';
import type { CallObserver, ErasedHandler, RegisteredService } from './handlers.js';
import { ndjsonLines, readBody } from './http-body.js';
import { callClientStreaming, callStreaming, callUnary, findHandler, untilAborted } from './invoke.js';
import { restRoutes, type RestRoute } from './rest-routes.js';
import { byteChunkShape, namesOctetStream, rawBodyMessages, writeRawReplies } from './rest-bytes.js';
import { openApiDocument, openapi_path } from './openapi.js';
import { decodeJson, parseJson, requestJson, responseJson, type QueryParams } from './rest-transcode.js';

/** Largest JSON request body of a unary or server-streaming call. */
export const rest_body_bytes_max_default = 16 * 1024 * 1024;
/** Largest line of a newline-delimited request body (one message of a client stream). */
export const rest_stream_line_bytes_max_default = 4 * 1024 * 1024;
/**
 * How long a streaming response waits for its first message before sending the 200 headers anyway.
 * Until then an error still gets its own HTTP status; after, it arrives as the stream's last line.
 */
export const rest_stream_header_wait_ms_default = 250;

export interface RestServerOptions {
  /** Default 127.0.0.1. */
  readonly host?: string;
  /** 0 picks a free port; the handle reports it. */
  readonly port: number;
  readonly services: readonly RegisteredService[];
  readonly body_bytes_max?: number;
  readonly stream_line_bytes_max?: number;
  readonly stream_header_wait_ms?: number;
  readonly log?: FaultLogger;
  /** Told about every routed call when it ends (for metrics). */
  readonly observe?: CallObserver;
  /** Fixed documents served by GET at their paths (the web console), besides the API routes. */
  readonly pages?: Readonly<Record<string, StaticPage>>;
}

export interface StaticPage {
  readonly content_type: string;
  readonly body: Buffer;
}

export interface RestServerHandle {
  readonly port: number;
  readonly routes: readonly RestRoute[];
  /** Refuses new calls, lets calls in flight finish for up to `drain_ms`, then ends the rest. */
  stop(drain_ms?: number): Promise<void>;
}

const json_type = 'application/json; charset=utf-8';
const ndjson_type = 'application/x-ndjson; charset=utf-8';

function headersOf(request: FastifyRequest): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(request.headers)) {
    if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  }
  return headers;
}

function sendError(reply: FastifyReply, wire: WireError): FastifyReply {
  // An oversized body may be only partly read; closing the connection discards the rest.
  if (wire.reason === 'MESSAGE_TOO_LARGE') reply.header('connection', 'close');
  return reply.code(wire.http_status).header('content-type', json_type).send(JSON.stringify(errorJson(wire)));
}

export async function startRestServer(o: RestServerOptions): Promise<RestServerHandle> {
  const log = o.log ?? logFaultToStderr;
  const limits: Limits = {
    body_bytes_max: o.body_bytes_max ?? rest_body_bytes_max_default,
    line_bytes_max: o.stream_line_bytes_max ?? rest_stream_line_bytes_max_default,
    header_wait_ms: o.stream_header_wait_ms ?? rest_stream_header_wait_ms_default,
    ...(o.observe !== undefined ? { observe: o.observe } : {}),
    active: new Set(),
  };
  const byService = new Map(o.services.map((r) => [r.service.typeName, r]));
  const routes = restRoutes(o.services.map((r) => r.service));
  // No automatic HEAD routes: a HEAD of a streaming GET would run the stream for nothing.
  const app = Fastify({ logger: false, exposeHeadRoutes: false });
  // Bodies are read by the transcoder itself, with its own bounds and error answers.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
  app.setNotFoundHandler((request, reply) =>
    sendError(
      reply,
      toWireError(
        reasonError('ROUTE_NOT_FOUND', `no route ${request.method} ${request.url.split('?')[0] ?? ''}`, {
          method: request.method,
          path: request.url.split('?')[0] ?? '',
        }),
        log,
      ),
    ),
  );
  app.setErrorHandler((error: { statusCode?: number; message?: string }, _request, reply) => {
    // Errors fastify raises before a handler runs (bad URL encoding, a malformed header).
    const status = error.statusCode ?? 500;
    const wire =
      status >= 400 && status < 500
        ? toWireError(reasonError('MALFORMED_REQUEST', error.message ?? 'malformed request', { detail: error.message ?? '' }), log)
        : toWireError(error, log);
    return sendError(reply, wire);
  });
  for (const route of routes) {
    const registered = byService.get(route.method.parent.typeName);
    if (registered === undefined) continue;
    app.route({
      method: route.http_method,
      url: route.fastify_path,
      handler: (request, reply) => serve(registered, route, request, reply, limits, log),
    });
  }
  // The document describes exactly the routes registered above (docs/openapi.md).
  const openapi = JSON.stringify(openApiDocument(routes.filter((r) => byService.has(r.method.parent.typeName))));
  app.get(openapi_path, (_request, reply) => reply.code(200).header('content-type', json_type).send(openapi));
  for (const [path, page] of Object.entries(o.pages ?? {})) {
    app.get(path, (_request, reply) => reply.code(200).header('content-type', page.content_type).header('cache-control', 'no-cache').send(page.body));
  }
  await app.listen({ host: o.host ?? '127.0.0.1', port: o.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : o.port;
  return {
    port,
    routes,
    async stop(drain_ms = 0) {
      // New connections are refused at once; calls in flight get up to drain_ms to finish, then end
      // with UNAVAILABLE (streams get it as their last line).
      const closed = app.close();
      await drain(limits.active, drain_ms);
      for (const call of limits.active) call.cancel(new WeftError('UNAVAILABLE', 'the server is stopping'));
      // A client that stopped reading a stream may keep its connection open indefinitely; give the
      // streams a moment to write their last line, then close every connection still open.
      await drain(limits.active, 500);
      app.server.closeAllConnections();
      await closed;
    },
  };
}

interface Limits {
  readonly body_bytes_max: number;
  readonly line_bytes_max: number;
  readonly header_wait_ms: number;
  readonly observe?: CallObserver;
  /** Calls in flight, so stop() can end them (a change feed never ends by itself). */
  readonly active: Set<OpenCall>;
}

async function serve(
  registered: RegisteredService,
  route: RestRoute,
  request: FastifyRequest,
  reply: FastifyReply,
  limits: Limits,
  log: FaultLogger,
): Promise<FastifyReply | undefined> {
  const started = performance.now();
  const outcome: Outcome = { code: 'OK' };
  try {
    return await serveCall(registered, route, request, reply, limits, log, outcome);
  } finally {
    limits.observe?.({
      transport: 'rest',
      method: `/${route.method.parent.typeName}/${route.method.name}`,
      code: outcome.code,
      duration_ms: performance.now() - started,
    });
  }
}

/** How a call ended, filled in as it ends. */
interface Outcome {
  code: StatusCode | 'OK';
}

async function serveCall(
  registered: RegisteredService,
  route: RestRoute,
  request: FastifyRequest,
  reply: FastifyReply,
  limits: Limits,
  log: FaultLogger,
  outcome: Outcome,
): Promise<FastifyReply | undefined> {
  const method = route.method;
  let opened: OpenCall | undefined;
  try {
    const headers = headersOf(request);
    // Byte-chunk methods also take and give raw bytes (rest-bytes.ts); otherwise JSON as usual.
    const rawIn = method.methodKind === 'client_streaming' && namesOctetStream(headers['content-type']) ? byteChunkShape(method.input) : undefined;
    const rawOut = method.methodKind === 'server_streaming' && namesOctetStream(headers['accept']) ? byteChunkShape(method.output) : undefined;
    let announced: number | undefined;
    opened = openCall({
      transport: 'rest',
      method: `/${method.parent.typeName}/${method.name}`,
      headers,
      peer: request.ip,
      deadline_ms: deadlineFromHeaders(headers, Date.now()),
      ...(rawOut !== undefined ? { announceSize: (bytes: number) => (announced = bytes) } : {}),
    });
    const call = opened;
    limits.active.add(call);
    reply.raw.on('close', () => {
      if (!reply.raw.writableFinished) call.cancel(cancelledError());
    });
    const handler = findHandler(registered, method);
    const params = request.params as Record<string, string>;
    const query = request.query as QueryParams;
    switch (method.methodKind) {
      case 'unary': {
        const req = await readRequest(route, request, params, query, limits);
        const body = await callUnary(method, handler, req, call, (res) => JSON.stringify(responseJson(route, res)));
        return reply.code(200).header('content-type', json_type).send(body);
      }
      case 'client_streaming': {
        const reqs = rawIn !== undefined ? rawBodyMessages(method.input, rawIn, request.raw) : readRequestLines(route, request, params, limits);
        const res = await callClientStreaming(method, handler, reqs, call.ctx);
        return reply.code(200).header('content-type', json_type).send(JSON.stringify(responseJson(route, res)));
      }
      case 'server_streaming': {
        const req = await readRequest(route, request, params, query, limits);
        if (rawOut !== undefined) {
          const replies = callStreaming(method, handler, req, call.ctx)[Symbol.asyncIterator]();
          await writeRawReplies(replies, rawOut, reply.raw, call, () => announced, () => reply.hijack());
          return undefined;
        }
        return await streamReplies(route, handler, req, reply, call, limits, log, outcome);
      }
      case 'bidi_streaming':
        return await streamReplies(route, handler, readRequestLines(route, request, params, limits), reply, call, limits, log, outcome);
    }
  } catch (e) {
    const wire = toWireError(e, log);
    outcome.code = wire.code;
    return sendError(reply, wire);
  } finally {
    if (opened !== undefined) limits.active.delete(opened);
    opened?.close();
  }
}

async function readRequest(route: RestRoute, request: FastifyRequest, params: Record<string, string>, query: QueryParams, limits: Limits): Promise<Message> {
  let body = undefined;
  if (route.body !== '') {
    const text = await readBody(request.raw, request.headers['content-length'], limits.body_bytes_max);
    // An empty body is the empty message: `POST /v1/query/transaction/begin` needs no `{}`.
    if (text.trim() !== '') body = parseJson(text, 'the request body');
  }
  return decodeJson(route.method.input, requestJson(route, params, query, body));
}

async function* readRequestLines(route: RestRoute, request: FastifyRequest, params: Record<string, string>, limits: Limits): AsyncGenerator<Message, void, undefined> {
  let n = 0;
  for await (const line of ndjsonLines(request.raw, limits.line_bytes_max)) {
    const json = parseJson(line, `line ${++n} of the request body`);
    yield decodeJson(route.method.input, requestJson(route, params, {}, json));
  }
}

type First = { kind: 'next'; result: IteratorResult<Message, void> } | { kind: 'error'; error: unknown } | { kind: 'waited' };

async function firstWithin(next: Promise<IteratorResult<Message, void>>, wait_ms: number): Promise<First> {
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<First>((resolve) => (timer = setTimeout(() => resolve({ kind: 'waited' }), wait_ms)));
  try {
    return await Promise.race([
      next.then(
        (result): First => ({ kind: 'next', result }),
        (error: unknown): First => ({ kind: 'error', error }),
      ),
      waited,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

async function streamReplies(
  route: RestRoute,
  handler: ErasedHandler,
  input: Message | AsyncIterable<Message>,
  reply: FastifyReply,
  call: OpenCall,
  limits: Limits,
  log: FaultLogger,
  outcome: Outcome,
): Promise<FastifyReply | undefined> {
  const replies = callStreaming(route.method, handler, input, call.ctx)[Symbol.asyncIterator]();
  let next = replies.next();
  next.catch(() => {});
  const first = await firstWithin(next, limits.header_wait_ms);
  if (first.kind === 'error') throw first.error;
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, { 'content-type': ndjson_type, 'cache-control': 'no-store' });
  res.flushHeaders();
  try {
    let result = first.kind === 'next' ? first.result : await next;
    while (result.done !== true) {
      await writeLine(res, JSON.stringify(responseJson(route, result.value)), call);
      next = replies.next();
      result = await next;
    }
  } catch (e) {
    const wire = toWireError(e, log);
    outcome.code = wire.code;
    if (!res.destroyed) await writeLine(res, JSON.stringify({ error: errorJson(wire) }), call).catch(() => {});
  } finally {
    void replies.return().catch(() => {});
    res.end();
  }
  return undefined;
}

async function writeLine(res: ServerResponse, line: string, call: OpenCall): Promise<void> {
  if (!res.write(line + '\n')) await untilAborted(once(res, 'drain'), call.ctx.signal);
}

