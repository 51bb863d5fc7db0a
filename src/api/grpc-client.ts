/**
 * A small typed gRPC client over a generated service descriptor, for tests, benchmarks and the CLI.
 * Unary methods return promises, server streams async iterables, client streams take an iterable.
 * A failed call rejects with the WeftError the server sent (status code plus ErrorInfo).
 * Leaving a stream's loop early cancels its call.
 */
import * as grpc from '@grpc/grpc-js';
import type { DescMessage, DescService, MessageInitShape, MessageShape } from '@bufbuild/protobuf';
import type { WeftError } from '../common/errors.js';
import { GrpcChannel } from '../common/grpc/channel.js';
import type { ClientHttp2Engine } from '../common/grpc/client-stream.js';
import type { ClientTls } from '../common/grpc/client-tls.js';
import { callBidiStreaming, callClientStreaming, callServerStreaming, callUnary, type Requests } from '../common/grpc/methods.js';
import type { CallStatus } from '../common/grpc/status.js';
import { errorFromStatus } from './error-catalog.js';

export interface ClientCallOptions {
  /** Relative deadline; sent as grpc-timeout. */
  readonly timeout_ms?: number;
  readonly signal?: AbortSignal;
  /** Extra request metadata. */
  readonly metadata?: Readonly<Record<string, string>>;
}

type ClientMethod<M> = M extends { methodKind: 'unary'; input: infer I extends DescMessage; output: infer O extends DescMessage }
  ? (req: MessageInitShape<I>, options?: ClientCallOptions) => Promise<MessageShape<O>>
  : M extends { methodKind: 'server_streaming'; input: infer I extends DescMessage; output: infer O extends DescMessage }
    ? (req: MessageInitShape<I>, options?: ClientCallOptions) => AsyncIterable<MessageShape<O>>
    : M extends { methodKind: 'client_streaming'; input: infer I extends DescMessage; output: infer O extends DescMessage }
      ? (reqs: Requests<I>, options?: ClientCallOptions) => Promise<MessageShape<O>>
      : M extends { methodKind: 'bidi_streaming'; input: infer I extends DescMessage; output: infer O extends DescMessage }
        ? (reqs: Requests<I>, options?: ClientCallOptions) => AsyncIterable<MessageShape<O>>
        : never;

export type GrpcClient<S extends DescService> = { readonly [K in keyof S['method']]: ClientMethod<S['method'][K]> } & {
  /** Closes the channel. */
  close(): void;
};

export interface GrpcClientOptions {
  readonly message_bytes_max?: number;
  /** Weft's own HTTP/2 engine or node:http2; absent: WEFT_GRPC_CLIENT_HTTP2_ENGINE, else Weft's. */
  readonly http2_engine?: ClientHttp2Engine;
  /** TLS to the server (ChannelOptions.tls): its CA, and a certificate of the client's own if asked for. */
  readonly tls?: ClientTls;
}

/**
 * Reconnection backoff after a failed connect. Short: tests and benchmarks restart servers and
 * expect the client to find them again soon after.
 */
const reconnect_backoff_ms_initial = 100;
const reconnect_backoff_ms_max = 2000;

/** The server's status as the WeftError it stands for, with the catalog's reason from ErrorInfo. */
function errorOf(status: CallStatus): WeftError {
  return errorFromStatus(status.code, status.message, status.details_bin);
}

/**
 * A typed client over Weft's own gRPC client (src/common/grpc): one connection,
 * reconnected when the server restarts or drops it.
 */
export function createGrpcClient<S extends DescService>(service: S, address: string, o: GrpcClientOptions = {}): GrpcClient<S> {
  const channel = new GrpcChannel(address, {
    message_bytes_max: o.message_bytes_max ?? 16 * 1024 * 1024,
    reconnect_backoff_ms_initial,
    reconnect_backoff_ms_max,
    decodeStatus: errorOf,
    user_agent: 'weft-grpc-client',
    http2_engine: o.http2_engine,
    tls: o.tls,
  });
  const methods: Record<string, unknown> = {};
  for (const method of service.methods) {
    switch (method.methodKind) {
      case 'unary':
        methods[method.localName] = (req: MessageInitShape<DescMessage>, options?: ClientCallOptions) => callUnary(channel, method, req, options);
        break;
      case 'server_streaming':
        methods[method.localName] = (req: MessageInitShape<DescMessage>, options?: ClientCallOptions) => callServerStreaming(channel, method, req, options);
        break;
      case 'client_streaming':
        methods[method.localName] = (reqs: Requests<DescMessage>, options?: ClientCallOptions) => callClientStreaming(channel, method, reqs, options);
        break;
      case 'bidi_streaming':
        methods[method.localName] = (reqs: Requests<DescMessage>, options?: ClientCallOptions) => callBidiStreaming(channel, method, reqs, options);
        break;
    }
  }
  methods['close'] = () => channel.close();
  return methods as GrpcClient<S>;
}

/** The raw grpc-js client for a test that must send bytes no encoder would produce. */
export function createRawGrpcClient(address: string): grpc.Client {
  return new grpc.Client(address, grpc.credentials.createInsecure());
}
