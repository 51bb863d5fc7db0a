import { describe, expect, it } from 'vitest';
import type { GraphOp } from '../../src/log/events.js';
import { GraphStore } from '../../src/projections/graph/graph-store.js';
import { prng, testSeed } from '../support/prng.js';

/**
 * Bulk creation (what an import's apply uses) builds the same graph as the same nodes and edges
 * created op by op: records, versions, adjacency lists in the same order, type and label sets,
 * counts, and the undo of a pending entry.
 */
function shape(g: GraphStore): unknown {
  const nodes = [...g.nodeRecords()].map((r) => [r.id, r.head.labels, [...r.head.props], r.out.map((e) => e.id), r.in.map((e) => e.id)]);
  const edges = [...g.edgeRecords()].map((r) => [r.id, r.type, r.source.id, r.target.id, [...r.head.props]]);
  const sets = [...g.edgeTypes()].sort().map((t) => [t, [...g.recordsOfType(t)].map((r) => r.id).sort((a, b) => a - b)]);
  const labels = [...g.labels()].sort().map((l) => [l, [...g.recordsWithLabel(l)].map((r) => r.id).sort((a, b) => a - b)]);
  const keys = [...(g.propertyKeyCounts(Infinity) ?? [])].filter(([, holders]) => holders > 0);
  return { nodes, edges, sets, labels, keys, stats: g.stats() };
}

describe('bulk creation in the graph store', () => {
  it('gives the graph the same ops give, edge lists in the same order, across two entries and into a graph that has edges', () => {
    const seed = testSeed('bulk creation');
    const random = prng(seed);
    const n = 300;
    const byOps = new GraphStore();
    const bulk = new GraphStore();
    // A graph that already has nodes and edges, written op by op into both.
    const before: GraphOp[] = [];
    for (let id = 1; id <= 20; id++) before.push({ op: 'create_node', id, labels: ['Old'], props: [['k', BigInt(id)]] });
    for (let id = 1; id <= 30; id++) before.push({ op: 'create_edge', id, type: 'R', source: 1 + (id % 20), target: 1 + ((id * 7) % 20), props: [] });
    byOps.applyOps(before, 1, 10, true);
    bulk.applyOps(before, 1, 10, true);

    const labelSets = [['A'], ['A', 'B'], []];
    const labelsOf = (i: number): readonly string[] => labelSets[i % 3]!;
    const nodeOps: GraphOp[] = [];
    for (let i = 0; i < n; i++) nodeOps.push({ op: 'create_node', id: 21 + i, labels: labelsOf(i), props: [['i', BigInt(i)]] });
    const edgeCount = 2000;
    const sources = new Float64Array(edgeCount);
    const targets = new Float64Array(edgeCount);
    const types = ['K', 'L'];
    const edgeOps: GraphOp[] = [];
    for (let i = 0; i < edgeCount; i++) {
      sources[i] = 1 + Math.floor(random() * (20 + n));
      targets[i] = 1 + Math.floor(random() * (20 + n));
      edgeOps.push({ op: 'create_edge', id: 31 + i, type: types[i % 7 === 0 ? 1 : 0]!, source: sources[i]!, target: targets[i]!, props: i % 2 === 0 ? [['w', i]] : [] });
    }
    byOps.applyOps([...nodeOps, ...edgeOps], 2, 20, true);

    bulk.createNodes(21, n, labelsOf, (i) => new Map([['i', BigInt(i)]]), 2, 20, true);
    bulk.createEdges(31, edgeCount, (i) => types[i % 7 === 0 ? 1 : 0]!, sources, targets, (i) => (i % 2 === 0 ? new Map([['w', i]]) : new Map()), 2, 20, true);
    expect(shape(bulk), `seed ${seed}`).toEqual(shape(byOps));
  });

  it('undoes a pending bulk entry whole: lists, sets, counts and property keys as before it', () => {
    const g = new GraphStore();
    g.applyOps([{ op: 'create_node', id: 1, labels: ['P'], props: [] }, { op: 'create_node', id: 2, labels: ['P'], props: [] }, { op: 'create_edge', id: 1, type: 'K', source: 1, target: 2, props: [] }], 1, 10, true);
    const before = shape(g);
    g.createNodes(3, 2, () => ['P'], () => new Map([['p', 1n]]), 2, 20, false);
    g.createEdges(2, 3, () => 'K', new Float64Array([1, 3, 4]), new Float64Array([3, 4, 1]), () => new Map([['w', 1n]]), 2, 20, false);
    expect(g.stats().edges).toBe(4);
    expect(g.propertyKeyCounts(2)).toEqual(new Map([['p', 2], ['w', 3]]));
    g.rollbackAfter(1);
    expect(shape(g)).toEqual(before);
  });
});
