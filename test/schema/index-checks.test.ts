import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConstraintKind, IndexBuildState, IndexCheckPhase, IndexCheckState, IndexIntegrity } from '../../src/gen/weft/v2/schema_pb.js';
import { encodeElementId } from '../../src/common/element-id.js';
import { failureOf, seconds, startInProcess, str, transports, type InProcess } from './harness.js';

/**
 * Index checks and reindex (SPEC 3.3, 4.3 rules 11-13) over gRPC and REST. A test hook damages an
 * index on purpose; a check must find every disagreement, repair it, and end VERIFIED.
 */
let h: InProcess;
beforeAll(async () => {
  h = await startInProcess({ slice_nodes: 200, rebuild_mismatches_min: 50 });
});
afterAll(async () => {
  await h?.close();
});

async function indexed(t: 'grpc' | 'rest', label: string, count: number) {
  const nodes = [...Array(count).keys()].map((i) => ({ labels: [label], properties: { k: str(`${label}-${i}`) } }));
  const made = await h.graph(t, 'createNodesBatch', { nodes });
  const c = await h.schema(t, 'createConstraint', { label, properties: ['k'], kind: ConstraintKind.UNIQUE, wait: seconds(20) });
  const index = h.db.sm.schema.catalog.indexByName(c.backingIndex)!;
  return { ids: made.nodes.map((n) => Number(n.nodeId)), c, index };
}

function generation(index_id: number) {
  const index = h.db.sm.schema.catalog.indexes.get(index_id)!;
  return h.db.sm.schema.indexes.get(index.serving!)!;
}

