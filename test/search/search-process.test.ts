import type { MessageInitShape } from '@bufbuild/protobuf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGrpcClient, type GrpcClient } from '../../src/api/grpc-client.js';
import { restCall } from '../../src/api/rest-client.js';
import { ReadConcernLevel, VectorConsistency } from '../../src/gen/weft/v1/consistency_pb.js';
import { QueryService, type ExecuteCypherRequestSchema } from '../../src/gen/weft/v1/query_pb.js';
import { DistanceMetric, IndexBuildState, SchemaMode, TextAnalyzer } from '../../src/gen/weft/v2/schema_pb.js';
import { failureOf, seconds, startHarness, str, transports, type SchemaHarness, type Transport } from '../schema/harness.js';
import { testSeed } from '../support/prng.js';
import { bruteForce, clusteredVectors } from './data.js';

/**
 * Vector and text search against a real `weft serve`: vector values on both transports, a typed
 * vector property refusing the wrong width, the consistency modes through the request field, a
 * building index refused at once with vector_build_wait 0, and a build killed with -9 half way that
 * the restarted server takes up again and publishes.
 */
const d = 16;
const vec = (v: Float32Array) => ({ kind: { case: 'vectorValue' as const, value: { values: [...v] } } });
type CypherReq = MessageInitShape<typeof ExecuteCypherRequestSchema>;

let h: SchemaHarness;
let q: GrpcClient<typeof QueryService>;

async function cypher(t: Transport, req: CypherReq) {
  if (t === 'grpc') return q.executeCypher(req);
  return restCall(h.server.rest, QueryService.method.executeCypher, req) as ReturnType<typeof q.executeCypher>;
}

const idsOf = (res: Awaited<ReturnType<typeof cypher>>): number[] =>
  res.rows.map((r) => {
    const k = r.values[0]?.kind;
    return k?.case === 'intValue' ? Number(k.value) : -1;
  });

beforeAll(async () => {
  // Builds run without being waited for, so a test can see one under way.
  h = await startHarness(['--index_build_statement_wait_secs', '0']);
  q = createGrpcClient(QueryService, h.server.grpc);
});

afterAll(async () => {
  q?.close();
  await h?.close();
});

describe('vector values and typed vector properties', () => {
  it.each(transports)('over %s: a vector round-trips, and a wrong width names property, expected and got', async (t) => {
    const label = `Emb_${t}`;
    await h.schema(t, 'createLabel', {
      name: label,
      properties: [{ name: 'v', type: { kind: { case: 'vector', value: { dimensions: 3, metric: DistanceMetric.L2 } } } }],
      schemaMode: SchemaMode.VALIDATED,
    });
    const node = await h.graph(t, 'createNode', { labels: [label], properties: { v: vec(new Float32Array([0.5, 1, 2])) } });
    expect(node.properties['v']?.kind).toEqual({ case: 'vectorValue', value: expect.objectContaining({ values: [0.5, 1, 2] }) });
    const bad = await failureOf(h.graph(t, 'createNode', { labels: [label], properties: { v: vec(new Float32Array([1, 2])) } }));
    expect(bad).toMatchObject({ code: 'INVALID_ARGUMENT', reason: 'VECTOR_DIMENSION_MISMATCH', metadata: { property: 'v', expected_dimensions: '3', got_dimensions: '2' } });
    expect(bad.message).toContain(`${label}.v takes vectors of 3 dimensions; got 2`);
  });
});

describe('consistency through the request field', () => {
  it.each(transports)('over %s: CURRENT sees a write after the pinned snapshot, SNAPSHOT does not, a hint beats the field', async (t) => {
    const label = `Cons_${t}`;
    const vs = clusteredVectors(3, 300, d, 4);
    await h.graph(t, 'createNodesBatch', { nodes: vs.map((v, i) => ({ labels: [label], properties: { id: { kind: { case: 'intValue', value: BigInt(i) } }, v: vec(v) } })) });
    const b = await h.schema(t, 'createSearchIndex', { label, properties: ['v'], kind: { case: 'vector', value: { dimensions: d, metric: DistanceMetric.L2 } }, wait: seconds(30) });
    expect(b.state).toBe(IndexBuildState.PUBLISHED);
    const probe = clusteredVectors(4, 1, d, 1)[0]!;
    const before = await h.graph(t, 'createNode', { labels: ['Marker'], properties: {} });
    await h.graph(t, 'createNode', { labels: [label], properties: { id: { kind: { case: 'intValue', value: 9999n } }, v: vec(probe) } });
    const query = `MATCH (n:${label}) RETURN n.id ORDER BY vector_distance(n.v, $q, 'euclidean') LIMIT 3`;
    const at = (consistency: VectorConsistency, text = query): CypherReq => ({
      query: text,
      parameters: { q: vec(probe) },
      readConcern: { level: ReadConcernLevel.SNAPSHOT, atTimestamp: before.version },
      vectorConsistency: consistency,
    });
    expect(idsOf(await cypher(t, at(VectorConsistency.CURRENT)))[0]).toBe(9999);
    expect(idsOf(await cypher(t, at(VectorConsistency.SNAPSHOT)))).not.toContain(9999);
    expect(idsOf(await cypher(t, at(VectorConsistency.EXACT)))).toEqual(bruteForce(vs, probe, 3));
    expect(idsOf(await cypher(t, at(VectorConsistency.CURRENT, `/*+ vector_consistency('snapshot') */ ${query}`)))).not.toContain(9999);
    const explain = await cypher(t, { query: `EXPLAIN ${query}`, parameters: { q: vec(probe) } });
    const plan = explain.rows[0]?.values[0]?.kind;
    expect(plan?.case === 'stringValue' ? plan.value : '').toContain('VectorSearch');
  });

  it('SET vector_consistency outside a transaction is refused with a reason', async () => {
    expect(await failureOf(cypher('grpc', { query: "SET vector_consistency = 'exact'" }))).toMatchObject({ code: 'FAILED_PRECONDITION', reason: 'SESSION_REQUIRED' });
  });
});

