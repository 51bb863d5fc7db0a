import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PropertyValue } from '../../src/common/property-value.js';
import type { Event, GraphOp } from '../../src/log/events.js';
import { loadCheckpoint, writeCheckpoint } from '../../src/projections/checkpoint.js';
import { StateMachine } from '../../src/projections/state-machine.js';
import { prng, testSeed } from '../support/prng.js';

/**
 * Deleted nodes and edges are dropped from the store, its label and type sets, its adjacency lists
 * and every index once the MVCC horizon passes their deletion, and not before.
 */
class Log {
  sm = new StateMachine();
  private index = 0;
  apply(event: Event, committed = true): number {
    this.index++;
    expect(this.sm.apply({ index: this.index, term: 1, commit_ts: 1000 + this.index, event }, committed).status).toBe('applied');
    return this.index;
  }
  write(ops: GraphOp[], committed = true): number {
    return this.apply({ kind: 'graph_write', ops }, committed);
  }
  rollbackAfter(index: number): void {
    this.sm.rollbackAfter(index);
    this.index = index;
  }
}

const create = (id: number, labels: string[], props: Record<string, PropertyValue> = {}): GraphOp => ({ op: 'create_node', id, labels, props: Object.entries(props) });
const edge = (id: number, source: number, target: number): GraphOp => ({ op: 'create_edge', id, type: 'R', source, target, props: [] });
const dropNode = (id: number): GraphOp => ({ op: 'delete_node', id });
const dropEdge = (id: number): GraphOp => ({ op: 'delete_edge', id });
const unlabel = (id: number, label: string): GraphOp => ({ op: 'update_node', id, add_labels: [], remove_labels: [label], set: [], replace: false });

function indexed(sm: StateMachine): Set<number> {
  const ids = new Set<number>();
  for (const g of sm.schema.indexes.all()) for (const id of g.indexedIds()) ids.add(id);
  return ids;
}

function withIndex(log: Log, label: string, property: string): void {
  const operation = log.sm.schema.catalog.nextOperation;
  const index_id = log.sm.schema.catalog.nextIndexId;
  log.apply({ kind: 'index_created', label, properties: [property], index: { index_id, name: `${label}_${property}`, operation, rename_property: '' } });
  log.apply({ kind: 'index_build_published', operation });
}

