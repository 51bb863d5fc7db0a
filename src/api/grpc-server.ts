/**
 * The gRPC server, built generically from service descriptors. grpc-js moves raw bytes (identity
 * serializers); this adapter decodes and encodes with protobuf-es so that a malformed frame is the
 * client's INVALID_ARGUMENT, not our INTERNAL. Health checking and reflection are always served.
 */
import { once } from 'node:events';
import type { Readable } from 'node:stream';
import * as grpc from '@grpc/grpc-js';
import { fromBinary, toBinary, type DescMethod, type Message } from '@bufbuild/protobuf';
import { WeftError, type StatusCode } from '../common/errors.js';
import { cancelledError, deadlineExceededError, drain, openCall, type OpenCall } from './call-context.js';
import { reasonError, statusDetails, toWireError, type FaultLogger, logFaultToStderr, type WireError } from './error-catalog.js';
import { healthService, HealthBoard, ServingStatus } from './grpc-health.js';
import { reflectionServices } from './grpc-reflection.js';
import type { CallObserver, ErasedHandler, RegisteredService } from './handlers.js';
import { callClientStreaming, callStreaming, callUnary, findHandler, untilAborted } from './invoke.js';
import { asBuffer } from './wire-bytes.js';

/** Default bound on one message either way; grpc-js refuses a larger request with RESOURCE_EXHAUSTED. */
export const grpc_message_bytes_max_default = 16 * 1024 * 1024;
/** How long stop() lets calls in flight finish before cutting them. */
export const grpc_shutdown_grace_ms_default = 5_000;

export interface GrpcServerOptions {
  /** Default 127.0.0.1. */
  readonly host?: string;
  /** 0 picks a free port; the handle reports it. */
  readonly port: number;
  readonly services: readonly RegisteredService[];
  readonly message_bytes_max?: number;
  readonly shutdown_grace_ms?: number;
  /** The health board to serve; one reporting SERVING is made when absent. */
  readonly health?: HealthBoard;
  readonly log?: FaultLogger;
  /** Told about every call when it ends (for metrics). */
  readonly observe?: CallObserver;
}

interface Settings {
  readonly log: FaultLogger;
  readonly observe?: CallObserver;
  /** Calls in flight, so stop() can end them with a status rather than cut them. */
  readonly active: Set<OpenCall>;
}

export interface GrpcServerHandle {
  readonly port: number;
  readonly health: HealthBoard;
  /**
   * Marks every service NOT_SERVING and refuses new calls, lets calls in flight finish for up to
   * `drain_ms`, ends the rest with UNAVAILABLE, and closes after the grace period.
   */
  stop(drain_ms?: number): Promise<void>;
}

const identity = (b: Buffer): Buffer => b;