describe.each(transports)('index checks over %s', (t) => {
  const L = (name: string) => `${name}_${t}`;

  it('a check of an index in agreement: UNCHECKED -> VERIFIED, one pass, no mismatches', async () => {
    const { index } = await indexed(t, L('Clean'), 500);
    expect(index.integrity).toBe('UNCHECKED');
    const k = await h.schema(t, 'checkIndex', { index: { case: 'indexName', value: index.name } });
    expect([IndexCheckState.ACCEPTED, IndexCheckState.RUNNING]).toContain(k.state);
    expect(k).toMatchObject({ indexId: BigInt(index.index_id), index: index.name, label: L('Clean') });
    const done = await h.schema(t, 'getIndexCheck', { operation: k.operation, wait: seconds(20) });
    expect(done).toMatchObject({ state: IndexCheckState.DONE, integrity: IndexIntegrity.VERIFIED, passes: 1, mismatches: 0n, repaired: 0n, failure: '' });
    expect(done.checked).toBeGreaterThanOrEqual(1000n);
    expect(done.rebuiltInto).toBeUndefined();
  });

  it('damage on purpose: a check finds every disagreeing entry, turns the index SUSPECT, repairs, and ends VERIFIED', async () => {
    const { ids, index } = await indexed(t, L('Hurt'), 500);
    const gen = generation(index.index_id);
    gen.corruptForTest(ids[10]!, 'drop_entry');
    gen.corruptForTest(ids[20]!, 'bogus_entry', ['nobody']);
    gen.plantOrphanForTest([`${L('Hurt')}-30`], ids[40]!);
    // A lookup through the damaged index misses the node whose entry was dropped.
    const lookup = h.db.sm.schema.lookup(h.db.latestCommitted());
    expect([...lookup.equal(index.index_id, [`${L('Hurt')}-10`])]).toEqual([]);
    h.runtime.checker.pause();
    const k = await h.schema(t, 'checkIndex', { index: { case: 'indexId', value: BigInt(index.index_id) } });
    // A check already running for the generation is returned as it is.
    const again = await h.schema(t, 'checkIndex', { index: { case: 'indexName', value: index.name } });
    expect(again.operation).toBe(k.operation);
    h.runtime.checker.resume();
    const done = await h.schema(t, 'getIndexCheck', { operation: k.operation, wait: seconds(20) });
    expect(done).toMatchObject({ state: IndexCheckState.DONE, integrity: IndexIntegrity.VERIFIED, mismatches: 3n, repaired: 3n, passes: 1 });
    expect(h.db.sm.schema.catalog.indexes.get(index.index_id)!.integrity).toBe('VERIFIED');
    const healed = h.db.sm.schema.lookup(h.db.latestCommitted());
    expect([...healed.equal(index.index_id, [`${L('Hurt')}-10`])].map((n) => n.id)).toEqual([ids[10]]);
    expect([...healed.equal(index.index_id, ['nobody'])]).toEqual([]);
    expect(gen.entries.get([`${L('Hurt')}-30`])?.ids.has(ids[40]!)).toBe(false);
  });

  it('a SUSPECT index answers lookups from the records and proves unique values from them', async () => {
    const { ids, index } = await indexed(t, L('Sus'), 300);
    const gen = generation(index.index_id);
    gen.corruptForTest(ids[5]!, 'drop_entry');
    h.runtime.checker.pause();
    const k = await h.schema(t, 'checkIndex', { index: { case: 'indexId', value: BigInt(index.index_id) } });
    // The check's first finding, as the checker reports it: the index turns SUSPECT at once.
    await h.db.submit(
      { kind: 'index_check_progress', operation: Number(k.operation), phase: 'RECORDS', checked: 6, mismatches: 1, conflicts: [] },
      { acks: 1, level: 'journal', timeout_ms: 0 },
    );
    const mid = await h.schema(t, 'getIndexCheck', { operation: k.operation });
    expect(mid).toMatchObject({ state: IndexCheckState.RUNNING, integrity: IndexIntegrity.SUSPECT, mismatches: 1n });
    // Lookups answer from the records, so the node whose entry is gone is found.
    const lookup = h.db.sm.schema.lookup(h.db.latestCommitted());
    expect([...lookup.equal(index.index_id, [`${L('Sus')}-5`])].map((n) => n.id)).toEqual([ids[5]]);
    const inRange = [...lookup.range(index.index_id, [], { value: `${L('Sus')}-5`, inclusive: true }, { value: `${L('Sus')}-6`, inclusive: false })];
    const values = inRange.map((n) => n.props.get('k') as string);
    // Strings order by code unit: -5, -50 ... -59.
    expect(values).toEqual([`${L('Sus')}-5`, ...[...Array(10).keys()].map((i) => `${L('Sus')}-5${i}`)]);
    // Unique values are proved free from the records, so the duplicate is still refused.
    expect((await failureOf(h.graph(t, 'createNode', { labels: [L('Sus')], properties: { k: str(`${L('Sus')}-5`) } }))).reason).toBe('UNIQUE_VIOLATION');
    h.runtime.checker.resume();
    expect((await h.schema(t, 'getIndexCheck', { operation: k.operation, wait: seconds(20) })).integrity).toBe(IndexIntegrity.VERIFIED);
  });

  it('damage too wide to repair entry by entry: a rebuild into a fresh generation, then VERIFIED', async () => {
    const { ids, index } = await indexed(t, L('Wide'), 300);
    const gen = generation(index.index_id);
    for (const id of ids.slice(0, 120)) gen.corruptForTest(id, 'drop_entry');
    const k = await h.schema(t, 'checkIndex', { index: { case: 'indexId', value: BigInt(index.index_id) } });
    const done = await h.schema(t, 'getIndexCheck', { operation: k.operation, wait: seconds(20) });
    expect(done.state).toBe(IndexCheckState.DONE);
    expect(done.rebuiltInto).toBeGreaterThan(k.operation);
    const rebuild = await h.schema(t, 'getIndexBuild', { operation: done.rebuiltInto!, wait: seconds(20) });
    expect(rebuild).toMatchObject({ state: IndexBuildState.PUBLISHED, index: index.name });
    expect(h.db.sm.schema.catalog.indexes.get(index.index_id)!).toMatchObject({ serving: Number(done.rebuiltInto), integrity: 'VERIFIED' });
    const lookup = h.db.sm.schema.lookup(h.db.latestCommitted());
    expect([...lookup.equal(index.index_id, [`${L('Wide')}-7`])].map((n) => n.id)).toEqual([ids[7]]);
  });

  it('CancelIndexCheck: CANCELLED, committed repairs stay; cancelling again changes nothing', async () => {
    const { ids, index } = await indexed(t, L('Stop'), 400);
    generation(index.index_id).corruptForTest(ids[1]!, 'drop_entry');
    h.runtime.checker.pause();
    const k = await h.schema(t, 'checkIndex', { index: { case: 'indexId', value: BigInt(index.index_id) } });
    const cancelled = await h.schema(t, 'cancelIndexCheck', { operation: k.operation });
    expect(cancelled.state).toBe(IndexCheckState.CANCELLED);
    h.runtime.checker.resume();
    expect((await h.schema(t, 'cancelIndexCheck', { operation: k.operation })).state).toBe(IndexCheckState.CANCELLED);
    const listed = (await h.schema(t, 'listIndexChecks', {})).checks;
    const ops = listed.map((c) => c.operation);
    expect(ops).toEqual([...ops].sort((a, b) => (a < b ? -1 : 1)));
    expect(listed.find((c) => c.operation === k.operation)?.phase).toBe(IndexCheckPhase.RECORDS);
  });

  it('source conflicts: two records holding one unique value are reported, never changed by the check', async () => {
    const { ids, index } = await indexed(t, L('Twin'), 50);
    // Bypass the write path on purpose: the store is made to hold a duplicate no write could make.
    const sm = h.db.sm;
    const record = sm.graph.nodeRecord(ids[3]!)!;
    record.head = { ...record.head, props: new Map([['k', `${L('Twin')}-4`]]) };
    generation(index.index_id).refresh(record);
    const k = await h.schema(t, 'checkIndex', { index: { case: 'indexId', value: BigInt(index.index_id) } });
    const done = await h.schema(t, 'getIndexCheck', { operation: k.operation, wait: seconds(20) });
    expect(done.conflicts).toEqual([expect.objectContaining({ elementIds: [encodeElementId(ids[3]!), encodeElementId(ids[4]!)] })]);
    expect(h.db.latestCommitted().node(ids[3]!)?.props.get('k')).toBe(`${L('Twin')}-4`);
  });

  it('refusals: missing index NOT_FOUND (a numeric-looking name is a name), not-ready FAILED_PRECONDITION, absent operation INVALID_ARGUMENT', async () => {
    expect(await failureOf(h.schema(t, 'checkIndex', { index: { case: 'indexId', value: 99999n } }))).toMatchObject({ code: 'NOT_FOUND' });
    const { index } = await indexed(t, L('Num'), 3);
    expect(await failureOf(h.schema(t, 'checkIndex', { index: { case: 'indexName', value: String(index.index_id) } }))).toMatchObject({ code: 'NOT_FOUND' });
    expect(await failureOf(h.schema(t, 'checkIndex', {}))).toMatchObject({ code: 'INVALID_ARGUMENT' });
    h.runtime.executor.pause();
    const pending = await h.schema(t, 'createConstraint', { label: L('NotReady'), properties: ['k'], kind: ConstraintKind.UNIQUE, wait: seconds(0) });
    expect(await failureOf(h.schema(t, 'checkIndex', { index: { case: 'indexName', value: pending.backingIndex } }))).toMatchObject({ code: 'FAILED_PRECONDITION' });
    expect(await failureOf(h.schema(t, 'reindex', { index: { case: 'indexName', value: pending.backingIndex } }))).toMatchObject({ code: 'FAILED_PRECONDITION' });
    h.runtime.executor.resume();
    expect(await failureOf(h.schema(t, 'getIndexCheck', {}))).toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(await failureOf(h.schema(t, 'getIndexCheck', { operation: 424242n }))).toMatchObject({ code: 'NOT_FOUND' });
    expect(await failureOf(h.schema(t, 'cancelIndexCheck', { operation: 424242n }))).toMatchObject({ code: 'NOT_FOUND' });
    expect(await failureOf(h.schema(t, 'reindex', { index: { case: 'indexName', value: 'no-such-index' } }))).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('a check whose generation a rebuild replaces fails, saying why', async () => {
    const { index } = await indexed(t, L('Swap'), 100);
    h.runtime.checker.pause();
    const k = await h.schema(t, 'checkIndex', { index: { case: 'indexId', value: BigInt(index.index_id) } });
    const b = await h.schema(t, 'reindex', { index: { case: 'indexId', value: BigInt(index.index_id) }, wait: seconds(20) });
    expect(b.state).toBe(IndexBuildState.PUBLISHED);
    h.runtime.checker.resume();
    const ended = await h.schema(t, 'getIndexCheck', { operation: k.operation, wait: seconds(5) });
    expect(ended).toMatchObject({ state: IndexCheckState.FAILED, failure: 'the generation was replaced by a rebuild' });
  });

  it('Reindex: a fresh generation maintained by writers at once, the constraint enforced throughout, VERIFIED after', async () => {
    const { index } = await indexed(t, L('Re'), 400);
    const old = index.serving!;
    h.runtime.executor.pause();
    const b = await h.schema(t, 'reindex', { index: { case: 'indexName', value: index.name } });
    expect([IndexBuildState.ACCEPTED, IndexBuildState.RUNNING]).toContain(b.state);
    expect(b.operation).toBeGreaterThan(BigInt(old));
    expect((await failureOf(h.graph(t, 'createNode', { labels: [L('Re')], properties: { k: str(`${L('Re')}-9`) } }))).reason).toBe('UNIQUE_VIOLATION');
    const late = await h.graph(t, 'createNode', { labels: [L('Re')], properties: { k: str('late') } });
    expect(h.db.sm.schema.indexes.get(Number(b.operation))!.entries.get(['late'])?.ids.has(Number(late.nodeId))).toBe(true);
    h.runtime.executor.resume();
    const done = await h.schema(t, 'getIndexBuild', { operation: b.operation, wait: seconds(20) });
    expect(done.state).toBe(IndexBuildState.PUBLISHED);
    const now = h.db.sm.schema.catalog.indexes.get(index.index_id)!;
    expect(now).toMatchObject({ serving: Number(b.operation), integrity: 'VERIFIED' });
    expect(h.db.sm.schema.indexes.get(old)).toBeUndefined();
  });
});
