/**
 * The bare minimum of a unary gRPC call over Weft's own HTTP/2 engine (src/common/h2): the same
 * floor as bareH2Unary measures over node:http2, so the two engines' client costs compare directly.
 */
import { create, fromBinary, toBinary, type DescMessage, type DescMethodUnary, type MessageInitShape, type MessageShape } from '@bufbuild/protobuf';
import type { H2Connection } from '../src/common/h2/connection.js';
import type { H2Headers, StreamEnd } from '../src/common/h2/stream.js';

export function bareWeftUnary<I extends DescMessage, O extends DescMessage>(connection: H2Connection, method: DescMethodUnary<I, O>, req: MessageInitShape<I>): Promise<MessageShape<O>> {
  const bytes = toBinary(method.input, create(method.input, req));
  const framed = Buffer.allocUnsafe(5 + bytes.byteLength);
  framed[0] = 0;
  framed.writeUInt32BE(bytes.byteLength, 1);
  framed.set(bytes, 5);
  const stream = connection.request({ ':method': 'POST', ':scheme': 'http', ':path': `/${method.parent.typeName}/${method.name}`, 'content-type': 'application/grpc', te: 'trailers' });
  if (stream === undefined) return Promise.reject(new Error('the connection takes no new streams'));
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    let status: string | undefined;
    stream.handler = {
      onResponse(h: H2Headers) {
        status = h['grpc-status'];
      },
      onTrailers(t: H2Headers) {
        status = t['grpc-status'];
      },
      onData(c: Buffer) {
        chunks.push(c);
      },
      onEnd() {},
      onDrain() {},
      onClose(end: StreamEnd) {
        if (end.kind === 'done' && status === '0') resolve(fromBinary(method.output, Buffer.concat(chunks).subarray(5)));
        else reject(new Error(`the call ended ${end.kind} with grpc-status ${String(status)}`));
      },
    };
    stream.write(framed);
    stream.end();
  });
}
