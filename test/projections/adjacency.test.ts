import { describe, expect, it } from 'vitest';
import type { GraphOp } from '../../src/log/events.js';
import { visibleNode } from '../../src/projections/graph/records.js';
import type { Direction } from '../../src/projections/graph/view.js';
import { StateMachine } from '../../src/projections/state-machine.js';
import { prng, testSeed } from '../support/prng.js';

/**
 * The scan-friendly forms the store keeps for a quiet graph (a CSR per relationship type, property
 * columns and label bitmaps by node id) picture one point of the log. Whatever the writes (edges
 * created, changed and deleted, nodes relabelled, changed and deleted, pending entries undone and
 * written again at the same index), a reader that gets one must see through it exactly what a walk
 * of the records at its read index sees, and a reader that may not use it must get none.
 */
const ALL = Number.POSITIVE_INFINITY;
const types = ['R', 'S'];
const labels = ['A', 'B'];

/** A node's edges of `type` as a walk of its records answers them: `edge>end`. */
function walked(sm: StateMachine, node: number, direction: Direction, type: string, at: number): string[] {
  const out: string[] = [];
  sm.viewAt(at).forEachEdgeOf(node, direction, type, (e) => {
    out.push(`${e.id}>${direction === 'out' ? e.target : direction === 'in' ? e.source : e.source === node ? e.target : e.source}`);
    return true;
  });
  return out;
}

/** The same from the CSR, or undefined when the reader gets none. */
function fromCsr(sm: StateMachine, node: number, direction: 'out' | 'in', type: string, at: number): string[] | undefined {
  const csr = sm.viewAt(at).adjacency(type, ALL);
  if (csr === undefined) return undefined;
  const rows = direction === 'out' ? csr.out : csr.into;
  const out: string[] = [];
  if (node >= rows.offsets.length - 1) return out;
  for (let i = rows.offsets[node]!; i < rows.offsets[node + 1]!; i++) out.push(`${rows.edges[i]}>${rows.ends[i]}`);
  return out;
}

