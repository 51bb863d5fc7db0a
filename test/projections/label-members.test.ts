import { describe, expect, it } from 'vitest';
import type { PropertyValue } from '../../src/common/property-value.js';
import type { GraphOp } from '../../src/log/events.js';
import { DICTIONARY_VALUES_MAX, visibleNode } from '../../src/projections/graph/records.js';
import { StateMachine } from '../../src/projections/state-machine.js';
import { prng, testSeed } from '../support/prng.js';

/**
 * Label scans answer from a kept list of a label's nodes while the label is unchanged. Whatever
 * the writes (labels added and removed, properties set, deletions, pending entries undone and
 * written again at the same index), a scan at any retained read index must see exactly what a walk
 * of the records sees.
 */
const create = (id: number, labels: string[], props: Record<string, PropertyValue> = {}): GraphOp => ({ op: 'create_node', id, labels, props: Object.entries(props) });
const relabel = (id: number, add: string[], remove: string[]): GraphOp => ({ op: 'update_node', id, add_labels: add, remove_labels: remove, set: [], replace: false });
const setProp = (id: number, v: bigint): GraphOp => ({ op: 'update_node', id, add_labels: [], remove_labels: [], set: [['v', v]], replace: false });
const drop = (id: number): GraphOp => ({ op: 'delete_node', id });

function walk(sm: StateMachine, label: string, readIndex: number): string[] {
  const out: string[] = [];
  for (const r of sm.graph.recordsWithLabel(label)) {
    const v = visibleNode(r, readIndex);
    if (v !== undefined && v.labels.includes(label)) out.push(`${v.id}:${String(v.props.get('v'))}`);
  }
  return out;
}

function scan(sm: StateMachine, label: string, readIndex: number): string[] {
  const out: string[] = [];
  sm.viewAt(readIndex).forEachNode(label, (n) => {
    out.push(`${n.id}:${String(n.props.get('v'))}`);
    return true;
  });
  return out;
}