export async function startGrpcServer(o: GrpcServerOptions): Promise<GrpcServerHandle> {
  const host = o.host ?? '127.0.0.1';
  const message_bytes_max = o.message_bytes_max ?? grpc_message_bytes_max_default;
  const settings: Settings = {
    log: o.log ?? logFaultToStderr,
    ...(o.observe !== undefined ? { observe: o.observe } : {}),
    active: new Set(),
  };
  const health = o.health ?? new HealthBoard();
  const server = new grpc.Server({
    'grpc.max_receive_message_length': message_bytes_max,
    'grpc.max_send_message_length': message_bytes_max,
  });
  // Each served service starts SERVING unless the server already set it, so a probe of one
  // service by name gets an answer rather than NOT_FOUND.
  for (const r of o.services) if (health.get(r.service.typeName) === undefined) health.set(r.service.typeName, ServingStatus.SERVING);
  const served = [...o.services, healthService(health)];
  const all = [...served, ...reflectionServices(served.map((r) => r.service))];
  const names = new Set<string>();
  for (const registered of all) {
    const typeName = registered.service.typeName;
    if (names.has(typeName)) throw new Error(`service ${typeName} registered twice`);
    names.add(typeName);
    const definition: Record<string, grpc.MethodDefinition<Buffer, Buffer>> = {};
    const implementation: grpc.UntypedServiceImplementation = {};
    for (const method of registered.service.methods) {
      definition[method.name] = {
        path: `/${typeName}/${method.name}`,
        requestStream: method.methodKind === 'client_streaming' || method.methodKind === 'bidi_streaming',
        responseStream: method.methodKind === 'server_streaming' || method.methodKind === 'bidi_streaming',
        requestSerialize: identity,
        requestDeserialize: identity,
        responseSerialize: identity,
        responseDeserialize: identity,
        originalName: method.localName,
      };
      implementation[method.name] = adapt(registered, method, settings);
    }
    server.addService(definition, implementation);
  }
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`${host}:${o.port}`, grpc.ServerCredentials.createInsecure(), (err, bound) =>
      err === null ? resolve(bound) : reject(err),
    ),
  );
  const grace_ms = o.shutdown_grace_ms ?? grpc_shutdown_grace_ms_default;
  let stopped: Promise<void> | undefined;
  return {
    port,
    health,
    stop(drain_ms = 0) {
      stopped ??= new Promise<void>((resolve) => {
        health.stopServing();
        // New calls are refused from here; calls in flight get up to drain_ms to finish on their own.
        let cut: NodeJS.Timeout | undefined;
        server.tryShutdown(() => {
          clearTimeout(cut);
          resolve();
        });
        void drain(settings.active, drain_ms).then(() => {
          for (const call of settings.active) call.cancel(new WeftError('UNAVAILABLE', 'the server is stopping'));
          cut = setTimeout(() => server.forceShutdown(), grace_ms);
        });
      });
      return stopped;
    },
  };
}

/** A request decoded, or INVALID_ARGUMENT saying why it could not be. */
export function decodeRequest(method: DescMethod, bytes: Uint8Array): Message {
  try {
    return fromBinary(method.input, bytes);
  } catch (e) {
    const detail = e instanceof Error ? e.message : String(e);
    throw reasonError('MALFORMED_REQUEST', `request is not a valid ${method.input.typeName}: ${detail}`, { detail });
  }
}

function headersOf(metadata: grpc.Metadata): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [key, values] of Object.entries(metadata.toJSON())) {
    const text = values.filter((v): v is string => typeof v === 'string');
    if (text.length > 0) headers[key.toLowerCase()] = text.join(', ');
  }
  return headers;
}

type AnyCall =
  | grpc.ServerUnaryCall<Buffer, Buffer>
  | grpc.ServerReadableStream<Buffer, Buffer>
  | grpc.ServerWritableStream<Buffer, Buffer>
  | grpc.ServerDuplexStream<Buffer, Buffer>;

function openFor(call: AnyCall, method: DescMethod): OpenCall {
  const d = call.getDeadline();
  const at = d instanceof Date ? d.getTime() : d;
  const deadline_ms = Number.isFinite(at) ? at : undefined;
  const opened = openCall({
    transport: 'grpc',
    method: `/${method.parent.typeName}/${method.name}`,
    headers: headersOf(call.metadata),
    peer: call.getPeer(),
    deadline_ms,
  });
  // grpc-js reports 'cancelled' for calls that already ended too (the client closing its stream
  // after the answer): no error is made for those, which cost a stack trace per call.
  (call as NodeJS.EventEmitter).on('cancelled', () => {
    if (!opened.closed) opened.cancel(deadline_ms !== undefined && Date.now() >= deadline_ms ? deadlineExceededError() : cancelledError());
  });
  return opened;
}

async function* decodeStream(method: DescMethod, stream: Readable): AsyncGenerator<Message, void, undefined> {
  // The handler may stop reading early; that must not destroy the call's stream under grpc-js.
  for await (const chunk of stream.iterator({ destroyOnReturn: false })) {
    yield decodeRequest(method, chunk as Buffer);
  }
}

