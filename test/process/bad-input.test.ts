import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { create, toBinary } from '@bufbuild/protobuf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGrpcClient, createRawGrpcClient, type GrpcClient } from '../../src/api/grpc-client.js';
import { CreateNodeRequestSchema, GraphService } from '../../src/gen/weft/v1/graph_pb.js';
import { rawUnary } from '../support/grpc-raw.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';

/** Bad input against the real server: each gets a clear error, changes nothing, and the server keeps serving. */
let server: ServerProcess;
let grpc: GrpcClient<typeof GraphService>;
let dir: string;
const request_bytes_max = 64 * 1024;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'weft-bad-'));
  server = await startServerProcess(dir, ['--request-bytes-max', String(request_bytes_max)]);
  grpc = createGrpcClient(GraphService, server.grpc);
});
afterAll(async () => {
  grpc?.close();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function nodeCount(): Promise<number> {
  const text = await (await fetch(`${server.ops}/metrics`)).text();
  return Number(/^graphdb_graph_nodes (\d+)/m.exec(text)![1]);
}

async function post(path: string, body: string, contentType = 'application/json'): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(server.rest + path, { method: 'POST', headers: { 'content-type': contentType }, body });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

describe('bad input is refused clearly, changes nothing, and the server keeps serving', () => {
  it('REST: malformed JSON, wrong types, unknown fields, bad values, oversized bodies, unknown ids', async () => {
    await grpc.createNode({ labels: ['Seed'] });
    const before = await nodeCount();
    const cases: [string, string, number, string][] = [
      ['/v1/graph/nodes', '{"labels": ["A"', 400, 'INVALID_ARGUMENT'],
      ['/v1/graph/nodes', '{"labels": "A"}', 400, 'INVALID_ARGUMENT'],
      ['/v1/graph/nodes', '{"labels": ["A"], "color": "red"}', 400, 'INVALID_ARGUMENT'],
      ['/v1/graph/nodes', '{"properties": {"x": {"intValue": "12.5"}}}', 400, 'INVALID_ARGUMENT'],
      ['/v1/graph/nodes', '{"properties": {"x": {"intValue": "1", "stringValue": "a"}}}', 400, 'INVALID_ARGUMENT'],
      ['/v1/graph/nodes', '{"labels": [""]}', 400, 'INVALID_ARGUMENT'],
      ['/v1/graph/nodes', '{"properties": {"m": {"mapValue": {"fields": {}}}}}', 400, 'INVALID_ARGUMENT'],
      ['/v1/graph/nodes', '{"properties": {"l": {"listValue": {"values": [{"intValue": "1"}, {"stringValue": "a"}]}}}}', 400, 'INVALID_ARGUMENT'],
      ['/v1/graph/nodes', JSON.stringify({ labels: ['A'], properties: { big: { stringValue: 'x'.repeat(request_bytes_max) } } }), 413, 'RESOURCE_EXHAUSTED'],
      ['/v1/graph/edges', '{"edgeType": "R", "sourceNodeId": "424242", "targetNodeId": "1"}', 404, 'NOT_FOUND'],
      ['/v1/graph/nodes:batch', '{"nodes": [{"labels": ["A"]}, {"labels": [""]}]}', 400, 'INVALID_ARGUMENT'],
    ];
    for (const [path, body, status, code] of cases) {
      const answer = await post(path, body);
      expect(answer.status, `${path} ${body.slice(0, 80)}`).toBe(status);
      expect(answer.json['code']).toBe(code);
      expect(typeof answer.json['message']).toBe('string');
    }
    const unknown = await fetch(`${server.rest}/v1/graph/nodes/424242`);
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { code: string }).code).toBe('NOT_FOUND');
    expect(await nodeCount()).toBe(before);
    // Still serving.
    expect((await grpc.createNode({ labels: ['After'] })).labels).toEqual(['After']);
  });

  it('gRPC: a truncated protobuf frame and an oversized message are refused; the server keeps serving', async () => {
    const raw = createRawGrpcClient(server.grpc);
    try {
      const whole = Buffer.from(toBinary(CreateNodeRequestSchema, create(CreateNodeRequestSchema, { labels: ['Truncated', 'Frame'] })));
      const before = await nodeCount();
      const truncated = await rawUnary(raw, '/weft.v1.GraphService/CreateNode', whole.subarray(0, whole.length - 3));
      expect(truncated.code).toBe(3); // INVALID_ARGUMENT
      expect(truncated.error?.reason).toBe('MALFORMED_REQUEST');
      const oversized = await rawUnary(raw, '/weft.v1.GraphService/CreateNode', Buffer.alloc(request_bytes_max + 10, 0x0a));
      expect(oversized.code).toBe(8); // RESOURCE_EXHAUSTED
      expect(await nodeCount()).toBe(before);
      expect((await grpc.getNode({ nodeId: 1n })).nodeId).toBe(1n);
    } finally {
      raw.close();
    }
  });
});
