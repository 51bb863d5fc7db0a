import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toJson, type JsonObject } from '@bufbuild/protobuf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGrpcClient, type GrpcClient } from '../../src/api/grpc-client.js';
import { restCall } from '../../src/api/rest-client.js';
import { GraphService } from '../../src/gen/weft/v1/graph_pb.js';
import { QueryService } from '../../src/gen/weft/v1/query_pb.js';
import { PropertyValueSchema, type PropertyValue } from '../../src/gen/weft/v1/values_pb.js';
import { ScalarType, SchemaService } from '../../src/gen/weft/v2/schema_pb.js';
import { defaultConfig, type ServerConfig } from '../../src/server/config.js';
import { startServer, type RunningServer } from '../../src/server/server.js';
import { failure } from '../support/failure.js';

/**
 * Temporal labels and edge types on a member whose clock the test sets, on both transports: versions
 * written at several valid_from, read at several valid times with `valid_at`, the current version by
 * default in Cypher, GetNode and Traverse, edge identity by valid_from and by discriminator on every
 * write path, the writes the rules refuse, and the same readings after a restart.
 */
const day_us = 86_400_000_000;
const day = (iso: string): number => Date.parse(`${iso}T00:00:00Z`) * 1000;
const transports = ['grpc', 'rest'] as const;
type Transport = (typeof transports)[number];

const scalar = (s: ScalarType) => ({ kind: { case: 'scalar' as const, value: s } });
const ts = (us: number) => ({ kind: { case: 'timestampValue' as const, value: { unixMicros: BigInt(us) } } });
const int = (n: number) => ({ kind: { case: 'intValue' as const, value: BigInt(n) } });
const text = (s: string) => ({ kind: { case: 'stringValue' as const, value: s } });

function plain(v: PropertyValue | undefined): unknown {
  if (v === undefined) return undefined;
  const j = toJson(PropertyValueSchema, v) as JsonObject;
  const [k, x] = Object.entries(j)[0] ?? [];
  if (k === undefined) return null;
  if (k === 'datetimeValue') return (x as JsonObject)['iso'];
  return x;
}

