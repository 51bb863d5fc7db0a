import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PropertyValue } from '../../src/common/property-value.js';
import { equivalent } from '../../src/common/values/equality.js';
import { CARTESIAN, CARTESIAN_3D, pointValue, PointValue, WGS_84, WGS_84_3D, type CoordinateReferenceSystem } from '../../src/common/values/spatial.js';
import { decodePayload, decodeState, encodePayload, encodeState } from '../../src/log/codec.js';
import type { Event } from '../../src/log/events.js';
import { loadCheckpoint, writeCheckpoint } from '../../src/projections/checkpoint.js';
import { StateMachine } from '../../src/projections/state-machine.js';

function pt(crs: CoordinateReferenceSystem, ...coordinates: number[]): PointValue {
  const p = pointValue(crs, coordinates);
  if (typeof p === 'string') throw new Error(p);
  return p;
}

/** Every CRS, the coordinates a careless encoding would lose (-0.0, NaN, a non-integral double), and a list. */
const props: [string, PropertyValue][] = [
  ['home', pt(WGS_84, 12.994341, 55.611784)],
  ['peak', pt(WGS_84_3D, -179.999, -89.5, 8848.86)],
  ['origin', pt(CARTESIAN, -0, 0)],
  ['odd', pt(CARTESIAN_3D, NaN, 1e-310, -Infinity)],
  ['route', [pt(CARTESIAN, 1, 2), pt(CARTESIAN, 3.25, -4)]],
];

/** Same CRS and the same bits in every coordinate: -0.0 stays -0.0, NaN stays NaN. */
function sameBits(a: unknown, b: PropertyValue): void {
  if (Array.isArray(b)) {
    expect(Array.isArray(a)).toBe(true);
    (b as readonly PropertyValue[]).forEach((x, i) => sameBits((a as PropertyValue[])[i], x));
    return;
  }
  expect(a).toBeInstanceOf(PointValue);
  const p = a as PointValue;
  const q = b as PointValue;
  expect(p.crs).toBe(q.crs);
  expect(p.coordinates.length).toBe(q.coordinates.length);
  p.coordinates.forEach((c, i) => expect(Object.is(c, q.coordinates[i])).toBe(true));
}

describe('points in the log and in checkpoints', () => {
  it('a log entry holding points decodes to the same points, bit for bit', () => {
    const event: Event = { kind: 'graph_write', ops: [{ op: 'create_node', id: 1, labels: ['Place'], props }] };
    const back = decodePayload(encodePayload({ commit_ts: 5, event }));
    const op = (back.event as unknown as { ops: { props: [string, unknown][] }[] }).ops[0]!;
    expect(op.props.map(([k]) => k)).toEqual(props.map(([k]) => k));
    op.props.forEach(([, v], i) => sameBits(v, props[i]![1]));
  });

  it('a state encoding refuses to read back a point that breaks its CRS (a damaged or foreign entry)', () => {
    const bytes = encodeState({ p: pt(WGS_84, 0, 0) });
    expect(decodeState(bytes)).toEqual({ p: pt(WGS_84, 0, 0) });
    // The latitude is the second double of the extension body; 0.0 becomes 100.0.
    const damaged = Buffer.from(bytes);
    const at = damaged.indexOf(Buffer.from(new Float64Array([0, 0]).buffer));
    expect(at).toBeGreaterThan(0);
    damaged.writeDoubleLE(100, at + 8);
    expect(() => decodeState(damaged)).toThrow(/latitude 100/);
  });

  it('replay, then a checkpoint and its restore, give back the node with its points', () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-points-'));
    try {
      const sm = new StateMachine();
      const entries: Event[] = [
        { kind: 'deployment_formed', deployment: new Uint8Array(16), engine_format: 1 },
        { kind: 'graph_write', ops: [{ op: 'create_node', id: 1, labels: ['Place'], props }] },
      ];
      // Replay reads entries as the log holds them: encoded, then decoded.
      entries.forEach((event, i) => {
        const { commit_ts, event: decoded } = decodePayload(encodePayload({ commit_ts: 10 + i, event }));
        sm.apply({ index: i + 1, term: 1, commit_ts, event: decoded }, true);
      });
      const replayed = sm.committedView().node(1)!.props;
      props.forEach(([k, v]) => sameBits(replayed.get(k), v));
      writeCheckpoint(dir, sm);
      const restored = loadCheckpoint(dir).committedView().node(1)!.props;
      props.forEach(([k, v]) => {
        sameBits(restored.get(k), v);
        expect(equivalent(restored.get(k)!, v)).toBe(true);
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
