/**
 * The client against Weft's own gRPC server: deadlines and cancellation reach the handler, large
 * chunks written from the caller's buffer arrive whole, and a server stopping mid-call is answered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGrpcClient } from '../../src/api/grpc-client.js';
import { implement } from '../../src/api/handlers.js';
import { WeftError } from '../../src/common/errors.js';
import { BlobService } from '../../src/gen/weft/v1/blob_pb.js';
import { ServerReflection } from '../../src/gen/grpc/reflection/v1/reflection_pb.js';
import { QueryService } from '../../src/gen/weft/v1/query_pb.js';
import { fakeBlobs } from '../api/fake-services.js';
import { startServers, type Servers } from '../api/harness.js';
import { client_http2_engines } from '../../src/common/grpc/client-stream.js';

/** What the scripted handlers saw of their call's signal. */
const seen = { aborted: [] as string[], deadlines_ms: [] as (number | undefined)[] };

/** WatchChanges scripted by its first label: 'endless' streams until cancelled, 'hang' waits for its signal. */
const scripted = implement(QueryService, {
  watchChanges: async function* (req, ctx) {
    const script = req.labels[0];
    seen.deadlines_ms.push(ctx.deadline_ms === undefined ? undefined : ctx.deadline_ms - Date.now());
    for (let i = 0n; !ctx.signal.aborted; i++) {
      if (script === 'endless') yield { commitTs: i };
      await new Promise((r) => setTimeout(r, 5));
    }
    const reason: unknown = ctx.signal.reason;
    seen.aborted.push(reason instanceof WeftError ? reason.code : String(reason));
  },
});

async function waitFor(check: () => boolean, what: string, wait_ms_max = 5000): Promise<void> {
  const until = Date.now() + wait_ms_max;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe.each(client_http2_engines)("the gRPC client against Weft's own server (client on the %s HTTP/2 engine)", (http2_engine) => {
  let servers: Servers;
  let blobs: ReturnType<typeof createGrpcClient<typeof BlobService>>;
  let reflection: ReturnType<typeof createGrpcClient<typeof ServerReflection>>;
  let query: ReturnType<typeof createGrpcClient<typeof QueryService>>;

  beforeAll(async () => {
    servers = await startServers([fakeBlobs(), scripted], { grpc: { message_bytes_max: 4 * 1024 * 1024 } });
    blobs = createGrpcClient(BlobService, servers.grpc_address, { http2_engine });
    reflection = createGrpcClient(ServerReflection, servers.grpc_address, { http2_engine });
    query = createGrpcClient(QueryService, servers.grpc_address, { http2_engine });
  });
  afterAll(async () => {
    blobs.close();
    reflection.close();
    query.close();
    await servers.stop();
  });

  it('256 KiB chunks sent from the caller buffers come back byte for byte', async () => {
    const chunks = Array.from({ length: 8 }, (_, i) => new Uint8Array(256 * 1024).fill(i + 1));
    const up = await blobs.uploadBlob(chunks.map((data, sequence) => ({ data, sequence })));
    expect(up.totalSize).toBe(BigInt(8 * 256 * 1024));
    const back: Uint8Array[] = [];
    for await (const c of blobs.downloadBlob({ blobId: up.blobId })) back.push(c.data);
    expect(Buffer.concat(back).equals(Buffer.concat(chunks))).toBe(true);
  });

  it('a deadline reaches the handler as its context deadline, stops it when it passes, and the caller gets DEADLINE_EXCEEDED', async () => {
    const before = seen.aborted.length;
    const e = await (async () => {
      try {
        for await (const _ of query.watchChanges({ labels: ['hang'] }, { timeout_ms: 200 }));
      } catch (err) {
        return err;
      }
      return undefined;
    })();
    expect(e).toBeInstanceOf(WeftError);
    expect((e as WeftError).code).toBe('DEADLINE_EXCEEDED');
    expect(seen.deadlines_ms.at(-1)).toBeDefined();
    expect(seen.deadlines_ms.at(-1)!).toBeLessThanOrEqual(200);
    // The handler is stopped either by the server's own timer (DEADLINE_EXCEEDED) or by the client's
    // reset at its deadline (which the server reads as DEADLINE_EXCEEDED only when it comes close to
    // its own; under load the request's transit can put it further off, and it is CANCELLED).
    await waitFor(() => seen.aborted.length > before, 'the handler to be stopped');
    expect(['DEADLINE_EXCEEDED', 'CANCELLED']).toContain(seen.aborted.at(-1));
  });

  it('cancelling mid-stream aborts the handler with CANCELLED', async () => {
    const before = seen.aborted.length;
    const abort = new AbortController();
    let got = 0;
    await expect(
      (async () => {
        for await (const _ of query.watchChanges({ labels: ['endless'] }, { signal: abort.signal })) if (++got === 3) abort.abort();
      })(),
    ).rejects.toMatchObject({ code: 'CANCELLED' });
    await waitFor(() => seen.aborted.length > before, 'the handler to see the cancellation');
    expect(seen.aborted.at(-1)).toBe('CANCELLED');
  });

  it("a request over the server's bound is refused with the server's MESSAGE_TOO_LARGE, and the connection still serves", async () => {
    const e = await blobs.uploadBlob([{ sequence: 0, data: new Uint8Array(5 * 1024 * 1024) }]).catch((err: unknown) => err);
    expect(e).toMatchObject({ code: 'RESOURCE_EXHAUSTED', reason: 'MESSAGE_TOO_LARGE' });
    // Bidi on the same connection: the server's reflection lists the services.
    const answers: string[] = [];
    for await (const a of reflection.serverReflectionInfo([{ host: 'a', messageRequest: { case: 'listServices', value: '' } }])) {
      if (a.messageResponse.case === 'listServicesResponse') answers.push(...a.messageResponse.value.service.map((s) => s.name));
    }
    expect(answers).toContain('weft.v1.BlobService');
  });
});
