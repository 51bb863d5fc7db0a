import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PropertyValue } from '../../src/common/property-value.js';
import type { Event, GraphOp } from '../../src/log/events.js';
import { loadCheckpoint, writeCheckpoint } from '../../src/projections/checkpoint.js';
import { StateMachine } from '../../src/projections/state-machine.js';
import { compareKeys } from '../../src/projections/indexes/sorted-entries.js';
import { prng, testSeed } from '../support/prng.js';

/**
 * The planner's index lookups (docs/schema.md), at the projection: answers match a scan of the label,
 * in key order, and never show a node a reader's snapshot should not see.
 */
class Log {
  readonly sm = new StateMachine();
  private index = 0;
  apply(event: Event, committed = true) {
    this.index++;
    return this.sm.apply({ index: this.index, term: 1, commit_ts: 1000 + this.index, event }, committed);
  }
  rollbackAfter(index: number): void {
    this.sm.rollbackAfter(index);
    this.index = index;
  }
  get at(): number {
    return this.index;
  }
  nextId(): number {
    return this.sm.graph.nextNodeId;
  }
}

const create = (id: number, labels: string[], props: Record<string, PropertyValue>): GraphOp => ({ op: 'create_node', id, labels, props: Object.entries(props) });
const set = (id: number, props: Record<string, PropertyValue | null>): GraphOp => ({ op: 'update_node', id, add_labels: [], remove_labels: [], set: Object.entries(props), replace: false });

function withIndex(log: Log, label: string, properties: string[]): number {
  const operation = log.sm.schema.catalog.nextOperation;
  const index_id = log.sm.schema.catalog.nextIndexId;
  expect(log.apply({ kind: 'index_created', label, properties, index: { index_id, name: `${label}_${properties.join('_')}`, operation, rename_property: '' } }).status).toBe('applied');
  expect(log.apply({ kind: 'index_build_published', operation }).status).toBe('applied');
  return index_id;
}