describe('text indexes over the SchemaService', () => {
  it.each(transports)('over %s: CreateSearchIndex with an analyzer, text_match and text_score, DropSearchIndex', async (t) => {
    const label = `Txt_${t}`;
    await h.graph(t, 'createNodesBatch', {
      nodes: ['running dogs', 'a dog ran', 'cats sleep'].map((s) => ({ labels: [label], properties: { body: str(s) } })),
    });
    const b = await h.schema(t, 'createSearchIndex', { label, properties: ['body'], kind: { case: 'text', value: { analyzer: TextAnalyzer.ENGLISH } }, wait: seconds(30) });
    expect(b).toMatchObject({ state: IndexBuildState.PUBLISHED, indexed: 3n });
    const res = await cypher(t, { query: `MATCH (n:${label}) WHERE text_match(n.body, 'dog') RETURN n.body ORDER BY text_score(n.body, 'dog') DESC, n.body` });
    expect(res.rows.map((r) => r.values[0]?.kind.value)).toEqual(['a dog ran', 'running dogs']);
    await h.schema(t, 'dropSearchIndex', { name: b.index });
    expect((await failureOf(cypher(t, { query: `MATCH (n:${label}) WHERE text_match(n.body, 'dog') RETURN n` }))).code).toBe('FAILED_PRECONDITION');
  });
});

describe('a vector index build across kill -9', () => {
  it('is refused at once with vector_build_wait 0 while it runs, is taken up after a kill -9, and publishes the same answers', async () => {
    const seed = testSeed('vector build kill');
    const n = 8_000;
    const vs = clusteredVectors(seed, n, d, 20);
    for (let i = 0; i < n; i += 2000) {
      await h.graph('grpc', 'createNodesBatch', {
        nodes: vs.slice(i, i + 2000).map((v, k) => ({ labels: ['Big'], properties: { id: { kind: { case: 'intValue', value: BigInt(i + k) } }, v: vec(v) } })),
      });
    }
    // A wide construction beam makes the build long enough to interrupt.
    await cypher('grpc', {
      query: "CREATE VECTOR INDEX big_v FOR (b:Big) ON (b.v) OPTIONS {indexConfig: {`vector.dimensions`: 16, `vector.similarity_function`: 'euclidean', `vector.hnsw.m`: 48, `vector.hnsw.ef_construction`: 800}}",
    });
    const probe = vs[17]!;
    const query = "MATCH (b:Big) RETURN b.id ORDER BY vector_distance(b.v, $q, 'euclidean') LIMIT 10";
    const refused = await failureOf(cypher('grpc', { query, parameters: { q: vec(probe) }, vectorBuildWaitMs: 0 }));
    expect(refused).toMatchObject({ code: 'FAILED_PRECONDITION', reason: 'VECTOR_INDEX_BUILDING', metadata: { index: 'big_v' } });
    // EXACT reads no index: it answers while the build runs.
    const exact = idsOf(await cypher('grpc', { query, parameters: { q: vec(probe) }, vectorConsistency: VectorConsistency.EXACT }));
    expect(exact).toEqual(bruteForce(vs, probe, 10));
    const build = async () => (await h.schema('grpc', 'listIndexBuilds', {})).builds.find((x) => x.index === 'big_v')!;
    const deadline = Date.now() + 60_000;
    let seen = await build();
    while (!(seen.state === IndexBuildState.RUNNING && seen.indexed > 0n) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
      seen = await build();
    }
    expect(seen.state).toBe(IndexBuildState.RUNNING);
    q.close();
    await h.restart(true);
    q = createGrpcClient(QueryService, h.server.grpc);
    const after = await h.schema('grpc', 'getIndexBuild', { operation: seen.operation, wait: seconds(120) });
    expect(after).toMatchObject({ state: IndexBuildState.PUBLISHED, indexed: BigInt(n) });
    const got = idsOf(await cypher('grpc', { query, parameters: { q: vec(probe) } }));
    expect(got.filter((x) => exact.includes(x)).length).toBeGreaterThanOrEqual(9);
    const metrics = await (await fetch(`${h.server.ops}/metrics`)).text();
    expect(Number(/graphdb_vector_index_vectors (\d+)/.exec(metrics)?.[1])).toBeGreaterThanOrEqual(n);
  }, 240_000);
});
