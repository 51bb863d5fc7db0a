import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ComputedType, DecayFormulaType, ScalarType, SchemaMode, TtlScopeType } from '../../src/gen/weft/v2/schema_pb.js';
import { bool, failureOf, float, int, scalar, startHarness, str, transports, type SchemaHarness } from './harness.js';

/** SPEC 4.3 rules 2-4 and the schema modes of SPEC 2.4, on both transports against a real server. */
let h: SchemaHarness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const vector = (dimensions: number) => ({ kind: { case: 'vector' as const, value: { dimensions, metric: 0 } } });
const array = (element: ReturnType<typeof scalar>) => ({ kind: { case: 'array' as const, value: { element } } });
const ts = (micros: bigint) => ({ kind: { case: 'timestampValue' as const, value: { unixMicros: micros } } });

describe.each(transports)('labels over %s', (t) => {
  const L = (name: string) => `${name}_${t}`;

  it('CreateLabel returns the definition; names are case-sensitive; a second definition is refused', async () => {
    const label = await h.schema(t, 'createLabel', {
      name: L('Person'),
      properties: [
        { name: 'name', type: scalar(ScalarType.STRING), required: true },
        { name: 'age', type: scalar(ScalarType.INT64), defaultValue: int(0) },
        { name: 'emb', type: vector(3) },
        { name: 'tags', type: array(scalar(ScalarType.STRING)) },
      ],
      schemaMode: SchemaMode.VALIDATED,
    });
    expect(label).toMatchObject({ name: L('Person'), declared: true, schemaMode: SchemaMode.VALIDATED, temporal: false });
    expect(label.properties.map((p) => p.name)).toEqual(['age', 'emb', 'name', 'tags']);
    expect(label.schemaRevision).toBeGreaterThan(0n);
    // Case-sensitive: `person` is another label.
    const lower = await h.schema(t, 'createLabel', { name: L('person'), properties: [] });
    expect(lower.schemaMode).toBe(SchemaMode.STRICT);
    const again = await failureOf(h.schema(t, 'createLabel', { name: L('Person'), properties: [] }));
    expect(again).toMatchObject({ code: 'ALREADY_EXISTS', reason: 'LABEL_EXISTS' });
  });

  it('CreateLabel refuses repeated property names, missing types, bad defaults and bad vectors', async () => {
    const cases: [unknown, string][] = [
      [{ name: L('R1'), properties: [{ name: 'a', type: scalar(ScalarType.STRING) }, { name: 'a', type: scalar(ScalarType.INT64) }] }, 'DUPLICATE_PROPERTY'],
      [{ name: L('R2'), properties: [{ name: 'a' }] }, 'INVALID_SCHEMA'],
      [{ name: L('R3'), properties: [{ name: 'a', type: scalar(ScalarType.UNSPECIFIED) }] }, 'INVALID_SCHEMA'],
      [{ name: L('R4'), properties: [{ name: 'a', type: scalar(ScalarType.INT64), defaultValue: str('x') }] }, 'INVALID_DEFAULT'],
      [{ name: L('R5'), properties: [{ name: 'a', type: vector(65537) }] }, 'INVALID_SCHEMA'],
      [{ name: '', properties: [] }, 'INVALID_SCHEMA'],
    ];
    for (const [req, reason] of cases) {
      expect(await failureOf(h.schema(t, 'createLabel', req as never))).toMatchObject({ code: 'INVALID_ARGUMENT', reason });
    }
    // Nothing refused was defined.
    const names = (await h.schema(t, 'listLabels', {})).labels.map((l) => l.name);
    for (const n of ['R1', 'R2', 'R3', 'R4', 'R5']) expect(names).not.toContain(L(n));
  });

  it('computed properties: stored and validated, names distinct from stored ones, anchor a TIMESTAMP', async () => {
    const ok = await h.schema(t, 'createLabel', {
      name: L('Session'),
      properties: [
        { name: 'started', type: scalar(ScalarType.TIMESTAMP), required: true },
        { name: 'doc', type: scalar(ScalarType.DOCUMENT) },
      ],
      computedProperties: [
        { name: 'freshness', computedType: ComputedType.DECAY, formulaType: DecayFormulaType.EXPONENTIAL, lambda: 0.7, initial: 1, target: 0, durationSecs: 3600n, anchorField: 'started' },
        { name: 'expiry', computedType: ComputedType.TTL, durationSecs: 60n, anchorField: 'started', scope: TtlScopeType.SUBTREE, targetField: 'doc' },
      ],
      schemaMode: SchemaMode.FLEXIBLE,
    });
    expect(ok.computedProperties.map((c) => c.name)).toEqual(['expiry', 'freshness']);
    const bad: unknown[] = [
      { name: L('C1'), properties: [{ name: 'x', type: scalar(ScalarType.TIMESTAMP) }], computedProperties: [{ name: 'x', computedType: ComputedType.TTL, durationSecs: 1n, anchorField: 'x' }] },
      { name: L('C2'), properties: [{ name: 'x', type: scalar(ScalarType.STRING) }], computedProperties: [{ name: 'c', computedType: ComputedType.TTL, durationSecs: 1n, anchorField: 'x' }] },
      { name: L('C3'), properties: [{ name: 'x', type: scalar(ScalarType.TIMESTAMP) }], computedProperties: [{ name: 'c', computedType: ComputedType.TTL, durationSecs: 0n, anchorField: 'x' }] },
      { name: L('C4'), properties: [{ name: 'x', type: scalar(ScalarType.TIMESTAMP) }], computedProperties: [{ name: 'c', computedType: ComputedType.UNSPECIFIED, durationSecs: 1n, anchorField: 'x' }] },
      { name: L('C5'), properties: [{ name: 'x', type: scalar(ScalarType.TIMESTAMP) }], computedProperties: [{ name: 'c', computedType: ComputedType.DECAY, formulaType: DecayFormulaType.POWER_LAW, durationSecs: 1n, anchorField: 'x' }] },
    ];
    for (const req of bad) expect((await failureOf(h.schema(t, 'createLabel', req as never))).code).toBe('INVALID_ARGUMENT');
    // The rest of SPEC 2.4's rules for a definition, each refused with its reason.
    const anchor = { name: 'x', type: scalar(ScalarType.TIMESTAMP) };
    const doc = { name: 'd', type: scalar(ScalarType.DOCUMENT) };
    const rules: [string, unknown[], object][] = [
      ['EXPONENTIAL without lambda', [anchor], { computedType: ComputedType.DECAY, formulaType: DecayFormulaType.EXPONENTIAL, durationSecs: 1n, anchorField: 'x' }],
      ['POWER_LAW with alpha 0', [anchor], { computedType: ComputedType.DECAY, formulaType: DecayFormulaType.POWER_LAW, tau: 0.5, durationSecs: 1n, anchorField: 'x' }],
      ['no anchor_field', [anchor], { computedType: ComputedType.DECAY, durationSecs: 1n, anchorField: '' }],
      ['an anchor the label does not declare', [anchor], { computedType: ComputedType.TTL, durationSecs: 1n, anchorField: 'y' }],
      ['SUBTREE without target_field', [anchor, doc], { computedType: ComputedType.TTL, durationSecs: 1n, anchorField: 'x', scope: TtlScopeType.SUBTREE }],
      ['SUBTREE naming a non-DOCUMENT', [anchor, doc], { computedType: ComputedType.TTL, durationSecs: 1n, anchorField: 'x', scope: TtlScopeType.SUBTREE, targetField: 'x' }],
      ['target_field on a NODE TTL', [anchor, doc], { computedType: ComputedType.TTL, durationSecs: 1n, anchorField: 'x', scope: TtlScopeType.NODE, targetField: 'd' }],
    ];
    for (const [i, [why, properties, computed]] of rules.entries()) {
      const req = { name: L(`R${i}`), properties, computedProperties: [{ name: 'c', ...computed }], schemaMode: SchemaMode.VALIDATED };
      expect(await failureOf(h.schema(t, 'createLabel', req as never)), why).toMatchObject({ code: 'INVALID_ARGUMENT', reason: 'INVALID_COMPUTED_PROPERTY' });
    }
    // A write to a computed property is refused.
    const f = await failureOf(h.graph(t, 'createNode', { labels: [L('Session')], properties: { started: ts(1n), freshness: float(0.5) } }));
    expect(f).toMatchObject({ code: 'FAILED_PRECONDITION', reason: 'COMPUTED_PROPERTY_WRITE' });
  });

  it('STRICT: only declared properties, type-checked; required enforced; defaults filled in', async () => {
    await h.schema(t, 'createLabel', {
      name: L('Strict'),
      properties: [
        { name: 'name', type: scalar(ScalarType.STRING), required: true },
        { name: 'n', type: scalar(ScalarType.INT64), defaultValue: int(7) },
      ],
      schemaMode: SchemaMode.STRICT,
    });
    const made = await h.graph(t, 'createNode', { labels: [L('Strict')], properties: { name: str('a') } });
    const read = await h.graph(t, 'getNode', { nodeId: made.nodeId });
    expect(read.properties['n']?.kind.value).toBe(7n);
    expect(await failureOf(h.graph(t, 'createNode', { labels: [L('Strict')], properties: { name: str('a'), extra: bool(true) } }))).toMatchObject({
      code: 'FAILED_PRECONDITION',
      reason: 'UNDECLARED_PROPERTY',
    });
    expect(await failureOf(h.graph(t, 'createNode', { labels: [L('Strict')], properties: { name: int(1) } }))).toMatchObject({ reason: 'PROPERTY_TYPE_MISMATCH' });
    expect(await failureOf(h.graph(t, 'createNode', { labels: [L('Strict')], properties: {} }))).toMatchObject({ reason: 'REQUIRED_PROPERTY_MISSING' });
  });

  it('VALIDATED checks declared types and stores others; FLEXIBLE checks only requiredness', async () => {
    await h.schema(t, 'createLabel', { name: L('Val'), properties: [{ name: 'x', type: scalar(ScalarType.FLOAT64) }], schemaMode: SchemaMode.VALIDATED });
    await h.graph(t, 'createNode', { labels: [L('Val')], properties: { x: float(1.5), other: str('kept') } });
    expect(await failureOf(h.graph(t, 'createNode', { labels: [L('Val')], properties: { x: str('no') } }))).toMatchObject({ reason: 'PROPERTY_TYPE_MISMATCH' });
    await h.schema(t, 'createLabel', {
      name: L('Flex'),
      properties: [
        { name: 'x', type: scalar(ScalarType.FLOAT64) },
        { name: 'must', type: scalar(ScalarType.BOOL), required: true },
      ],
      schemaMode: SchemaMode.FLEXIBLE,
    });
    await h.graph(t, 'createNode', { labels: [L('Flex')], properties: { x: str('anything'), must: bool(true), y: int(1) } });
    expect(await failureOf(h.graph(t, 'createNode', { labels: [L('Flex')], properties: { x: float(1) } }))).toMatchObject({ reason: 'REQUIRED_PROPERTY_MISSING' });
  });

  it('ListLabels: declared and undeclared labels by name; undeclared ones carry nothing else', async () => {
    await h.graph(t, 'createNode', { labels: [L('Loose')], properties: { a: int(1) } });
    const labels = (await h.schema(t, 'listLabels', {})).labels;
    const names = labels.map((l) => l.name);
    expect(names).toEqual([...names].sort());
    const loose = labels.find((l) => l.name === L('Loose'));
    expect(loose).toMatchObject({ declared: false, properties: [], schemaRevision: 0n, schemaMode: SchemaMode.UNSPECIFIED });
    expect(labels.find((l) => l.name === L('Person'))?.declared).toBe(true);
  });
});

