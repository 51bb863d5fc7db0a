import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toJson, type DescMessage, type MessageShape } from '@bufbuild/protobuf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGrpcClient, type GrpcClient } from '../../src/api/grpc-client.js';
import { restCall } from '../../src/api/rest-client.js';
import { GraphService, TraversalDirection } from '../../src/gen/weft/v1/graph_pb.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';

/** The same Graph service calls over gRPC and over REST give the same answers and the same errors. */
let server: ServerProcess;
let grpc: GrpcClient<typeof GraphService>;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'weft-parity-'));
  server = await startServerProcess(dir);
  grpc = createGrpcClient(GraphService, server.grpc);
});
afterAll(async () => {
  grpc?.close();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const rest = <K extends keyof typeof GraphService.method>(method: K, req: unknown) =>
  restCall(server.rest, GraphService.method[method], req) as Promise<never>;
const json = <D extends DescMessage>(schema: D, m: MessageShape<D>) => toJson(schema, m) as Record<string, unknown>;
const withoutIdentity = (node: Record<string, unknown>) => ({ ...node, nodeId: undefined, elementId: undefined, version: undefined });

async function failureOf(p: Promise<unknown>): Promise<{ code: string; reason: string }> {
  try {
    await p;
  } catch (e) {
    const err = e as { code: string; reason: string };
    return { code: err.code, reason: err.reason };
  }
  throw new Error('the call succeeded');
}

describe('graph service parity: gRPC and REST', () => {
  const props = {
    name: { kind: { case: 'stringValue' as const, value: 'Ada' } },
    age: { kind: { case: 'intValue' as const, value: 36n } },
    score: { kind: { case: 'floatValue' as const, value: 1.5 } },
    ok: { kind: { case: 'boolValue' as const, value: true } },
    emb: { kind: { case: 'vectorValue' as const, value: { values: [0.5, 0.25] } } },
    tags: { kind: { case: 'listValue' as const, value: { values: [{ kind: { case: 'stringValue' as const, value: 'a' } }] } } },
    raw: { kind: { case: 'bytesValue' as const, value: new Uint8Array([1, 2, 3]) } },
  };

  it('CreateNode and GetNode (by id and by element id) answer alike', async () => {
    const a = await grpc.createNode({ labels: ['Person', 'Person', 'Pilot'], properties: props });
    const b: MessageShape<typeof GraphService.method.createNode.output> = await rest('createNode', { labels: ['Person', 'Person', 'Pilot'], properties: props });
    const ja = json(GraphService.method.createNode.output, a);
    const jb = json(GraphService.method.createNode.output, b);
    expect(withoutIdentity(ja)).toEqual(withoutIdentity(jb));
    expect(ja['labels']).toEqual(['Person', 'Pilot']);
    expect(a.version).toBeGreaterThan(0n);
    for (const id of [a.nodeId, b.nodeId]) {
      const viaGrpc = await grpc.getNode({ nodeId: id });
      const viaRest: MessageShape<typeof GraphService.method.getNode.output> = await rest('getNode', { nodeId: id });
      const viaElement: MessageShape<typeof GraphService.method.getNode.output> = await rest('getNode', { elementId: viaGrpc.elementId });
      expect(json(GraphService.method.getNode.output, viaRest)).toEqual(json(GraphService.method.getNode.output, viaGrpc));
      expect(json(GraphService.method.getNode.output, viaElement)).toEqual(json(GraphService.method.getNode.output, viaGrpc));
      expect(viaGrpc.elementId).toHaveLength(13);
    }
  });

  it('CreateNodesBatch: input order, equal length, empty is a no-op, on both transports', async () => {
    const nodes = [0, 1, 2].map((i) => ({ labels: ['B'], properties: { i: { kind: { case: 'intValue' as const, value: BigInt(i) } } } }));
    const a = await grpc.createNodesBatch({ nodes });
    const b: MessageShape<typeof GraphService.method.createNodesBatch.output> = await rest('createNodesBatch', { nodes });
    for (const res of [a, b]) {
      expect(res.nodes.map((n) => n.properties['i']?.kind.value)).toEqual([0n, 1n, 2n]);
      expect(new Set(res.nodes.map((n) => n.version)).size).toBe(1);
    }
    expect((await grpc.createNodesBatch({ nodes: [] })).nodes).toEqual([]);
    expect(((await rest('createNodesBatch', { nodes: [] })) as { nodes: unknown[] }).nodes).toEqual([]);
  });

  it('CreateEdge and Traverse answer alike, with pagination pinned to one snapshot', async () => {
    const hub = await grpc.createNode({ labels: ['Hub'] });
    const spokes = await grpc.createNodesBatch({ nodes: Array.from({ length: 5 }, () => ({ labels: ['Spoke'] })) });
    const e1 = await grpc.createEdge({ edgeType: 'LINK', sourceNodeId: hub.nodeId, targetNodeId: spokes.nodes[0]!.nodeId });
    const e2: MessageShape<typeof GraphService.method.createEdge.output> = await rest('createEdge', {
      edgeType: 'LINK',
      sourceElementId: hub.elementId,
      targetElementId: spokes.nodes[1]!.elementId,
    });
    expect(e1.edgeType).toBe(e2.edgeType);
    expect(e1.sourceNodeId).toBe(e2.sourceNodeId);
    for (const s of spokes.nodes.slice(2)) await grpc.createEdge({ edgeType: 'LINK', sourceNodeId: hub.nodeId, targetNodeId: s.nodeId });
    await grpc.createEdge({ edgeType: 'LINK', sourceNodeId: spokes.nodes[0]!.nodeId, targetNodeId: hub.nodeId });
    const req = { startNodeId: hub.nodeId, edgeType: 'LINK', direction: TraversalDirection.OUTBOUND, maxDepth: 2, pagination: { pageSize: 2 } };
    const pagesOf = async (call: (r: typeof req) => Promise<MessageShape<typeof GraphService.method.traverse.output>>) => {
      const pages = [];
      let token = '';
      for (let i = 0; i < 10; i++) {
        const page = await call({ ...req, pagination: { pageSize: 2, pageToken: token } } as typeof req);
        pages.push(json(GraphService.method.traverse.output, page));
        token = page.pagination?.nextPageToken ?? '';
        if (token === '') break;
        // A write between pages does not change what the later pages show.
        await grpc.createEdge({ edgeType: 'LINK', sourceNodeId: hub.nodeId, targetNodeId: spokes.nodes[0]!.nodeId }).catch(() => undefined);
      }
      return pages;
    };
    const viaGrpc = await pagesOf((r) => grpc.traverse(r));
    const viaRest = await pagesOf((r) => rest('traverse', r));
    const ids = (pages: Record<string, unknown>[]) => pages.flatMap((p) => (p['nodes'] as { nodeId: string }[]).map((n) => n.nodeId));
    expect(ids(viaGrpc)).toEqual(ids(viaRest));
    expect(ids(viaGrpc)).toHaveLength(5);
    expect(viaGrpc).toHaveLength(3);
  });

  it('EnrollIssuer and at-most-once creation behave alike; a retry names its outcome', async () => {
    const issuer = new Uint8Array(16).fill(7);
    const a = await grpc.enrollIssuer({ issuer });
    const b: MessageShape<typeof GraphService.method.enrollIssuer.output> = await rest('enrollIssuer', { issuer });
    expect(b.incarnation).toBe(a.incarnation + 1n);
    expect(Buffer.from(a.deployment)).toEqual(Buffer.from(b.deployment));
    const operation = { issuer, incarnation: b.incarnation, sequence: 1n, deployment: b.deployment };
    const created = await grpc.createNode({ labels: ['Once'], operation });
    for (const retry of [() => grpc.createNode({ labels: ['Once'], operation }), () => rest('createNode', { labels: ['Once'], operation })]) {
      await expect(retry()).rejects.toMatchObject({ code: 'FAILED_PRECONDITION', reason: 'OPERATION_SETTLED' });
    }
    try {
      await grpc.createNode({ labels: ['Once'], operation });
    } catch (e) {
      expect((e as { metadata: Record<string, string> }).metadata['node_ids']).toBe(String(created.nodeId));
    }
    const foreign = { ...operation, sequence: 2n, deployment: new Uint8Array(16).fill(1) };
    expect(await failureOf(grpc.createNode({ operation: foreign }))).toEqual({ code: 'INVALID_ARGUMENT', reason: 'FOREIGN_OPERATION' });
    expect(await failureOf(rest('createNode', { operation: foreign }))).toEqual({ code: 'INVALID_ARGUMENT', reason: 'FOREIGN_OPERATION' });
    const onEntry = { nodes: [{ labels: ['X'], operation: { ...operation, sequence: 3n } }] };
    expect(await failureOf(grpc.createNodesBatch(onEntry))).toEqual(await failureOf(rest('createNodesBatch', onEntry)));
  });

  it('errors are the same on both transports', async () => {
    const cases: [keyof typeof GraphService.method, unknown][] = [
      ['getNode', { nodeId: 999_999n }],
      ['getNode', { elementId: 'not-an-id' }],
      ['createEdge', { edgeType: 'R', sourceNodeId: 999_999n, targetNodeId: 1n }],
      ['createEdge', { edgeType: '', sourceNodeId: 1n, targetNodeId: 1n }],
      ['traverse', { startNodeId: 999_999n }],
      ['traverse', { startNodeId: 1n, maxDepth: 1000 }],
      ['traverse', { startNodeId: 1n, pagination: { pageToken: 'garbage' } }],
      ['enrollIssuer', { issuer: new Uint8Array(3) }],
    ];
    for (const [method, req] of cases) {
      const viaGrpc = await failureOf((grpc[method] as (r: unknown) => Promise<unknown>)(req));
      const viaRest = await failureOf(rest(method, req));
      expect(viaRest, `${method} ${JSON.stringify(req, (_, v) => (typeof v === 'bigint' ? String(v) : v))}`).toEqual(viaGrpc);
    }
  });
});
