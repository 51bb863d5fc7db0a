import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { describe, expect, it } from 'vitest';
import type { PropertyValue } from '../../src/common/property-value.js';
import type { GraphOp } from '../../src/log/events.js';
import { SCAN_CACHE_EDGE_SLOT_BYTES, SCAN_CACHE_FLOOR_BYTES, SCAN_CACHE_NODE_SLOT_BYTES, scanCacheAutoBytes } from '../../src/projections/graph/graph-store.js';
import { chargeDerived, keepDerived, ScanCache } from '../../src/projections/graph/scan-cache.js';
import { StateMachine } from '../../src/projections/state-machine.js';
import { typedColumn } from '../../src/query/execute/batch/typed-columns.js';

/**
 * The scan cache: every form built for scanning, and every form derived from one, charged to one budget with
 * the least recently used evicted first; forms a write supersedes kept for pinned readers older than the write
 * and released once none is; and the bytes charged close to what the forms hold.
 */
const create = (id: number, labels: string[], props: Record<string, PropertyValue> = {}): GraphOp => ({ op: 'create_node', id, labels, props: Object.entries(props) });
const edge = (id: number, source: number, target: number): GraphOp => ({ op: 'create_edge', id, type: 'R', source, target, props: [['w', BigInt(id % 13)]] });
const setProp = (id: number, v: bigint): GraphOp => ({ op: 'update_node', id, add_labels: [], remove_labels: [], set: [['v', v]], replace: false });

function write(sm: StateMachine, index: number, ops: GraphOp[]): void {
  sm.apply({ index, term: 1, commit_ts: index, event: { kind: 'graph_write', ops } }, true);
}

/** `nodes` nodes labelled A (v = i), and `edges` relationships of type R between them, all at index 1. */
function graph(nodes: number, edges: number): StateMachine {
  const sm = new StateMachine();
  const ops: GraphOp[] = [];
  for (let i = 1; i <= nodes; i++) ops.push(create(i, ['A'], { v: BigInt(i) }));
  for (let i = 1; i <= edges; i++) ops.push(edge(i, 1 + (i % nodes), 1 + ((i * 7) % nodes)));
  write(sm, 1, ops);
  return sm;
}

/** Values seen by a scan of A at `readIndex`, in scan order. */
function scan(sm: StateMachine, readIndex: number): string[] {
  const out: string[] = [];
  sm.viewAt(readIndex).forEachNode('A', (n) => {
    out.push(`${n.id}:${String(n.props.get('v'))}`);
    return true;
  });
  return out;
}

