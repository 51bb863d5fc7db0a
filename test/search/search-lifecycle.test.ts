import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { open } from '../../src/index.js';
import type { CypherCall } from '../../src/api/query-service.js';
import { DistanceMetric, IndexBuildState, TextAnalyzer } from '../../src/gen/weft/v2/schema_pb.js';
import { CypherRunner } from '../../src/server/cypher-runner.js';
import { schemaStatementHandler } from '../../src/server/index-builds/cypher-ddl.js';
import { failureOf, seconds, startInProcess, type InProcess } from '../schema/harness.js';
import { clusteredVectors } from './data.js';
import { cypherCall } from '../support/cypher-call.js';

/**
 * Vector and text index builds share the B-tree builds' lifecycle: ACCEPTED, RUNNING with progress,
 * cancellation, and publication; a query waits for a vector index being built (0: refused at once,
 * EXACT: never waits), and the memory budget refuses a build before it is admitted.
 */
let h: InProcess;
let runner: CypherRunner;
/** Writes here answer at once (acks 0); the builds are what the tests wait for. */
const call = (text: string, extra: Partial<CypherCall> = {}): CypherCall =>
  cypherCall(text, {}, { concern: { acks: 0, level: 'journal', timeout_ms: 0 }, ...extra });
const vec = (v: Float32Array) => ({ kind: { case: 'vectorValue' as const, value: { values: [...v] } } });


beforeAll(async () => {
  h = await startInProcess({ wait_secs: 0 });
  runner = new CypherRunner(h.db);
  runner.handleSchemaWith(schemaStatementHandler(h.runtime.admin));
  const vs = clusteredVectors(5, 500, 8, 4);
  await h.graph('grpc', 'createNodesBatch', { nodes: vs.map((v) => ({ labels: ['P'], properties: { v: vec(v), t: { kind: { case: 'stringValue', value: 'some text' } } } })) });
});

afterAll(async () => {
  await h?.close();
});

