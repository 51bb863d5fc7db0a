import { decodeElementId } from '../common/element-id.js';
import { invalidArgument, notFound, unavailable } from '../common/errors.js';
import type { ConcernWait } from '../log/driver/log-driver.js';
import type { OperationClaim } from '../log/events.js';
import type { EdgeState, NodeState } from '../projections/graph/records.js';
import type { Direction, GraphReader } from '../projections/graph/view.js';
import type { WriteSet } from '../projections/graph/write-set.js';
import { GraphService, TraversalDirection } from '../gen/weft/v1/graph_pb.js';
import type { OperationRef } from '../gen/weft/v1/common_pb.js';
import { HeldReply, implement, type RegisteredService } from './handlers.js';
import { reasonError } from './error-catalog.js';
import { edgeToWire, nodeToWire, propertiesFromWire } from './value-codec.js';

/**
 * GraphService (SPEC 4.2): direct creation and reading of nodes and edges, traversal, and issuer
 * enrollment for at-most-once creation.
 */
export interface GraphBackend {
  readonly deployment: Uint8Array;
  /**
   * Runs `build` as one write and resolves once it is proposed (its fsync under way), with
   * `settled` for its concern: a reply built from it is held until `settled` resolves (HeldReply).
   */
  writeHeld<T>(
    build: (ws: WriteSet) => T,
    options: { concern: ConcernWait; operation?: OperationClaim; always_propose?: boolean },
  ): Promise<{ value: T; receipt: { index: number; commit_ts: number }; settled: Promise<void> }>;
  enrollIssuer(issuer: Uint8Array, concern: ConcernWait): Promise<{ incarnation: number; next_sequence: number }>;
  latestCommitted(): GraphReader;
  /**
   * A node a write returns, as a read at the write's time shows it: computed properties evaluated
   * (docs/computed-properties.md), stored properties as written.
   */
  asWritten(node: NodeState): NodeState;
  /** A reader at a past read index, or UNAVAILABLE when it is behind the retention horizon. */
  viewAtIndex(index: number): GraphReader;
  defaultConcern(): ConcernWait;
}

/** Traversal bounds: depth beyond this is refused; pages hold at most this many nodes. */
export const traverse_depth_max = 64;
export const traverse_page_size_default = 100;
export const traverse_page_size_max = 1000;
export const label_length_max = 1024;