describe('scan cache budget', () => {
  it('evicts the least recently used form first, and refuses one larger than the whole cache', () => {
    const cache = new ScanCache(() => 1000);
    const evicted: string[] = [];
    const a = cache.admit('node column', 300, [], () => evicted.push('a'))!;
    const b = cache.admit('node column', 300, [], () => evicted.push('b'))!;
    cache.admit('node column', 300, [], () => evicted.push('c'));
    cache.use(a);
    cache.admit('node column', 300, [], () => evicted.push('d'));
    expect(evicted).toEqual(['b']);
    expect(b.live).toBe(false);
    expect(cache.used).toBe(900);
    expect(cache.evictions).toBe(1);
    expect(cache.admit('csr', 1001, [], () => evicted.push('e'))).toBeUndefined();
    // A limit the host lowers is met at once, least recently used first.
    cache.limit_bytes = 400;
    expect(evicted).toEqual(['b', 'c', 'a']);
    expect(cache.used).toBe(300);
    cache.admit('label bitmap', 100, [], () => evicted.push('f'));
    expect(cache.used).toBe(400);
    cache.limit_bytes = undefined;
    expect(cache.limit_bytes).toBe(1000);
  });

  it('charges derived forms to the form they come from, and releases them with it', () => {
    const cache = new ScanCache(() => 1000);
    const column = {};
    const form = cache.admit('edge column', 100, [column], () => undefined)!;
    const typed = {};
    const gathered = {};
    expect(chargeDerived(column, typed, 50, 'typed column')).toBe(true);
    // A form derived from a derived form finds the same entry.
    expect(chargeDerived(typed, gathered, 25, 'column in adjacency order')).toBe(true);
    expect(form.bytes).toBe(175);
    expect(cache.used).toBe(175);
    expect(form.derived.get('typed column')).toEqual({ count: 1, bytes: 50 });
    // No room, even after evicting every other form (there is none): refused, nothing charged.
    expect(chargeDerived(column, {}, 900, 'per-value table')).toBe(false);
    expect(cache.used).toBe(175);
    cache.release(form);
    expect(cache.used).toBe(0);
    // Derived from a released form: not kept. From an array no cache knows: kept (it lives as long as its key).
    expect(keepDerived(typed, {}, 10, 'per-value table')).toBe(false);
    expect(keepDerived([], {}, 10, 'typed column')).toBe(true);
    expect(cache.used).toBe(0);
  });

  it('is sized by the graph unless the host sets it', () => {
    expect(scanCacheAutoBytes(1000, 1000)).toBe(SCAN_CACHE_FLOOR_BYTES);
    expect(scanCacheAutoBytes(10_000_000, 100_000_000)).toBe(SCAN_CACHE_NODE_SLOT_BYTES * 10_000_000 + SCAN_CACHE_EDGE_SLOT_BYTES * 100_000_000);
    const sm = graph(10, 10);
    expect(sm.graph.scanCache.limit_bytes).toBe(SCAN_CACHE_FLOOR_BYTES);
    sm.graph.scanCache.limit_bytes = 4096;
    expect(sm.graph.scanCache.limit_bytes).toBe(4096);
  });

  it('store forms: a small cache evicts the least recently used, and rebuilt forms answer as before', () => {
    const sm = graph(200, 600);
    const store = sm.graph;
    const column = store.nodeColumn('v', 1, 1_000)!;
    const csr = store.adjacency('R', 1, 10_000)!;
    const bits = store.labelBitmap('A', 1, 1_000)!;
    expect(column).toBeDefined();
    expect(csr).toBeDefined();
    expect(bits).toBeDefined();
    const all = store.scanCache.used;
    // Room for all but one byte: the column, least recently used, goes.
    store.scanCache.limit_bytes = all - 1;
    expect(store.scanCache.evictions).toBe(1);
    expect(store.scanCache.used).toBeLessThanOrEqual(all - 1);
    // Asked for again, the column is built again (the demand for it stands), equal to the first; the CSR, now
    // least recently used, makes room.
    const rebuilt = store.nodeColumn('v', 1, 0);
    expect(rebuilt).not.toBe(column);
    expect(rebuilt).toEqual(column);
    expect(store.keptAdjacency('R', 1)).toBeUndefined();
    expect(store.scanCache.used).toBeLessThanOrEqual(all - 1);
    expect(store.labelBitmap('A', 1, 0)).toBe(bits);
    expect(store.scanCache.used).toBeLessThanOrEqual(all - 1);
  });
});

