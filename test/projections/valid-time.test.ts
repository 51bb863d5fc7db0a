import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PropertyMap, PropertyValue } from '../../src/common/property-value.js';
import type { Entry, GraphOp, SchemaEvent } from '../../src/log/events.js';
import { loadCheckpoint, writeCheckpoint } from '../../src/projections/checkpoint.js';
import { instantMicros, instantOfMicros } from '../../src/projections/computed/computed-reads.js';
import { StateMachine } from '../../src/projections/state-machine.js';
import { ValidTimeReads } from '../../src/projections/temporal/valid-time-reads.js';
import { versionAt, writeValidVersion } from '../../src/projections/temporal/valid-time.js';

/**
 * Valid time as a projection of the log: versions kept per valid_from, the interval each reads as,
 * and the same versions after a replay of the entries, after a checkpoint, and after a pending
 * write is undone.
 */
const day_us = 86_400_000_000;
const day = (n: number) => instantOfMicros(n * day_us);
const version = (from: number, amount: bigint, extra: [string, PropertyValue][] = []): PropertyMap =>
  new Map<string, PropertyValue>([['valid_from', day(from)], ['amount', amount], ...extra]);
const amounts = (m: PropertyMap | undefined) => (m === undefined ? undefined : { amount: m.get('amount'), to: instantMicros(m.get('valid_to')) });

describe('valid-time versions', () => {
  it('a later valid_from adds a version that ends the one before; the same valid_from rewrites it; an earlier one is put behind', () => {
    let v = { props: version(10, 1n), earlier: [] as readonly PropertyMap[] };
    v = writeValidVersion(v.props, v.earlier, version(20, 2n));
    v = writeValidVersion(v.props, v.earlier, version(20, 3n));
    v = writeValidVersion(v.props, v.earlier, version(5, 0n, [['valid_to', day(7)]]));
    expect(v.earlier.map((e) => e.get('amount'))).toEqual([0n, 1n]);
    expect(v.props.get('amount')).toBe(3n);
    expect(amounts(versionAt(v.props, v.earlier, 4 * day_us))).toBeUndefined();
    expect(amounts(versionAt(v.props, v.earlier, 6 * day_us))).toEqual({ amount: 0n, to: 7 * day_us });
    // Between an explicit valid_to and the next start, nothing held.
    expect(amounts(versionAt(v.props, v.earlier, 8 * day_us))).toBeUndefined();
    expect(amounts(versionAt(v.props, v.earlier, 10 * day_us))).toEqual({ amount: 1n, to: 20 * day_us });
    expect(amounts(versionAt(v.props, v.earlier, 20 * day_us - 1))).toEqual({ amount: 1n, to: 20 * day_us });
    expect(amounts(versionAt(v.props, v.earlier, 20 * day_us))).toEqual({ amount: 3n, to: undefined });
    expect(amounts(versionAt(v.props, v.earlier, 9999 * day_us))).toEqual({ amount: 3n, to: undefined });
  });
});

const T = 'Price';
const label: SchemaEvent = { kind: 'label_defined', name: T, properties: [], computed: [], mode: 'FLEXIBLE', temporal: true };
const edgeType: SchemaEvent = { kind: 'edge_type_defined', name: 'SOLD_AT', properties: [], temporal: true, discriminator: '' };
const props = (m: PropertyMap): [string, PropertyValue][] => [...m];
const setTo = (m: PropertyMap): GraphOp => ({ op: 'update_node', id: 1, add_labels: [], remove_labels: [], set: props(m), replace: false });

function entries(): Entry[] {
  const events = [
    { kind: 'deployment_formed', deployment: new Uint8Array(16), engine_format: 1 } as const,
    label,
    edgeType,
    { kind: 'graph_write', ops: [{ op: 'create_node', id: 1, labels: [T], props: props(version(10, 1n)) }, { op: 'create_node', id: 2, labels: ['Shop'], props: [] }] } as const,
    { kind: 'graph_write', ops: [setTo(version(20, 2n))] } as const,
    { kind: 'graph_write', ops: [setTo(version(5, 0n))] } as const,
    { kind: 'graph_write', ops: [{ op: 'create_edge', id: 1, type: 'SOLD_AT', source: 1, target: 2, props: props(version(10, 1n)) }] } as const,
    { kind: 'graph_write', ops: [{ op: 'create_edge', id: 2, type: 'SOLD_AT', source: 1, target: 2, props: props(version(30, 1n)) }] } as const,
  ];
  return events.map((event, i) => ({ index: i + 1, term: 1, commit_ts: 1000 + i, event }) as Entry);
}

