/**
 * A unary call through @grpc/grpc-js exactly as the typed client made it before Weft had its own
 * client (encode with protobuf-es, raw Buffers through makeUnaryRequest, decode), kept so
 * bench/grpc-client.ts can put the two side by side in one run.
 */
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
