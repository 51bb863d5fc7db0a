/**
 * The client against a bare HTTP/2 server that answers exactly as each scenario scripts it, for the
 * edges of PROTOCOL-HTTP2 a conforming server seldom shows: trailers-only responses, non-gRPC
 * answers, compressed messages, reset streams, GOAWAY, a response with no status, a restart.
 */
import * as http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { create, toBinary } from '@bufbuild/protobuf';
import { createGrpcClient } from '../../src/api/grpc-client.js';
import { WeftError } from '../../src/common/errors.js';
import { BlobMetaSchema, BlobService } from '../../src/gen/weft/v1/blob_pb.js';
import { framed } from '../support/h2-raw.js';
import { client_http2_engines } from '../../src/common/grpc/client-stream.js';

type Script = (stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders) => void;

interface RawServer {
  readonly port: number;
  script: Script;
  /** Request headers of every stream, in order. */
  readonly requests: http2.IncomingHttpHeaders[];
  readonly sessions: Set<http2.ServerHttp2Session>;
  stop(): Promise<void>;
}

async function startRawServer(port = 0): Promise<RawServer> {
  const server = http2.createServer();
  const raw: RawServer = {
    port: 0,
    script: () => {},
    requests: [],
    sessions: new Set(),
    stop: () =>
      new Promise<void>((resolve) => {
        for (const s of raw.sessions) s.destroy();
        server.close(() => resolve());
      }),
  };
  server.on('session', (s) => {
    raw.sessions.add(s);
    s.on('close', () => raw.sessions.delete(s));
  });
  server.on('stream', (stream, headers) => {
    raw.requests.push(headers);
    stream.on('error', () => {});
    raw.script(stream, headers);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  (raw as { port: number }).port = (server.address() as AddressInfo).port;
  return raw;
}

const meta = (blobId: string): Buffer => framed(toBinary(BlobMetaSchema, create(BlobMetaSchema, { blobId })));

/** Answers one BlobMeta message and OK, once the request has been read. */
const answerOk: Script = (stream) => {
  stream.resume();
  stream.on('end', () => {
    stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
    stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
    stream.end(meta('ok'));
  });
};

async function failure(p: Promise<unknown>): Promise<WeftError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof WeftError) return e;
    throw e;
  }
  throw new Error('the call succeeded');
}

