/**
 * The SDK's gRPC calls: unary and server-streaming, binary protobuf over @grpc/grpc-js, failures as
 * WeftError with the server's code, reason and metadata (from google.rpc.ErrorInfo). The server-side
 * test client in src/api does the same, but the SDK may depend only on the wire contract and
 * src/common, so an application that imports `weft/client` loads none of the server.
 */
import * as grpc from '@grpc/grpc-js';
import { anyUnpack } from '@bufbuild/protobuf/wkt';
import { create, fromBinary, toBinary, type DescMethodServerStreaming, type DescMethodUnary, type DescMessage, type MessageInitShape, type MessageShape } from '@bufbuild/protobuf';
import { WeftError, type StatusCode } from '../common/errors.js';
import { ErrorInfoSchema } from '../gen/google/rpc/error_details_pb.js';
import { StatusSchema } from '../gen/google/rpc/status_pb.js';

/** gRPC status names by code number. */
const status_names: readonly StatusCode[] = [
  'UNKNOWN', // 0 is OK and never an error; a peer that sends it as one is answered as UNKNOWN
  'CANCELLED',
  'UNKNOWN',
  'INVALID_ARGUMENT',
  'DEADLINE_EXCEEDED',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'PERMISSION_DENIED',
  'RESOURCE_EXHAUSTED',
  'FAILED_PRECONDITION',
  'ABORTED',
  'OUT_OF_RANGE',
  'UNIMPLEMENTED',
  'INTERNAL',
  'UNAVAILABLE',
  'DATA_LOSS',
  'UNAUTHENTICATED',
];

function toError(e: grpc.ServiceError): WeftError {
  const code = status_names[e.code] ?? 'UNKNOWN';
  const details = e.metadata?.get('grpc-status-details-bin')[0];
  if (Buffer.isBuffer(details)) {
    try {
      const status = fromBinary(StatusSchema, details);
      for (const detail of status.details) {
        const info = anyUnpack(detail, ErrorInfoSchema);
        if (info !== undefined) return new WeftError(code, status.message || e.details, info.reason, info.metadata);
      }
    } catch {
      // Malformed details still leave a usable code and message.
    }
  }
  return new WeftError(code, e.details);
}

function isServiceError(e: unknown): e is grpc.ServiceError {
  return e instanceof Error && typeof (e as Partial<grpc.ServiceError>).code === 'number';
}

export interface CallOptions {
  readonly timeout_ms?: number;
  readonly signal?: AbortSignal;
}

const identity = (b: Buffer): Buffer => b;

/**
 * Longest wait between reconnection attempts after a member went away. gRPC's default grows to two
 * minutes; a database client wants to find a restarted member within seconds.
 */
export const reconnect_backoff_ms_max = 2000;
export const reconnect_backoff_ms_initial = 100;

export class Transport {
  private readonly client: grpc.Client;

  constructor(address: string, message_bytes_max: number) {
    this.client = new grpc.Client(address, grpc.credentials.createInsecure(), {
      'grpc.max_receive_message_length': message_bytes_max,
      'grpc.max_send_message_length': message_bytes_max,
      'grpc.initial_reconnect_backoff_ms': reconnect_backoff_ms_initial,
      'grpc.max_reconnect_backoff_ms': reconnect_backoff_ms_max,
    });
  }

  unary<I extends DescMessage, O extends DescMessage>(method: DescMethodUnary<I, O>, req: MessageInitShape<I>, options: CallOptions = {}): Promise<MessageShape<O>> {
    const path = `/${method.parent.typeName}/${method.name}`;
    const bytes = Buffer.from(toBinary(method.input, create(method.input, req)));
    return new Promise((resolve, reject) => {
      const call = this.client.makeUnaryRequest(path, identity, identity, bytes, new grpc.Metadata(), deadline(options), (err, res) => {
        if (err !== null) reject(toError(err));
        else if (res === undefined) reject(new WeftError('INTERNAL', 'empty response'));
        else resolve(fromBinary(method.output, res));
      });
      if (options.signal !== undefined) options.signal.addEventListener('abort', () => call.cancel(), { once: true });
    });
  }

  async *stream<I extends DescMessage, O extends DescMessage>(method: DescMethodServerStreaming<I, O>, req: MessageInitShape<I>, options: CallOptions = {}): AsyncGenerator<MessageShape<O>> {
    const path = `/${method.parent.typeName}/${method.name}`;
    const bytes = Buffer.from(toBinary(method.input, create(method.input, req)));
    const call = this.client.makeServerStreamRequest(path, identity, identity, bytes, new grpc.Metadata(), deadline(options));
    const cancel = (): void => call.cancel();
    options.signal?.addEventListener('abort', cancel, { once: true });
    try {
      for await (const chunk of call) yield fromBinary(method.output, chunk as Buffer);
    } catch (e) {
      throw isServiceError(e) ? toError(e) : e;
    } finally {
      options.signal?.removeEventListener('abort', cancel);
      call.cancel();
    }
  }

  close(): void {
    this.client.close();
  }
}

function deadline(options: CallOptions): grpc.CallOptions {
  return options.timeout_ms === undefined ? {} : { deadline: Date.now() + options.timeout_ms };
}
