/**
 * The handler contract: how a service's methods are implemented once and served on gRPC and REST.
 *
 * A handler is keyed by the method's local name in the generated service descriptor
 * (`GraphService.method.getNode` -> `getNode`). Its shape follows the method kind:
 *
 *   unary             (req, ctx) => Promise<res | HeldReply<res>>
 *   server streaming  (req, ctx) => AsyncIterable<res>
 *   client streaming  (reqs: AsyncIterable<req>, ctx) => Promise<res>
 *   bidi streaming    (reqs: AsyncIterable<req>, ctx) => AsyncIterable<res>
 *
 * Requests arrive decoded (protobuf-es messages); a response may be a message or a plain init object
 * (`{ nodeId: 1n, labels: ['A'] }`), which the transport turns into a message. Expected failures are
 * thrown as WeftError; the error catalog answers them. A method without a handler answers UNIMPLEMENTED.
 */
import type { DescMessage, DescMethod, DescService, MessageInitShape, MessageShape } from '@bufbuild/protobuf';
import type { StatusCode } from '../common/errors.js';

export type Transport = 'grpc' | 'rest';

export interface CallContext {
  /** Aborted at the deadline (reason: a DEADLINE_EXCEEDED WeftError) or when the client cancels (CANCELLED). */
  readonly signal: AbortSignal;
  /** Absolute deadline in epoch milliseconds; absent when the caller set none. */
  readonly deadline_ms?: number;
  readonly transport: Transport;
  /** Request headers (REST) or metadata (gRPC), names lowercased, repeated values joined by ", ". */
  readonly headers: Readonly<Record<string, string>>;
  /** The gRPC path of the method, e.g. "/weft.v1.GraphService/GetNode", on both transports. */
  readonly method: string;
  /** The remote address as the transport reports it. */
  readonly peer: string;
  /**
   * Present when the transport answers a byte stream raw (REST `application/octet-stream`): a
   * server-streaming handler that knows its total payload size reports it before its first reply,
   * so the response carries Content-Length.
   */
  readonly announceSize?: (bytes: number) => void;
  /**
   * Present on gRPC: adds custom response metadata, sent in the response headers when called before
   * the first reply and in the trailers after it. A key ending in `-bin` carries bytes.
   */
  readonly sendMetadata?: (key: string, value: string | Uint8Array) => void;
}

/** One finished call, as both transports report it to an observer (e.g. for latency metrics). */
export interface CallRecord {
  readonly transport: Transport;
  /** The gRPC path, e.g. "/weft.v1.GraphService/GetNode". */
  readonly method: string;
  readonly code: StatusCode | 'OK';
  readonly duration_ms: number;
}

export type CallObserver = (call: CallRecord) => void;

export type Reply<O extends DescMessage> = MessageInitShape<O>;

/**
 * A unary reply that may be sent only once `settled` resolves (a write's concern): the transport
 * encodes it while the wait runs, then sends it; if `settled` rejects, the call fails with that
 * error instead. So the work of building a write's reply overlaps the write's fsync, not follows it.
 */
export class HeldReply<R = unknown> {
  constructor(
    readonly reply: R,
    readonly settled: Promise<unknown>,
  ) {}
}

export type UnaryHandler<I extends DescMessage, O extends DescMessage> = (
  req: MessageShape<I>,
  ctx: CallContext,
) => Promise<Reply<O> | HeldReply<Reply<O>>>;
export type ServerStreamingHandler<I extends DescMessage, O extends DescMessage> = (
  req: MessageShape<I>,
  ctx: CallContext,
) => AsyncIterable<Reply<O>>;
export type ClientStreamingHandler<I extends DescMessage, O extends DescMessage> = (
  reqs: AsyncIterable<MessageShape<I>>,
  ctx: CallContext,
) => Promise<Reply<O>>;
export type BidiStreamingHandler<I extends DescMessage, O extends DescMessage> = (
  reqs: AsyncIterable<MessageShape<I>>,
  ctx: CallContext,
) => AsyncIterable<Reply<O>>;

type MethodLike = Pick<DescMethod, 'methodKind' | 'input' | 'output'>;

/** The handler type of one method, chosen by its kind. */
export type MethodHandler<M extends MethodLike> = M extends {
  methodKind: 'unary';
  input: infer I extends DescMessage;
  output: infer O extends DescMessage;
}
  ? UnaryHandler<I, O>
  : M extends { methodKind: 'server_streaming'; input: infer I extends DescMessage; output: infer O extends DescMessage }
    ? ServerStreamingHandler<I, O>
    : M extends { methodKind: 'client_streaming'; input: infer I extends DescMessage; output: infer O extends DescMessage }
      ? ClientStreamingHandler<I, O>
      : M extends { methodKind: 'bidi_streaming'; input: infer I extends DescMessage; output: infer O extends DescMessage }
        ? BidiStreamingHandler<I, O>
        : never;

/** Handlers for some or all methods of a service, e.g. `ServiceHandlers<typeof GraphService>`. */
export type ServiceHandlers<S extends DescService> = {
  readonly [K in keyof S['method']]?: S['method'][K] extends MethodLike ? MethodHandler<S['method'][K]> : never;
};

/** A handler with its types erased, as the transports hold it. */
export type ErasedHandler = (input: unknown, ctx: CallContext) => unknown;

/** A service with its handlers, ready to be served; built by `implement`. */
export interface RegisteredService {
  readonly service: DescService;
  /** By method local name. */
  readonly handlers: ReadonlyMap<string, ErasedHandler>;
  /**
   * Local names of methods whose gRPC requests keep their large bytes field in the parts it
   * arrived in (request-parts.ts); their handlers read it with `bytesFieldParts`.
   */
  readonly parted_requests?: ReadonlySet<string> | undefined;
}

/** Binds handlers to a service. Type-checked against the descriptor; erased for the transports. */
export function implement<S extends DescService>(service: S, handlers: ServiceHandlers<S>): RegisteredService {
  const byName = new Map<string, ErasedHandler>();
  for (const method of service.methods) {
    const h: unknown = (handlers as Record<string, unknown>)[method.localName];
    // Bound, so a class instance's methods keep their `this`.
    if (typeof h === 'function') byName.set(method.localName, (h as ErasedHandler).bind(handlers));
  }
  return { service, handlers: byName };
}