describe('index lookups', () => {
  it('equality, IN, ranges, STARTS WITH and ordered scans agree with the label, in key order', () => {
    const log = new Log();
    const people: [string, bigint][] = [['ada', 36n], ['bob', 20n], ['cy', 36n], ['abe', 50n], ['al', 7n]];
    log.apply({ kind: 'graph_write', ops: people.map(([name, age], i) => create(i + 1, ['P'], { name, age })) });
    log.apply({ kind: 'graph_write', ops: [create(6, ['P'], { name: 'nobody' }), create(7, ['Q'], { age: 36n })] });
    const byAge = withIndex(log, 'P', ['age']);
    const byName = withIndex(log, 'P', ['name', 'age']);
    const q = log.sm.schema.lookup(log.sm.committedView());
    const names = (it: Iterable<{ props: ReadonlyMap<string, PropertyValue> }>) => [...it].map((n) => n.props.get('name'));
    expect(names(q.equal(byAge, [36n]))).toEqual(['ada', 'cy']);
    expect(names(q.equal(byAge, [36]))).toEqual(['ada', 'cy']); // 36.0 = 36
    expect(names(q.in(byAge, [[50n], [7n], [50n]]))).toEqual(['al', 'abe']);
    expect(names(q.range(byAge, [], { value: 20n, inclusive: false }, { value: 50n, inclusive: true }))).toEqual(['ada', 'cy', 'abe']);
    expect(names(q.range(byAge, [], { value: 20n, inclusive: true }, undefined, 'desc'))).toEqual(['abe', 'cy', 'ada', 'bob']);
    expect(names(q.range(byAge, [], { value: 'x', inclusive: true }, undefined))).toEqual([]);
    expect(names(q.startsWith(byName, [], 'a'))).toEqual(['abe', 'ada', 'al']);
    expect(names(q.equal(byName, ['ada', 36n]))).toEqual(['ada']);
    expect(names(q.equal(byName, ['ada']))).toEqual(['ada']);
    expect(names(q.scan(byAge))).toEqual(['al', 'bob', 'ada', 'cy', 'abe']);
    expect(names(q.scan(byAge, 'desc'))).toEqual(['abe', 'cy', 'ada', 'bob', 'al']);
    expect(q.find('P', ['name'])?.index_id).toBe(byName);
    expect(q.find('P', ['age'])?.index_id).toBe(byAge);
    expect(q.find('P', ['zip'])).toBeUndefined();
    expect(q.indexesOf('P').map((i) => i.name)).toEqual(['P_age', 'P_name_age']);
    // Counting what a lookup would walk, up to a limit, without reading nodes.
    expect(q.countAtMost(byAge, { kind: 'equal', value: 36n }, 10)).toBe(2);
    expect(q.countAtMost(byAge, { kind: 'equal', value: null }, 10)).toBe(0);
    expect(q.countAtMost(byAge, { kind: 'range', lower: { value: 20n, inclusive: false } }, 10)).toBe(3);
    expect(q.countAtMost(byAge, { kind: 'range', lower: { value: 20n, inclusive: true } }, 2)).toBe(3);
    expect(q.countAtMost(byAge, { kind: 'in', values: [7n, 50n, null, 7n] }, 10)).toBe(2);
    expect(q.countAtMost(byAge, { kind: 'in', values: [36n, 36, 7n] }, 10)).toBe(3);
    expect(q.countAtMost(byName, { kind: 'prefix', text: 'a' }, 10)).toBe(3);
    expect(q.countAtMost(byAge, { kind: 'range', upper: { value: 'z', inclusive: true } }, 10)).toBe(0);
  });

  it('MVCC: a snapshot reader finds a node under the value it sees, never under a later one; pending writes stay unseen', () => {
    const log = new Log();
    log.apply({ kind: 'graph_write', ops: [create(1, ['P'], { k: 'a' })] });
    const idx = withIndex(log, 'P', ['k']);
    const before = log.at;
    log.apply({ kind: 'graph_write', ops: [set(1, { k: 'b' })] });
    const old = log.sm.schema.lookup(log.sm.viewAt(before));
    const now = log.sm.schema.lookup(log.sm.committedView());
    expect([...old.equal(idx, ['a'])].map((n) => n.id)).toEqual([1]);
    expect([...old.equal(idx, ['b'])]).toEqual([]);
    expect([...now.equal(idx, ['a'])]).toEqual([]);
    expect([...now.equal(idx, ['b'])].map((n) => n.id)).toEqual([1]);
    // A pending (uncommitted) write: the leader's writer sees it, a committed reader does not.
    log.apply({ kind: 'graph_write', ops: [create(2, ['P'], { k: 'c' }), set(1, { k: 'c2' })] }, false);
    expect([...log.sm.schema.lookup(log.sm.committedView()).equal(idx, ['c'])]).toEqual([]);
    expect([...log.sm.schema.lookup(log.sm.committedView()).equal(idx, ['b'])].map((n) => n.id)).toEqual([1]);
    expect([...log.sm.schema.lookup(log.sm.latestView()).equal(idx, ['c'])].map((n) => n.id)).toEqual([2]);
    // Leadership lost before commit: the pending entry is undone and so are its entries.
    log.rollbackAfter(log.at - 1);
    const gen = log.sm.schema.indexes.get(log.sm.schema.catalog.indexes.get(idx)!.serving!)!;
    expect(gen.entries.get(['c'])).toBeUndefined();
    expect(gen.entries.get(['c2'])).toBeUndefined();
    expect(gen.entries.get(['b'])?.ids.has(1)).toBe(true);
    // A deletion: the old snapshot still finds the node, the new one does not.
    const live = log.at;
    log.apply({ kind: 'graph_write', ops: [{ op: 'delete_node', id: 1 }] });
    expect([...log.sm.schema.lookup(log.sm.viewAt(live)).equal(idx, ['b'])].map((n) => n.id)).toEqual([1]);
    expect([...log.sm.schema.lookup(log.sm.committedView()).equal(idx, ['b'])]).toEqual([]);
  });

  it('a checkpoint keeps the catalog; ready indexes are refilled from the records at load', () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-ckpt-schema-'));
    try {
      const log = new Log();
      log.apply({ kind: 'graph_write', ops: [create(1, ['P'], { k: 'a' }), create(2, ['P'], { k: 'b' })] });
      log.apply({ kind: 'label_defined', name: 'P', properties: [{ name: 'k', type: { kind: 'scalar', scalar: 'STRING' }, required: true }], computed: [], mode: 'FLEXIBLE', temporal: false });
      const idx = withIndex(log, 'P', ['k']);
      writeCheckpoint(dir, log.sm);
      const sm = loadCheckpoint(dir);
      expect(sm.schema.snapshot()).toEqual(log.sm.schema.snapshot());
      expect([...sm.schema.lookup(sm.committedView()).equal(idx, ['b'])].map((n) => n.id)).toEqual([2]);
      expect(sm.check({ kind: 'graph_write', ops: [create(3, ['P'], {})] })?.reason).toBe('REQUIRED_PROPERTY_MISSING');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('pending schema entries: a checkpoint holds the committed catalog; a rollback restores it and its generations', () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-ckpt-pending-'));
    try {
      const log = new Log();
      log.apply({ kind: 'graph_write', ops: [create(1, ['P'], { k: 'a' })] });
      const idx = withIndex(log, 'P', ['k']);
      const committed = log.sm.schema.snapshot();
      const at = log.at;
      // Pending: a reindex publishes (dropping the old generation) and a label is defined.
      const operation = log.sm.schema.catalog.nextOperation;
      log.apply({ kind: 'index_rebuild_admitted', index_id: idx, operation }, false);
      log.apply({ kind: 'index_build_published', operation }, false);
      log.apply({ kind: 'label_defined', name: 'P', properties: [], computed: [], mode: 'STRICT', temporal: false }, false);
      expect(log.sm.schema.catalog.indexes.get(idx)?.serving).toBe(operation);
      writeCheckpoint(dir, log.sm);
      expect(loadCheckpoint(dir).schema.snapshot()).toEqual(committed);
      log.rollbackAfter(at);
      expect(log.sm.schema.snapshot()).toEqual(committed);
      expect(log.sm.schema.catalog.labels.has('P')).toBe(false);
      expect([...log.sm.schema.lookup(log.sm.committedView()).equal(idx, ['a'])].map((n) => n.id)).toEqual([1]);
      expect(log.sm.schema.indexes.get(operation)).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('randomized: after random writes every lookup equals a filtered, sorted scan of the label', () => {
    const seed = testSeed('index lookups');
    const rand = prng(seed);
    const log = new Log();
    const idx = withIndex(log, 'R', ['v', 'w']);
    const value = (): PropertyValue => {
      const r = rand();
      return r < 0.4 ? BigInt(Math.floor(rand() * 20)) : r < 0.5 ? Math.floor(rand() * 20) + 0.5 : r < 0.9 ? `s${Math.floor(rand() * 20)}` : rand() < 0.5;
    };
    const live: number[] = [];
    const snapshots: number[] = [];
    for (let step = 0; step < 400; step++) {
      const r = rand();
      const ops: GraphOp[] = [];
      if (r < 0.45 || live.length === 0) {
        const id = log.nextId();
        ops.push(create(id, rand() < 0.8 ? ['R'] : ['S'], rand() < 0.9 ? { v: value(), w: value() } : { v: value() }));
        live.push(id);
      } else if (r < 0.85) {
        ops.push(set(live[Math.floor(rand() * live.length)]!, { v: rand() < 0.1 ? null : value() }));
      } else if (r < 0.92) {
        const id = live[Math.floor(rand() * live.length)]!;
        ops.push({ op: 'update_node', id, add_labels: rand() < 0.5 ? ['R'] : [], remove_labels: rand() < 0.5 ? ['R'] : [], set: [], replace: false });
      } else {
        const i = Math.floor(rand() * live.length);
        ops.push({ op: 'delete_node', id: live[i]! });
        live.splice(i, 1);
      }
      log.apply({ kind: 'graph_write', ops });
      if (step % 40 === 0) snapshots.push(log.at);
    }
    log.sm.schema.indexes.get(log.sm.schema.catalog.indexes.get(idx)!.serving!)!.entries.assertOrdered();
    for (const at of [...snapshots, log.at]) {
      const view = log.sm.viewAt(at);
      const q = log.sm.schema.lookup(view);
      const rows = [...view.nodesWithLabel('R')].filter((n) => n.props.has('v') && n.props.has('w'));
      const sorted = rows.sort((a, b) => compareKeys([a.props.get('v')!, a.props.get('w')!], [b.props.get('v')!, b.props.get('w')!]) || a.id - b.id);
      expect([...q.scan(idx)].map((n) => n.id), `scan at ${at} (seed ${seed})`).toEqual(sorted.map((n) => n.id));
      for (const probe of [3n, 's7', 4.5, true]) {
        const want = sorted.filter((n) => compareKeys([n.props.get('v')!], [probe]) === 0).map((n) => n.id);
        expect([...q.equal(idx, [probe])].map((n) => n.id), `equal ${String(probe)} at ${at} (seed ${seed})`).toEqual(want);
      }
    }
  });
});