export function graphService(backend: GraphBackend): RegisteredService {
  return implement(GraphService, {
    async createNode(req) {
      const operation = req.operation === undefined ? undefined : claimOf(req.operation, backend.deployment);
      const labels = checkLabels(req.labels, 'labels');
      const props = propertiesFromWire(req.properties, 'properties');
      const { value, receipt, settled } = await backend.writeHeld((ws) => ws.createNode(labels, props), {
        concern: backend.defaultConcern(),
        ...(operation !== undefined ? { operation } : {}),
      });
      return new HeldReply(nodeToWire(backend.asWritten(value), receipt.commit_ts), settled);
    },

    async createNodesBatch(req) {
      req.nodes.forEach((n, i) => {
        if (n.operation !== undefined) {
          throw invalidArgument(`nodes[${i}]: an operation is given once for the whole batch, not on an entry`, 'OPERATION_ON_BATCH_ENTRY', {
            entry: String(i),
          });
        }
      });
      const operation = req.operation === undefined ? undefined : claimOf(req.operation, backend.deployment);
      if (req.nodes.length === 0 && operation === undefined) return { nodes: [] };
      const specs = req.nodes.map((n, i) => ({
        labels: checkLabels(n.labels, `nodes[${i}].labels`),
        props: propertiesFromWire(n.properties, `nodes[${i}].properties`),
      }));
      const { value, receipt, settled } = await backend.writeHeld((ws) => specs.map((s) => ws.createNode(s.labels, s.props)), {
        concern: backend.defaultConcern(),
        ...(operation !== undefined ? { operation, always_propose: true } : {}),
      });
      return new HeldReply({ nodes: value.map((n) => nodeToWire(backend.asWritten(n), receipt.commit_ts)) }, settled);
    },

    async getNode(req) {
      const view = backend.latestCommitted();
      const id = req.elementId !== '' ? idFromElement(req.elementId, 'element_id') : requireId(req.nodeId, 'node_id');
      const node = view.node(id);
      if (node === undefined) throw notFound(`node ${id} does not exist`, '', { node_id: String(id) });
      return nodeToWire(node);
    },

    async createEdge(req) {
      const operation = req.operation === undefined ? undefined : claimOf(req.operation, backend.deployment);
      if (req.edgeType === '') throw invalidArgument('edge_type must not be empty');
      if (req.edgeType.length > label_length_max) throw invalidArgument(`edge_type is longer than ${label_length_max} characters`);
      const source = req.sourceElementId !== '' ? idFromElement(req.sourceElementId, 'source_element_id') : requireId(req.sourceNodeId, 'source_node_id');
      const target = req.targetElementId !== '' ? idFromElement(req.targetElementId, 'target_element_id') : requireId(req.targetNodeId, 'target_node_id');
      const props = propertiesFromWire(req.properties, 'properties');
      const { value, settled } = await backend.writeHeld(
        (ws) => {
          for (const [what, id] of [['source', source], ['target', target]] as const) {
            if (ws.node(id) === undefined) throw notFound(`${what} node ${id} does not exist`, '', { [`${what}_node_id`]: String(id) });
          }
          return ws.createEdge(req.edgeType, source, target, props);
        },
        { concern: backend.defaultConcern(), ...(operation !== undefined ? { operation } : {}) },
      );
      return new HeldReply(edgeToWire(value), settled);
    },

    async traverse(req) {
      const start = req.startElementId !== '' ? idFromElement(req.startElementId, 'start_element_id') : requireId(req.startNodeId, 'start_node_id');
      const depth = req.maxDepth === 0 ? 1 : req.maxDepth;
      if (depth > traverse_depth_max) throw invalidArgument(`max_depth ${depth} exceeds ${traverse_depth_max}`);
      const direction = directionOf(req.direction);
      const pageSize = req.pagination?.pageSize || traverse_page_size_default;
      if (pageSize > traverse_page_size_max) throw invalidArgument(`page_size ${pageSize} exceeds ${traverse_page_size_max}`);
      const query: TraverseQuery = { start, type: req.edgeType, direction, depth };
      const token = req.pagination?.pageToken ?? '';
      const cursor = token === '' ? undefined : decodeToken(token, query);
      const view = cursor === undefined ? backend.latestCommitted() : backend.viewAtIndex(cursor.index);
      if (view.node(start) === undefined) {
        if (cursor !== undefined) throw unavailable('the traversal snapshot is gone; start again without a page token');
        throw notFound(`node ${start} does not exist`, '', { node_id: String(start) });
      }
      const reached = breadthFirst(view, query);
      const offset = cursor?.offset ?? 0;
      const page = reached.slice(offset, offset + pageSize);
      const next = offset + pageSize < reached.length ? encodeToken({ ...query, index: view.read_index, offset: offset + pageSize }) : '';
      return {
        nodes: page.map((r) => nodeToWire(r.node)),
        edges: page.map((r) => edgeToWire(r.via)),
        pagination: { nextPageToken: next },
      };
    },

    async enrollIssuer(req) {
      if (req.issuer.byteLength !== 16) throw invalidArgument(`issuer must be 16 bytes, got ${req.issuer.byteLength}`);
      const { incarnation, next_sequence } = await backend.enrollIssuer(req.issuer, backend.defaultConcern());
      return { deployment: backend.deployment, incarnation: BigInt(incarnation), nextSequence: BigInt(next_sequence) };
    },
  });
}

function checkLabels(labels: readonly string[], what: string): string[] {
  const out: string[] = [];
  for (const l of labels) {
    if (l === '') throw invalidArgument(`${what}: a label must not be empty`);
    if (l.length > label_length_max) throw invalidArgument(`${what}: a label is longer than ${label_length_max} characters`);
    if (!out.includes(l)) out.push(l);
  }
  return out;
}

