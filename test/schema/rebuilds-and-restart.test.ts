import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConstraintKind, ConstraintState, IndexBuildState, ScalarType } from '../../src/gen/weft/v2/schema_pb.js';
import { Database } from '../../src/server/database.js';
import { startSchemaRuntime } from '../../src/server/index-builds/schema-runtime.js';
import { failureOf, scalar, seconds, startInProcess, str, transports, type InProcess } from './harness.js';

/**
 * What happens to an index being rebuilt when its build fails or is cancelled (SPEC 3.2, 4.3 rule 9),
 * a build interrupted by a restart (SPEC 3.1), and the remaining request rules of SPEC 7.
 */
let h: InProcess;
beforeAll(async () => {
  h = await startInProcess({ slice_nodes: 100 });
});
afterAll(async () => {
  await h?.close();
});

const journaled = { acks: 1, level: 'journal', timeout_ms: 0 } as const;

describe.each(transports)('rebuilds over %s', (t) => {
  const L = (name: string) => `${name}_${t}`;

  async function constrained(label: string, count: number) {
    const nodes = [...Array(count).keys()].map((i) => ({ labels: [label], properties: { k: str(`${label}-${i}`) } }));
    const made = await h.graph(t, 'createNodesBatch', { nodes });
    const c = await h.schema(t, 'createConstraint', { label, properties: ['k'], kind: ConstraintKind.UNIQUE, wait: seconds(20) });
    return { ids: made.nodes.map((n) => Number(n.nodeId)), c, index: h.db.sm.schema.catalog.indexByName(c.backingIndex)! };
  }

  it('a cancelled rebuild keeps the index serving its old generation, and its constraint keeps holding', async () => {
    const { c, index } = await constrained(L('Keep'), 200);
    const old = index.serving;
    h.runtime.executor.pause();
    const b = await h.schema(t, 'reindex', { index: { case: 'indexId', value: BigInt(index.index_id) } });
    const cancelled = await h.schema(t, 'cancelIndexBuild', { operation: b.operation });
    h.runtime.executor.resume();
    expect(cancelled).toMatchObject({ state: IndexBuildState.CANCELLED, index: index.name, label: L('Keep') });
    expect(h.db.sm.schema.catalog.indexes.get(index.index_id)).toMatchObject({ serving: old, filling: undefined });
    expect((await h.schema(t, 'listConstraints', {})).constraints.find((x) => x.name === c.name)?.state).toBe(ConstraintState.ACTIVE);
    expect((await failureOf(h.graph(t, 'createNode', { labels: [L('Keep')], properties: { k: str(`${L('Keep')}-3`) } }))).reason).toBe('UNIQUE_VIOLATION');
  });

  it('a rebuild that stored data refuses fails, and the index and its constraint are kept', async () => {
    const { ids, c, index } = await constrained(L('Bad'), 200);
    // A duplicate no write could make, planted under the write path on purpose.
    const record = h.db.sm.graph.nodeRecord(ids[7]!)!;
    record.head = { ...record.head, props: new Map([['k', `${L('Bad')}-8`]]) };
    const b = await h.schema(t, 'reindex', { index: { case: 'indexName', value: index.name }, wait: seconds(20) });
    expect(b).toMatchObject({ state: IndexBuildState.FAILED, index: index.name });
    expect(b.failure).toContain(`${L('Bad')}-8`);
    expect(h.db.sm.schema.catalog.indexes.get(index.index_id)?.serving).toBe(c.build ? Number(c.build.operation) : -1);
    expect((await h.schema(t, 'listConstraints', {})).constraints.find((x) => x.name === c.name)?.state).toBe(ConstraintState.ACTIVE);
  });

  it('ListIndexBuildRepairs without an operation is refused, never read as 0', async () => {
    expect(await failureOf(h.schema(t, 'listIndexBuildRepairs', {}))).toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(await failureOf(h.schema(t, 'cancelIndexCheck', {}))).toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('PROPERTY_TYPE over vectors and arrays', async () => {
    await h.schema(t, 'createConstraint', {
      label: L('Emb'),
      properties: ['v'],
      kind: ConstraintKind.PROPERTY_TYPE,
      propertyType: { kind: { case: 'vector', value: { dimensions: 2, metric: 0 } } },
    });
    await h.schema(t, 'createConstraint', {
      label: L('Emb'),
      properties: ['tags'],
      kind: ConstraintKind.PROPERTY_TYPE,
      propertyType: { kind: { case: 'array', value: { element: scalar(ScalarType.STRING) } } },
    });
    const vec = (values: number[]) => ({ kind: { case: 'vectorValue' as const, value: { values } } });
    const list = (values: string[]) => ({ kind: { case: 'listValue' as const, value: { values: values.map(str) } } });
    await h.graph(t, 'createNode', { labels: [L('Emb')], properties: { v: vec([1, 2]), tags: list(['a']) } });
    expect((await failureOf(h.graph(t, 'createNode', { labels: [L('Emb')], properties: { v: vec([1, 2, 3]) } }))).reason).toBe('PROPERTY_TYPE_VIOLATION');
    expect((await failureOf(h.graph(t, 'createNode', { labels: [L('Emb')], properties: { tags: str('a') } }))).reason).toBe('PROPERTY_TYPE_VIOLATION');
  });

  it('a temporal edge type with no discriminator identifies its edges by valid_from', async () => {
    // valid_from is valid time: a temporal type declares it TIMESTAMP (docs/temporal.md).
    await h.schema(t, 'createEdgeType', { name: L('HELD'), properties: [{ name: 'valid_from', type: scalar(ScalarType.TIMESTAMP), required: true }], temporal: true });
    const a = await h.graph(t, 'createNode', { labels: [], properties: {} });
    const b = await h.graph(t, 'createNode', { labels: [], properties: {} });
    const at = (n: number) => ({ valid_from: { kind: { case: 'timestampValue' as const, value: { unixMicros: BigInt(n) } } } });
    await h.graph(t, 'createEdge', { edgeType: L('HELD'), sourceNodeId: a.nodeId, targetNodeId: b.nodeId, properties: at(1) });
    await h.graph(t, 'createEdge', { edgeType: L('HELD'), sourceNodeId: a.nodeId, targetNodeId: b.nodeId, properties: at(2) });
    expect((await failureOf(h.graph(t, 'createEdge', { edgeType: L('HELD'), sourceNodeId: a.nodeId, targetNodeId: b.nodeId, properties: at(1) }))).reason).toBe('EDGE_EXISTS');
    expect((await h.schema(t, 'listEdgeTypes', {})).edgeTypes.find((e) => e.name === L('HELD'))).toMatchObject({ temporal: true, discriminator: '' });
  });
});

describe('restart', () => {
  it('a build interrupted by a restart leaves its constraint VALIDATING and enforced; the build is taken up again', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = mkdtempSync(join(tmpdir(), 'weft-schema-restart-'));
    const options = { data_dir: dir, node_id: 1, mvcc_retention_secs: 300, checkpoint_interval_entries: 100_000, log_segment_bytes_max: 8 << 20 };
    try {
      let db = await Database.open(options);
      let rt = startSchemaRuntime(db, { index_build_max_running: 1, index_build_statement_wait_secs: 10, concern: () => journaled, slice_nodes: 50 });
      await db.write((ws) => {
        for (let i = 0; i < 3000; i++) ws.createNode(['R'], new Map([['k', `r${i}`]]));
      }, { concern: journaled });
      rt.executor.pause();
      const c = await rt.admin.createConstraint({ name: 'r_k', label: 'R', constraint: 'UNIQUE', properties: ['k'], if_not_exists: false, on_duplicate_rename: '', wait_ms: 0 });
      expect(c.state).toBe('VALIDATING');
      rt.stop();
      await db.close(); // a checkpoint is written: the open build is in it

      db = await Database.open(options);
      rt = startSchemaRuntime(db, { index_build_max_running: 1, index_build_statement_wait_secs: 10, concern: () => journaled, slice_nodes: 50 });
      rt.executor.pause();
      const build = [...db.sm.schema.catalog.builds.values()].find((b) => b.index === 'r_k_index')!;
      expect(db.sm.schema.catalog.constraints.get('r_k')?.state).toBe('VALIDATING');
      expect(build.state).not.toBe('PUBLISHED');
      await expect(db.write((ws) => ws.createNode(['R'], new Map([['k', 'r2999']])), { concern: journaled })).rejects.toMatchObject({ reason: 'UNIQUE_VIOLATION' });
      rt.executor.resume();
      const done = await rt.admin.waitBuild(build.operation, 20_000);
      expect(done.state).toBe('PUBLISHED');
      expect(db.sm.schema.catalog.constraints.get('r_k')?.state).toBe('ACTIVE');
      expect(done.indexed).toBe(3000);
      rt.stop();
      await db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