/** What a reader sees of node 1 and of the SOLD_AT edges at each of a few valid times. */
function readings(sm: StateMachine): unknown[] {
  const out: unknown[] = [];
  for (const d of [4, 5, 15, 25, 35]) {
    const view = sm.committedView().withLens(ValidTimeReads.of(sm.schema.catalog, d * day_us), { read_ts_us: 0, valid_us: d * day_us });
    out.push({ d, node: amounts(view.node(1)?.props), edges: [...view.edgesOf(1, 'out')].map((e) => [e.id, instantMicros(e.props.get('valid_to'))]) });
  }
  return out;
}

describe('valid time through the log', () => {
  it('a replay, a checkpoint and its load read the same versions at every valid time', () => {
    const first = new StateMachine();
    for (const e of entries()) expect(first.apply(e, true).status).toBe('applied');
    const expected = [
      { d: 4, node: undefined, edges: [] },
      { d: 5, node: { amount: 0n, to: 10 * day_us }, edges: [] },
      { d: 15, node: { amount: 1n, to: 20 * day_us }, edges: [[1, 30 * day_us]] },
      { d: 25, node: { amount: 2n, to: undefined }, edges: [[1, 30 * day_us]] },
      { d: 35, node: { amount: 2n, to: undefined }, edges: [[2, undefined]] },
    ];
    expect(readings(first)).toEqual(expected);

    const replayed = new StateMachine();
    for (const e of entries()) replayed.apply(e, true);
    expect(readings(replayed)).toEqual(expected);

    const dir = mkdtempSync(join(tmpdir(), 'weft-valid-time-'));
    try {
      writeCheckpoint(dir, first);
      const loaded = loadCheckpoint(dir);
      expect(readings(loaded)).toEqual(expected);
      expect(loaded.committedView().node(1)?.earlier?.length).toBe(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a pending version undone by a lost leadership leaves the versions as they were', () => {
    const sm = new StateMachine();
    const all = entries();
    for (const e of all) sm.apply(e, true);
    const before = readings(sm);
    const next = all.length + 1;
    sm.apply({ index: next, term: 2, commit_ts: 5000, event: { kind: 'graph_write', ops: [setTo(version(40, 9n))] } }, false);
    expect(sm.latestView().node(1)?.props.get('amount')).toBe(9n);
    sm.rollbackAfter(next - 1);
    expect(readings(sm)).toEqual(before);
    expect(sm.latestView().node(1)?.earlier?.length).toBe(2);
  });

  it('writes that break the valid-time rules are refused at apply on every member', () => {
    const sm = new StateMachine();
    const all = entries();
    for (const e of all) sm.apply(e, true);
    const refusedBy = (ops: GraphOp[]) => sm.check({ kind: 'graph_write', ops })?.reason;
    expect(refusedBy([{ op: 'create_node', id: 3, labels: [T], props: [['amount', 1n]] }])).toBe('VALID_FROM_REQUIRED');
    expect(refusedBy([{ op: 'create_node', id: 3, labels: [T], props: [['valid_from', 'monday']] }])).toBe('PROPERTY_TYPE_MISMATCH');
    expect(refusedBy([{ op: 'create_node', id: 3, labels: [T], props: props(version(9, 1n, [['valid_to', day(9)]])) }])).toBe('INVALID_VALID_INTERVAL');
    expect(refusedBy([{ op: 'update_node', id: 1, add_labels: [], remove_labels: [], set: [['valid_from', null]], replace: false }])).toBe('VALID_FROM_REQUIRED');
    expect(refusedBy([{ op: 'create_edge', id: 3, type: 'SOLD_AT', source: 1, target: 2, props: props(version(10, 5n)) }])).toBe('EDGE_EXISTS');
    expect(refusedBy([{ op: 'create_edge', id: 3, type: 'SOLD_AT', source: 1, target: 2, props: [] }])).toBe('VALID_FROM_REQUIRED');
    // An update that moves an edge onto another one's valid_from takes that one's identity: refused.
    expect(refusedBy([{ op: 'update_edge', id: 2, set: [['valid_from', day(10)]], replace: false }])).toBe('EDGE_EXISTS');
    expect(refusedBy([{ op: 'update_edge', id: 2, set: [['valid_from', day(31)]], replace: false }])).toBeUndefined();
  });
});