describe('collection of deleted records', () => {
  it('drops records, set members, adjacency and index entries once the horizon passes the deletion', () => {
    const log = new Log();
    log.write(Array.from({ length: 10 }, (_, i) => create(i + 1, ['P'], { k: BigInt(i) })));
    log.write(Array.from({ length: 9 }, (_, i) => edge(i + 1, i + 1, i + 2)));
    withIndex(log, 'P', 'k');
    const g = log.sm.graph;
    // Node 3 with both of its edges (2: 2->3, 3: 3->4), in one entry, as DETACH DELETE writes it.
    const deleted = log.write([dropEdge(2), dropEdge(3), dropNode(3)]);
    expect(indexed(log.sm).has(3)).toBe(true);

    log.sm.advanceHorizon(deleted - 1);
    expect(g.nodeRecord(3)).toBeDefined();
    expect(g.edgeRecord(2)).toBeDefined();

    log.sm.advanceHorizon(deleted);
    expect(g.nodeRecord(3)).toBeUndefined();
    expect(g.edgeRecord(2)).toBeUndefined();
    expect(g.edgeRecord(3)).toBeUndefined();
    expect([...g.recordsWithLabel('P')].map((r) => r.id)).toEqual([1, 2, 4, 5, 6, 7, 8, 9, 10]);
    expect([...g.recordsOfType('R')].map((r) => r.id)).toEqual([1, 4, 5, 6, 7, 8, 9]);
    expect(g.nodeRecord(2)!.out.map((e) => e.id)).toEqual([]);
    expect(g.nodeRecord(2)!.in.map((e) => e.id)).toEqual([1]);
    expect(g.nodeRecord(4)!.in.map((e) => e.id)).toEqual([]);
    expect(g.nodeRecord(4)!.out.map((e) => e.id)).toEqual([4]);
    expect(indexed(log.sm).has(3)).toBe(false);
    expect(indexed(log.sm).size).toBe(9);
    // Ids are never handed out again.
    expect(g.nextNodeId).toBe(11);
    expect(log.sm.committedView().node(3)).toBeUndefined();
    expect(log.sm.graph.stats().label_counts.get('P')).toBe(9);
  });

  it('a node that lost a label before its deletion leaves that label set too', () => {
    const log = new Log();
    log.write([create(1, ['A', 'B'])]);
    log.write([unlabel(1, 'A')]);
    const deleted = log.write([dropNode(1)]);
    log.sm.advanceHorizon(deleted);
    expect(log.sm.graph.recordsWithLabel('A').size).toBe(0);
    expect(log.sm.graph.recordsWithLabel('B').size).toBe(0);
  });

  it('an undone deletion is not collected', () => {
    const log = new Log();
    const made = log.write([create(1, ['P']), create(2, ['P'])]);
    log.write([dropNode(1)], false);
    log.rollbackAfter(made);
    const later = log.write([create(3, ['P'])]);
    log.sm.advanceHorizon(later);
    expect(log.sm.graph.nodeRecord(1)).toBeDefined();
    expect(log.sm.committedView().node(1)?.labels).toEqual(['P']);
  });

  it('deletions restored from a checkpoint are collected after the restart, and ids stay reserved', () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-collect-'));
    try {
      const log = new Log();
      log.write(Array.from({ length: 6 }, (_, i) => create(i + 1, ['P'])));
      // Deleted out of id order, so the restored queue is out of log order.
      log.write([dropNode(6)]);
      const last = log.write([dropNode(2)]);
      writeCheckpoint(dir, log.sm);
      const sm = loadCheckpoint(dir);
      expect(sm.graph.nodeRecord(6)).toBeDefined();
      sm.advanceHorizon(last);
      expect(sm.graph.nodeRecord(6)).toBeUndefined();
      expect(sm.graph.nodeRecord(2)).toBeUndefined();
      expect(sm.graph.recordsWithLabel('P').size).toBe(4);
      expect(sm.graph.nextNodeId).toBe(7);
      writeCheckpoint(dir, sm);
      expect(loadCheckpoint(dir).graph.nextNodeId).toBe(7);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('random creates, deletes and horizon moves keep exactly the records a reader could still see', () => {
    const seed = testSeed('collection');
    const r = prng(seed);
    const log = new Log();
    withIndex(log, 'P', 'k');
    let nextNode = 1;
    let nextEdge = 1;
    const live = new Set<number>();
    const liveEdges = new Map<number, [number, number]>();
    /** Deleted ids and the index of the entry that deleted them. */
    const deletedAt = new Map<number, number>();
    let horizon = 0;
    for (let step = 0; step < 600; step++) {
      const x = r();
      if (x < 0.45 || live.size < 2) {
        const id = nextNode++;
        log.write([create(id, ['P'], { k: BigInt(Math.floor(r() * 20)) })]);
        live.add(id);
      } else if (x < 0.65) {
        const ids = [...live];
        const a = ids[Math.floor(r() * ids.length)]!;
        const b = ids[Math.floor(r() * ids.length)]!;
        const id = nextEdge++;
        log.write([edge(id, a, b)]);
        liveEdges.set(id, [a, b]);
      } else if (x < 0.9) {
        const ids = [...live];
        const id = ids[Math.floor(r() * ids.length)]!;
        const ops: GraphOp[] = [];
        for (const [e, [a, b]] of liveEdges) {
          if (a !== id && b !== id) continue;
          ops.push(dropEdge(e));
          liveEdges.delete(e);
        }
        ops.push(dropNode(id));
        deletedAt.set(id, log.write(ops));
        live.delete(id);
      } else {
        horizon = Math.max(horizon, log.sm.committedIndex - Math.floor(r() * 30));
        log.sm.advanceHorizon(horizon);
        horizon = log.sm.graph.horizonIndex;
      }
      if (step % 50 === 49 || step === 599) {
        const kept = new Set([...log.sm.graph.nodeRecords()].map((rec) => rec.id));
        const expected = new Set([...live, ...[...deletedAt].filter(([, at]) => at > horizon).map(([id]) => id)]);
        expect(kept, `seed ${seed}, step ${step}`).toEqual(expected);
        expect(new Set([...log.sm.graph.recordsWithLabel('P')].map((rec) => rec.id))).toEqual(expected);
        for (const id of indexed(log.sm)) expect(expected.has(id), `index holds collected node ${id} (seed ${seed})`).toBe(true);
        for (const rec of log.sm.graph.nodeRecords()) {
          for (const e of [...rec.out, ...rec.in]) expect(log.sm.graph.edgeRecord(e.id), `seed ${seed}`).toBe(e);
        }
        expect(new Set([...log.sm.committedView().nodes()].map((n) => n.id))).toEqual(live);
      }
    }
  });
});
