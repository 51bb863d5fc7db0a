/**
 * A grpc-js server serving BlobService and ServerReflectionInfo with scripted behaviour, so the
 * client's wire can be checked against a second, independent gRPC implementation. The request's
 * `blob_id` (or `host`) names what the server does.
 */
import * as grpc from '@grpc/grpc-js';
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { anyPack } from '@bufbuild/protobuf/wkt';
import { ErrorInfoSchema } from '../../src/gen/google/rpc/error_details_pb.js';
import { StatusSchema } from '../../src/gen/google/rpc/status_pb.js';
import { BlobChunkSchema, BlobMetaSchema, DownloadBlobRequestSchema, GetBlobMetaRequestSchema, UploadBlobResponseSchema } from '../../src/gen/weft/v1/blob_pb.js';
import { ServerReflectionRequestSchema, ServerReflectionResponseSchema } from '../../src/gen/grpc/reflection/v1/reflection_pb.js';

/** What the server saw, for a test to check the client's side of the wire. */
export interface Seen {
  /** Request metadata of the last call, as grpc-js parsed it. */
  metadata: Record<string, string>;
  /** The deadline grpc-js read from grpc-timeout, in ms from the call's arrival, or undefined. */
  deadline_in_ms: number | undefined;
  /** Calls the server saw cancelled by the client. */
  cancelled: number;
  /** Calls that reached a handler. */
  arrived: number;
}

export const error_message = 'no blob «b-1» here: 100% gone';

const identity = (b: Buffer): Buffer => b;

function method(path: string, requestStream: boolean, responseStream: boolean): grpc.MethodDefinition<Buffer, Buffer> {
  return { path, requestStream, responseStream, requestSerialize: identity, requestDeserialize: identity, responseSerialize: identity, responseDeserialize: identity };
}

const definition: grpc.ServiceDefinition = {
  getBlobMeta: method('/weft.v1.BlobService/GetBlobMeta', false, false),
  downloadBlob: method('/weft.v1.BlobService/DownloadBlob', false, true),
  uploadBlob: method('/weft.v1.BlobService/UploadBlob', true, false),
  reflect: method('/grpc.reflection.v1.ServerReflection/ServerReflectionInfo', true, true),
};

/** NOT_FOUND with a google.rpc.Status holding ErrorInfo, as Weft's server sends its errors. */
function notFoundWithDetails(): grpc.ServiceError {
  const details = toBinary(StatusSchema, create(StatusSchema, {
    code: grpc.status.NOT_FOUND,
    message: error_message,
    details: [anyPack(ErrorInfoSchema, create(ErrorInfoSchema, { reason: 'BLOB_NOT_FOUND', domain: 'weft', metadata: { blob_id: 'b-1' } }))],
  }));
  const metadata = new grpc.Metadata();
  metadata.set('grpc-status-details-bin', Buffer.from(details));
  return Object.assign(new Error(error_message), { code: grpc.status.NOT_FOUND, details: error_message, metadata });
}

function chunk(sequence: number, bytes: number): Buffer {
  return Buffer.from(toBinary(BlobChunkSchema, create(BlobChunkSchema, { sequence, data: Buffer.alloc(bytes, sequence % 251) })));
}

function seeCall(seen: Seen, call: grpc.ServerUnaryCall<Buffer, Buffer> | grpc.ServerWritableStream<Buffer, Buffer> | grpc.ServerReadableStream<Buffer, Buffer> | grpc.ServerDuplexStream<Buffer, Buffer>): void {
  seen.arrived++;
  const md: Record<string, string> = {};
  for (const [k, v] of Object.entries(call.metadata.getMap())) md[k] = typeof v === 'string' ? v : Buffer.from(v as Buffer).toString('base64');
  seen.metadata = md;
  const deadline = call.getDeadline();
  seen.deadline_in_ms = deadline === Infinity ? undefined : Number(deadline instanceof Date ? deadline.getTime() : deadline) - Date.now();
  (call as NodeJS.EventEmitter).on('cancelled', () => seen.cancelled++);
}