describe('superseded forms', () => {
  it("a pinned snapshot's forms survive a write while it is pinned, and go once it is not", () => {
    const sm = graph(100, 300);
    const store = sm.graph;
    let pinned: number | undefined = 1;
    store.oldestPinned = () => pinned;
    expect(scan(sm, 1)).toHaveLength(100);
    scan(sm, 1);
    const members = store.members('A', 1)!;
    const column = store.nodeColumn('v', 1, 1_000)!;
    const csr = store.adjacency('R', 1, 10_000)!;
    expect(members).toBeDefined();
    const before = scan(sm, 1);
    const held = store.scanCache.used;
    write(sm, 2, [setProp(5, 500n), edge(301, 1, 2)]);
    // The reader pinned at 1 reads the same forms; a reader at 2 gets none of them.
    expect(store.members('A', 1)).toBe(members);
    expect(store.nodeColumn('v', 1, 0)).toBe(column);
    expect(store.adjacency('R', 1, 0)).toBe(csr);
    expect(store.keptAdjacency('R', 2)).toBeUndefined();
    expect(store.nodeColumn('v', 2, 0)).toBeUndefined();
    expect(scan(sm, 1)).toEqual(before);
    expect(scan(sm, 2)).toContain('5:500');
    expect(store.scanCache.used).toBe(held);
    // Unpinned: the next write (or the host's sweep) releases them.
    pinned = undefined;
    store.sweepSuperseded();
    expect(store.superseded.size).toBe(0);
    expect(store.members('A', 1)).toBeUndefined();
    expect(store.adjacency('R', 1, 0)).toBeUndefined();
    expect(store.scanCache.used).toBe(0);
    expect(scan(sm, 1)).toEqual(before);
  });

  it('a write with no reader pinned before it releases what it supersedes at once', () => {
    const sm = graph(100, 300);
    const store = sm.graph;
    store.oldestPinned = () => 2;
    store.nodeColumn('v', 1, 1_000);
    store.adjacency('R', 1, 10_000);
    expect(store.scanCache.used).toBeGreaterThan(0);
    write(sm, 2, [setProp(5, 500n), edge(301, 1, 2)]);
    expect(store.superseded.size).toBe(0);
    expect(store.scanCache.used).toBe(0);
  });

  it('undone pending entries drop every superseded form', () => {
    const sm = graph(50, 100);
    const store = sm.graph;
    store.oldestPinned = () => 1;
    store.nodeColumn('v', 1, 1_000);
    sm.apply({ index: 2, term: 1, commit_ts: 2, event: { kind: 'graph_write', ops: [setProp(5, 500n)] } }, false);
    expect(store.superseded.size).toBe(1);
    sm.rollbackAfter(1);
    expect(store.superseded.size).toBe(0);
    expect(store.scanCache.used).toBe(0);
  });
});

describe('bytes charged', () => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const held = (): number => {
    gc();
    gc();
    const m = process.memoryUsage();
    return m.heapUsed + m.arrayBuffers;
  };

  // Pushed arrays keep up to half their length again as spare capacity, and a heap measure moves by a few
  // hundred kilobytes with whatever else the test worker allocates: for forms of megabytes, what they hold
  // stays within 0.75 to 1.6 times what is charged. Typed arrays hold exactly their bytes.
  it('a node column, its typed form and a CSR hold about what they are charged', () => {
    const n = 50_000;
    const sm = graph(n, 100_000);
    const store = sm.graph;
    let used = store.scanCache.used;
    let before = held();
    const column = store.nodeColumn('v', 1, n)!;
    let measured = held() - before;
    let charged = store.scanCache.used - used;
    expect(measured / charged, `column: ${measured} held, ${charged} charged`).toBeGreaterThan(0.75);
    expect(measured / charged, `column: ${measured} held, ${charged} charged`).toBeLessThan(1.6);

    used = store.scanCache.used;
    before = held();
    const typed = typedColumn(column);
    measured = held() - before;
    charged = store.scanCache.used - used;
    expect(typed.kind).toBe('int');
    expect(measured / charged, `typed: ${measured} held, ${charged} charged`).toBeGreaterThan(0.9);
    expect(measured / charged, `typed: ${measured} held, ${charged} charged`).toBeLessThan(1.1);

    used = store.scanCache.used;
    before = held();
    const csr = store.adjacency('R', 1, 1_000_000)!;
    measured = held() - before;
    charged = store.scanCache.used - used;
    expect(csr.out.edges.length).toBe(100_000);
    expect(measured / charged, `csr: ${measured} held, ${charged} charged`).toBeGreaterThan(0.75);
    expect(measured / charged, `csr: ${measured} held, ${charged} charged`).toBeLessThan(1.6);
  });
});
