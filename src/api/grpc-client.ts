/**
 * A small typed gRPC client over a generated service descriptor, for tests, benchmarks and the CLI.
 * Unary methods return promises, server streams async iterables, client streams take an iterable.
 * A failed call rejects with the WeftError the server sent (status code plus ErrorInfo).
 */
import * as grpc from '@grpc/grpc-js';
import { create, fromBinary, toBinary, type DescMessage, type DescMethod, type DescService, type Message, type MessageInitShape, type MessageShape } from '@bufbuild/protobuf';
import { WeftError } from '../common/errors.js';
import { errorFromStatus } from './error-catalog.js';
import { asBuffer } from './wire-bytes.js';

export interface ClientCallOptions {
  /** Relative deadline; sent as grpc-timeout. */
  readonly timeout_ms?: number;
  readonly signal?: AbortSignal;
  /** Extra request metadata. */
  readonly metadata?: Readonly<Record<string, string>>;
}

type Requests<I extends DescMessage> = AsyncIterable<MessageInitShape<I>> | Iterable<MessageInitShape<I>>;

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
}

function toError(e: grpc.ServiceError): WeftError {
  const details = e.metadata?.get('grpc-status-details-bin')[0];
  return errorFromStatus(e.code, e.details, Buffer.isBuffer(details) ? details : undefined);
}

function metadataOf(options: ClientCallOptions | undefined): grpc.Metadata {
  const md = new grpc.Metadata();
  for (const [k, v] of Object.entries(options?.metadata ?? {})) md.set(k, v);
  return md;
}

function callOptionsOf(options: ClientCallOptions | undefined): grpc.CallOptions {
  return options?.timeout_ms === undefined ? {} : { deadline: Date.now() + options.timeout_ms };
}

function cancelOnAbort(call: grpc.ClientUnaryCall | grpc.ClientReadableStream<Buffer> | grpc.ClientWritableStream<Buffer>, signal?: AbortSignal): void {
  if (signal === undefined) return;
  if (signal.aborted) call.cancel();
  else signal.addEventListener('abort', () => call.cancel(), { once: true });
}

async function* readStream(method: DescMethod, stream: grpc.ClientReadableStream<Buffer> | grpc.ClientDuplexStream<Buffer, Buffer>): AsyncGenerator<Message, void, undefined> {
  try {
    for await (const chunk of stream) yield fromBinary(method.output, chunk as Buffer);
  } catch (e) {
    throw isServiceError(e) ? toError(e) : e;
  } finally {
    stream.cancel();
  }
}

function isServiceError(e: unknown): e is grpc.ServiceError {
  return e instanceof Error && typeof (e as Partial<grpc.ServiceError>).code === 'number';
}

async function writeRequests(method: DescMethod, stream: grpc.ClientWritableStream<Buffer> | grpc.ClientDuplexStream<Buffer, Buffer>, reqs: AsyncIterable<unknown> | Iterable<unknown>): Promise<void> {
  try {
    for await (const req of reqs) {
      const bytes = asBuffer(toBinary(method.input, create(method.input, req as Record<string, unknown>)));
      if (!stream.write(bytes)) await new Promise((resolve) => stream.once('drain', resolve));
    }
    stream.end();
  } catch (e) {
    // A failing request source cancels the call; the caller sees CANCELLED or the source's error.
    stream.cancel();
    throw e;
  }
}

export function createGrpcClient<S extends DescService>(service: S, address: string, o: GrpcClientOptions = {}): GrpcClient<S> {
  const bytes_max = o.message_bytes_max ?? 16 * 1024 * 1024;
  const client = new grpc.Client(address, grpc.credentials.createInsecure(), {
    'grpc.max_receive_message_length': bytes_max,
    'grpc.max_send_message_length': bytes_max,
  });
  const ser = (b: Buffer): Buffer => b;
  const methods: Record<string, unknown> = {};
  for (const method of service.methods) {
    const path = `/${service.typeName}/${method.name}`;
    const encode = (req: unknown): Buffer => asBuffer(toBinary(method.input, create(method.input, req as Record<string, unknown>)));
    switch (method.methodKind) {
      case 'unary':
        methods[method.localName] = (req: unknown, options?: ClientCallOptions) =>
          new Promise((resolve, reject) => {
            const call = client.makeUnaryRequest(path, ser, ser, encode(req), metadataOf(options), callOptionsOf(options), (err, res) => {
              if (err !== null) reject(toError(err));
              else if (res === undefined) reject(new WeftError('INTERNAL', 'empty response'));
              else resolve(fromBinary(method.output, res));
            });
            cancelOnAbort(call, options?.signal);
          });
        break;
      case 'server_streaming':
        methods[method.localName] = (req: unknown, options?: ClientCallOptions) => {
          const stream = client.makeServerStreamRequest(path, ser, ser, encode(req), metadataOf(options), callOptionsOf(options));
          cancelOnAbort(stream, options?.signal);
          return readStream(method, stream);
        };
        break;
      case 'client_streaming':
        methods[method.localName] = (reqs: AsyncIterable<unknown> | Iterable<unknown>, options?: ClientCallOptions) =>
          new Promise((resolve, reject) => {
            const stream = client.makeClientStreamRequest(path, ser, ser, metadataOf(options), callOptionsOf(options), (err, res) => {
              if (err !== null) reject(toError(err));
              else if (res === undefined) reject(new WeftError('INTERNAL', 'empty response'));
              else resolve(fromBinary(method.output, res));
            });
            cancelOnAbort(stream, options?.signal);
            writeRequests(method, stream, reqs).catch(reject);
          });
        break;
      case 'bidi_streaming':
        methods[method.localName] = (reqs: AsyncIterable<unknown> | Iterable<unknown>, options?: ClientCallOptions) => {
          const stream = client.makeBidiStreamRequest(path, ser, ser, metadataOf(options), callOptionsOf(options));
          cancelOnAbort(stream as unknown as grpc.ClientReadableStream<Buffer>, options?.signal);
          writeRequests(method, stream, reqs).catch(() => {});
          return readStream(method, stream);
        };
        break;
    }
  }
  methods['close'] = () => client.close();
  return methods as GrpcClient<S>;
}

/** The raw grpc-js client for a test that must send bytes no encoder would produce. */
export function createRawGrpcClient(address: string): grpc.Client {
  return new grpc.Client(address, grpc.credentials.createInsecure());
}