const handlers: (seen: Seen) => grpc.UntypedServiceImplementation = (seen) => ({
  getBlobMeta: (call: grpc.ServerUnaryCall<Buffer, Buffer>, done: grpc.sendUnaryData<Buffer>) => {
    seeCall(seen, call);
    const id = fromBinary(GetBlobMetaRequestSchema, call.request).blobId;
    if (id === 'fail') return done(notFoundWithDetails());
    if (id === 'hang') return; // answered never: the client's deadline or cancellation ends it
    const size = id.startsWith('big:') ? Number(id.slice(4)) : 0;
    done(null, Buffer.from(toBinary(BlobMetaSchema, create(BlobMetaSchema, { blobId: size > 0 ? 'x'.repeat(size) : id, totalSize: 7n, chunkCount: 1 }))));
  },
  downloadBlob: (call: grpc.ServerWritableStream<Buffer, Buffer>) => {
    seeCall(seen, call);
    const id = fromBinary(DownloadBlobRequestSchema, call.request).blobId;
    const [kind, arg] = id.split(':');
    const n = Number(arg);
    if (kind === 'count') {
      for (let i = 0; i < n; i++) call.write(chunk(i, 1000));
      call.end();
    } else if (kind === 'big') {
      call.write(chunk(0, n));
      call.end();
    } else if (kind === 'fail-after') {
      for (let i = 0; i < n; i++) call.write(chunk(i, 10));
      call.emit('error', notFoundWithDetails());
    } else if (kind === 'endless') {
      let i = 0;
      const timer = setInterval(() => call.write(chunk(i++, 100)), 5);
      call.on('cancelled', () => clearInterval(timer));
    } else {
      call.emit('error', { code: grpc.status.INVALID_ARGUMENT, details: `unknown script ${id}` });
    }
  },
  uploadBlob: (call: grpc.ServerReadableStream<Buffer, Buffer>, done: grpc.sendUnaryData<Buffer>) => {
    seeCall(seen, call);
    let total = 0;
    const sequences: string[] = [];
    call.on('data', (b: Buffer) => {
      const c = fromBinary(BlobChunkSchema, b);
      total += c.data.length;
      sequences.push(String(c.sequence));
    });
    call.on('end', () => done(null, Buffer.from(toBinary(UploadBlobResponseSchema, create(UploadBlobResponseSchema, { totalSize: BigInt(total), chunkIds: sequences })))));
  },
  reflect: (call: grpc.ServerDuplexStream<Buffer, Buffer>) => {
    seeCall(seen, call);
    call.on('data', (b: Buffer) => {
      const req = fromBinary(ServerReflectionRequestSchema, b);
      if (req.host === 'fail') return call.emit('error', notFoundWithDetails());
      call.write(Buffer.from(toBinary(ServerReflectionResponseSchema, create(ServerReflectionResponseSchema, { validHost: `echo ${req.host}` }))));
    });
    call.on('end', () => call.end());
  },
});

export interface GrpcJsServer {
  readonly address: string;
  readonly seen: Seen;
  stop(): Promise<void>;
}

export async function startGrpcJsServer(message_bytes_max = 64 * 1024 * 1024): Promise<GrpcJsServer> {
  const server = new grpc.Server({ 'grpc.max_receive_message_length': message_bytes_max, 'grpc.max_send_message_length': message_bytes_max });
  const seen: Seen = { metadata: {}, deadline_in_ms: undefined, cancelled: 0, arrived: 0 };
  server.addService(definition, handlers(seen));
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (e, p) => (e === null ? resolve(p) : reject(e))),
  );
  return {
    address: `127.0.0.1:${port}`,
    seen,
    stop: () => new Promise<void>((resolve) => server.tryShutdown(() => resolve())),
  };
}
