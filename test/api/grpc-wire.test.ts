// The gRPC port on the wire, sent by a bare HTTP/2 client: framing edge cases, compression,
// headers the protocol defines, metadata both ways, cancellation and flow control.
import * as http2 from 'node:http2';
import { gzipSync, deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { WeftError } from '../../src/common/errors.js';
import { createGrpcClient } from '../../src/api/grpc-client.js';
import { ServingStatus } from '../../src/api/grpc-health.js';
import { startGrpcServer, type GrpcServerHandle } from '../../src/api/grpc-server.js';
import { implement } from '../../src/api/handlers.js';
import { BlobChunkSchema, BlobService, DownloadBlobRequestSchema, UploadBlobResponseSchema } from '../../src/gen/weft/v1/blob_pb.js';
import { CreateNodeRequestSchema, GraphService } from '../../src/gen/weft/v1/graph_pb.js';
import { NodeSchema } from '../../src/gen/weft/v1/values_pb.js';
import { call, framed, rawRequest } from '../support/h2-raw.js';

const message_bytes_max = 64 * 1024;
const create_node = '/weft.v1.GraphService/CreateNode';

interface Seen {
  headers: Record<string, string>;
  deadline_in_ms: number | undefined;
}

describe('the gRPC port on the wire (bare HTTP/2 client)', () => {
  let server: GrpcServerHandle;
  let session: http2.ClientHttp2Session;
  const seen: Seen[] = [];
  const aborted: string[] = [];
  let produced = 0;

  beforeAll(async () => {
    const graph = implement(GraphService, {
      createNode: async (req, ctx) => {
        seen.push({ headers: { ...ctx.headers }, deadline_in_ms: ctx.deadline_ms === undefined ? undefined : ctx.deadline_ms - Date.now() });
        if (req.labels.includes('meta')) {
          ctx.sendMetadata?.('x-reply', 'in the headers');
          ctx.sendMetadata?.('x-reply-bin', new Uint8Array([0, 1, 2, 250]));
        }
        return { nodeId: 1n, labels: req.labels };
      },
      getNode: async () => {
        throw new WeftError('NOT_FOUND', 'no node «ünï» at 100%', 'NODE_GONE', { where: 'here' });
      },
      traverse: async (_req, ctx) => {
        if (!ctx.signal.aborted) await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
        aborted.push((ctx.signal.reason as WeftError).code);
        throw ctx.signal.reason;
      },
    });
    const blobs = implement(BlobService, {
      uploadBlob: async (chunks) => {
        const ids: string[] = [];
        for await (const chunk of chunks) ids.push(`${chunk.sequence}:${chunk.data.length}`);
        return { blobId: 'b', chunkIds: ids, totalSize: 0n, dedupChunks: 0 };
      },
      downloadBlob: async function* (req, ctx) {
        const count = Number(req.blobId);
        for (let i = 0; i < count; i++) {
          produced++;
          if (i === 1) ctx.sendMetadata?.('x-after-first', 'in the trailers');
          yield { data: new Uint8Array(32 * 1024).fill(i % 256), sequence: i };
        }
      },
    });
    server = await startGrpcServer({ port: 0, services: [graph, blobs], message_bytes_max, shutdown_grace_ms: 100 });
    session = http2.connect(`http://127.0.0.1:${server.port}`);
  });
  afterAll(async () => {
    session.close();
    await server.stop();
  });

  const nodeRequest = (labels: string[]): Uint8Array => toBinary(CreateNodeRequestSchema, create(CreateNodeRequestSchema, { labels }));
  const download = (blobId: string): Uint8Array => toBinary(DownloadBlobRequestSchema, create(DownloadBlobRequestSchema, { blobId }));
  const nodeLabels = (bytes: Buffer): string[] => fromBinary(NodeSchema, bytes).labels;

  it('a message split across DATA frames, even inside its 5-byte prefix, is read whole', async () => {
    const whole = framed(nodeRequest(['Split', 'Across', 'Frames']));
    const chunks = [whole.subarray(0, 2), whole.subarray(2, 7), whole.subarray(7, 9), whole.subarray(9)];
    const answer = await call(session, { path: create_node, chunks });
    expect(answer.grpc_status).toBe('0');
    expect(answer.headers[':status']).toBe(200);
    expect(answer.headers['content-type']).toBe('application/grpc+proto');
    expect(answer.messages.map(nodeLabels)).toEqual([['Split', 'Across', 'Frames']]);
  });

  it('several messages in one DATA frame reach a client stream in order', async () => {
    const chunk = (sequence: number, size: number) => framed(toBinary(BlobChunkSchema, create(BlobChunkSchema, { sequence, data: new Uint8Array(size) })));
    const oneFrame = Buffer.concat([chunk(0, 10), chunk(1, 0), chunk(2, 300)]);
    const answer = await call(session, { path: '/weft.v1.BlobService/UploadBlob', chunks: [oneFrame, chunk(3, 7)] });
    expect(answer.grpc_status).toBe('0');
    expect(fromBinary(UploadBlobResponseSchema, answer.messages[0]!).chunkIds).toEqual(['0:10', '1:0', '2:300', '3:7']);
  });

  it('gzip and deflate messages are decompressed; the flag decides per message', async () => {
    for (const [encoding, compress] of [['gzip', gzipSync], ['deflate', deflateSync]] as const) {
      const answer = await call(session, {
        path: create_node,
        headers: { 'grpc-encoding': encoding },
        chunks: [framed(compress(nodeRequest(['Packed', encoding])), true)],
      });
      expect(answer.grpc_status).toBe('0');
      expect(answer.messages.map(nodeLabels)).toEqual([['Packed', encoding]]);
      expect(answer.headers['grpc-accept-encoding']).toBe('identity,deflate,gzip');
    }
    const plain = await call(session, { path: create_node, headers: { 'grpc-encoding': 'gzip' }, chunks: [framed(nodeRequest(['Plain']))] });
    expect(plain.messages.map(nodeLabels)).toEqual([['Plain']]);
  });

  it('an unknown encoding is UNIMPLEMENTED and names the accepted ones; a flag without encoding is INTERNAL', async () => {
    const unknown = await call(session, { path: create_node, headers: { 'grpc-encoding': 'snappy' }, chunks: [framed(nodeRequest(['X']), true)] });
    expect(unknown.grpc_status).toBe('12');
    expect(unknown.headers['grpc-accept-encoding']).toBe('identity,deflate,gzip');
    const flagged = await call(session, { path: create_node, chunks: [framed(nodeRequest(['X']), true)] });
    expect(flagged.grpc_status).toBe('13');
    const broken = await call(session, { path: create_node, headers: { 'grpc-encoding': 'gzip' }, chunks: [framed(Buffer.from('not gzip'), true)] });
    expect(broken.grpc_status).toBe('13');
  });

  it('a message over the bound is RESOURCE_EXHAUSTED, by its prefix or once decompressed', async () => {
    const big = nodeRequest(['x'.repeat(message_bytes_max + 1)]);
    const answer = await call(session, { path: create_node, chunks: [framed(big)] });
    expect(answer.grpc_status).toBe('8');
    const bomb = await call(session, { path: create_node, headers: { 'grpc-encoding': 'gzip' }, chunks: [framed(gzipSync(big), true)] });
    expect(bomb.grpc_status).toBe('8');
  });

  it('a content type that is not gRPC is HTTP 415; a method other than POST is 405', async () => {
    for (const type of ['application/json', 'text/plain', 'application/grpc+json']) {
      const answer = await call(session, { path: create_node, headers: { 'content-type': type }, chunks: [framed(nodeRequest(['X']))] });
      expect(answer.headers[':status']).toBe(415);
    }
    const withParams = await call(session, { path: create_node, headers: { 'content-type': 'application/grpc+proto; charset=utf-8' }, chunks: [framed(nodeRequest(['P']))] });
    expect(withParams.grpc_status).toBe('0');
    const get = await call(session, { path: create_node, headers: { ':method': 'GET' }, chunks: [] });
    expect(get.headers[':status']).toBe(405);
  });

  it('an unknown service or method is UNIMPLEMENTED in a trailers-only response', async () => {
    for (const path of ['/weft.v1.GraphService/NoSuchMethod', '/no.such.Service/Call', '/nonsense']) {
      const answer = await call(session, { path, chunks: [framed(nodeRequest(['X']))] });
      expect(answer.headers[':status']).toBe(200);
      expect(answer.headers['grpc-status']).toBe('12');
      expect(answer.trailers['grpc-status']).toBeUndefined();
    }
  });

  it('a unary call with two messages, or one cut short, is INTERNAL', async () => {
    const two = await call(session, { path: create_node, chunks: [Buffer.concat([framed(nodeRequest(['A'])), framed(nodeRequest(['B']))])] });
    expect(two.grpc_status).toBe('13');
    const cut = await call(session, { path: create_node, chunks: [framed(nodeRequest(['Cut'])).subarray(0, 8)] });
    expect(cut.grpc_status).toBe('13');
    const none = await call(session, { path: create_node, chunks: [] });
    expect(none.grpc_status).toBe('13');
  });

  it('grpc-timeout is read in every unit and measured from the call\'s arrival; a malformed one is INTERNAL', async () => {
    const units: [string, number][] = [['2H', 7_200_000], ['3M', 180_000], ['40S', 40_000], ['50000m', 50_000], ['60000000u', 60_000], ['90000000n', 90]];
    for (const [header, expected_ms] of units) {
      const before = seen.length;
      const answer = await call(session, { path: create_node, headers: { 'grpc-timeout': header }, chunks: [framed(nodeRequest(['T']))] });
      expect(answer.grpc_status, header).toBe('0');
      const left = seen[before]!.deadline_in_ms!;
      expect(left).toBeLessThanOrEqual(expected_ms);
      // The call took far less than a second; what is left is the timeout less that.
      if (expected_ms > 1_000) expect(left).toBeGreaterThan(expected_ms - 1_000);
    }
    const malformed = await call(session, { path: create_node, headers: { 'grpc-timeout': '5x' }, chunks: [framed(nodeRequest(['T']))] });
    expect(malformed.grpc_status).toBe('13');
    const tiny = await call(session, { path: '/weft.v1.GraphService/Traverse', headers: { 'grpc-timeout': '1n' }, chunks: [framed(new Uint8Array())] });
    expect(tiny.grpc_status).toBe('4');
  });

  it('custom metadata arrives in ctx.headers and goes out in headers and trailers, -bin values base64', async () => {
    const before = seen.length;
    const answer = await call(session, {
      path: create_node,
      headers: { 'x-request-tag': 'seven', 'x-token-bin': Buffer.from([9, 8, 7]).toString('base64'), 'user-agent': 'raw-test' },
      chunks: [framed(nodeRequest(['meta']))],
    });
    expect(answer.grpc_status).toBe('0');
    const headers = seen[before]!.headers;
    expect(headers['x-request-tag']).toBe('seven');
    expect(Buffer.from(headers['x-token-bin']!, 'base64')).toEqual(Buffer.from([9, 8, 7]));
    expect(headers['content-type']).toBeUndefined();
    expect(headers['te']).toBeUndefined();
    expect(answer.headers['x-reply']).toBe('in the headers');
    expect(Buffer.from(answer.headers['x-reply-bin'] as string, 'base64')).toEqual(Buffer.from([0, 1, 2, 250]));
    const stream = await call(session, { path: '/weft.v1.BlobService/DownloadBlob', chunks: [framed(download('3'))] });
    expect(stream.grpc_status).toBe('0');
    expect(stream.messages).toHaveLength(3);
    expect(stream.trailers['x-after-first']).toBe('in the trailers');
  });

  it('an error carries grpc-status, a percent-encoded grpc-message and grpc-status-details-bin; grpc-js reads them back', async () => {
    const answer = await call(session, { path: '/weft.v1.GraphService/GetNode', chunks: [framed(new Uint8Array())] });
    expect(answer.grpc_status).toBe('5');
    expect(answer.headers['grpc-message']).toBe('no node %C2%AB%C3%BCn%C3%AF%C2%BB at 100%25');
    expect(answer.headers['grpc-status-details-bin']).toBeTruthy();
    const client = createGrpcClient(GraphService, `127.0.0.1:${server.port}`);
    try {
      const e = await client.getNode({}).then(() => undefined, (err: unknown) => err as WeftError);
      expect(e?.code).toBe('NOT_FOUND');
      expect(e?.message).toBe('no node «ünï» at 100%');
      expect(e?.reason).toBe('NODE_GONE');
      expect(e?.metadata).toEqual({ where: 'here' });
    } finally {
      client.close();
    }
  });

  it('a client RST_STREAM aborts ctx.signal with CANCELLED', async () => {
    const before = aborted.length;
    const { stream, answer } = rawRequest(session, { path: '/weft.v1.GraphService/Traverse', chunks: [framed(new Uint8Array())] });
    await new Promise((resolve) => setTimeout(resolve, 50));
    stream.close(http2.constants.NGHTTP2_CANCEL);
    await answer;
    await expect.poll(() => aborted.length).toBe(before + 1);
    expect(aborted[before]).toBe('CANCELLED');
  });

  it('a server stream waits for a client that does not read (flow control), then delivers everything', async () => {
    const count = 200; // 200 x 32 KiB: far more than HTTP/2's initial windows hold
    produced = 0;
    const { stream, answer } = rawRequest(session, { path: '/weft.v1.BlobService/DownloadBlob', chunks: [framed(download(String(count)))] });
    stream.pause();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const while_paused = produced;
    expect(while_paused).toBeLessThan(count);
    stream.resume();
    const done = await answer;
    expect(done.grpc_status).toBe('0');
    expect(done.messages).toHaveLength(count);
    expect(produced).toBe(count);
  });

  it('pings are answered', async () => {
    const rtt = await new Promise<number>((resolve, reject) => session.ping((err, duration) => (err === null ? resolve(duration) : reject(err))));
    expect(rtt).toBeGreaterThanOrEqual(0);
  });
});

describe('stopping the gRPC port', () => {
  it('GOAWAY: a call in flight finishes within drain_ms, the connection takes no new call, stop() resolves', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const graph = implement(GraphService, {
      createNode: async (req) => {
        await gate;
        return { nodeId: 7n, labels: req.labels };
      },
    });
    const server = await startGrpcServer({ port: 0, services: [graph], shutdown_grace_ms: 100 });
    const session = http2.connect(`http://127.0.0.1:${server.port}`);
    const goaway = new Promise<void>((resolve) => session.once('goaway', () => resolve()));
    session.on('error', () => {});
    const body = framed(toBinary(CreateNodeRequestSchema, create(CreateNodeRequestSchema, { labels: ['InFlight'] })));
    const inFlight = call(session, { path: create_node, chunks: [body] });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const stopped = server.stop(10_000);
    await goaway;
    release();
    const answer = await inFlight;
    expect(answer.grpc_status).toBe('0');
    expect(fromBinary(NodeSchema, answer.messages[0]!).labels).toEqual(['InFlight']);
    await stopped;
    expect(server.health.get('')).toBe(ServingStatus.NOT_SERVING);
    expect(() => session.request({ ':method': 'POST', ':path': create_node })).toThrow();
    session.destroy();
  });
});