describe('temporal labels and edge types', () => {
  let dir: string;
  let config: ServerConfig;
  let server: RunningServer;
  let now_us = day('2024-03-01');
  let graph: GrpcClient<typeof GraphService>;
  let query: GrpcClient<typeof QueryService>;
  let rest: string;

  const connect = (): void => {
    const address = `127.0.0.1:${server.ports.grpc}`;
    graph = createGrpcClient(GraphService, address);
    query = createGrpcClient(QueryService, address);
    rest = `http://127.0.0.1:${server.ports.rest}`;
  };
  const disconnect = (): void => {
    graph.close();
    query.close();
  };
  const call = async <K extends keyof typeof QueryService.method>(t: Transport, method: K, req: object) =>
    t === 'grpc'
      ? await (query[method] as (r: object) => Promise<unknown>)(req)
      : await restCall(rest, QueryService.method[method] as never, req as never);
  const cypher = async (t: Transport, q: string, parameters: Record<string, PropertyValue | object> = {}, transactionId?: bigint): Promise<unknown[][]> => {
    const res = (await call(t, 'executeCypher', { query: q, parameters, ...(transactionId !== undefined && { transactionId }) })) as Awaited<ReturnType<typeof query.executeCypher>>;
    return res.rows.map((r) => r.values.map(plain));
  };
  const graphCall = async <K extends keyof typeof GraphService.method>(t: Transport, method: K, req: object) =>
    (t === 'grpc'
      ? await (graph[method] as (r: object) => Promise<unknown>)(req)
      : await restCall(rest, GraphService.method[method] as never, req as never)) as Awaited<ReturnType<(typeof graph)[K]>>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'weft-temporal-'));
    config = { ...defaultConfig, data_dir: dir, grpc_port: 0, rest_port: 0, ops_port: 0 };
    server = await startServer(config, () => {}, { clock_us: () => now_us });
    connect();
    const schema = createGrpcClient(SchemaService, `127.0.0.1:${server.ports.grpc}`);
    await schema.createLabel({ name: 'Price', properties: [{ name: 'amount', type: scalar(ScalarType.INT64), required: true }, { name: 'sku', type: scalar(ScalarType.STRING) }], schemaMode: 1, temporal: true });
    await schema.createEdgeType({ name: 'LISTED_AT', properties: [], temporal: true });
    await schema.createEdgeType({ name: 'RATED', properties: [{ name: 'source', type: scalar(ScalarType.STRING), required: true }], discriminator: 'source' });
    await schema.createEdgeType({ name: 'OWNS', properties: [] });
    // The definitions say what they are on both transports.
    const labels = (await restCall(rest, SchemaService.method.listLabels, {})) as Awaited<ReturnType<typeof schema.listLabels>>;
    expect(labels.labels.find((l) => l.name === 'Price')).toMatchObject({ temporal: true });
    const types = (await schema.listEdgeTypes({})).edgeTypes;
    expect(types.find((e) => e.name === 'LISTED_AT')).toMatchObject({ temporal: true, discriminator: '' });
    expect(types.find((e) => e.name === 'RATED')).toMatchObject({ temporal: false, discriminator: 'source' });
    schema.close();
  });
  afterAll(async () => {
    disconnect();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Amount, valid_from and valid_to of the Price `sku` at each valid time, read with valid_at. */
  const history = async (t: Transport, sku: string, at: readonly string[]): Promise<unknown[]> => {
    const out: unknown[] = [];
    for (const d of at) {
      const rows = await cypher(t, 'USING valid_at($at) MATCH (p:Price {sku: $sku}) RETURN p.amount, p.valid_from, p.valid_to', { at: ts(day(d)), sku: text(sku) });
      out.push([d, ...(rows[0] ?? ['none'])]);
    }
    return out;
  };
  const at_days = ['2023-12-31', '2024-01-01', '2024-02-15', '2024-04-01', '2024-06-30', '2025-01-01'];
  const expected_history = [
    ['2023-12-31', 'none'],
    ['2024-01-01', '10', '2024-01-01T00:00Z', '2024-02-01T00:00Z'],
    ['2024-02-15', '12', '2024-02-01T00:00Z', '2024-05-01T00:00Z'],
    ['2024-04-01', '12', '2024-02-01T00:00Z', '2024-05-01T00:00Z'],
    ['2024-06-30', '15', '2024-05-01T00:00Z', '2024-07-01T00:00Z'],
    ['2025-01-01', 'none'],
  ];

  for (const t of transports) {
    it(`${t}: versions written at several valid_from read back at each valid time, and the current one by default`, async () => {
      now_us = day('2024-03-01');
      const sku = `tea-${t}`;
      await cypher(t, "CREATE (:Price {sku: $sku, amount: 10, valid_from: datetime('2024-01-01T00:00Z')})", { sku: text(sku) });
      // A later valid_from adds a version; the one before now ends there.
      await cypher(t, "MATCH (p:Price {sku: $sku}) SET p.valid_from = datetime('2024-05-01T00:00Z'), p.valid_to = datetime('2024-07-01T00:00Z'), p.amount = 15", { sku: text(sku) });
      // A version written behind the newest one, by parameter: it ends where the next one starts.
      await cypher(t, 'MATCH (p:Price {sku: $sku}) SET p.valid_from = $from, p.amount = 12 REMOVE p.valid_to', { sku: text(sku), from: ts(day('2024-02-01')) });
      expect(await history(t, sku, at_days)).toEqual(expected_history);
      // The literal form reads the same as the parameter.
      expect(await cypher(t, "MATCH (p:Price {sku: $sku}) /*+ valid_at(datetime('2024-01-15T00:00Z')) */ RETURN p.amount", { sku: text(sku) })).toEqual([['10']]);

      // Without valid_at a read sees the version valid at the member's clock.
      expect(await cypher(t, 'MATCH (p:Price {sku: $sku}) RETURN p.amount', { sku: text(sku) })).toEqual([['12']]);
      now_us = day('2024-05-02');
      expect(await cypher(t, 'MATCH (p:Price {sku: $sku}) RETURN p.amount', { sku: text(sku) })).toEqual([['15']]);
      const [[id]] = (await cypher(t, 'MATCH (p:Price {sku: $sku}) RETURN id(p)', { sku: text(sku) })) as [[string]];
      const node = await graphCall(t, 'getNode', { nodeId: BigInt(id) });
      expect(plain(node.properties['amount'])).toBe('15');
      expect(plain(node.properties['valid_to'])).toBe('2024-07-01T00:00Z');
      // Past its last interval the node holds no version now: it is not matched and not found.
      now_us = day('2024-08-01');
      expect(await cypher(t, 'MATCH (p:Price {sku: $sku}) RETURN count(p)', { sku: text(sku) })).toEqual([['0']]);
      expect(await failure(graphCall(t, 'getNode', { nodeId: BigInt(id) }))).toMatchObject({ code: 'NOT_FOUND' });
      now_us = day('2024-03-01');
    });

    it(`${t}: temporal edges of a pair are identified by valid_from, each ending where the next starts; Traverse sees the current one`, async () => {
      now_us = day('2024-03-01');
      const shop = await graphCall(t, 'createNode', { labels: ['Shop'], properties: { name: text(`shop-${t}`) } });
      const price = await graphCall(t, 'createNode', { labels: ['Price'], properties: { sku: text(`edge-${t}`), amount: int(1), valid_from: ts(day('2024-01-01')) } });
      const first = await graphCall(t, 'createEdge', { edgeType: 'LISTED_AT', sourceNodeId: price.nodeId, targetNodeId: shop.nodeId, properties: { valid_from: ts(day('2024-01-01')) } });
      // The same valid_from again is the same edge, by either path.
      expect(await failure(graphCall(t, 'createEdge', { edgeType: 'LISTED_AT', sourceNodeId: price.nodeId, targetNodeId: shop.nodeId, properties: { valid_from: ts(day('2024-01-01')) } }))).toMatchObject({
        code: 'ALREADY_EXISTS',
        reason: 'EDGE_EXISTS',
      });
      const pair = { p: int(Number(price.nodeId)), s: int(Number(shop.nodeId)) };
      expect(
        await failure(cypher(t, "MATCH (p), (s) WHERE id(p) = $p AND id(s) = $s CREATE (p)-[:LISTED_AT {valid_from: datetime('2024-01-01T00:00Z')}]->(s)", pair)),
      ).toMatchObject({ reason: 'EDGE_EXISTS' });
      await cypher(t, "MATCH (p), (s) WHERE id(p) = $p AND id(s) = $s CREATE (p)-[:LISTED_AT {valid_from: datetime('2024-04-01T00:00Z')}]->(s)", pair);
      // MERGE on an identity that exists finds it instead of creating a second edge.
      await cypher(t, "MATCH (p), (s) WHERE id(p) = $p AND id(s) = $s MERGE (p)-[:LISTED_AT {valid_from: datetime('2024-04-01T00:00Z')}]->(s)", pair);
      expect(await cypher(t, 'USING valid_at($at) MATCH (p)-[r:LISTED_AT]->(s) WHERE id(p) = $p RETURN count(r)', { ...pair, at: ts(day('2024-05-01')) })).toEqual([['1']]);
      const edgesAt = async (d: string) =>
        cypher(t, 'USING valid_at($at) MATCH (p)-[r:LISTED_AT]->() WHERE id(p) = $p RETURN r.valid_from, r.valid_to', { ...pair, at: ts(day(d)) });
      expect(await edgesAt('2023-06-01')).toEqual([]);
      expect(await edgesAt('2024-02-01')).toEqual([['2024-01-01T00:00Z', '2024-04-01T00:00Z']]);
      expect(await edgesAt('2024-04-01')).toEqual([['2024-04-01T00:00Z', null]]);

      const reached = async () => {
        const res = await graphCall(t, 'traverse', { startNodeId: price.nodeId, maxDepth: 1 });
        return res.edges.map((e) => e.edgeId);
      };
      expect(await reached()).toEqual([first.edgeId]);
      now_us = day('2024-06-01');
      const later = await reached();
      expect(later).toHaveLength(1);
      expect(later).not.toContain(first.edgeId);
      now_us = day('2024-03-01');
    });

    it(`${t}: a discriminator identifies an edge by its value; an undeclared-identity type holds one edge per pair; in a transaction too`, async () => {
      const a = await graphCall(t, 'createNode', { labels: ['Film'], properties: {} });
      const b = await graphCall(t, 'createNode', { labels: ['Film'], properties: {} });
      const rated = (source: string) => ({ edgeType: 'RATED', sourceNodeId: a.nodeId, targetNodeId: b.nodeId, properties: { source: text(source) } });
      await graphCall(t, 'createEdge', rated('imdb'));
      await graphCall(t, 'createEdge', rated('rt'));
      expect(await failure(graphCall(t, 'createEdge', rated('imdb')))).toMatchObject({ code: 'ALREADY_EXISTS', reason: 'EDGE_EXISTS', metadata: { edge_type: 'RATED' } });
      // The discriminator is required.
      expect(await failure(graphCall(t, 'createEdge', { ...rated('x'), properties: {} }))).toMatchObject({ reason: 'REQUIRED_PROPERTY_MISSING' });
      const pair = { a: int(Number(a.nodeId)), b: int(Number(b.nodeId)) };
      // Changing the discriminator onto another edge's value is refused like a second creation.
      expect(await failure(cypher(t, "MATCH (x)-[r:RATED {source: 'rt'}]->(y) WHERE id(x) = $a SET r.source = 'imdb'", pair))).toMatchObject({ reason: 'EDGE_EXISTS' });
      await graphCall(t, 'createEdge', { edgeType: 'OWNS', sourceNodeId: a.nodeId, targetNodeId: b.nodeId, properties: {} });
      expect(await failure(graphCall(t, 'createEdge', { edgeType: 'OWNS', sourceNodeId: a.nodeId, targetNodeId: b.nodeId, properties: {} }))).toMatchObject({ reason: 'EDGE_EXISTS' });
      // The reverse direction is another pair.
      await graphCall(t, 'createEdge', { edgeType: 'OWNS', sourceNodeId: b.nodeId, targetNodeId: a.nodeId, properties: {} });

      // In a transaction the write is buffered; its commit is refused whole.
      const begin = (await call(t, 'beginTransaction', {})) as { transactionId: bigint };
      await cypher(t, "MATCH (x), (y) WHERE id(x) = $a AND id(y) = $b CREATE (x)-[:RATED {source: 'mc'}]->(y), (x)-[:RATED {source: 'imdb'}]->(y)", pair, begin.transactionId);
      expect(await failure(call(t, 'commitTransaction', { transactionId: begin.transactionId }))).toMatchObject({ reason: 'EDGE_EXISTS' });
      expect(await cypher(t, 'MATCH (x)-[r:RATED]->() WHERE id(x) = $a RETURN r.source ORDER BY r.source', pair)).toEqual([['imdb'], ['rt']]);
    });

    it(`${t}: writes the valid-time rules refuse, on CreateNode, Cypher and transactions`, async () => {
      expect(await failure(graphCall(t, 'createNode', { labels: ['Price'], properties: { amount: int(1) } }))).toMatchObject({ code: 'FAILED_PRECONDITION', reason: 'VALID_FROM_REQUIRED' });
      expect(await failure(cypher(t, "CREATE (:Price {amount: 1, valid_from: '2024-01-01'})"))).toMatchObject({ reason: 'PROPERTY_TYPE_MISMATCH' });
      expect(
        await failure(cypher(t, "CREATE (:Price {amount: 1, valid_from: datetime('2024-02-01T00:00Z'), valid_to: datetime('2024-01-01T00:00Z')})")),
      ).toMatchObject({ code: 'FAILED_PRECONDITION', reason: 'INVALID_VALID_INTERVAL' });
      expect(await failure(graphCall(t, 'createEdge', { edgeType: 'LISTED_AT', sourceNodeId: 1n, targetNodeId: 1n, properties: {} }))).toMatchObject({ reason: 'VALID_FROM_REQUIRED' });
      // valid_at reads; a statement that writes, or one inside a transaction, cannot use it.
      expect(await failure(cypher(t, "USING valid_at(datetime('2024-01-01T00:00Z')) MATCH (p:Price) SET p.amount = 1"))).toMatchObject({ code: 'INVALID_ARGUMENT' });
      expect(await failure(cypher(t, 'USING valid_at(1) MATCH (p:Price) RETURN p'))).toMatchObject({ code: 'INVALID_ARGUMENT' });
      expect(await failure(cypher(t, "USING valid_at('2024-01-01') MATCH (p:Price) RETURN p"))).toMatchObject({ code: 'INVALID_ARGUMENT' });
      const begin = (await call(t, 'beginTransaction', {})) as { transactionId: bigint };
      expect(await failure(cypher(t, "USING valid_at(datetime('2024-01-01T00:00Z')) MATCH (p:Price) RETURN p", {}, begin.transactionId))).toMatchObject({
        code: 'FAILED_PRECONDITION',
        reason: 'VALID_AT_IN_TRANSACTION',
      });
      await call(t, 'rollbackTransaction', { transactionId: begin.transactionId });
      // A temporal definition declares its valid time as TIMESTAMP, or not at all.
      const bad = { name: `Bad-${t}`, properties: [{ name: 'valid_from', type: scalar(ScalarType.STRING) }], temporal: true };
      const schema = createGrpcClient(SchemaService, `127.0.0.1:${server.ports.grpc}`);
      const refused = await failure(t === 'grpc' ? schema.createLabel(bad) : restCall(rest, SchemaService.method.createLabel, bad as never));
      schema.close();
      expect(refused).toMatchObject({ code: 'INVALID_ARGUMENT', reason: 'INVALID_VALID_TIME' });
    });

    it(`${t}: a wrong past version is corrected by rewriting it at its valid_from, and the mistake stays readable AS OF; one edge version is deleted alone`, async () => {
      now_us = day('2024-03-01');
      const sku = `fix-${t}`;
      await cypher(t, "CREATE (:Price {sku: $sku, amount: 10, valid_from: datetime('2024-01-01T00:00Z')})", { sku: text(sku) });
      await cypher(t, "MATCH (p:Price {sku: $sku}) SET p.valid_from = datetime('2024-02-01T00:00Z'), p.amount = 99", { sku: text(sku) });
      await cypher(t, "MATCH (p:Price {sku: $sku}) SET p.valid_from = datetime('2024-03-01T00:00Z'), p.amount = 12", { sku: text(sku) });
      const before = server.db.lastCommittedTs;
      // The correction: the version starting 2024-02-01 rewritten, the ones around it untouched.
      await cypher(t, "MATCH (p:Price {sku: $sku}) SET p.valid_from = datetime('2024-02-01T00:00Z'), p.amount = 11", { sku: text(sku) });
      const amounts = async (asOf?: number): Promise<unknown[]> => {
        const out: unknown[] = [];
        for (const d of ['2024-01-15', '2024-02-15', '2024-03-15']) {
          const clause = asOf === undefined ? '' : ' AS OF TIMESTAMP $ts';
          const rows = await cypher(t, `USING valid_at($at)${clause} MATCH (p:Price {sku: $sku}) RETURN p.amount`, { sku: text(sku), at: ts(day(d)), ...(asOf !== undefined && { ts: int(asOf) }) });
          out.push(rows[0]?.[0]);
        }
        return out;
      };
      expect(await amounts()).toEqual(['10', '11', '12']);
      expect(await amounts(before)).toEqual(['10', '99', '12']);

      // An edge version of a temporal type is an edge of its own: deleting it leaves the others.
      const shop = await graphCall(t, 'createNode', { labels: ['Shop'], properties: { name: text(`fix-shop-${t}`) } });
      const pair = { s: int(Number(shop.nodeId)), sku: text(sku) };
      for (const from of ['2024-01-01', '2024-02-01']) {
        await cypher(t, 'MATCH (p:Price {sku: $sku}), (s) WHERE id(s) = $s CREATE (p)-[:LISTED_AT {valid_from: $from}]->(s)', { ...pair, from: ts(day(from)) });
      }
      await cypher(t, 'MATCH (:Price {sku: $sku})-[r:LISTED_AT]->(s) WHERE id(s) = $s AND r.valid_from = $from DELETE r', { ...pair, from: ts(day('2024-02-01')) });
      expect(await cypher(t, 'USING valid_at($at) MATCH (:Price {sku: $sku})-[r:LISTED_AT]->(s) WHERE id(s) = $s RETURN r.valid_from, r.valid_to', { ...pair, at: ts(day('2024-02-15')) })).toEqual([
        ['2024-01-01T00:00Z', null],
      ]);
    });

    it(`${t}: in a transaction a version write commits as one entry, like an auto-committed one`, async () => {
      const sku = `tx-${t}`;
      await cypher(t, "CREATE (:Price {sku: $sku, amount: 1, valid_from: datetime('2024-01-01T00:00Z')})", { sku: text(sku) });
      const begin = (await call(t, 'beginTransaction', {})) as { transactionId: bigint };
      await cypher(t, "MATCH (p:Price {sku: $sku}) SET p.valid_from = datetime('2024-02-01T00:00Z'), p.amount = 2", { sku: text(sku) }, begin.transactionId);
      // Inside, the statement reads the stored version it wrote; outside, nothing has changed yet.
      expect(await cypher(t, 'MATCH (p:Price {sku: $sku}) RETURN p.amount', { sku: text(sku) }, begin.transactionId)).toEqual([['2']]);
      expect(await cypher(t, 'USING valid_at($at) MATCH (p:Price {sku: $sku}) RETURN p.amount', { sku: text(sku), at: ts(day('2024-02-15')) })).toEqual([['1']]);
      await call(t, 'commitTransaction', { transactionId: begin.transactionId });
      for (const [d, amount, to] of [['2024-01-15', '1', '2024-02-01T00:00Z'], ['2024-02-15', '2', null]] as const) {
        expect(await cypher(t, 'USING valid_at($at) MATCH (p:Price {sku: $sku}) RETURN p.amount, p.valid_to', { sku: text(sku), at: ts(day(d)) })).toEqual([[amount, to]]);
      }
      // A version ahead of the clock: a read outside sees the one valid now, a transaction's
      // statements (read-only ones too) the stored newest one, which is what their writes edit.
      await cypher(t, "MATCH (p:Price {sku: $sku}) SET p.valid_from = datetime('2025-01-01T00:00Z'), p.amount = 3", { sku: text(sku) });
      const tx = (await call(t, 'beginTransaction', {})) as { transactionId: bigint };
      expect(await cypher(t, 'MATCH (p:Price {sku: $sku}) RETURN p.amount', { sku: text(sku) })).toEqual([['2']]);
      expect(await cypher(t, 'MATCH (p:Price {sku: $sku}) RETURN p.amount', { sku: text(sku) }, tx.transactionId)).toEqual([['3']]);
      await call(t, 'rollbackTransaction', { transactionId: tx.transactionId });
    });
  }

  it('a restart (checkpoint, then the log after it) reads every version as before', async () => {
    now_us = day('2024-03-01');
    const before = await Promise.all(transports.map((t) => history('grpc', `tea-${t}`, at_days)));
    const current = await cypher('grpc', 'MATCH (p:Price) RETURN p.sku, p.amount ORDER BY p.sku');
    disconnect();
    await server.stop();
    server = await startServer(config, () => {}, { clock_us: () => now_us });
    connect();
    for (const t of transports) expect(await history(t, `tea-${t}`, at_days)).toEqual(expected_history);
    expect(await Promise.all(transports.map((t) => history('rest', `tea-${t}`, at_days)))).toEqual(before);
    expect(await cypher('rest', 'MATCH (p:Price) RETURN p.sku, p.amount ORDER BY p.sku')).toEqual(current);
  });
});
