/**
 * One gRPC call on its HTTP/2 stream, from the request headers to the status: the call context
 * (deadline measured from the call's arrival, cancellation when the client resets the stream), the
 * request reader, the handler, and the response writer.
 *
 * A class rather than closures: a unary call is the hot path of the port, and per-call closures
 * and listeners are a measurable part of its cost.
 */
import type { IncomingHttpHeaders } from 'node:http2';
import { toBinary, type DescMethod } from '@bufbuild/protobuf';
import { WeftError, type StatusCode } from '../common/errors.js';
import { cancelledError, deadlineExceededError, openCall, parseGrpcTimeoutMs, type OpenCall } from './call-context.js';
import { toWireError, type FaultLogger } from './error-catalog.js';
import type { CallStream, CallStreamEvents } from './grpc-call-stream.js';
import { messageEncodingOf, unsupportedEncoding, type MessageEncoding } from './grpc-encoding.js';
import { errorTrailers, headerText, requestMetadata, trailersOnly } from './grpc-metadata.js';
import { RequestReader } from './grpc-request-reader.js';
import { encodeMessageParts } from '../common/grpc/message-parts.js';
import { ResponseWriter } from './grpc-response-writer.js';
import { HeldReply, type CallObserver, type RegisteredService } from './handlers.js';
import { callClientStreaming, callStreaming, findHandler, toOutputMessage } from './invoke.js';

/**
 * A client that reaches its deadline resets the stream (RST_STREAM CANCEL), and its clock started
 * before ours: the request's transit and our queueing come off its time, not ours. A reset this
 * close to our own deadline is therefore that deadline, and the handler is told DEADLINE_EXCEEDED.
 */
export const deadline_reset_slack_ms = 20;

/** A call in flight, as the server holds it to end it when stopping. */
export interface ActiveCall {
  cancel(reason: WeftError): void;
}

export interface CallSettings {
  readonly log: FaultLogger;
  readonly observe?: CallObserver | undefined;
  /** Calls in flight, so stop() can end them with a status rather than cut them. */
  readonly active: Set<ActiveCall>;
  readonly message_bytes_max: number;
}

/** Serves one call whose method was found. `peer` is the client's address. */
export function serveCall(
  stream: CallStream,
  headers: IncomingHttpHeaders,
  registered: RegisteredService,
  method: DescMethod,
  peer: string,
  o: CallSettings,
): void {
  const arrived_ms = Date.now();
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
  new GrpcCall(stream, headers, registered, method, peer, o, encoding, deadline_ms).start();
}

class GrpcCall implements ActiveCall, CallStreamEvents {
  private readonly started = performance.now();
  private readonly opened: OpenCall;
  private readonly reader: RequestReader;
  private readonly writer: ResponseWriter;
  /** Rejects the call's outcome; set by start(). */
  private abandon: (reason: WeftError) => void = ignore;

  constructor(
    stream: CallStream,
    headers: IncomingHttpHeaders,
    private readonly registered: RegisteredService,
    private readonly method: DescMethod,
    peer: string,
    private readonly o: CallSettings,
    encoding: MessageEncoding,
    private readonly deadline_ms: number | undefined,
  ) {
    const writer = new ResponseWriter(stream, o.message_bytes_max);
    this.writer = writer;
    this.opened = openCall({
      transport: 'grpc',
      method: `/${method.parent.typeName}/${method.name}`,
      headers: () => requestMetadata(headers),
      peer,
      deadline_ms,
      sendMetadata: (key, value) => writer.addMetadata(key, value),
    });
    this.reader = new RequestReader(stream, method, encoding, o.message_bytes_max, this, registered.parted_requests?.has(method.localName) === true);
    // Only the deadline timer aborts the signal without going through cancel(); a reader waiting
    // for the request must hear of it too.
    if (deadline_ms !== undefined) this.opened.ctx.signal.addEventListener('abort', this, { once: true });
    stream.listen(this);
  }

  onData(chunk: Buffer): void {
    this.reader.onData(chunk);
  }

  onEnd(): void {
    this.reader.onEnd();
  }

