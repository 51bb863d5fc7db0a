import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toJson, type Message } from '@bufbuild/protobuf';
import { WeftError } from '../../src/common/errors.js';
import { createGrpcClient } from '../../src/api/grpc-client.js';
import { restCall, restStreamCall } from '../../src/api/rest-client.js';
import { BlobService } from '../../src/gen/weft/v1/blob_pb.js';
import { GraphService } from '../../src/gen/weft/v1/graph_pb.js';
import { NodeSchema } from '../../src/gen/weft/v1/values_pb.js';
import { QueryService } from '../../src/gen/weft/v1/query_pb.js';
import { fakeBlobs, fakeGraph, fakeQuery, type FakeGraph } from './fake-services.js';
import { startServers, type Servers } from './harness.js';

async function caught(p: Promise<unknown>): Promise<WeftError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof WeftError) return e;
    throw e;
  }
  throw new Error('expected the call to fail');
}

describe('one handler, two transports', () => {
  let servers: Servers;
  let graph: FakeGraph;
  let grpcGraph: ReturnType<typeof createGrpcClient<typeof GraphService>>;
  let grpcBlobs: ReturnType<typeof createGrpcClient<typeof BlobService>>;
  let grpcQuery: ReturnType<typeof createGrpcClient<typeof QueryService>>;

  beforeAll(async () => {
    graph = fakeGraph();
    servers = await startServers([graph.service, fakeBlobs(), fakeQuery()]);
    grpcGraph = createGrpcClient(GraphService, servers.grpc_address);
    grpcBlobs = createGrpcClient(BlobService, servers.grpc_address);
    grpcQuery = createGrpcClient(QueryService, servers.grpc_address);
  });
  afterAll(async () => {
    grpcGraph.close();
    grpcBlobs.close();
    grpcQuery.close();
    await servers.stop();
  });

  it('a node created over gRPC reads the same over gRPC, REST by id and REST by element id', async () => {
    const created = await grpcGraph.createNode({
      labels: ['Person'],
      properties: {
        name: { kind: { case: 'stringValue', value: 'Ada' } },
        born: { kind: { case: 'intValue', value: 1815n } },
        embedding: { kind: { case: 'vectorValue', value: { values: [0.5, 0.25] } } },
        photo: { kind: { case: 'bytesValue', value: new Uint8Array([1, 2, 3]) } },
      },
    });
    const viaGrpc = await grpcGraph.getNode({ nodeId: created.nodeId });
    const viaRest = await restCall(servers.rest_url, GraphService.method.getNode, { nodeId: created.nodeId });
    const viaElement = await restCall(servers.rest_url, GraphService.method.getNode, { elementId: created.elementId });
    const json = (m: Message): unknown => toJson(NodeSchema, m as typeof viaGrpc);
    expect(json(viaRest)).toEqual(json(viaGrpc));
    expect(json(viaElement)).toEqual(json(viaGrpc));
  });

  it('REST JSON uses the proto3 mapping: int64 as decimal strings, lowerCamelCase keys, SPEC value keys', async () => {
    const res = await fetch(`${servers.rest_url}/v1/graph/nodes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        labels: ['Doc'],
        properties: { n: { intValue: '9007199254740993' }, f: { floatValue: 1.5 }, b: { boolValue: true }, l: { listValue: { values: [{ stringValue: 'x' }] } } },
      }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(typeof body['nodeId']).toBe('string');
    expect(body['properties']).toEqual({
      n: { intValue: '9007199254740993' },
      f: { floatValue: 1.5 },
      b: { boolValue: true },
      l: { listValue: { values: [{ stringValue: 'x' }] } },
    });
    expect(body['elementId']).toMatch(/^[0-9A-HJKMNP-TV-Z]{13}$/);
  });

  it('the original field spelling is accepted on input, lowerCamelCase is written on output', async () => {
    const res = await fetch(`${servers.rest_url}/v1/graph/nodes:batch`, {
      method: 'POST',
      body: JSON.stringify({ nodes: [{ labels: ['A'] }, { labels: ['B'], properties: { k: { string_value: 'v' } } }] }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { nodes: Record<string, unknown>[] };
    expect(body.nodes.map((n) => n['labels'])).toEqual([['A'], ['B']]);
    expect(body.nodes[1]?.['properties']).toEqual({ k: { stringValue: 'v' } });
  });

  it('an expected failure carries code, reason and metadata on both transports', async () => {
    const overGrpc = await caught(grpcGraph.getNode({ nodeId: 404n }));
    const overRest = await caught(restCall(servers.rest_url, GraphService.method.getNode, { nodeId: 404n }));
    for (const e of [overGrpc, overRest]) {
      expect(e.code).toBe('NOT_FOUND');
      expect(e.reason).toBe('NODE_NOT_FOUND');
      expect(e.metadata).toEqual({ node_id: '404' });
    }
    const raw = await fetch(`${servers.rest_url}/v1/graph/nodes/404`);
    expect(raw.status).toBe(404);
    expect(await raw.json()).toEqual({ code: 'NOT_FOUND', message: 'node 404 not found', reason: 'NODE_NOT_FOUND', metadata: { node_id: '404' } });
  });

  it('a SPEC reason keeps its catalog code and metadata over both transports', async () => {
    const operation = { issuer: new Uint8Array(16), incarnation: 1n, sequence: 7n, deployment: new Uint8Array(16) };
    const overGrpc = await caught(grpcGraph.createNode({ labels: ['X'], operation }));
    const overRest = await caught(restCall(servers.rest_url, GraphService.method.createNode, { labels: ['X'], operation }));
    for (const e of [overGrpc, overRest]) {
      expect([e.code, e.reason, e.metadata]).toEqual(['FAILED_PRECONDITION', 'OPERATION_SETTLED', { outcome: 'created', commit_ts: '42' }]);
    }
  });

  it('a handler bug answers INTERNAL with an error id, logs the fault, and shows no stack', async () => {
    const overGrpc = await caught(grpcGraph.createNode({ labels: ['Boom'] }));
    const res = await fetch(`${servers.rest_url}/v1/graph/nodes`, { method: 'POST', body: '{"labels":["Boom"]}' });
    const overRest = (await res.json()) as { code: string; message: string; metadata: { error_id: string } };
    expect(res.status).toBe(500);
    expect(overGrpc.code).toBe('INTERNAL');
    expect(overRest.code).toBe('INTERNAL');
    for (const id of [overGrpc.metadata['error_id'], overRest.metadata.error_id]) {
      expect(servers.faults.get(id ?? '')).toBeInstanceOf(Error);
    }
    expect(overGrpc.message).not.toContain('a bug in the handler');
    expect(overRest.message).not.toContain('at ');
  });

  it('each finished call is reported to the observer with its transport, method and outcome', async () => {
    servers.calls.length = 0;
    await grpcGraph.getNode({ nodeId: 1n });
    await caught(restCall(servers.rest_url, GraphService.method.getNode, { nodeId: 999n }));
    await expect.poll(() => servers.calls.length).toBe(2);
    expect(servers.calls.map((c) => [c.transport, c.method, c.code])).toEqual([
      ['grpc', '/weft.v1.GraphService/GetNode', 'OK'],
      ['rest', '/weft.v1.GraphService/GetNode', 'NOT_FOUND'],
    ]);
    expect(servers.calls.every((c) => c.duration_ms >= 0)).toBe(true);
  });

  it('a method without a handler is UNIMPLEMENTED: 501 over REST', async () => {
    const overGrpc = await caught(grpcGraph.enrollIssuer({ issuer: new Uint8Array(16) }));
    expect(overGrpc.code).toBe('UNIMPLEMENTED');
    const res = await fetch(`${servers.rest_url}/v1/graph/issuers:enroll`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(501);
    expect(((await res.json()) as { code: string }).code).toBe('UNIMPLEMENTED');
  });

  it('a server stream arrives whole on gRPC and as NDJSON on REST', async () => {
    const overGrpc: bigint[] = [];
    for await (const e of grpcQuery.watchChanges({ fromCommitTs: 100n, labels: ['A'] })) overGrpc.push(e.commitTs);
    const res = await fetch(`${servers.rest_url}/v1/changes?fromCommitTs=100&labels=A`);
    expect(res.headers.get('content-type')).toContain('application/x-ndjson');
    const lines = (await res.text()).trim().split('\n').map((l) => JSON.parse(l) as { commitTs: string; operation: string });
    expect(overGrpc).toEqual([100n, 101n, 102n]);
    expect(lines.map((l) => l.commitTs)).toEqual(['100', '101', '102']);
    expect(lines[0]?.operation).toBe('CHANGE_OPERATION_NODE_CREATED');
  });

  it('an error in the middle of a stream: gRPC status after the messages, a final error line on REST', async () => {
    const seen: bigint[] = [];
    const e = await caught(
      (async () => {
        for await (const ev of grpcQuery.watchChanges({ fromCommitTs: 1n, labels: ['Fail'] })) seen.push(ev.commitTs);
      })(),
    );
    expect(seen).toEqual([1n, 2n, 3n]);
    expect(e.code).toBe('UNAVAILABLE');
    const rest = await caught(restStreamCall(servers.rest_url, QueryService.method.watchChanges, { fromCommitTs: 1n, labels: ['Fail'] }));
    expect(rest.code).toBe('UNAVAILABLE');
    expect((rest as WeftError & { received: unknown[] }).received).toHaveLength(3);
  });

  it('a stream that fails before its first message gets its own HTTP status', async () => {
    const res = await fetch(`${servers.rest_url}/v1/blobs/feed`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { code: string }).code).toBe('NOT_FOUND');
  });

  it('a client stream uploads over gRPC and as NDJSON over REST with the same answer', async () => {
    const chunks = [new TextEncoder().encode('hello '), new TextEncoder().encode('world')];
    const overGrpc = await grpcBlobs.uploadBlob(chunks.map((data, sequence) => ({ data, sequence })));
    const body = chunks.map((data, sequence) => JSON.stringify({ data: Buffer.from(data).toString('base64'), sequence })).join('\n') + '\n';
    const res = await fetch(`${servers.rest_url}/v1/blobs`, { method: 'POST', headers: { 'content-type': 'application/x-ndjson' }, body });
    expect(res.status).toBe(200);
    const overRest = (await res.json()) as { blobId: string; totalSize: string; chunkIds: string[] };
    expect(overRest.blobId).toBe(overGrpc.blobId);
    expect(overRest.totalSize).toBe('11');
    expect(overRest.chunkIds).toEqual(overGrpc.chunkIds);
    const down: string[] = [];
    for await (const c of grpcBlobs.downloadBlob({ blobId: overGrpc.blobId })) down.push(new TextDecoder().decode(c.data));
    expect(down.join('')).toBe('hello world');
    const restDown = await fetch(`${servers.rest_url}/v1/blobs/${overGrpc.blobId}`);
    const lines = (await restDown.text()).trim().split('\n').map((l) => JSON.parse(l) as { sequence: number });
    expect(lines.map((l) => l.sequence)).toEqual([0, 1]);
  });

  it('a bad line in an NDJSON upload fails the upload with INVALID_ARGUMENT', async () => {
    const res = await fetch(`${servers.rest_url}/v1/blobs`, { method: 'POST', body: '{"data":"aGk=","sequence":0}\n{"data": 5}\n' });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { code: string; reason: string };
    expect([body.code, body.reason]).toEqual(['INVALID_ARGUMENT', 'INVALID_REQUEST_FIELD']);
  });
});

describe('stopping', () => {
  it('stop() ends a live change feed on both transports instead of waiting for it', async () => {
    const servers = await startServers([fakeQuery()], { grpc: { shutdown_grace_ms: 10_000 } });
    const client = createGrpcClient(QueryService, servers.grpc_address);
    const grpcSeen: bigint[] = [];
    const grpcDone = (async () => {
      try {
        for await (const e of client.watchChanges({ fromCommitTs: 1n, labels: ['Live'] })) grpcSeen.push(e.commitTs);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    const res = await fetch(`${servers.rest_url}/v1/changes?labels=Live`);
    expect(res.status).toBe(200);
    const restBody = res.text();
    await expect.poll(() => grpcSeen.length).toBe(3);
    const started = Date.now();
    await servers.stop();
    expect(Date.now() - started).toBeLessThan(5_000);
    const lines = (await restBody).trim().split('\n');
    expect(lines).toHaveLength(4);
    expect(JSON.parse(lines[3] ?? '{}')).toMatchObject({ error: { code: 'UNAVAILABLE' } });
    expect(await grpcDone).toMatchObject({ code: 'UNAVAILABLE' });
    client.close();
  });
});

describe('deadlines', () => {
  let servers: Servers;
  let graph: FakeGraph;
  beforeAll(async () => {
    graph = fakeGraph();
    servers = await startServers([graph.service]);
  });
  afterAll(() => servers.stop());

  it('a gRPC deadline aborts ctx.signal with DEADLINE_EXCEEDED and the caller sees DEADLINE_EXCEEDED', async () => {
    const client = createGrpcClient(GraphService, servers.grpc_address);
    const before = graph.aborted.length;
    const e = await caught(client.traverse({ maxDepth: 1 }, { timeout_ms: 150 }));
    expect(e.code).toBe('DEADLINE_EXCEEDED');
    await expect.poll(() => graph.aborted.length).toBe(before + 1);
    expect(graph.aborted[before]).toBe('DEADLINE_EXCEEDED');
    client.close();
  });

  it('X-Weft-Timeout-Ms and grpc-timeout set a REST deadline: 504 and the handler sees its signal abort', async () => {
    for (const headers of [{ 'x-weft-timeout-ms': '120' }, { 'grpc-timeout': '120m' }]) {
      const before = graph.aborted.length;
      const started = Date.now();
      const res = await fetch(`${servers.rest_url}/v1/graph/traverse`, { method: 'POST', headers, body: '{}' });
      expect(res.status).toBe(504);
      expect(((await res.json()) as { code: string }).code).toBe('DEADLINE_EXCEEDED');
      expect(Date.now() - started).toBeGreaterThanOrEqual(100);
      await expect.poll(() => graph.aborted.length).toBe(before + 1);
      expect(graph.aborted[before]).toBe('DEADLINE_EXCEEDED');
    }
  });

  it('a REST client that goes away cancels the handler', async () => {
    const before = graph.aborted.length;
    const controller = new AbortController();
    const pending = fetch(`${servers.rest_url}/v1/graph/traverse`, { method: 'POST', body: '{}', signal: controller.signal });
    await new Promise((r) => setTimeout(r, 100));
    controller.abort();
    await expect(pending).rejects.toThrow();
    await expect.poll(() => graph.aborted.length).toBe(before + 1);
    expect(graph.aborted[before]).toBe('CANCELLED');
  });

  it('a malformed timeout header is refused, not ignored', async () => {
    const res = await fetch(`${servers.rest_url}/v1/graph/traverse`, { method: 'POST', headers: { 'grpc-timeout': 'soon' }, body: '{}' });
    expect(res.status).toBe(400);
  });
});
