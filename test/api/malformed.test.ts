import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as grpc from '@grpc/grpc-js';
import { create, toBinary } from '@bufbuild/protobuf';
import { rawUnary } from '../support/grpc-raw.js';
import { createGrpcClient, createRawGrpcClient } from '../../src/api/grpc-client.js';
import { CreateNodeRequestSchema, GraphService } from '../../src/gen/weft/v1/graph_pb.js';
import { fakeBlobs, fakeGraph } from './fake-services.js';
import { startServers, type Servers } from './harness.js';

const message_bytes_max = 4096;
const body_bytes_max = 4096;

describe('malformed and oversized requests are refused clearly and the server keeps serving', () => {
  let servers: Servers;
  let raw: grpc.Client;
  let client: ReturnType<typeof createGrpcClient<typeof GraphService>>;

  beforeAll(async () => {
    servers = await startServers([fakeGraph().service, fakeBlobs()], {
      grpc: { message_bytes_max },
      rest: { body_bytes_max, stream_line_bytes_max: body_bytes_max },
    });
    raw = createRawGrpcClient(servers.grpc_address);
    client = createGrpcClient(GraphService, servers.grpc_address);
  });
  afterAll(async () => {
    raw.close();
    client.close();
    await servers.stop();
  });

  async function stillServes(): Promise<void> {
    const node = await client.createNode({ labels: ['Alive'] });
    expect(node.labels).toEqual(['Alive']);
    const res = await fetch(`${servers.rest_url}/v1/graph/nodes/${node.nodeId}`);
    expect(res.status).toBe(200);
  }

  it('gRPC: a truncated protobuf frame is INVALID_ARGUMENT (MALFORMED_REQUEST), not INTERNAL', async () => {
    const whole = toBinary(CreateNodeRequestSchema, create(CreateNodeRequestSchema, { labels: ['Person', 'Employee'] }));
    const truncated = Buffer.from(whole.subarray(0, whole.length - 3));
    const answer = await rawUnary(raw, '/weft.v1.GraphService/CreateNode', truncated);
    expect(answer.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(answer.error?.reason).toBe('MALFORMED_REQUEST');
    expect(answer.error?.message).toContain('weft.v1.CreateNodeRequest');
    await stillServes();
  });

  it('gRPC: bytes that are no protobuf at all (a wrong wire type) are INVALID_ARGUMENT', async () => {
    const answer = await rawUnary(raw, '/weft.v1.GraphService/CreateNode', Buffer.from([0x0f, 0xff, 0xff]));
    expect(answer.code).toBe(grpc.status.INVALID_ARGUMENT);
    await stillServes();
  });

  it('gRPC: a request over message_bytes_max is RESOURCE_EXHAUSTED', async () => {
    const big = toBinary(CreateNodeRequestSchema, create(CreateNodeRequestSchema, { labels: ['x'.repeat(message_bytes_max * 2)] }));
    const answer = await rawUnary(raw, '/weft.v1.GraphService/CreateNode', Buffer.from(big));
    expect(answer.code).toBe(grpc.status.RESOURCE_EXHAUSTED);
    await stillServes();
  });

  it('REST: malformed JSON is 400 INVALID_ARGUMENT with reason MALFORMED_REQUEST', async () => {
    const res = await fetch(`${servers.rest_url}/v1/graph/nodes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"labels": [' });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { code: string; reason: string };
    expect([body.code, body.reason]).toEqual(['INVALID_ARGUMENT', 'MALFORMED_REQUEST']);
    await stillServes();
  });

  it('REST: a field of the wrong type is 400 INVALID_REQUEST_FIELD naming the field', async () => {
    for (const body of ['{"labels": "Person"}', '{"properties": {"a": {"intValue": "twelve"}}}', '{"labels": [1]}', '[]']) {
      const res = await fetch(`${servers.rest_url}/v1/graph/nodes`, { method: 'POST', body });
      expect(res.status, body).toBe(400);
      const answer = (await res.json()) as { code: string; reason: string; message: string };
      expect([answer.code, answer.reason], body).toEqual(['INVALID_ARGUMENT', 'INVALID_REQUEST_FIELD']);
    }
    const res = await fetch(`${servers.rest_url}/v1/graph/nodes/twelve`);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toContain('node_id');
    await stillServes();
  });

  it('REST: an unknown field is refused, in the body and in the query', async () => {
    const res = await fetch(`${servers.rest_url}/v1/graph/nodes`, { method: 'POST', body: '{"labels": [], "colour": "red"}' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toContain('colour');
    const q = await fetch(`${servers.rest_url}/v1/graph/nodes/1?colour=red`);
    expect(q.status).toBe(400);
    const v = await fetch(`${servers.rest_url}/v1/graph/nodes?colour=red`, { method: 'POST', body: '{}' });
    expect(v.status).toBe(400);
    await stillServes();
  });

  it('REST: a body over body_bytes_max is 413 RESOURCE_EXHAUSTED (MESSAGE_TOO_LARGE), by length or by streaming', async () => {
    const body = JSON.stringify({ labels: ['x'.repeat(body_bytes_max * 2)] });
    const declared = await fetch(`${servers.rest_url}/v1/graph/nodes`, { method: 'POST', body });
    expect(declared.status).toBe(413);
    const answer = (await declared.json()) as { code: string; reason: string; metadata: Record<string, string> };
    expect([answer.code, answer.reason, answer.metadata['limit_bytes']]).toEqual(['RESOURCE_EXHAUSTED', 'MESSAGE_TOO_LARGE', String(body_bytes_max)]);
    // Without a content-length the bound applies while reading.
    const chunked = await fetch(`${servers.rest_url}/v1/graph/nodes`, {
      method: 'POST',
      body: new Blob([body]).stream(),
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
    await stillServes();
  });

  it('REST: an NDJSON upload line over the line bound is 413', async () => {
    const line = JSON.stringify({ data: Buffer.alloc(body_bytes_max).toString('base64'), sequence: 0 });
    const res = await fetch(`${servers.rest_url}/v1/blobs`, { method: 'POST', body: line + '\n' });
    expect(res.status).toBe(413);
    await stillServes();
  });

  it('REST: an unknown route is 404 ROUTE_NOT_FOUND with the catalog body', async () => {
    const res = await fetch(`${servers.rest_url}/v1/graph/colours`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { reason: string }).reason).toBe('ROUTE_NOT_FOUND');
  });
});