  start(): void {
    this.o.active.add(this);
    // cancel() rejects this at once, so a handler that ignores its signal cannot hold the call open.
    new Promise<void>((resolve, reject) => {
      this.abandon = reject;
      // A deadline already past aborted the signal inside openCall, before anyone listened.
      if (this.opened.aborted) this.handleEvent();
      else this.run().then(resolve, reject);
    }).then(
      // On the tick after the reply: its frames leave on the next tick (FrameWriter), and nothing
      // here (metrics, the active set) needs to come before them.
      () => process.nextTick(finishCall, this, 'OK'),
      (e: unknown) => {
        const wire = toWireError(e, this.o.log);
        this.writer.end(errorTrailers(wire));
        process.nextTick(finishCall, this, wire.code);
      },
    );
  }

  /** Ends the call's handler with `reason` (a reader failure, the client's reset, the server stopping). */
  cancel(reason: WeftError): void {
    this.opened.cancel(reason);
    this.reader.abort(reason);
    this.abandon(reason);
  }

  /** The signal's 'abort' listener (an EventListener object, so no closure per call). */
  handleEvent(): void {
    const reason: unknown = this.opened.ctx.signal.reason;
    this.cancel(reason instanceof WeftError ? reason : deadlineExceededError());
  }

  /** The stream closed: a call still running was cancelled by the client (or lost its connection). */
  onClose(): void {
    if (this.opened.closed || this.writer.finished) return;
    const near_deadline = this.deadline_ms !== undefined && Date.now() >= this.deadline_ms - deadline_reset_slack_ms;
    this.cancel(near_deadline ? deadlineExceededError() : cancelledError());
  }

  private async run(): Promise<void> {
    const { method, registered, reader, writer } = this;
    const ctx = this.opened.ctx;
    switch (method.methodKind) {
      case 'unary': {
        const handler = findHandler(registered, method);
        const req = await reader.one();
        const reply = await handler(req, ctx);
        if (!(reply instanceof HeldReply)) {
          writer.endWith(toBinary(method.output, toOutputMessage(method.output, reply)));
          return;
        }
        // Encoded while the write's fsync runs; sent once its concern holds.
        const encoded = toBinary(method.output, toOutputMessage(method.output, reply.reply));
        await reply.settled;
        writer.endWith(encoded);
        return;
      }
      case 'client_streaming': {
        const reply = await callClientStreaming(method, findHandler(registered, method), reader.all(), ctx);
        writer.endWith(toBinary(method.output, reply));
        return;
      }
      case 'server_streaming': {
        const handler = findHandler(registered, method);
        const req = await reader.one();
        // Encoded as parts: a large bytes field (a blob chunk) goes out from its own buffer.
        for await (const reply of callStreaming(method, handler, req, ctx)) await writer.writeParts(encodeMessageParts(method.output, reply), ctx.signal);
        writer.endOk();
        return;
      }
      case 'bidi_streaming': {
        for await (const reply of callStreaming(method, findHandler(registered, method), reader.all(), ctx)) {
          await writer.writeParts(encodeMessageParts(method.output, reply), ctx.signal);
        }
        writer.endOk();
        return;
      }
    }
  }

  /** The call's bookkeeping once its status is on its way: the active set, the timer, metrics. */
  finish(code: StatusCode | 'OK'): void {
    const { opened, o } = this;
    o.active.delete(this);
    opened.close();
    this.reader.discard();
    if (this.deadline_ms !== undefined) opened.ctx.signal.removeEventListener('abort', this);
    o.observe?.({ transport: 'grpc', method: opened.ctx.method, code, duration_ms: performance.now() - this.started });
  }
}

function ignore(): void {}

function finishCall(call: GrpcCall, code: StatusCode | 'OK'): void {
  call.finish(code);
}

/** A call refused before it starts: a trailers-only response, and the stream's data dropped. */
export function refuse(stream: CallStream, e: WeftError, o: Pick<CallSettings, 'log'>): void {
  if (stream.destroyed) return;
  stream.respond(trailersOnly(toWireError(e, o.log)), true);
}