describe.each(client_http2_engines)('the gRPC client on the edges of the HTTP/2 mapping (client on the %s HTTP/2 engine)', (http2_engine) => {
  let server: RawServer;
  let client: ReturnType<typeof createGrpcClient<typeof BlobService>>;

  beforeAll(async () => {
    server = await startRawServer();
    client = createGrpcClient(BlobService, `127.0.0.1:${server.port}`, { http2_engine });
  });
  afterEach(() => {
    server.script = () => {};
  });
  afterAll(async () => {
    client.close();
    await server.stop();
  });

  it('sends the request headers gRPC requires, and the deadline as grpc-timeout in milliseconds', async () => {
    server.script = answerOk;
    expect((await client.getBlobMeta({ blobId: 'x' }, { timeout_ms: 1500 })).blobId).toBe('ok');
    const h = server.requests.at(-1)!;
    expect(h[':method']).toBe('POST');
    expect(h[':path']).toBe('/weft.v1.BlobService/GetBlobMeta');
    expect(h[':scheme']).toBe('http');
    expect(h['content-type']).toBe('application/grpc');
    expect(h['te']).toBe('trailers');
    expect(h['grpc-timeout']).toBe('1500m');
  });

  it('a trailers-only response is the error it states, message percent-decoded', async () => {
    server.script = (stream) => {
      stream.respond({ ':status': 200, 'content-type': 'application/grpc', 'grpc-status': '5', 'grpc-message': 'no %C2%ABb%C2%BB: 100%25 gone %zz' }, { endStream: true });
    };
    const e = await failure(client.getBlobMeta({ blobId: 'x' }));
    expect(e.code).toBe('NOT_FOUND');
    expect(e.message).toBe('no «b»: 100% gone %zz');
  });

  it('a non-gRPC answer maps its HTTP status: 503 is UNAVAILABLE, 404 UNIMPLEMENTED, a 200 of text/html UNKNOWN', async () => {
    server.script = (stream) => stream.respond({ ':status': 503 }, { endStream: true });
    expect((await failure(client.getBlobMeta({ blobId: 'x' }))).code).toBe('UNAVAILABLE');
    server.script = (stream) => stream.respond({ ':status': 404 }, { endStream: true });
    expect((await failure(client.getBlobMeta({ blobId: 'x' }))).code).toBe('UNIMPLEMENTED');
    server.script = (stream) => {
      stream.respond({ ':status': 200, 'content-type': 'text/html' });
      stream.end('<html></html>');
    };
    expect((await failure(client.getBlobMeta({ blobId: 'x' }))).code).toBe('UNKNOWN');
  });

  it('a compressed message is refused clearly: this client accepts identity only', async () => {
    server.script = (stream) => {
      stream.respond({ ':status': 200, 'content-type': 'application/grpc', 'grpc-encoding': 'gzip' });
      stream.end(framed(Buffer.from('not really gzip'), true));
    };
    const e = await failure(client.getBlobMeta({ blobId: 'x' }));
    expect(e.code).toBe('INTERNAL');
    expect(e.message).toContain('compressed');
    expect(server.requests.at(-1)!['grpc-accept-encoding']).toBe('identity');
  });

  it('a response that ends without grpc-status, or inside a message, is INTERNAL', async () => {
    server.script = (stream) => {
      stream.respond({ ':status': 200, 'content-type': 'application/grpc' });
      stream.end(meta('no-status'));
    };
    expect((await failure(client.getBlobMeta({ blobId: 'x' }))).message).toContain('without a grpc-status');
    server.script = (stream) => {
      stream.respond({ ':status': 200, 'content-type': 'application/grpc' });
      stream.end(meta('cut').subarray(0, 4));
    };
    expect((await failure(client.getBlobMeta({ blobId: 'x' }))).message).toContain('inside a message');
  });

  it('an OK unary call with no message, or two, is INTERNAL', async () => {
    server.script = (stream) => stream.respond({ ':status': 200, 'content-type': 'application/grpc', 'grpc-status': '0' }, { endStream: true });
    expect((await failure(client.getBlobMeta({ blobId: 'x' }))).code).toBe('INTERNAL');
  });

  it('RST_STREAM maps to its status: REFUSED_STREAM is UNAVAILABLE, CANCEL is CANCELLED, ENHANCE_YOUR_CALM is RESOURCE_EXHAUSTED', async () => {
    const cases: [number, string][] = [
      [http2.constants.NGHTTP2_REFUSED_STREAM, 'UNAVAILABLE'],
      [http2.constants.NGHTTP2_CANCEL, 'CANCELLED'],
      [http2.constants.NGHTTP2_ENHANCE_YOUR_CALM, 'RESOURCE_EXHAUSTED'],
      [http2.constants.NGHTTP2_INTERNAL_ERROR, 'INTERNAL'],
    ];
    for (const [code, status] of cases) {
      server.script = (stream) => stream.close(code);
      expect((await failure(client.getBlobMeta({ blobId: 'x' }))).code).toBe(status);
    }
    server.script = answerOk;
    expect((await client.getBlobMeta({ blobId: 'x' })).blobId).toBe('ok');
  });

  it('after GOAWAY, new calls go on a new connection while the old one finishes its call', async () => {
    const sessions_before = new Set(server.sessions);
    let held: http2.ServerHttp2Stream | undefined;
    server.script = (stream) => {
      held = stream;
      stream.resume();
    };
    const first = client.getBlobMeta({ blobId: 'held' });
    while (held === undefined) await new Promise((r) => setTimeout(r, 5));
    held.session?.goaway(http2.constants.NGHTTP2_NO_ERROR, held.id ?? 0);
    server.script = answerOk;
    // A call sent before the client read the GOAWAY is refused (REFUSED_STREAM: UNAVAILABLE, safe to
    // send again); once it has read it, calls go on a new connection.
    const until = Date.now() + 5000;
    for (;;) {
      const answer = await client.getBlobMeta({ blobId: 'y' }).catch((e: unknown) => e);
      if (!(answer instanceof WeftError)) {
        expect((answer as { blobId: string }).blobId).toBe('ok');
        break;
      }
      expect(answer.code).toBe('UNAVAILABLE');
      if (Date.now() > until) throw answer;
    }
    expect([...server.sessions].some((s) => !sessions_before.has(s))).toBe(true);
    held.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
    held.on('wantTrailers', () => held?.sendTrailers({ 'grpc-status': '0' }));
    held.end(meta('finished'));
    expect((await first).blobId).toBe('finished');
  });

  it('a dropped connection fails its calls UNAVAILABLE, and the next call connects again', async () => {
    server.script = (stream) => stream.session?.destroy();
    expect((await failure(client.getBlobMeta({ blobId: 'x' }))).code).toBe('UNAVAILABLE');
    server.script = answerOk;
    expect((await client.getBlobMeta({ blobId: 'x' })).blobId).toBe('ok');
  });
});

