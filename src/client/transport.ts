/**
 * The SDK's gRPC calls: unary and server-streaming, binary protobuf over Weft's own client
 * (src/common/grpc, on Weft's HTTP/2 engine or node:http2), failures as WeftError with the server's code, reason and metadata
 * (from google.rpc.ErrorInfo). The server-side test client in src/api calls through the same code,
 * but the SDK may depend only on the wire contract and src/common, so an application that imports
 * `weft/client` loads none of the server.
 */
import { anyUnpack } from '@bufbuild/protobuf/wkt';
import { fromBinary, type DescMethodServerStreaming, type DescMethodUnary, type DescMessage, type MessageInitShape, type MessageShape } from '@bufbuild/protobuf';
import { WeftError } from '../common/errors.js';
import type { CallOptions as WireCallOptions } from '../common/grpc/call.js';
import { GrpcChannel } from '../common/grpc/channel.js';
import type { ClientHttp2Engine } from '../common/grpc/client-stream.js';
import type { ClientTls } from '../common/grpc/client-tls.js';
import { callServerStreaming, callUnary } from '../common/grpc/methods.js';
import { statusName, type CallStatus } from '../common/grpc/status.js';
import { ErrorInfoSchema } from '../gen/google/rpc/error_details_pb.js';
import { StatusSchema } from '../gen/google/rpc/status_pb.js';

/** The server's status as a WeftError: its code, and the reason and metadata of its ErrorInfo. */
function errorOf(s: CallStatus): WeftError {
  const code = statusName(s.code);
  if (s.details_bin !== undefined && s.details_bin.length > 0) {
    try {
      const status = fromBinary(StatusSchema, s.details_bin);
      for (const detail of status.details) {
        const info = anyUnpack(detail, ErrorInfoSchema);
        if (info !== undefined) return new WeftError(code, status.message || s.message, info.reason, info.metadata);
      }
    } catch {
      // Malformed details still leave a usable code and message.
    }
  }
  return new WeftError(code, s.message);
}

export interface CallOptions {
  readonly timeout_ms?: number;
  readonly signal?: AbortSignal;
}

/**
 * Longest wait between reconnection attempts after a member went away. gRPC's default grows to two
 * minutes; a database client wants to find a restarted member within seconds.
 */
export const reconnect_backoff_ms_max = 2000;
export const reconnect_backoff_ms_initial = 100;

export class Transport {
  private readonly channel: GrpcChannel;

  constructor(address: string, message_bytes_max: number, http2_engine?: ClientHttp2Engine, tls?: ClientTls) {
    this.channel = new GrpcChannel(address, {
      message_bytes_max,
      reconnect_backoff_ms_initial,
      reconnect_backoff_ms_max,
      decodeStatus: errorOf,
      user_agent: 'weft-client',
      http2_engine,
      tls,
    });
  }

  unary<I extends DescMessage, O extends DescMessage>(method: DescMethodUnary<I, O>, req: MessageInitShape<I>, options: CallOptions = {}): Promise<MessageShape<O>> {
    return callUnary(this.channel, method, req, options satisfies WireCallOptions);
  }

  /** The call starts when the stream is first read, so a stream never read costs the server nothing. */
  async *stream<I extends DescMessage, O extends DescMessage>(method: DescMethodServerStreaming<I, O>, req: MessageInitShape<I>, options: CallOptions = {}): AsyncGenerator<MessageShape<O>> {
    yield* callServerStreaming(this.channel, method, req, options);
  }

  close(): void {
    this.channel.close();
  }
}