describe('CSR adjacency, property columns and label bitmaps by node id', () => {
  it('agree with the records at every read index through random writes and undos', () => {
    const seed = testSeed('adjacency');
    const r = prng(seed);
    const sm = new StateMachine();
    let index = 0;
    let nextNode = 1;
    let nextEdge = 1;
    const nodes = new Set<number>();
    const edges = new Map<number, readonly [number, number]>();
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
    const opsFor = (): GraphOp[] => {
      const x = r();
      if (x < 0.2 || nodes.size < 4) {
        const id = nextNode++;
        nodes.add(id);
        return [{ op: 'create_node', id, labels: labels.filter(() => r() < 0.6), props: [['v', BigInt(Math.floor(r() * 9))]] }];
      }
      if (x < 0.6) {
        const id = nextEdge++;
        const ends = [pick([...nodes]), pick([...nodes])] as const;
        edges.set(id, ends);
        return [{ op: 'create_edge', id, type: pick(types), source: ends[0], target: ends[1], props: [] }];
      }
      if (x < 0.7 && edges.size > 0) {
        const id = pick([...edges.keys()]);
        edges.delete(id);
        return [{ op: 'delete_edge', id }];
      }
      if (x < 0.75 && edges.size > 0) return [{ op: 'update_edge', id: pick([...edges.keys()]), set: [['w', 1n]], replace: false }];
      const id = pick([...nodes]);
      const attached = [...edges.values()].some(([a, b]) => a === id || b === id);
      if (x < 0.8 && !attached) {
        nodes.delete(id);
        return [{ op: 'delete_node', id }];
      }
      return [{ op: 'update_node', id, add_labels: r() < 0.5 ? [pick(labels)] : [], remove_labels: r() < 0.5 ? [pick(labels)] : [], set: [['v', BigInt(Math.floor(r() * 9))]], replace: false }];
    };
    /** Everything the reader at `at` sees through the kept forms, against the records. */
    const check = (at: number, context: string): number => {
      let used = 0;
      for (let node = 1; node < nextNode + 1; node++) {
        for (const type of types) {
          for (const direction of ['out', 'in'] as const) {
            const csr = fromCsr(sm, node, direction, type, at);
            if (csr === undefined) continue;
            used++;
            expect(csr, `${context}, node ${node} ${direction} ${type}`).toEqual(walked(sm, node, direction, type, at));
          }
        }
      }
      const view = sm.viewAt(at);
      const column = view.nodeColumn('v', ALL);
      for (const label of labels) {
        const bits = view.labelBitmap(label, ALL);
        if (bits === undefined) continue;
        used++;
        for (let node = 1; node < nextNode; node++) {
          const record = sm.graph.nodeRecord(node);
          const v = record === undefined ? undefined : visibleNode(record, at);
          expect(bits[node] === 1, `${context}, node ${node} label ${label}`).toBe(v?.labels.includes(label) === true);
        }
      }
      if (column !== undefined) {
        used++;
        for (let node = 1; node < nextNode; node++) {
          const record = sm.graph.nodeRecord(node);
          const v = record === undefined ? undefined : visibleNode(record, at);
          expect(column[node], `${context}, node ${node} v`).toBe(v?.props.get('v'));
        }
      }
      return used;
    };
    let used = 0;
    for (let step = 0; step < 300; step++) {
      if (r() < 0.1) {
        // A pending entry, read by the writer's view, then undone and replaced at the same index.
        const committed = index;
        const nodesBefore = new Set(nodes);
        const edgesBefore = new Map(edges);
        sm.apply({ index: ++index, term: 1, commit_ts: index, event: { kind: 'graph_write', ops: opsFor() } }, false);
        used += check(ALL, `seed ${seed}, step ${step}, pending`);
        sm.rollbackAfter(committed);
        index = committed;
        nodes.clear();
        for (const id of nodesBefore) nodes.add(id);
        edges.clear();
        for (const [id, e] of edgesBefore) edges.set(id, e);
        nextNode = Math.max(nextNode, sm.graph.nextNodeId);
        nextEdge = Math.max(nextEdge, sm.graph.nextEdgeId);
      }
      sm.apply({ index: ++index, term: 1, commit_ts: index, event: { kind: 'graph_write', ops: opsFor() } }, true);
      const older = Math.max(1, index - Math.floor(r() * 5));
      for (const at of [index, older, index]) used += check(at, `seed ${seed}, step ${step}, at ${at} of ${index}`);
      // An older reader never gets a form built after the write it does not see.
      if (older < index) {
        const view = sm.viewAt(older);
        for (const type of types) {
          const csr = view.adjacency(type, ALL);
          if (csr !== undefined) expect(csr.written).toBeLessThanOrEqual(older);
        }
      }
    }
    // The forms were really read, not always refused.
    expect(used, `seed ${seed}`).toBeGreaterThan(300);
  });

  it('builds a CSR only once record-by-record walks add up to a quarter of the type', () => {
    const sm = new StateMachine();
    const ops: GraphOp[] = [];
    for (let i = 1; i <= 10; i++) ops.push({ op: 'create_node', id: i, labels: ['A'], props: [] });
    for (let i = 1; i <= 40; i++) ops.push({ op: 'create_edge', id: i, type: 'R', source: 1 + (i % 10), target: 1 + ((i * 3) % 10), props: [] });
    sm.apply({ index: 1, term: 1, commit_ts: 1, event: { kind: 'graph_write', ops } }, true);
    const view = sm.viewAt(1);
    expect(view.adjacency('R', 4)).toBeUndefined();
    expect(view.adjacency('R', 5)).toBeUndefined();
    const csr = view.adjacency('R', 1);
    expect(csr?.out.edges.length).toBe(40);
    // Kept: the next ask gets the same arrays without walking anything.
    expect(view.adjacency('R', 0)).toBe(csr);
    // A write to the type drops it and starts the count again.
    sm.apply({ index: 2, term: 1, commit_ts: 2, event: { kind: 'graph_write', ops: [{ op: 'delete_edge', id: 1 }] } }, true);
    expect(sm.viewAt(2).adjacency('R', 0)).toBeUndefined();
    expect(sm.viewAt(1).adjacency('R', 100)).toBeUndefined();
    expect(sm.viewAt(2).adjacency('R', 100)?.out.edges.length).toBe(39);
  });
});
