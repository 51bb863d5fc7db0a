import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConstraintKind, ConstraintState, IndexBuildState, IndexCheckState, IndexIntegrity, ScalarType, SchemaMode } from '../../src/gen/weft/v2/schema_pb.js';
import { failureOf, scalar, seconds, startHarness, str, transports, type SchemaHarness } from './harness.js';

/**
 * Builds, checks and the catalog against a real `weft serve`, across a graceful restart and a kill -9:
 * the catalog and the indexes come back (from the checkpoint, or by replaying the log) and keep holding.
 */
let h: SchemaHarness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

describe('schema on a real server', () => {
  it.each(transports)('CheckIndex, Reindex and repairs over %s', async (t) => {
    const label = `Proc_${t}`;
    await h.graph(t, 'createNodesBatch', { nodes: [...Array(300).keys()].map((i) => ({ labels: [label], properties: { k: str(`${label}-${i % 150}`) } })) });
    const c = await h.schema(t, 'createConstraint', { label, properties: ['k'], kind: ConstraintKind.UNIQUE, onDuplicateRename: 'k', wait: seconds(30) });
    expect(c).toMatchObject({ state: ConstraintState.ACTIVE });
    expect(c.build).toMatchObject({ state: IndexBuildState.PUBLISHED, repaired: 150n });
    expect((await h.schema(t, 'listIndexBuildRepairs', { operation: c.build!.operation })).repairs).toHaveLength(150);
    const k = await h.schema(t, 'checkIndex', { index: { case: 'indexName', value: c.backingIndex } });
    const done = await h.schema(t, 'getIndexCheck', { operation: k.operation, wait: seconds(30) });
    expect(done).toMatchObject({ state: IndexCheckState.DONE, integrity: IndexIntegrity.VERIFIED, mismatches: 0n });
    expect((await h.schema(t, 'listIndexChecks', {})).checks.map((x) => x.operation)).toContain(k.operation);
    const r = await h.schema(t, 'reindex', { index: { case: 'indexName', value: c.backingIndex }, wait: seconds(30) });
    expect(r).toMatchObject({ state: IndexBuildState.PUBLISHED, index: c.backingIndex, label });
    expect((await h.schema(t, 'cancelIndexBuild', { operation: r.operation })).state).toBe(IndexBuildState.PUBLISHED);
    expect((await failureOf(h.graph(t, 'createNode', { labels: [label], properties: { k: str(`${label}-1`) } }))).reason).toBe('UNIQUE_VIOLATION');
  });

  it('a graceful restart and a kill -9 keep definitions, constraints, builds and enforcement', async () => {
    await h.schema('grpc', 'createLabel', { name: 'Kept', properties: [{ name: 'k', type: scalar(ScalarType.STRING), required: true }], schemaMode: SchemaMode.STRICT });
    const c = await h.schema('grpc', 'createConstraint', { label: 'Kept', properties: ['k'], kind: ConstraintKind.UNIQUE });
    await h.graph('grpc', 'createNode', { labels: ['Kept'], properties: { k: str('one') } });
    const before = {
      labels: (await h.schema('grpc', 'listLabels', {})).labels,
      constraints: (await h.schema('grpc', 'listConstraints', {})).constraints,
      builds: (await h.schema('grpc', 'listIndexBuilds', {})).builds,
    };
    for (const kill of [false, true]) {
      await h.restart(kill);
      for (const t of transports) {
        expect((await h.schema(t, 'listLabels', {})).labels).toEqual(before.labels);
        expect((await h.schema(t, 'listConstraints', {})).constraints).toEqual(before.constraints);
        expect((await h.schema(t, 'listIndexBuilds', {})).builds).toEqual(before.builds);
        expect((await failureOf(h.graph(t, 'createNode', { labels: ['Kept'], properties: { k: str('one') } }))).reason).toBe('UNIQUE_VIOLATION');
        expect((await failureOf(h.graph(t, 'createNode', { labels: ['Kept'], properties: { k: str('x'), other: str('y') } }))).reason).toBe('UNDECLARED_PROPERTY');
      }
    }
    expect(c.name).toBe('Kept_k_unique');
  });
});

describe('Cypher DDL through the QueryService of a real server', () => {
  it.each(transports)('over %s: DDL and the SchemaService make and see the same objects', async (t) => {
    const L = `Q_${t}`;
    await h.cypher(t, `CREATE (:${L} {email: 'a'}), (:${L} {email: 'b'})`);
    await h.cypher(t, `CREATE CONSTRAINT ${L}_email FOR (n:${L}) REQUIRE n.email IS UNIQUE`);
    const views = await Promise.all(transports.map(async (u) => (await h.schema(u, 'listConstraints', {})).constraints.find((c) => c.name === `${L}_email`)));
    expect(views[0]).toMatchObject({ kind: ConstraintKind.UNIQUE, state: ConstraintState.ACTIVE, label: L, properties: ['email'] });
    expect(views[1]).toEqual(views[0]);
    const same = await h.schema(t, 'createConstraint', { label: L, properties: ['email'], kind: ConstraintKind.UNIQUE, ifNotExists: true });
    expect(same.name).toBe(`${L}_email`);
    expect(await failureOf(h.cypher(t, `CREATE (:${L} {email: 'a'})`))).toMatchObject({ code: 'FAILED_PRECONDITION', reason: 'UNIQUE_VIOLATION' });
    // The name is taken: DDL without IF NOT EXISTS is refused, whatever it asks.
    expect(await failureOf(h.cypher(t, `CREATE CONSTRAINT ${L}_email FOR (n:${L}) REQUIRE n.x IS NOT NULL`))).toMatchObject({ code: 'ALREADY_EXISTS' });
    await h.cypher(t, `CREATE INDEX ${L}_idx ON ${L}(email, n)`);
    expect((await h.schema(t, 'listIndexBuilds', {})).builds.find((b) => b.index === `${L}_idx`)?.state).toBe(IndexBuildState.PUBLISHED);
    await h.cypher(t, `DROP CONSTRAINT ${L}_email`);
    expect((await h.schema(t, 'listConstraints', {})).constraints.map((c) => c.name)).not.toContain(`${L}_email`);
    await h.cypher(t, `CREATE (:${L} {email: 'a'})`);
  });
});