describe('kept label lists', () => {
  it('scans agree with the records at every read index through random writes and undos', () => {
    const seed = testSeed('label-members');
    const r = prng(seed);
    const sm = new StateMachine();
    const labels = ['A', 'B', 'C'];
    let index = 0;
    let nextId = 1;
    const live = new Set<number>();
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
    const opFor = (): GraphOp[] => {
      const x = r();
      if (x < 0.35 || live.size === 0) {
        const id = nextId++;
        live.add(id);
        return [create(id, labels.filter(() => r() < 0.5), { v: BigInt(Math.floor(r() * 100)) })];
      }
      const id = pick([...live]);
      if (x < 0.55) return [relabel(id, [pick(labels)], r() < 0.5 ? [pick(labels)] : [])];
      if (x < 0.85) return [setProp(id, BigInt(Math.floor(r() * 100)))];
      live.delete(id);
      return [drop(id)];
    };
    for (let step = 0; step < 800; step++) {
      if (r() < 0.1) {
        // A pending entry, read by the writer's view, then undone and replaced at the same index.
        const committed = index;
        const liveBefore = new Set(live);
        const nextBefore = nextId;
        sm.apply({ index: ++index, term: 1, commit_ts: index, event: { kind: 'graph_write', ops: opFor() } }, false);
        for (const l of labels) expect(scan(sm, l, Infinity), `seed ${seed}`).toEqual(walk(sm, l, Infinity));
        for (const l of labels) expect(scan(sm, l, Infinity), `seed ${seed}`).toEqual(walk(sm, l, Infinity));
        sm.rollbackAfter(committed);
        index = committed;
        live.clear();
        for (const id of liveBefore) live.add(id);
        nextId = Math.max(nextBefore, sm.graph.nextNodeId);
      }
      sm.apply({ index: ++index, term: 1, commit_ts: index, event: { kind: 'graph_write', ops: opFor() } }, true);
      // Read each label twice (the second builds a list) at the newest index and at an older one.
      const older = Math.max(1, index - Math.floor(r() * 5));
      for (const at of [index, index, older, index]) {
        for (const l of labels) expect(scan(sm, l, at), `seed ${seed}, step ${step}, label ${l} at ${at}`).toEqual(walk(sm, l, at));
      }
    }
  });

  it('keeps lists and columns within the scan cache budget, the oldest list making room', () => {
    const sm = new StateMachine();
    const budget = sm.graph.scanCache;
    sm.apply({ index: 1, term: 1, commit_ts: 1, event: { kind: 'graph_write', ops: Array.from({ length: 100 }, (_, i) => create(i + 1, [i < 50 ? 'A' : 'B'], { v: BigInt(i) })) } }, true);
    // Room for one list of 50 (8 bytes a slot and 64 over) and one column, not for two lists.
    budget.limit_bytes = 8 * 50 + 64 + 8 * 50 + 100;
    const twice = (label: string) => {
      scan(sm, label, 1);
      return sm.graph.members(label, 1);
    };
    const a = twice('A');
    expect(a?.nodes.length).toBe(50);
    expect(a?.column('v')?.[3]).toBe(3n);
    expect(budget.used).toBe(8 * 50 + 64 + 8 * 50);
    const b = twice('B');
    // A's list and column made room for B's list.
    expect(b?.nodes.length).toBe(50);
    expect(budget.used).toBe(8 * 50 + 64);
    expect(b?.column('v')?.[0]).toBe(50n);
    expect(b?.column('w')).toBeUndefined();
    // A write to B drops its list and gives its memory back; scans still answer right.
    sm.apply({ index: 2, term: 1, commit_ts: 2, event: { kind: 'graph_write', ops: [setProp(51, 7n)] } }, true);
    expect(budget.used).toBe(0);
    expect(scan(sm, 'B', 2)).toEqual(walk(sm, 'B', 2));
    budget.limit_bytes = 0;
    expect(twice('A')).toBeUndefined();
    expect(scan(sm, 'A', 2)).toEqual(walk(sm, 'A', 2));
  });

  it('dictionary-encodes a column of few strings, and only such a column', () => {
    const sm = new StateMachine();
    const cities = ['Oslo', 'Lima', 'Pune'];
    const ops = Array.from({ length: 30 }, (_, i) =>
      create(i + 1, ['P'], { ...(i % 10 !== 9 && { city: cities[i % 3] as string }), mixed: i === 5 ? 5n : 'x', many: `n${i}` }),
    );
    sm.apply({ index: 1, term: 1, commit_ts: 1, event: { kind: 'graph_write', ops } }, true);
    scan(sm, 'P', 1);
    const members = sm.graph.members('P', 1)!;
    const before = sm.graph.scanCache.used;
    const d = members.dictionary('city')!;
    // Codes in order of first appearance; absent values share the code of null.
    expect(d.values).toEqual(['Oslo', 'Lima', 'Pune', null]);
    const column = members.column('city')!;
    for (let i = 0; i < 30; i++) expect(d.values[d.codes[i]!], `member ${i}`).toBe(column[i] ?? null);
    expect(sm.graph.scanCache.used).toBe(before + 8 * 30 + 2 * 30);
    expect(members.dictionary('city')).toBe(d);
    // A non-string value: no dictionary, and nothing held for it beyond the column.
    const withMixed = sm.graph.scanCache.used;
    expect(members.dictionary('mixed')).toBeUndefined();
    expect(sm.graph.scanCache.used).toBe(withMixed + 8 * 30);
    // Thirty distinct strings fit; one more than DICTIONARY_VALUES_MAX does not.
    expect(members.dictionary('many')?.values).toHaveLength(30);
    const wide = Array.from({ length: DICTIONARY_VALUES_MAX + 1 }, (_, i) => create(100 + i, ['W'], { s: `s${i}` }));
    sm.apply({ index: 2, term: 1, commit_ts: 2, event: { kind: 'graph_write', ops: wide } }, true);
    scan(sm, 'W', 2);
    expect(sm.graph.members('W', 2)!.dictionary('s')).toBeUndefined();
  });

  it('keeps a column of exact INTEGERs as doubles, and only such a column', () => {
    const sm = new StateMachine();
    const big = 2n ** 53n;
    const ops = Array.from({ length: 20 }, (_, i) =>
      create(i + 1, ['P'], { v: BigInt(i * 7 - 50), ...(i !== 4 && { some: 1n }), float: i === 3 ? 1.5 : 2n, huge: i === 9 ? big : 0n, edge: i === 9 ? big - 1n : -(big - 1n) }),
    );
    sm.apply({ index: 1, term: 1, commit_ts: 1, event: { kind: 'graph_write', ops } }, true);
    scan(sm, 'P', 1);
    const members = sm.graph.members('P', 1)!;
    const v = members.integers('v')!;
    const column = members.column('v')!;
    for (let i = 0; i < 20; i++) expect(v[i]).toBe(Number(column[i]));
    expect(members.integers('v')).toBe(v);
    expect(members.integers('edge')).toBeDefined();
    // Absent on one node, a FLOAT on one, or beyond 2^53 - 1: no doubles.
    for (const key of ['some', 'float', 'huge', 'missing']) expect(members.integers(key), key).toBeUndefined();
  });
});
