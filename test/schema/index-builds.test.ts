import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConstraintKind, ConstraintState, IndexBuildPhase, IndexBuildState } from '../../src/gen/weft/v2/schema_pb.js';
import { failureOf, seconds, startInProcess, str, transports, type InProcess } from './harness.js';

/**
 * Index builds (SPEC 3.2, 3.1, 4.3 rules 6, 8-10) over gRPC and REST. The executor runs in this
 * process so a scenario can hold it paused and see every state and phase on its way.
 */
let h: InProcess;
/** The read index of a transaction held open by a scenario, if any. */
let openTransaction: number | undefined;
beforeAll(async () => {
  h = await startInProcess({ max_running: 1, slice_nodes: 500, oldestOpenReadIndex: () => openTransaction });
});
afterAll(async () => {
  await h?.close();
});

async function fill(label: string, count: number, value: (i: number) => string, prop = 'k'): Promise<void> {
  for (let i = 0; i < count; i += 1000) {
    const nodes = [];
    for (let j = i; j < Math.min(count, i + 1000); j++) nodes.push({ labels: [label], properties: { [prop]: str(value(j)) } });
    await h.graph('grpc', 'createNodesBatch', { nodes });
  }
}

async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, wait_ms = 10_000): Promise<T> {
  const end = Date.now() + wait_ms;
  for (;;) {
    const v = await read();
    if (ok(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe.each(transports)('index builds over %s', (t) => {
  const L = (name: string) => `${name}_${t}`;

  it('ACCEPTED -> RUNNING (INDEXING) -> PUBLISHED; the constraint is VALIDATING and enforced until it turns ACTIVE', async () => {
    await fill(L('Item'), 3000, (i) => `v${i}`);
    h.runtime.executor.pause();
    const c = await h.schema(t, 'createConstraint', { label: L('Item'), properties: ['k'], kind: ConstraintKind.UNIQUE, wait: seconds(0) });
    expect(c.state).toBe(ConstraintState.VALIDATING);
    expect([IndexBuildState.ACCEPTED, IndexBuildState.RUNNING]).toContain(c.build!.state);
    const op = c.build!.operation;
    const running = await until(
      () => h.schema(t, 'getIndexBuild', { operation: op }),
      (b) => b.state === IndexBuildState.RUNNING,
    );
    expect(running).toMatchObject({ state: IndexBuildState.RUNNING, phase: IndexBuildPhase.INDEXING, index: c.backingIndex });
    // Enforced at once: a value stored before the build, not yet visited, is a duplicate now.
    expect(await failureOf(h.graph(t, 'createNode', { labels: [L('Item')], properties: { k: str('v2999') } }))).toMatchObject({ reason: 'UNIQUE_VIOLATION' });
    await h.graph(t, 'createNode', { labels: [L('Item')], properties: { k: str('fresh') } });
    // Waiting and giving up cancels nothing.
    const still = await h.schema(t, 'getIndexBuild', { operation: op, wait: seconds(0.05) });
    expect(still.state).toBe(IndexBuildState.RUNNING);
    h.runtime.executor.resume();
    const done = await h.schema(t, 'getIndexBuild', { operation: op, wait: seconds(20) });
    expect(done).toMatchObject({ state: IndexBuildState.PUBLISHED, phase: IndexBuildPhase.UNSPECIFIED, indexed: 3001n });
    const listed = (await h.schema(t, 'listConstraints', {})).constraints.find((x) => x.name === c.name);
    expect(listed?.state).toBe(ConstraintState.ACTIVE);
  });

  it('seats: beyond index_build_max_running a build waits in AWAITING_SEAT', async () => {
    await fill(L('SeatA'), 10, (i) => `a${i}`);
    await fill(L('SeatB'), 10, (i) => `b${i}`);
    h.runtime.executor.pause();
    const a = await h.schema(t, 'createConstraint', { label: L('SeatA'), properties: ['k'], kind: ConstraintKind.UNIQUE, wait: seconds(0) });
    const b = await h.schema(t, 'createConstraint', { label: L('SeatB'), properties: ['k'], kind: ConstraintKind.UNIQUE, wait: seconds(0) });
    const second = await until(
      () => h.schema(t, 'getIndexBuild', { operation: b.build!.operation }),
      (x) => x.phase === IndexBuildPhase.AWAITING_SEAT,
    );
    expect(second).toMatchObject({ state: IndexBuildState.RUNNING, phase: IndexBuildPhase.AWAITING_SEAT });
    expect((await h.schema(t, 'getIndexBuild', { operation: a.build!.operation })).phase).toBe(IndexBuildPhase.INDEXING);
    h.runtime.executor.resume();
    for (const c of [a, b]) {
      expect((await h.schema(t, 'getIndexBuild', { operation: c.build!.operation, wait: seconds(20) })).state).toBe(IndexBuildState.PUBLISHED);
    }
  });

  it('AWAITING_OLDER_TRANSACTIONS while a transaction opened before the build is open', async () => {
    await fill(L('Older'), 20, (i) => `o${i}`);
    openTransaction = h.db.committedIndex;
    const c = await h.schema(t, 'createConstraint', { label: L('Older'), properties: ['k'], kind: ConstraintKind.UNIQUE, wait: seconds(0) });
    const waiting = await until(
      () => h.schema(t, 'getIndexBuild', { operation: c.build!.operation }),
      (b) => b.phase === IndexBuildPhase.AWAITING_OLDER_TRANSACTIONS,
    );
    expect(waiting).toMatchObject({ state: IndexBuildState.RUNNING, phase: IndexBuildPhase.AWAITING_OLDER_TRANSACTIONS });
    // A transaction opened after the admission does not hold the build.
    openTransaction = h.db.committedIndex;
    expect((await h.schema(t, 'getIndexBuild', { operation: c.build!.operation, wait: seconds(20) })).state).toBe(IndexBuildState.PUBLISHED);
    openTransaction = undefined;
  });

  it('CancelIndexBuild withdraws the index with its constraint; a build with an outcome is returned unchanged', async () => {
    await fill(L('Cancel'), 50, (i) => `c${i}`);
    h.runtime.executor.pause();
    const c = await h.schema(t, 'createConstraint', { label: L('Cancel'), properties: ['k'], kind: ConstraintKind.UNIQUE, wait: seconds(0) });
    const op = c.build!.operation;
    const cancelled = await h.schema(t, 'cancelIndexBuild', { operation: op });
    expect(cancelled).toMatchObject({ state: IndexBuildState.CANCELLED, index: '', label: '', failure: '' });
    expect((await h.schema(t, 'listConstraints', {})).constraints.map((x) => x.name)).not.toContain(c.name);
    // Nothing enforced any more.
    await h.graph(t, 'createNode', { labels: [L('Cancel')], properties: { k: str('c1') } });
    expect((await h.schema(t, 'cancelIndexBuild', { operation: op })).state).toBe(IndexBuildState.CANCELLED);
    h.runtime.executor.resume();
    // A publication that committed first is never undone.
    const p = await h.schema(t, 'createConstraint', { label: L('Cancel2'), properties: ['k'], kind: ConstraintKind.UNIQUE });
    expect(p.build!.state).toBe(IndexBuildState.PUBLISHED);
    expect((await h.schema(t, 'cancelIndexBuild', { operation: p.build!.operation })).state).toBe(IndexBuildState.PUBLISHED);
    expect((await h.schema(t, 'listConstraints', {})).constraints.find((x) => x.name === p.name)?.state).toBe(ConstraintState.ACTIVE);
  });

  it('a cancellation within CreateConstraint’s wait fails the call and leaves nothing behind', async () => {
    await fill(L('Waiting'), 20, (i) => `w${i}`);
    h.runtime.executor.pause();
    const call = failureOf(h.schema(t, 'createConstraint', { label: L('Waiting'), properties: ['k'], kind: ConstraintKind.UNIQUE, wait: seconds(10) }));
    const build = await until(
      async () => (await h.schema(t, 'listIndexBuilds', {})).builds.find((b) => b.label === L('Waiting')),
      (b) => b !== undefined,
    );
    await h.schema(t, 'cancelIndexBuild', { operation: build!.operation });
    expect(await call).toMatchObject({ code: 'FAILED_PRECONDITION', reason: 'INDEX_BUILD_CANCELLED' });
    h.runtime.executor.resume();
    expect((await h.schema(t, 'listConstraints', {})).constraints.filter((x) => x.label === L('Waiting'))).toEqual([]);
  });

  it('GetIndexBuild: an absent operation is refused, an unknown one is NOT_FOUND; repairs of an unknown build too', async () => {
    expect(await failureOf(h.schema(t, 'getIndexBuild', {}))).toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(await failureOf(h.schema(t, 'getIndexBuild', { operation: 0n }))).toMatchObject({ code: 'NOT_FOUND' });
    expect(await failureOf(h.schema(t, 'getIndexBuild', { operation: 987654n }))).toMatchObject({ code: 'NOT_FOUND' });
    expect(await failureOf(h.schema(t, 'cancelIndexBuild', { operation: 987654n }))).toMatchObject({ code: 'NOT_FOUND' });
    expect(await failureOf(h.schema(t, 'listIndexBuildRepairs', { operation: 987654n }))).toMatchObject({ code: 'NOT_FOUND' });
    expect(await failureOf(h.schema(t, 'cancelIndexBuild', {}))).toMatchObject({ code: 'INVALID_ARGUMENT' });
    const builds = (await h.schema(t, 'listIndexBuilds', {})).builds.map((b) => b.operation);
    expect(builds).toEqual([...builds].sort((a, b) => (a < b ? -1 : 1)));
  });

  it('100 planted duplicates without on_duplicate_rename: the build fails and leaves nothing behind', async () => {
    await fill(L('Dup'), 2000, (i) => (i < 200 ? `dup${i % 100}` : `u${i}`));
    const f = await failureOf(h.schema(t, 'createConstraint', { label: L('Dup'), properties: ['k'], kind: ConstraintKind.UNIQUE, wait: seconds(20) }));
    expect(f).toMatchObject({ code: 'FAILED_PRECONDITION', reason: 'CONSTRAINT_VALIDATION_FAILED' });
    expect(f.message).toContain('both hold k = dup0');
    const build = (await h.schema(t, 'listIndexBuilds', {})).builds.find((b) => b.operation === BigInt(f.metadata['operation']!))!;
    expect(build).toMatchObject({ state: IndexBuildState.FAILED, index: '', label: '', repaired: 0n });
    expect(build.failure).toContain('dup0');
    // An outcome is final: cancelling a failed build changes nothing.
    expect(await h.schema(t, 'cancelIndexBuild', { operation: build.operation })).toEqual(build);
    expect((await h.schema(t, 'listConstraints', {})).constraints.filter((x) => x.label === L('Dup'))).toEqual([]);
    await h.graph(t, 'createNode', { labels: [L('Dup')], properties: { k: str('dup0') } });
  });

  it('100 planted duplicates with on_duplicate_rename: published, with exactly 100 repairs to unique new values', async () => {
    await fill(L('Fix'), 2000, (i) => (i < 200 ? `dup${i % 100}` : `u${i}`));
    const c = await h.schema(t, 'createConstraint', {
      label: L('Fix'),
      properties: ['k'],
      kind: ConstraintKind.UNIQUE,
      onDuplicateRename: 'k',
      wait: seconds(30),
    });
    expect(c.state).toBe(ConstraintState.ACTIVE);
    expect(c.build).toMatchObject({ state: IndexBuildState.PUBLISHED, renameProperty: 'k', repaired: 100n });
    const repairs = (await h.schema(t, 'listIndexBuildRepairs', { operation: c.build!.operation })).repairs;
    expect(repairs).toHaveLength(100);
    expect(new Set(repairs.map((r) => r.newValue)).size).toBe(100);
    expect(new Set(repairs.map((r) => r.oldValue))).toEqual(new Set([...Array(100).keys()].map((i) => `dup${i}`)));
    for (const r of repairs) expect(r.newValue.startsWith(`${r.oldValue}-`)).toBe(true);
    const ids = repairs.map((r) => r.elementId);
    expect(ids).toEqual([...ids].sort());
    // The repaired nodes hold their new values; every value of the label is now unique.
    const values = [...h.db.latestCommitted().nodesWithLabel(L('Fix'))].map((n) => n.props.get('k'));
    expect(new Set(values).size).toBe(values.length);
    // Later writes are refused as duplicates as always.
    expect((await failureOf(h.graph(t, 'createNode', { labels: [L('Fix')], properties: { k: str('dup5') } }))).reason).toBe('UNIQUE_VIOLATION');
  });
});
