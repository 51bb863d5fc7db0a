// Fake handlers over the real generated services: enough behaviour to exercise both transports.
import { WeftError } from '../../src/common/errors.js';
import { reasonError } from '../../src/api/error-catalog.js';
import { implement, type RegisteredService } from '../../src/api/handlers.js';
import { GraphService } from '../../src/gen/weft/v1/graph_pb.js';
import type { Node } from '../../src/gen/weft/v1/values_pb.js';
import { BlobService } from '../../src/gen/weft/v1/blob_pb.js';
import { QueryService, ChangeOperation } from '../../src/gen/weft/v1/query_pb.js';
import { create } from '@bufbuild/protobuf';
import { NodeSchema } from '../../src/gen/weft/v1/values_pb.js';
import { createHash } from 'node:crypto';

/** Crockford base32 of a 64-bit id, 13 characters (the element id format of SPEC 2.2). */
export function elementIdOf(id: bigint): string {
  const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  let out = '';
  let v = id;
  for (let i = 0; i < 13; i++) {
    out = alphabet[Number(v & 31n)] + out;
    v >>= 5n;
  }
  return out;
}

export interface FakeGraph {
  readonly service: RegisteredService;
  readonly nodes: Map<bigint, Node>;
  /** Calls that saw their signal abort, with the reason's code. */
  readonly aborted: string[];
}

export function fakeGraph(): FakeGraph {
  const nodes = new Map<bigint, Node>();
  const aborted: string[] = [];
  let next = 1n;
  const service = implement(GraphService, {
    createNode: async (req) => {
      if (req.labels.includes('Boom')) throw new Error('a bug in the handler');
      if (req.operation !== undefined && req.operation.sequence === 7n) {
        throw reasonError('OPERATION_SETTLED', 'operation 7 already created a node', { outcome: 'created', commit_ts: '42' });
      }
      const id = next++;
      const node = create(NodeSchema, {
        nodeId: id,
        labels: req.labels,
        properties: req.properties,
        elementId: elementIdOf(id),
        version: 1000n + id,
      });
      nodes.set(id, node);
      return node;
    },
    getNode: async (req) => {
      const node =
        req.elementId !== ''
          ? [...nodes.values()].find((n) => n.elementId === req.elementId)
          : nodes.get(req.nodeId);
      if (node === undefined) {
        throw new WeftError('NOT_FOUND', `node ${req.elementId || req.nodeId} not found`, 'NODE_NOT_FOUND', {
          node_id: String(req.nodeId),
        });
      }
      return node;
    },
    createNodesBatch: async (req) => {
      if (req.nodes.some((n) => n.operation !== undefined)) {
        throw new WeftError('INVALID_ARGUMENT', 'operation on a batch entry');
      }
      const out: Node[] = [];
      for (const n of req.nodes) {
        const id = next++;
        const node = create(NodeSchema, { nodeId: id, labels: n.labels, properties: n.properties, elementId: elementIdOf(id) });
        nodes.set(id, node);
        out.push(node);
      }
      return { nodes: out };
    },
    traverse: async (req, ctx) => {
      // Waits for its signal: the deadline scenarios use it.
      await new Promise<void>((resolve) => {
        if (ctx.signal.aborted) resolve();
        ctx.signal.addEventListener('abort', () => resolve(), { once: true });
      });
      const reason: unknown = ctx.signal.reason;
      aborted.push(reason instanceof WeftError ? reason.code : String(reason));
      return { nodes: [], edges: [], pagination: { nextPageToken: String(req.maxDepth) } };
    },
  });
  return { service, nodes, aborted };
}

/** A blob service that hashes what it is sent and streams it back in chunks. */
export function fakeBlobs(): RegisteredService {
  const blobs = new Map<string, Uint8Array[]>();
  return implement(BlobService, {
    uploadBlob: async (chunks) => {
      const parts: Uint8Array[] = [];
      const ids: string[] = [];
      let expected = 0;
      for await (const chunk of chunks) {
        if (chunk.sequence !== expected) {
          throw new WeftError('INVALID_ARGUMENT', `chunk ${chunk.sequence} out of order, expected ${expected}`);
        }
        expected++;
        parts.push(chunk.data);
        ids.push(createHash('sha256').update(chunk.data).digest('hex'));
      }
      const blobId = createHash('sha256').update(ids.join('')).digest('hex');
      blobs.set(blobId, parts);
      return { blobId, chunkIds: ids, totalSize: BigInt(parts.reduce((n, p) => n + p.length, 0)), dedupChunks: 0 };
    },
    downloadBlob: async function* (req) {
      const parts = blobs.get(req.blobId);
      if (parts === undefined) throw new WeftError('NOT_FOUND', `blob ${req.blobId} not found`);
      for (const [i, data] of parts.entries()) {
        if (i === 1 && req.blobId.startsWith('0')) throw new WeftError('DATA_LOSS', 'chunk missing');
        yield { data, sequence: i };
      }
    },
  });
}

/** A change feed that emits `from_commit_ts .. from_commit_ts + 2`, then fails if asked to. */
export function fakeQuery(): RegisteredService {
  return implement(QueryService, {
    watchChanges: async function* (req) {
      for (let i = 0n; i < 3n; i++) {
        yield {
          commitTs: req.fromCommitTs + i,
          index: 10n + i,
          operation: ChangeOperation.NODE_CREATED,
          nodeAfter: { nodeId: i + 1n, labels: req.labels, elementId: elementIdOf(i + 1n) },
        };
      }
      if (req.labels.includes('Fail')) throw new WeftError('UNAVAILABLE', 'the feed moved past the retention window');
      // A live feed: nothing more until the call ends; the handler does not even watch its signal.
      if (req.labels.includes('Live')) await new Promise<never>(() => {});
    },
    executeCypher: async (req) => ({
      columns: ['q'],
      rows: [{ values: [{ kind: { case: 'stringValue', value: req.query } }] }],
      stats: { appliedIndex: 0n },
    }),
  });
}
