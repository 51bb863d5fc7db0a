import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGrpcClient } from '../../src/api/grpc-client.js';
import { WeftError } from '../../src/common/errors.js';
import { BlobService } from '../../src/gen/weft/v1/blob_pb.js';
import { ServerReflection } from '../../src/gen/grpc/reflection/v1/reflection_pb.js';
import { error_message, startGrpcJsServer, type GrpcJsServer } from './grpc-js-server.js';
import { client_http2_engines } from '../../src/common/grpc/client-stream.js';

async function failure(p: Promise<unknown> | (() => Promise<unknown>)): Promise<WeftError> {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (e) {
    if (e instanceof WeftError) return e;
    throw e;
  }
  throw new Error('the call succeeded');
}

async function drain<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

async function waitFor(check: () => boolean, what: string, wait_ms_max = 5000): Promise<void> {
  const until = Date.now() + wait_ms_max;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe.each(client_http2_engines)('the gRPC client against grpc-js, a second implementation of the wire (client on the %s HTTP/2 engine)', (http2_engine) => {
  let server: GrpcJsServer;
  let blobs: ReturnType<typeof createGrpcClient<typeof BlobService>>;
  let reflection: ReturnType<typeof createGrpcClient<typeof ServerReflection>>;

  beforeAll(async () => {
    server = await startGrpcJsServer();
    blobs = createGrpcClient(BlobService, server.address, { message_bytes_max: 32 * 1024 * 1024, http2_engine });
    reflection = createGrpcClient(ServerReflection, server.address, { http2_engine });
  });
  afterAll(async () => {
    blobs.close();
    reflection.close();
    await server.stop();
  });

  it('unary: the answer decodes, and the request carried the caller metadata', async () => {
    const meta = await blobs.getBlobMeta({ blobId: 'b-7' }, { metadata: { 'x-trace': 'abc' } });
    expect(meta.blobId).toBe('b-7');
    expect(meta.totalSize).toBe(7n);
    expect(server.seen.metadata['x-trace']).toBe('abc');
    expect(server.seen.metadata['user-agent']).toMatch(/weft/);
    expect(server.seen.deadline_in_ms).toBeUndefined();
  });

  it('an error with google.rpc details becomes the WeftError it names, message percent-decoded', async () => {
    const e = await failure(blobs.getBlobMeta({ blobId: 'fail' }));
    expect(e.code).toBe('NOT_FOUND');
    expect(e.message).toBe(error_message);
    expect(e.reason).toBe('BLOB_NOT_FOUND');
    expect(e.metadata).toEqual({ blob_id: 'b-1' });
  });

  it('a deadline is sent as grpc-timeout and ends an unanswered call DEADLINE_EXCEEDED', async () => {
    const e = await failure(blobs.getBlobMeta({ blobId: 'hang' }, { timeout_ms: 300 }));
    expect(e.code).toBe('DEADLINE_EXCEEDED');
    const seen_ms = server.seen.deadline_in_ms;
    expect(seen_ms).toBeDefined();
    expect(seen_ms!).toBeLessThanOrEqual(300);
  });

  it('an abort signal cancels a unary call in flight, and the server hears of it', async () => {
    const before = server.seen.cancelled;
    const arrived = server.seen.arrived;
    const abort = new AbortController();
    const pending = failure(blobs.getBlobMeta({ blobId: 'hang' }, { signal: abort.signal }));
    await waitFor(() => server.seen.arrived > arrived, 'the call to arrive');
    abort.abort();
    expect((await pending).code).toBe('CANCELLED');
    await waitFor(() => server.seen.cancelled > before, 'the server to see the cancellation');
  });

  it('server streaming: every message arrives in order', async () => {
    const chunks = await drain(blobs.downloadBlob({ blobId: 'count:100' }));
    expect(chunks.map((c) => c.sequence)).toEqual(Array.from({ length: 100 }, (_, i) => i));
    expect(chunks.every((c) => c.data.length === 1000)).toBe(true);
  });

  it('server streaming: messages before an error are delivered, then the error with its details', async () => {
    const got: number[] = [];
    const e = await failure(async () => {
      for await (const c of blobs.downloadBlob({ blobId: 'fail-after:3' })) got.push(c.sequence);
    });
    expect(got).toEqual([0, 1, 2]);
    expect(e.code).toBe('NOT_FOUND');
    expect(e.reason).toBe('BLOB_NOT_FOUND');
  });

  it('cancellation mid-stream: aborting ends the stream CANCELLED and the server sees the reset', async () => {
    const before = server.seen.cancelled;
    const abort = new AbortController();
    let received = 0;
    const e = await failure(async () => {
      for await (const _ of blobs.downloadBlob({ blobId: 'endless' }, { signal: abort.signal })) {
        if (++received === 5) abort.abort();
      }
    });
    expect(e.code).toBe('CANCELLED');
    await waitFor(() => server.seen.cancelled > before, 'the server to see the cancellation');
  });

  it('leaving a stream loop early cancels the call on the server', async () => {
    const before = server.seen.cancelled;
    for await (const c of blobs.downloadBlob({ blobId: 'endless' })) if (c.sequence === 3) break;
    await waitFor(() => server.seen.cancelled > before, 'the server to see the cancellation');
  });

  it('a deadline ends a stream that outlives it DEADLINE_EXCEEDED', async () => {
    const e = await failure(() => drain(blobs.downloadBlob({ blobId: 'endless' }, { timeout_ms: 200 })));
    expect(e.code).toBe('DEADLINE_EXCEEDED');
  });

  it('large messages: an 8 MiB message each way', async () => {
    const big = 8 * 1024 * 1024;
    const [down] = await drain(blobs.downloadBlob({ blobId: `big:${big}` }));
    expect(down?.data.length).toBe(big);
    expect(down?.data[big - 1]).toBe(0);
    const up = await blobs.uploadBlob([{ sequence: 0, data: new Uint8Array(big).fill(9) }, { sequence: 1, data: new Uint8Array(10) }]);
    expect(up.totalSize).toBe(BigInt(big + 10));
    expect(up.chunkIds).toEqual(['0', '1']);
  });

  it('message bounds hold both ways: a larger answer or request fails RESOURCE_EXHAUSTED, and the client still works', async () => {
    const small = createGrpcClient(BlobService, server.address, { message_bytes_max: 1024 * 1024, http2_engine });
    try {
      const down = await failure(() => drain(small.downloadBlob({ blobId: `big:${2 * 1024 * 1024}` })));
      expect(down.code).toBe('RESOURCE_EXHAUSTED');
      expect(down.reason).toBe('MESSAGE_TOO_LARGE');
      const up = await failure(small.uploadBlob([{ sequence: 0, data: new Uint8Array(2 * 1024 * 1024) }]));
      expect(up.code).toBe('RESOURCE_EXHAUSTED');
      const unary = await failure(small.getBlobMeta({ blobId: `big:${2 * 1024 * 1024}` }));
      expect(unary.code).toBe('RESOURCE_EXHAUSTED');
      expect((await small.getBlobMeta({ blobId: 'still-here' })).blobId).toBe('still-here');
    } finally {
      small.close();
    }
  });

  it('client streaming from an async source, with flow control over many messages', async () => {
    async function* chunks(): AsyncGenerator<{ sequence: number; data: Uint8Array }> {
      for (let i = 0; i < 64; i++) yield { sequence: i, data: new Uint8Array(256 * 1024) };
    }
    const up = await blobs.uploadBlob(chunks());
    expect(up.totalSize).toBe(BigInt(64 * 256 * 1024));
    expect(up.chunkIds.length).toBe(64);
  });

  it('a request source that throws cancels the call with its own error', async () => {
    function* broken(): Generator<{ sequence: number }> {
      yield { sequence: 0 };
      throw new Error('the source broke');
    }
    await expect(blobs.uploadBlob(broken())).rejects.toThrow('the source broke');
  });

  it('bidi: each request is answered in turn; an error ends the stream with its status', async () => {
    const answers = await drain(reflection.serverReflectionInfo([{ host: 'a' }, { host: 'b' }, { host: 'c' }]));
    expect(answers.map((a) => a.validHost)).toEqual(['echo a', 'echo b', 'echo c']);
    const e = await failure(() => drain(reflection.serverReflectionInfo([{ host: 'a' }, { host: 'fail' }])));
    expect(e.code).toBe('NOT_FOUND');
    expect(e.reason).toBe('BLOB_NOT_FOUND');
  });

  it('a thousand unary calls at once share the connection', async () => {
    const ids = Array.from({ length: 1000 }, (_, i) => `n-${i}`);
    const metas = await Promise.all(ids.map((blobId) => blobs.getBlobMeta({ blobId })));
    expect(metas.map((m) => m.blobId)).toEqual(ids);
  });
});
