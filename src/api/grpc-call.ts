/**
 * One gRPC call on its HTTP/2 stream, from the request headers to the status: the call context
 * (deadline measured from the call's arrival, cancellation when the client resets the stream), the
 * request reader, the handler, and the response writer.
 */
import type { IncomingHttpHeaders, ServerHttp2Stream } from 'node:http2';
import { toBinary, type DescMethod } from '@bufbuild/protobuf';
import { WeftError, type StatusCode } from '../common/errors.js';
import { cancelledError, deadlineExceededError, openCall, parseGrpcTimeoutMs, type OpenCall } from './call-context.js';
import { toWireError, type FaultLogger } from './error-catalog.js';
import { messageEncodingOf, unsupportedEncoding } from './grpc-encoding.js';
import { errorTrailers, headerText, requestMetadata, trailersOnly } from './grpc-metadata.js';
import { RequestReader } from './grpc-request-reader.js';
import { ResponseWriter } from './grpc-response-writer.js';
import type { CallObserver, RegisteredService } from './handlers.js';
import { callClientStreaming, callStreaming, callUnary, findHandler, untilAborted } from './invoke.js';

/**
 * A client that reaches its deadline resets the stream (RST_STREAM CANCEL), and its clock started
 * before ours: the request's transit and our queueing come off its time, not ours. A reset this
 * close to our own deadline is therefore that deadline, and the handler is told DEADLINE_EXCEEDED.
 */
export const deadline_reset_slack_ms = 20;

export interface CallSettings {
  readonly log: FaultLogger;
  readonly observe?: CallObserver | undefined;
  /** Calls in flight, so stop() can end them with a status rather than cut them. */
  readonly active: Set<OpenCall>;
  readonly message_bytes_max: number;
}

/** Serves one call whose method was found. `peer` is the client's address. */
export function serveCall(
  stream: ServerHttp2Stream,
  headers: IncomingHttpHeaders,
  registered: RegisteredService,
  method: DescMethod,
  peer: string,
  o: CallSettings,
): void {
  const arrived_ms = Date.now();
  const started = performance.now();
  const encodingHeader = headerText(headers, 'grpc-encoding');
  const encoding = messageEncodingOf(encodingHeader);
  if (encoding === undefined) return refuse(stream, unsupportedEncoding(String(encodingHeader)), o);
  const timeoutHeader = headerText(headers, 'grpc-timeout');
  let deadline_ms: number | undefined;
  if (timeoutHeader !== undefined) {
    const timeout_ms = parseGrpcTimeoutMs(timeoutHeader);
    // The spec's answer to a malformed grpc-timeout is INTERNAL, as other servers give.
    if (timeout_ms === undefined) return refuse(stream, new WeftError('INTERNAL', `malformed grpc-timeout "${timeoutHeader}"`), o);
    deadline_ms = arrived_ms + timeout_ms;
  }
  const writer = new ResponseWriter(stream, o.message_bytes_max);
  const opened = openCall({
    transport: 'grpc',
    method: `/${method.parent.typeName}/${method.name}`,
    headers: requestMetadata(headers),
    peer,
    deadline_ms,
    sendMetadata: (key, value) => writer.addMetadata(key, value),
  });
  const reader = new RequestReader(stream, method, encoding, o.message_bytes_max, (e) => opened.cancel(e));
  stream.once('close', () => {
    if (opened.closed || writer.finished) return;
    const near_deadline = deadline_ms !== undefined && Date.now() >= deadline_ms - deadline_reset_slack_ms;
    opened.cancel(near_deadline ? deadlineExceededError() : cancelledError());
  });
  const ctx = opened.ctx;
  o.active.add(opened);
  run().then(
    () => finish('OK'),
    (e: unknown) => {
      const wire = toWireError(e, o.log);
      writer.end(errorTrailers(wire));
      finish(wire.code);
    },
  );

  async function run(): Promise<void> {
    switch (method.methodKind) {
      case 'unary': {
        const handler = findHandler(registered, method);
        const req = await untilAborted(reader.one(), ctx.signal);
        writer.endWith(toBinary(method.output, await callUnary(method, handler, req, ctx)));
        return;
      }
      case 'client_streaming': {
        const reply = await callClientStreaming(method, findHandler(registered, method), reader.all(), ctx);
        writer.endWith(toBinary(method.output, reply));
        return;
      }
      case 'server_streaming': {
        const handler = findHandler(registered, method);
        const req = await untilAborted(reader.one(), ctx.signal);
        for await (const reply of callStreaming(method, handler, req, ctx)) await writer.write(toBinary(method.output, reply), ctx.signal);
        writer.endOk();
        return;
      }
      case 'bidi_streaming': {
        for await (const reply of callStreaming(method, findHandler(registered, method), reader.all(), ctx)) {
          await writer.write(toBinary(method.output, reply), ctx.signal);
        }
        writer.endOk();
        return;
      }
    }
  }

  function finish(code: StatusCode | 'OK'): void {
    o.active.delete(opened);
    opened.close();
    reader.discard();
    o.observe?.({ transport: 'grpc', method: opened.ctx.method, code, duration_ms: performance.now() - started });
  }
}

/** A call refused before it starts: a trailers-only response, and the stream's data dropped. */
export function refuse(stream: ServerHttp2Stream, e: WeftError, o: Pick<CallSettings, 'log'>): void {
  stream.resume();
  if (stream.destroyed) return;
  stream.respond(trailersOnly(toWireError(e, o.log)), { endStream: true });
}
