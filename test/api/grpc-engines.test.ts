/**
 * The gRPC server on each HTTP/2 engine (`grpc_http2_engine`: Weft's own and node:http2) against
 * grpc-js and bare node:http2 clients: messages larger than every window, many calls at once,
 * metadata and Huffman-coded headers as those clients send them, cancellation, a deadline, and a
 * stop that lets the call in flight finish (GOAWAY) while refusing new ones.
 */
import * as grpc from '@grpc/grpc-js';
import * as http2 from 'node:http2';
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { afterEach, describe, expect, it } from 'vitest';
import type { WeftError } from '../../src/common/errors.js';
import { createRawGrpcClient } from '../../src/api/grpc-client.js';
import type { Http2Engine } from '../../src/api/grpc-listeners.js';
import { startGrpcServer, type GrpcServerHandle } from '../../src/api/grpc-server.js';
import { implement } from '../../src/api/handlers.js';
import { CreateNodeRequestSchema, GraphService } from '../../src/gen/weft/v1/graph_pb.js';
import { NodeSchema } from '../../src/gen/weft/v1/values_pb.js';
import { call, framed } from '../support/h2-raw.js';

const create_node = '/weft.v1.GraphService/CreateNode';
const traverse = '/weft.v1.GraphService/Traverse';

interface Fixture {
  readonly server: GrpcServerHandle;
  readonly address: string;
  /** Codes the Traverse handler's signal was aborted with. */
  readonly aborted: string[];
  /** Metadata the last CreateNode saw. */
  seen: Record<string, string>;
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function serve(engine: Http2Engine): Promise<Fixture> {
  const aborted: string[] = [];
  const fixture = { aborted, seen: {} as Record<string, string> } as { server: GrpcServerHandle; address: string; aborted: string[]; seen: Record<string, string> };
  const graph = implement(GraphService, {
    createNode: async (req, ctx) => {
      fixture.seen = { ...ctx.headers };
      // A label 'slow:N' answers after N ms, to keep a call in flight.
      const slow = req.labels.find((l) => l.startsWith('slow:'));
      if (slow !== undefined) await new Promise((r) => setTimeout(r, Number(slow.slice(5))));
      return { nodeId: 7n, labels: req.labels };
    },
    traverse: async (_req, ctx) => {
      if (!ctx.signal.aborted) await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
      aborted.push((ctx.signal.reason as WeftError).code);
      throw ctx.signal.reason;
    },
  });
  const server = await startGrpcServer({ port: 0, services: [graph], http2_engine: engine, shutdown_grace_ms: 200, log: () => {} });
  fixture.server = server;
  fixture.address = `127.0.0.1:${server.port}`;
  cleanups.push(() => server.stop());
  return fixture;
}

function grpcJsCreateNode(client: grpc.Client, labels: string[], metadata?: grpc.Metadata, deadline_ms?: number): Promise<{ code: number; labels: string[] }> {
  const encode = (m: { labels: string[] }): Buffer => Buffer.from(toBinary(CreateNodeRequestSchema, create(CreateNodeRequestSchema, m)));
  const decode = (b: Buffer): string[] => fromBinary(NodeSchema, b).labels;
  return new Promise((resolve) => {
    const options: grpc.CallOptions = deadline_ms === undefined ? {} : { deadline: Date.now() + deadline_ms };
    client.makeUnaryRequest(create_node, encode, decode, { labels }, metadata ?? new grpc.Metadata(), options, (err, value) => {
      resolve({ code: err === null ? 0 : err.code, labels: value ?? [] });
    });
  });
}

for (const engine of ['weft', 'node'] as const) {
  describe(`the gRPC server on the ${engine} HTTP/2 engine`, () => {
    it('grpc-js client: a 3 MB message each way across many frames and windows, with metadata', async () => {
      const f = await serve(engine);
      const client = createRawGrpcClient(f.address);
      cleanups.push(() => client.close());
      const big = 'L'.repeat(3_000_000);
      const metadata = new grpc.Metadata();
      metadata.set('x-trace', 'trace value with spaces and symbols !#$%');
      const answer = await grpcJsCreateNode(client, [big, 'second'], metadata);
      expect(answer.code).toBe(0);
      expect(answer.labels).toEqual([big, 'second']);
      expect(f.seen['x-trace']).toBe(metadata.get('x-trace')[0]);
    });

    it('grpc-js client: 200 calls at once each get their own answer', async () => {
      const f = await serve(engine);
      const client = createRawGrpcClient(f.address);
      cleanups.push(() => client.close());
      const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => grpcJsCreateNode(client, [`n${i}`])));
      answers.forEach((a, i) => expect(a).toEqual({ code: 0, labels: [`n${i}`] }));
    });

    it('grpc-js client: a cancelled call ends its handler CANCELLED; a deadline ends it DEADLINE_EXCEEDED', async () => {
      const f = await serve(engine);
      const client = createRawGrpcClient(f.address);
      cleanups.push(() => client.close());
      const identity = (b: Buffer): Buffer => b;
      const stream = client.makeServerStreamRequest(traverse, identity, identity, Buffer.alloc(0));
      stream.on('error', () => {});
      await new Promise((r) => setTimeout(r, 50));
      stream.cancel();
      const deadline = client.makeServerStreamRequest(traverse, identity, identity, Buffer.alloc(0), new grpc.Metadata(), { deadline: Date.now() + 100 });
      const code = await new Promise<number>((resolve) => deadline.on('error', (e: grpc.ServiceError) => resolve(e.code)));
      expect(code).toBe(grpc.status.DEADLINE_EXCEEDED);
      const until = Date.now() + 5000;
      while (f.aborted.length < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
      expect([...f.aborted].sort()).toEqual(['CANCELLED', 'DEADLINE_EXCEEDED']);
    });

    it('bare node:http2 client: unary OK, unknown method UNIMPLEMENTED, PUT 405, other content type 415', async () => {
      const f = await serve(engine);
      const session = http2.connect(`http://${f.address}`);
      cleanups.push(() => session.destroy());
      const request = framed(toBinary(CreateNodeRequestSchema, create(CreateNodeRequestSchema, { labels: ['raw'] })));
      const ok = await call(session, { path: create_node, chunks: [request] });
      expect(ok.grpc_status).toBe('0');
      expect(fromBinary(NodeSchema, ok.messages[0]!).labels).toEqual(['raw']);
      expect((await call(session, { path: '/weft.v1.GraphService/Nope', chunks: [request] })).grpc_status).toBe('12');
      const put = await call(session, { path: create_node, chunks: [request], headers: { ':method': 'PUT' } });
      expect(put.headers[':status']).toBe(405);
      const text = await call(session, { path: create_node, chunks: [request], headers: { 'content-type': 'text/plain' } });
      expect(text.headers[':status']).toBe(415);
    });

    it('stop: the call in flight finishes (GOAWAY), new calls are refused', async () => {
      const f = await serve(engine);
      const client = createRawGrpcClient(f.address);
      cleanups.push(() => client.close());
      expect((await grpcJsCreateNode(client, ['warm'])).code).toBe(0);
      const inflight = grpcJsCreateNode(client, ['slow:150']);
      await new Promise((r) => setTimeout(r, 30));
      const stopped = f.server.stop(2_000);
      expect(await inflight).toEqual({ code: 0, labels: ['slow:150'] });
      await stopped;
      const after = await grpcJsCreateNode(client, ['late'], undefined, 1_000);
      expect(after.code).toBe(grpc.status.UNAVAILABLE);
    });
  });
}
