/**
 * Unary calls for bench/grpc-client.ts to set beside Weft's client: through @grpc/grpc-js exactly as
 * the typed client made them before Weft had its own client (encode with protobuf-es, raw Buffers
 * through makeUnaryRequest, decode), and the bare minimum over node:http2.
 */
import type { ClientHttp2Session } from 'node:http2';
import * as grpc from '@grpc/grpc-js';
import { create, fromBinary, toBinary, type DescMessage, type DescMethodUnary, type MessageInitShape, type MessageShape } from '@bufbuild/protobuf';

const identity = (b: Buffer): Buffer => b;

export function grpcJsChannel(address: string): grpc.Client {
  return new grpc.Client(address, grpc.credentials.createInsecure(), {
    'grpc.max_receive_message_length': 16 * 1024 * 1024,
    'grpc.max_send_message_length': 16 * 1024 * 1024,
  });
}

export function grpcJsUnary<I extends DescMessage, O extends DescMessage>(client: grpc.Client, method: DescMethodUnary<I, O>, req: MessageInitShape<I>): Promise<MessageShape<O>> {
  const bytes = toBinary(method.input, create(method.input, req));
  const path = `/${method.parent.typeName}/${method.name}`;
  return new Promise((resolve, reject) => {
    client.makeUnaryRequest(path, identity, identity, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), new grpc.Metadata(), {}, (err, res) => {
      if (err !== null) reject(err);
      else if (res === undefined) reject(new Error('empty response'));
      else resolve(fromBinary(method.output, res));
    });
  });
}

/**
 * The least a unary call over `node:http2` can do: one request, the framed message, the reply's
 * bytes joined and decoded, no status checks, deadlines or bounds. Its CPU is the floor under any
 * client built on `node:http2`, printed beside the others to show what is the client's own.
 */
export function bareH2Unary<I extends DescMessage, O extends DescMessage>(session: ClientHttp2Session, method: DescMethodUnary<I, O>, req: MessageInitShape<I>): Promise<MessageShape<O>> {
  const bytes = toBinary(method.input, create(method.input, req));
  const framed = Buffer.allocUnsafe(5 + bytes.byteLength);
  framed[0] = 0;
  framed.writeUInt32BE(bytes.byteLength, 1);
  framed.set(bytes, 5);
  const stream = session.request({ ':method': 'POST', ':path': `/${method.parent.typeName}/${method.name}`, 'content-type': 'application/grpc', te: 'trailers' });
  stream.end(framed);
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  return new Promise((resolve, reject) => {
    stream.on('error', reject);
    stream.on('end', () => resolve(fromBinary(method.output, Buffer.concat(chunks).subarray(5))));
  });
}
