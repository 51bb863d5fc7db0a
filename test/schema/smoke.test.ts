import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConstraintKind, IndexBuildState, ScalarType } from '../../src/gen/weft/v2/schema_pb.js';
import { failureOf, int, scalar, startHarness, str, type SchemaHarness } from './harness.js';

let h: SchemaHarness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

describe('smoke', () => {
  it('label, unique constraint, duplicate refused', async () => {
    const l = await h.schema('grpc', 'createLabel', { name: 'Person', properties: [{ name: 'email', type: scalar(ScalarType.STRING), required: true }] });
    expect(l.declared).toBe(true);
    const n = await h.graph('grpc', 'createNode', { labels: ['Person'], properties: { email: str('a@x') } });
    expect(n.nodeId).toBeGreaterThan(0n);
    const c = await h.schema('grpc', 'createConstraint', { label: 'Person', properties: ['email'], kind: ConstraintKind.UNIQUE });
    expect(c.name).toBe('Person_email_unique');
    expect(c.build.state).toBe(IndexBuildState.PUBLISHED);
    const f = await failureOf(h.graph('rest', 'createNode', { labels: ['Person'], properties: { email: str('a@x') } }));
    expect(f).toMatchObject({ code: 'FAILED_PRECONDITION', reason: 'UNIQUE_VIOLATION' });
    const g = await failureOf(h.graph('grpc', 'createNode', { labels: ['Person'], properties: { email: str('b@x'), age: int(3) } }));
    expect(g.reason).toBe('UNDECLARED_PROPERTY');
  });
});
