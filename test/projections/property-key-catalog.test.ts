import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { GraphOp } from '../../src/log/events.js';
import { loadCheckpoint, writeCheckpoint } from '../../src/projections/checkpoint.js';
import { walkPropertyKeys } from '../../src/projections/graph/property-key-catalog.js';
import { StateMachine } from '../../src/projections/state-machine.js';
import { prng, testSeed } from '../support/prng.js';

/**
 * The store keeps, per property key, how many live nodes and relationships hold it, so that
 * `db.propertyKeys()` need not walk the graph. Whatever the writes (keys set, removed, replaced,
 * records deleted, pending entries undone and written again, a restart from a checkpoint), the keys
 * in use and their counts must be what a walk of the records finds.
 */
const KEYS = ['a', 'b', 'c', 'd', 'e'];

/** Keys with at least one holder, with their counts, sorted: the catalog may keep keys no one holds. */
function inUse(counts: ReadonlyMap<string, number>): [string, number][] {
  return [...counts].filter(([, n]) => n > 0).sort(([x], [y]) => x.localeCompare(y));
}

function walked(sm: StateMachine, readIndex: number): [string, number][] {
  const view = sm.viewAt(readIndex);
  return inUse(walkPropertyKeys(view.nodes(), view.edges()));
}

describe('the catalog of property keys', () => {
  it('agrees with a walk of the records through random writes, undos and a checkpoint restart', () => {
    const seed = testSeed('property-key-catalog');
    const r = prng(seed);
    let sm = new StateMachine();
    let index = 0;
    let nextNode = 1;
    let nextEdge = 1;
    const nodes = new Set<number>();
    const edges = new Map<number, [number, number]>();
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
    const someKeys = (): [string, bigint][] => KEYS.filter(() => r() < 0.3).map((k) => [k, BigInt(Math.floor(r() * 9))]);
    const change = (): [string, bigint | null][] => KEYS.filter(() => r() < 0.3).map((k) => [k, r() < 0.4 ? null : 1n]);
    const opFor = (): GraphOp => {
      const x = r();
      if (x < 0.3 || nodes.size < 2) {
        nodes.add(nextNode);
        return { op: 'create_node', id: nextNode++, labels: [], props: someKeys() };
      }
      if (x < 0.5) {
        const source = pick([...nodes]);
        const target = pick([...nodes]);
        edges.set(nextEdge, [source, target]);
        return { op: 'create_edge', id: nextEdge++, type: 'R', source, target, props: someKeys() };
      }
      if (x < 0.7) return { op: 'update_node', id: pick([...nodes]), add_labels: [], remove_labels: [], set: change(), replace: r() < 0.2 };
      if (x < 0.8 && edges.size > 0) return { op: 'update_edge', id: pick([...edges.keys()]), set: change(), replace: r() < 0.2 };
      if (x < 0.9 && edges.size > 0) {
        const id = pick([...edges.keys()]);
        edges.delete(id);
        return { op: 'delete_edge', id };
      }
      // A node with no edges left, so the delete applies.
      const free = [...nodes].filter((id) => ![...edges.values()].some(([s, t]) => s === id || t === id));
      if (free.length === 0) return { op: 'update_node', id: pick([...nodes]), add_labels: [], remove_labels: [], set: change(), replace: false };
      const id = pick(free);
      nodes.delete(id);
      return { op: 'delete_node', id };
    };
    const dir = mkdtempSync(join(tmpdir(), 'weft-keys-'));
    try {
      for (let step = 0; step < 600; step++) {
        if (r() < 0.1) {
          // A pending entry, read at the writer's index, then undone.
          const [nodesBefore, edgesBefore] = [new Set(nodes), new Map(edges)];
          sm.apply({ index: index + 1, term: 1, commit_ts: index + 1, event: { kind: 'graph_write', ops: [opFor(), opFor()] } }, false);
          expect(inUse(sm.viewAt(Infinity).propertyKeyCounts()), `seed ${seed}, step ${step}`).toEqual(walked(sm, Infinity));
          // A reader at the last committed index is older than the pending entry: it walks, and sees none of it.
          expect(sm.graph.propertyKeyCounts(index)).toBeUndefined();
          expect(inUse(sm.viewAt(index).propertyKeyCounts()), `seed ${seed}, step ${step}`).toEqual(walked(sm, index));
          sm.rollbackAfter(index);
          [nodes.clear(), edges.clear()];
          for (const id of nodesBefore) nodes.add(id);
          for (const [id, ends] of edgesBefore) edges.set(id, ends);
          nextNode = Math.max(nextNode, sm.graph.nextNodeId);
          nextEdge = Math.max(nextEdge, sm.graph.nextEdgeId);
        }
        sm.apply({ index: ++index, term: 1, commit_ts: index, event: { kind: 'graph_write', ops: [opFor()] } }, true);
        expect(sm.graph.propertyKeyCounts(index), 'the newest reader answers from the catalog').toBeDefined();
        expect(inUse(sm.viewAt(index).propertyKeyCounts()), `seed ${seed}, step ${step}`).toEqual(walked(sm, index));
        if (step % 150 === 149) {
          writeCheckpoint(dir, sm);
          sm = loadCheckpoint(dir);
          expect(inUse(sm.graph.propertyKeyCounts(index)!), `seed ${seed}, restored at step ${step}`).toEqual(walked(sm, index));
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('answers an older reader by walking its own snapshot: a key removed since is still in use there', () => {
    const sm = new StateMachine();
    sm.apply({ index: 1, term: 1, commit_ts: 1, event: { kind: 'graph_write', ops: [{ op: 'create_node', id: 1, labels: [], props: [['old', 1n]] }] } }, true);
    sm.apply({ index: 2, term: 1, commit_ts: 2, event: { kind: 'graph_write', ops: [{ op: 'update_node', id: 1, add_labels: [], remove_labels: [], set: [['old', null], ['new', 2n]], replace: false }] } }, true);
    expect(inUse(sm.viewAt(2).propertyKeyCounts())).toEqual([['new', 1]]);
    expect(inUse(sm.viewAt(1).propertyKeyCounts())).toEqual([['old', 1]]);
    // The catalog keeps the key no one holds, in the place it first appeared.
    expect([...sm.graph.propertyKeyCounts(2)!]).toEqual([['old', 0], ['new', 1]]);
  });
});