async function writeAll(
  call: grpc.ServerWritableStream<Buffer, Buffer> | grpc.ServerDuplexStream<Buffer, Buffer>,
  method: DescMethod,
  replies: AsyncIterable<Message>,
  opened: OpenCall,
): Promise<void> {
  for await (const reply of replies) {
    if (!call.write(asBuffer(toBinary(method.output, reply)))) {
      await untilAborted(once(call, 'drain'), opened.ctx.signal);
    }
  }
}

/** Runs one call's body and settles it: answer, close the call context, report to the observer. */
function settle(
  opened: OpenCall,
  o: Settings,
  body: () => Promise<void>,
  fail: (wire: WireError) => void,
): void {
  const started = performance.now();
  o.active.add(opened);
  body().then(
    () => finish('OK'),
    (e: unknown) => {
      const wire = toWireError(e, o.log);
      fail(wire);
      finish(wire.code);
    },
  );
  function finish(code: StatusCode | 'OK'): void {
    o.active.delete(opened);
    opened.close();
    o.observe?.({ transport: 'grpc', method: opened.ctx.method, code, duration_ms: performance.now() - started });
  }
  }

function statusOf(wire: WireError): grpc.StatusObject {
  const metadata = new grpc.Metadata();
  metadata.set('grpc-status-details-bin', Buffer.from(statusDetails(wire)));
  return { code: wire.grpc_code, details: wire.message, metadata };
}

function adapt(registered: RegisteredService, method: DescMethod, o: Settings): grpc.UntypedHandleCall {
  const handlerOrThrow = (): ErasedHandler => findHandler(registered, method);
  switch (method.methodKind) {
    case 'unary':
      return (call: grpc.ServerUnaryCall<Buffer, Buffer>, callback: grpc.sendUnaryData<Buffer>) => {
        const opened = openFor(call, method);
        settle(opened, o, async () => {
          const req = decodeRequest(method, call.request);
          const reply = await callUnary(method, handlerOrThrow(), req, opened.ctx);
          callback(null, asBuffer(toBinary(method.output, reply)));
        }, (wire) => callback(statusOf(wire)));
      };
    case 'client_streaming':
      return (call: grpc.ServerReadableStream<Buffer, Buffer>, callback: grpc.sendUnaryData<Buffer>) => {
        const opened = openFor(call, method);
        settle(opened, o, async () => {
          const reply = await callClientStreaming(method, handlerOrThrow(), decodeStream(method, call), opened.ctx);
          callback(null, asBuffer(toBinary(method.output, reply)));
        }, (wire) => callback(statusOf(wire)));
      };
    case 'server_streaming':
      return (call: grpc.ServerWritableStream<Buffer, Buffer>) => {
        const opened = openFor(call, method);
        settle(opened, o, async () => {
          const req = decodeRequest(method, call.request);
          await writeAll(call, method, callStreaming(method, handlerOrThrow(), req, opened.ctx), opened);
          call.end();
        }, (wire) => endWithError(call, wire));
      };
    case 'bidi_streaming':
      return (call: grpc.ServerDuplexStream<Buffer, Buffer>) => {
        const opened = openFor(call, method);
        settle(opened, o, async () => {
          await writeAll(call, method, callStreaming(method, handlerOrThrow(), decodeStream(method, call), opened.ctx), opened);
          call.end();
        }, (wire) => endWithError(call, wire));
      };
  }
}

function endWithError(call: grpc.ServerWritableStream<Buffer, Buffer> | grpc.ServerDuplexStream<Buffer, Buffer>, wire: WireError): void {
  // A cancelled call has no one to tell; grpc-js already closed it.
  if (call.cancelled && wire.code === 'CANCELLED') return;
  call.emit('error', Object.assign(new Error('call failed'), statusOf(wire)));
}