describe('search index builds', () => {
  it('a vector build is ACCEPTED then RUNNING while paused; queries wait for it or are refused; it publishes on resume', async () => {
    h.runtime.executor.pause();
    const b = await h.schema('grpc', 'createSearchIndex', { label: 'P', properties: ['v'], kind: { case: 'vector', value: { dimensions: 8, metric: DistanceMetric.L2 } } });
    expect([IndexBuildState.ACCEPTED, IndexBuildState.RUNNING]).toContain(b.state);
    const q = "MATCH (p:P) RETURN id(p) ORDER BY vector_distance(p.v, [0, 0, 0, 0, 0, 0, 0, 0], 'euclidean') LIMIT 3";
    expect(await failureOf(runner.autoCommit(call(q, { vector_build_wait_ms: 0 }), h.db.latestCommitted()))).toMatchObject({
      code: 'FAILED_PRECONDITION',
      reason: 'VECTOR_INDEX_BUILDING',
    });
    expect(await failureOf(runner.autoCommit(call(`/*+ vector_build_wait(0) */ ${q}`, { vector_build_wait_ms: 60_000 }), h.db.latestCommitted()))).toMatchObject({
      reason: 'VECTOR_INDEX_BUILDING',
    });
    expect(await failureOf(runner.autoCommit(call(q, { vector_build_wait_ms: 30 }), h.db.latestCommitted()))).toMatchObject({ code: 'UNAVAILABLE', reason: 'VECTOR_INDEX_BUILDING' });
    const exact = await runner.autoCommit(call(q, { vector_build_wait_ms: 0, vector_consistency: 'EXACT' }), h.db.latestCommitted());
    expect(exact.rows).toHaveLength(3);
    // A query that waits gets its answer once the build publishes.
    const waiting = runner.autoCommit(call(q, { vector_build_wait_ms: 20_000 }), h.db.latestCommitted());
    h.runtime.executor.resume();
    expect((await waiting).rows).toEqual(exact.rows);
    const done = await h.schema('grpc', 'getIndexBuild', { operation: b.operation, wait: seconds(20) });
    expect(done).toMatchObject({ state: IndexBuildState.PUBLISHED, indexed: 500n });
  });

  it('a text build can be cancelled; the index is withdrawn', async () => {
    h.runtime.executor.pause();
    const b = await h.schema('rest', 'createSearchIndex', { label: 'P', properties: ['t'], kind: { case: 'text', value: { analyzer: TextAnalyzer.WHITESPACE } } });
    const cancelled = await h.schema('rest', 'cancelIndexBuild', { operation: b.operation });
    expect(cancelled.state).toBe(IndexBuildState.CANCELLED);
    h.runtime.executor.resume();
    expect(h.db.sm.schema.catalog.indexByName(b.index)).toBeUndefined();
    expect(await failureOf(runner.autoCommit(call("MATCH (p:P) WHERE text_match(p.t, 'text') RETURN p"), h.db.latestCommitted()))).toMatchObject({
      code: 'FAILED_PRECONDITION',
    });
  });

  it('DropSearchIndex refuses a B-tree index, and unknown names unless asked', async () => {
    await runner.autoCommit(call('CREATE INDEX p_t FOR (p:P) ON (p.t)'), h.db.latestCommitted());
    expect(await failureOf(h.schema('grpc', 'dropSearchIndex', { name: 'p_t' }))).toMatchObject({ reason: 'NOT_A_SEARCH_INDEX' });
    expect((await failureOf(h.schema('grpc', 'dropSearchIndex', { name: 'nope' }))).code).toBe('NOT_FOUND');
    await h.schema('grpc', 'dropSearchIndex', { name: 'nope', ifExists: true });
  });

  it('CheckIndex and Reindex refuse a vector index with FAILED_PRECONDITION: they take B-tree indexes only', async () => {
    // The first test's index, published by now.
    const index = h.db.sm.schema.catalog.indexByName('P_v_vector_index');
    expect(index?.serving).toBeDefined();
    for (const t of ['grpc', 'rest'] as const) {
      expect(await failureOf(h.schema(t, 'checkIndex', { index: { case: 'indexName', value: 'P_v_vector_index' } }))).toMatchObject({
        code: 'FAILED_PRECONDITION',
        reason: 'NOT_A_BTREE_INDEX',
      });
      expect(await failureOf(h.schema(t, 'reindex', { index: { case: 'indexName', value: 'P_v_vector_index' } }))).toMatchObject({
        code: 'FAILED_PRECONDITION',
        reason: 'NOT_A_BTREE_INDEX',
      });
    }
  });

  it('the memory budget (vector_index_memory_mb) refuses a build that would pass it, before it is admitted', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-vector-budget-'));
    const db = await open(dir, { vector_index_memory_mb: 1 });
    try {
      // 2000 x 128 dimensions: about 2.4 MiB of vectors and links, over the 1 MiB budget.
      await db.query('UNWIND $vs AS v CREATE (:Big {v: v})', { vs: clusteredVectors(6, 2000, 128, 4) });
      await db.query('UNWIND $vs AS v CREATE (:Small {v: v})', { vs: clusteredVectors(7, 100, 128, 4) });
      const ddl = (label: string) => `CREATE VECTOR INDEX ${label}_v FOR (n:${label}) ON (n.v) OPTIONS {indexConfig: {\`vector.dimensions\`: 128}}`;
      await expect(db.query(ddl('Big'))).rejects.toMatchObject({ code: 'RESOURCE_EXHAUSTED', reason: 'VECTOR_MEMORY_BUDGET', metadata: { label: 'Big', budget_mb: '1' } });
      expect(db.database.sm.schema.catalog.indexByName('Big_v')).toBeUndefined();
      await db.query(ddl('Small'));
      expect(db.database.sm.schema.catalog.indexByName('Small_v')?.serving).toBeDefined();
    } finally {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