function requireId(id: bigint, what: string): number {
  if (id === 0n) throw invalidArgument(`${what} is required (or give the element id)`);
  if (id > BigInt(Number.MAX_SAFE_INTEGER)) throw notFound(`node ${id} does not exist`);
  return Number(id);
}

function idFromElement(text: string, what: string): number {
  const id = decodeElementId(text);
  if (id === undefined) throw invalidArgument(`${what}: '${text}' is not an element id (13 characters of Crockford base32)`);
  return requireId(id, what);
}

export function claimOf(ref: OperationRef, deployment: Uint8Array): OperationClaim {
  if (ref.deployment.byteLength !== 16) throw invalidArgument(`operation.deployment must be 16 bytes, got ${ref.deployment.byteLength}`);
  if (!Buffer.from(ref.deployment).equals(Buffer.from(deployment))) {
    throw reasonError('FOREIGN_OPERATION', 'the operation belongs to another deployment', {
      deployment: Buffer.from(ref.deployment).toString('hex'),
      this_deployment: Buffer.from(deployment).toString('hex'),
    });
  }
  if (ref.issuer.byteLength !== 16) throw invalidArgument(`operation.issuer must be 16 bytes, got ${ref.issuer.byteLength}`);
  if (ref.incarnation === 0n) throw invalidArgument('operation.incarnation is required; enroll the issuer first');
  if (ref.sequence === 0n) throw invalidArgument('operation.sequence starts at the enrollment next_sequence (1)');
  if (ref.incarnation > BigInt(Number.MAX_SAFE_INTEGER) || ref.sequence > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw invalidArgument('operation incarnation and sequence must be below 2^53');
  }
  return { issuer: ref.issuer, incarnation: Number(ref.incarnation), sequence: Number(ref.sequence) };
}

function directionOf(d: TraversalDirection): Direction {
  switch (d) {
    case TraversalDirection.UNSPECIFIED:
    case TraversalDirection.OUTBOUND:
      return 'out';
    case TraversalDirection.INBOUND:
      return 'in';
    case TraversalDirection.BOTH:
      return 'both';
    default:
      throw invalidArgument(`unknown traversal direction ${String(d)}`);
  }
}

interface TraverseQuery {
  readonly start: number;
  readonly type: string;
  readonly direction: Direction;
  readonly depth: number;
}

interface Reached {
  readonly node: NodeState;
  /** The edge by which the traversal first reached the node. */
  readonly via: EdgeState;
}

/** Nodes reachable within `depth` hops, breadth first, each once, the start excluded. */
function breadthFirst(view: GraphReader, q: TraverseQuery): Reached[] {
  const seen = new Set<number>([q.start]);
  const out: Reached[] = [];
  let frontier = [q.start];
  for (let level = 0; level < q.depth && frontier.length > 0; level++) {
    const next: number[] = [];
    for (const id of frontier) {
      for (const e of view.edgesOf(id, q.direction, q.type === '' ? undefined : q.type)) {
        const other = e.source === id ? e.target : e.source;
        if (seen.has(other)) continue;
        const node = view.node(other);
        if (node === undefined) continue;
        seen.add(other);
        out.push({ node, via: e });
        next.push(other);
      }
    }
    frontier = next;
  }
  return out;
}

/** Page tokens pin the snapshot, so every page of one traversal reads the same state. */
interface Cursor extends TraverseQuery {
  readonly index: number;
  readonly offset: number;
}

function encodeToken(c: Cursor): string {
  return Buffer.from(JSON.stringify([1, c.index, c.offset, c.start, c.type, c.direction, c.depth])).toString('base64url');
}

function decodeToken(token: string, q: TraverseQuery): Cursor {
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    parts = undefined;
  }
  if (!Array.isArray(parts) || parts.length !== 7 || parts[0] !== 1) throw invalidArgument('page_token is not a token this server issued');
  const [, index, offset, start, type, direction, depth] = parts as [number, number, number, number, string, Direction, number];
  if (start !== q.start || type !== q.type || direction !== q.direction || depth !== q.depth) {
    throw invalidArgument('page_token belongs to a different traversal; repeat the same request with it');
  }
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(offset) || offset < 0) throw invalidArgument('page_token is damaged');
  return { ...q, index, offset };
}