describe.each(transports)('edge types over %s', (t) => {
  const E = (name: string) => `${name}_${t}`;

  it('CreateEdgeType: discriminator must be a declared, required property of an identifying type', async () => {
    const ok = await h.schema(t, 'createEdgeType', {
      name: E('RATED'),
      properties: [{ name: 'at', type: scalar(ScalarType.INT64), required: true }, { name: 'note', type: scalar(ScalarType.STRING) }],
      discriminator: 'at',
    });
    expect(ok).toMatchObject({ name: E('RATED'), declared: true, discriminator: 'at' });
    const bad: [unknown, string][] = [
      [{ name: E('B1'), properties: [], discriminator: 'nope' }, 'INVALID_DISCRIMINATOR'],
      [{ name: E('B2'), properties: [{ name: 'at', type: scalar(ScalarType.INT64) }], discriminator: 'at' }, 'INVALID_DISCRIMINATOR'],
      [{ name: E('B3'), properties: [{ name: 'at', type: scalar(ScalarType.MAP), required: true }], discriminator: 'at' }, 'INVALID_DISCRIMINATOR'],
    ];
    for (const [req, reason] of bad) expect(await failureOf(h.schema(t, 'createEdgeType', req as never))).toMatchObject({ code: 'INVALID_ARGUMENT', reason });
    expect(await failureOf(h.schema(t, 'createEdgeType', { name: E('RATED'), properties: [] }))).toMatchObject({ code: 'ALREADY_EXISTS', reason: 'EDGE_TYPE_EXISTS' });
  });

  it('edge identity: the discriminator value, or at most one edge per endpoint pair without one', async () => {
    await h.schema(t, 'createEdgeType', { name: E('KNOWS'), properties: [] });
    const a = await h.graph(t, 'createNode', { labels: [], properties: {} });
    const b = await h.graph(t, 'createNode', { labels: [], properties: {} });
    await h.graph(t, 'createEdge', { edgeType: E('KNOWS'), sourceNodeId: a.nodeId, targetNodeId: b.nodeId, properties: {} });
    expect(await failureOf(h.graph(t, 'createEdge', { edgeType: E('KNOWS'), sourceNodeId: a.nodeId, targetNodeId: b.nodeId, properties: {} }))).toMatchObject({
      code: 'ALREADY_EXISTS',
      reason: 'EDGE_EXISTS',
    });
    // The other direction is another pair.
    await h.graph(t, 'createEdge', { edgeType: E('KNOWS'), sourceNodeId: b.nodeId, targetNodeId: a.nodeId, properties: {} });
    await h.graph(t, 'createEdge', { edgeType: E('RATED'), sourceNodeId: a.nodeId, targetNodeId: b.nodeId, properties: { at: int(1) } });
    await h.graph(t, 'createEdge', { edgeType: E('RATED'), sourceNodeId: a.nodeId, targetNodeId: b.nodeId, properties: { at: int(2) } });
    expect(await failureOf(h.graph(t, 'createEdge', { edgeType: E('RATED'), sourceNodeId: a.nodeId, targetNodeId: b.nodeId, properties: { at: int(1) } }))).toMatchObject({
      reason: 'EDGE_EXISTS',
    });
    expect(await failureOf(h.graph(t, 'createEdge', { edgeType: E('RATED'), sourceNodeId: a.nodeId, targetNodeId: b.nodeId, properties: {} }))).toMatchObject({
      reason: 'REQUIRED_PROPERTY_MISSING',
    });
  });

  it('ListEdgeTypes lists undeclared types in use with declared=false, ordered by name', async () => {
    const a = await h.graph(t, 'createNode', { labels: [], properties: {} });
    await h.graph(t, 'createEdge', { edgeType: E('loose'), sourceNodeId: a.nodeId, targetNodeId: a.nodeId, properties: {} });
    const types = (await h.schema(t, 'listEdgeTypes', {})).edgeTypes;
    expect(types.find((e) => e.name === E('loose'))).toMatchObject({ declared: false, discriminator: '' });
    expect(types.find((e) => e.name === E('KNOWS'))?.declared).toBe(true);
    const names = types.map((e) => e.name);
    expect(names).toEqual([...names].sort());
  });
});

