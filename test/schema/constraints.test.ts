import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConstraintKind, ConstraintState, IndexBuildState, ScalarType, SchemaMode } from '../../src/gen/weft/v2/schema_pb.js';
import { bool, failureOf, float, int, scalar, startHarness, str, transports, type SchemaHarness } from './harness.js';

/** Constraints: SPEC 3.1, 4.3 rules 1 and 5-7, and the constraint errors of SPEC 7, on both transports. */
let h: SchemaHarness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

describe.each(transports)('constraints over %s', (t) => {
  const L = (name: string) => `${name}_${t}`;
  const node = (label: string, properties: Record<string, unknown>) => h.graph(t, 'createNode', { labels: [label], properties: properties as never });
  const names = async () => (await h.schema(t, 'listConstraints', {})).constraints.map((c) => c.name);

  it('UNIQUE: a derived name, a backing index and build, ACTIVE once published; duplicates refused', async () => {
    await node(L('User'), { email: str('a@x') });
    await node(L('User'), { email: str('b@x') });
    const c = await h.schema(t, 'createConstraint', { label: L('User'), properties: ['email'], kind: ConstraintKind.UNIQUE });
    expect(c).toMatchObject({ name: `${L('User')}_email_unique`, state: ConstraintState.ACTIVE, label: L('User'), properties: ['email'] });
    expect(c.backingIndex).toBe(`${L('User')}_email_unique_index`);
    expect(c.build).toMatchObject({ state: IndexBuildState.PUBLISHED, index: c.backingIndex, label: L('User'), failure: '' });
    expect(c.build!.operation).toBeGreaterThan(0n);
    expect(c.build!.indexed).toBe(2n);
    expect(await failureOf(node(L('User'), { email: str('a@x') }))).toMatchObject({ code: 'FAILED_PRECONDITION', reason: 'UNIQUE_VIOLATION' });
    // A node missing the property is not constrained; a new value is accepted.
    await node(L('User'), {});
    await node(L('User'), {});
    await node(L('User'), { email: str('c@x') });
    // Inside one batch too.
    const batch = h.graph(t, 'createNodesBatch', { nodes: [{ labels: [L('User')], properties: { email: str('d@x') } }, { labels: [L('User')], properties: { email: str('d@x') } }] });
    expect((await failureOf(batch)).reason).toBe('UNIQUE_VIOLATION');
  });

  it('UNIQUE with a scope compares only the nodes the scope admits', async () => {
    await h.schema(t, 'createConstraint', {
      label: L('Acct'),
      properties: ['handle'],
      kind: ConstraintKind.UNIQUE,
      scope: { property: 'status', test: { case: 'equalsString', value: 'active' } },
    });
    await node(L('Acct'), { handle: str('h'), status: str('active') });
    await node(L('Acct'), { handle: str('h'), status: str('closed') });
    await node(L('Acct'), { handle: str('h') });
    expect((await failureOf(node(L('Acct'), { handle: str('h'), status: str('active') }))).reason).toBe('UNIQUE_VIOLATION');
    // Same properties, another scope: another constraint.
    const other = await h.schema(t, 'createConstraint', {
      label: L('Acct'),
      properties: ['handle'],
      kind: ConstraintKind.UNIQUE,
      scope: { property: 'vip', test: { case: 'equalsBool', value: true } },
    });
    expect(other.name).not.toBe(`${L('Acct')}_handle_unique`);
    expect(other.scope?.test).toEqual({ case: 'equalsBool', value: true });
  });

  it('NOT_NULL and PROPERTY_TYPE are ACTIVE at once, with no build, and checked on every write', async () => {
    const nn = await h.schema(t, 'createConstraint', { label: L('Doc'), properties: ['title'], kind: ConstraintKind.NOT_NULL });
    expect(nn).toMatchObject({ state: ConstraintState.ACTIVE, backingIndex: '' });
    expect(nn.build).toBeUndefined();
    expect(await failureOf(node(L('Doc'), { body: str('x') }))).toMatchObject({ code: 'FAILED_PRECONDITION', reason: 'NOT_NULL_VIOLATION' });
    const pt = await h.schema(t, 'createConstraint', { label: L('Doc'), properties: ['pages'], kind: ConstraintKind.PROPERTY_TYPE, propertyType: scalar(ScalarType.INT64) });
    expect(pt.propertyType?.kind).toEqual({ case: 'scalar', value: ScalarType.INT64 });
    await node(L('Doc'), { title: str('t'), pages: int(3) });
    await node(L('Doc'), { title: str('t') });
    expect(await failureOf(node(L('Doc'), { title: str('t'), pages: float(1.5) }))).toMatchObject({ reason: 'PROPERTY_TYPE_VIOLATION' });
  });

  it('a per-node constraint that stored data breaks is refused and leaves nothing', async () => {
    await node(L('Old'), { x: int(1) });
    await node(L('Old'), { x: str('s') });
    expect(await failureOf(h.schema(t, 'createConstraint', { label: L('Old'), properties: ['y'], kind: ConstraintKind.NOT_NULL }))).toMatchObject({
      code: 'FAILED_PRECONDITION',
      reason: 'CONSTRAINT_VALIDATION_FAILED',
    });
    expect(
      await failureOf(h.schema(t, 'createConstraint', { label: L('Old'), properties: ['x'], kind: ConstraintKind.PROPERTY_TYPE, propertyType: scalar(ScalarType.INT64) })),
    ).toMatchObject({ reason: 'CONSTRAINT_VALIDATION_FAILED' });
    expect((await names()).filter((n) => n.startsWith(L('Old')))).toEqual([]);
  });

  it('NODE_KEY: every property present and the tuple unique; a build over a node missing one fails and leaves nothing', async () => {
    const k = await h.schema(t, 'createConstraint', { label: L('Key'), properties: ['a', 'b'], kind: ConstraintKind.NODE_KEY });
    expect(k).toMatchObject({ state: ConstraintState.ACTIVE, name: `${L('Key')}_a_b_node_key` });
    await node(L('Key'), { a: int(1), b: int(1) });
    await node(L('Key'), { a: int(1), b: int(2) });
    expect(await failureOf(node(L('Key'), { a: int(1) }))).toMatchObject({ reason: 'NODE_KEY_VIOLATION' });
    expect(await failureOf(node(L('Key'), { a: int(1), b: int(2) }))).toMatchObject({ reason: 'NODE_KEY_VIOLATION' });
    await node(L('Key2'), { a: int(1) });
    const f = await failureOf(h.schema(t, 'createConstraint', { label: L('Key2'), properties: ['a', 'b'], kind: ConstraintKind.NODE_KEY }));
    expect(f).toMatchObject({ code: 'FAILED_PRECONDITION', reason: 'CONSTRAINT_VALIDATION_FAILED' });
    expect(f.message).toContain('has no b');
    expect((await names()).filter((n) => n.startsWith(L('Key2')))).toEqual([]);
  });

  it('request rules: kind required, property counts, repeats, property_type only for PROPERTY_TYPE, scope only for UNIQUE', async () => {
    const bad: unknown[] = [
      { label: L('R'), properties: ['a'] },
      { label: L('R'), properties: ['a', 'b'], kind: ConstraintKind.NOT_NULL },
      { label: L('R'), properties: [], kind: ConstraintKind.UNIQUE },
      { label: L('R'), properties: ['a', 'a'], kind: ConstraintKind.UNIQUE },
      { label: L('R'), properties: ['a'], kind: ConstraintKind.PROPERTY_TYPE },
      { label: L('R'), properties: ['a'], kind: ConstraintKind.UNIQUE, propertyType: scalar(ScalarType.STRING) },
      { label: L('R'), properties: ['a'], kind: ConstraintKind.NOT_NULL, scope: { property: 's', test: { case: 'present', value: {} } } },
      { label: L('R'), properties: ['a'], kind: ConstraintKind.NOT_NULL, onDuplicateRename: 'a' },
      { label: L('R'), properties: ['a'], kind: ConstraintKind.UNIQUE, onDuplicateRename: 'b' },
      { label: '', properties: ['a'], kind: ConstraintKind.UNIQUE },
    ];
    for (const req of bad) expect((await failureOf(h.schema(t, 'createConstraint', req as never))).code).toBe('INVALID_ARGUMENT');
    expect((await names()).filter((n) => n.startsWith(L('R')))).toEqual([]);
  });

  it('if_not_exists: the same name or the same requirement returns the one in place; without it both are refused', async () => {
    const first = await h.schema(t, 'createConstraint', { name: L('tag_unique'), label: L('Tag'), properties: ['v'], kind: ConstraintKind.UNIQUE });
    const byName = await h.schema(t, 'createConstraint', { name: L('tag_unique'), label: L('Tag'), properties: ['v'], kind: ConstraintKind.UNIQUE, ifNotExists: true });
    const bySame = await h.schema(t, 'createConstraint', { name: L('other'), label: L('Tag'), properties: ['v'], kind: ConstraintKind.UNIQUE, ifNotExists: true });
    expect(byName.name).toBe(first.name);
    expect(bySame.name).toBe(first.name);
    expect(bySame.build?.operation).toBe(first.build?.operation);
    expect(await failureOf(h.schema(t, 'createConstraint', { name: L('tag_unique'), label: L('Tag'), properties: ['w'], kind: ConstraintKind.NOT_NULL }))).toMatchObject({
      code: 'ALREADY_EXISTS',
      reason: 'CONSTRAINT_EXISTS',
    });
    expect(await failureOf(h.schema(t, 'createConstraint', { name: L('again'), label: L('Tag'), properties: ['v'], kind: ConstraintKind.UNIQUE }))).toMatchObject({
      code: 'ALREADY_EXISTS',
    });
    expect(await names()).not.toContain(L('other'));
  });

  it('DropConstraint drops the owned index in the same change and keeps the type definition; if_exists', async () => {
    await h.schema(t, 'createLabel', { name: L('Drop'), properties: [{ name: 'k', type: scalar(ScalarType.STRING) }], schemaMode: SchemaMode.FLEXIBLE });
    const c = await h.schema(t, 'createConstraint', { label: L('Drop'), properties: ['k'], kind: ConstraintKind.UNIQUE });
    await node(L('Drop'), { k: str('x') });
    await h.schema(t, 'dropConstraint', { name: c.name });
    expect(await names()).not.toContain(c.name);
    await node(L('Drop'), { k: str('x') });
    const build = (await h.schema(t, 'listIndexBuilds', {})).builds.find((b) => b.operation === c.build!.operation)!;
    expect(build).toMatchObject({ index: '', label: '', state: IndexBuildState.PUBLISHED });
    expect((await h.schema(t, 'listLabels', {})).labels.find((l) => l.name === L('Drop'))?.properties.map((p) => p.name)).toEqual(['k']);
    expect(await failureOf(h.schema(t, 'dropConstraint', { name: c.name }))).toMatchObject({ code: 'NOT_FOUND' });
    await h.schema(t, 'dropConstraint', { name: c.name, ifExists: true });
  });

  it('ListConstraints is ordered by name and shows each constraint as CreateConstraint did', async () => {
    const list = (await h.schema(t, 'listConstraints', {})).constraints;
    const ordered = list.map((c) => c.name);
    expect(ordered).toEqual([...ordered].sort());
    const user = list.find((c) => c.name === `${L('User')}_email_unique`);
    expect(user).toMatchObject({ state: ConstraintState.ACTIVE, kind: ConstraintKind.UNIQUE });
    void bool;
  });
});
