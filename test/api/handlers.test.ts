import { describe, expect, it } from 'vitest';
import { implement, type ServiceHandlers } from '../../src/api/handlers.js';
import { BlobService } from '../../src/gen/weft/v1/blob_pb.js';
import { GraphService } from '../../src/gen/weft/v1/graph_pb.js';

describe('the handler contract', () => {
  it('binds handlers by method local name and leaves the others out', () => {
    const registered = implement(GraphService, { getNode: async (req) => ({ nodeId: req.nodeId }) });
    expect([...registered.handlers.keys()]).toEqual(['getNode']);
    expect(registered.service.typeName).toBe('weft.v1.GraphService');
  });

  it('a class instance serves as handlers and keeps its this', async () => {
    class Nodes {
      private readonly prefix = 'node-';
      async getNode(req: { nodeId: bigint }): Promise<{ elementId: string }> {
        return { elementId: this.prefix + String(req.nodeId) };
      }
    }
    const registered = implement(GraphService, new Nodes());
    const handler = registered.handlers.get('getNode');
    expect(await handler?.({ nodeId: 3n }, {} as never)).toEqual({ elementId: 'node-3' });
  });

  it('types each handler from the descriptor: request fields, reply shape and method kind', () => {
    const handlers: ServiceHandlers<typeof BlobService> = {
      uploadBlob: async (chunks) => {
        let n = 0n;
        for await (const c of chunks) n += BigInt(c.data.length);
        return { totalSize: n };
      },
      downloadBlob: async function* (req) {
        yield { data: new TextEncoder().encode(req.blobId), sequence: 0 };
      },
    };
    expect(Object.keys(handlers)).toEqual(['uploadBlob', 'downloadBlob']);
    // @ts-expect-error a unary method cannot be given a streaming handler
    const wrongKind: ServiceHandlers<typeof GraphService> = { getNode: async function* () {} };
    // @ts-expect-error a reply field must have its proto type (node_id is uint64, a bigint)
    const wrongReply: ServiceHandlers<typeof GraphService> = { getNode: async () => ({ nodeId: 'one' }) };
    // @ts-expect-error no such method
    const unknownMethod: ServiceHandlers<typeof GraphService> = { getNodes: async () => ({}) };
    expect([wrongKind, wrongReply, unknownMethod]).toHaveLength(3);
  });
});