describe('both transports see one catalog', () => {
  it('a label made over gRPC is refused again over REST and listed identically', async () => {
    await h.schema('grpc', 'createLabel', { name: 'Shared', properties: [{ name: 'k', type: scalar(ScalarType.STRING) }] });
    expect((await failureOf(h.schema('rest', 'createLabel', { name: 'Shared', properties: [] }))).code).toBe('ALREADY_EXISTS');
    const viaGrpc = (await h.schema('grpc', 'listLabels', {})).labels.find((l) => l.name === 'Shared');
    const viaRest = (await h.schema('rest', 'listLabels', {})).labels.find((l) => l.name === 'Shared');
    expect(viaRest).toEqual(viaGrpc);
  });

  it('schema_revision advances on every published change and never changes once published', async () => {
    const before = await h.schema('grpc', 'createLabel', { name: 'Rev', properties: [{ name: 'k', type: scalar(ScalarType.STRING) }] });
    await h.schema('grpc', 'createConstraint', { label: 'Rev', properties: ['k'], kind: 2 });
    const after = (await h.schema('rest', 'listLabels', {})).labels.find((l) => l.name === 'Rev')!;
    expect(after.schemaRevision).toBeGreaterThan(before.schemaRevision);
    const other = await h.schema('grpc', 'createLabel', { name: 'Rev2', properties: [] });
    expect(other.schemaRevision).toBeGreaterThan(after.schemaRevision);
    expect((await h.schema('grpc', 'listLabels', {})).labels.find((l) => l.name === 'Rev')!.schemaRevision).toBe(after.schemaRevision);
  });
});