describe.each(client_http2_engines)('the gRPC client across a server restart (client on the %s HTTP/2 engine)', (http2_engine) => {
  it('fails UNAVAILABLE while the server is down and finds it again once it is back on the same port', async () => {
    let server = await startRawServer();
    server.script = answerOk;
    const port = server.port;
    const client = createGrpcClient(BlobService, `127.0.0.1:${port}`, { http2_engine });
    try {
      expect((await client.getBlobMeta({ blobId: 'x' })).blobId).toBe('ok');
      await server.stop();
      expect((await failure(client.getBlobMeta({ blobId: 'x' }))).code).toBe('UNAVAILABLE');
      server = await startRawServer(port);
      server.script = answerOk;
      // The backoff after the failed connect is at most reconnect_backoff_ms_max (2 s).
      const until = Date.now() + 10_000;
      for (;;) {
        try {
          expect((await client.getBlobMeta({ blobId: 'x' })).blobId).toBe('ok');
          break;
        } catch (e) {
          if (!(e instanceof WeftError) || e.code !== 'UNAVAILABLE' || Date.now() > until) throw e;
          await new Promise((r) => setTimeout(r, 50));
        }
      }
    } finally {
      client.close();
      await server.stop();
    }
  });
});

describe.each(client_http2_engines)('the gRPC client refuses metadata the protocol cannot carry (client on the %s HTTP/2 engine)', (http2_engine) => {
  it('a malformed key or a non-ASCII value fails INVALID_ARGUMENT and the connection keeps serving', async () => {
    const server = await startRawServer();
    server.script = answerOk;
    const client = createGrpcClient(BlobService, `127.0.0.1:${server.port}`, { http2_engine });
    try {
      expect((await failure(client.getBlobMeta({ blobId: 'x' }, { metadata: { 'bad key': 'v' } }))).code).toBe('INVALID_ARGUMENT');
      expect((await failure(client.getBlobMeta({ blobId: 'x' }, { metadata: { 'x-name': 'café' } }))).code).toBe('INVALID_ARGUMENT');
      expect((await client.getBlobMeta({ blobId: 'x' }, { metadata: { 'X-Trace.Id': 'abc-1' } })).blobId).toBe('ok');
      expect(server.requests.at(-1)!['x-trace.id']).toBe('abc-1');
      expect(server.sessions.size).toBe(1);
    } finally {
      client.close();
      await server.stop();
    }
  });
});
