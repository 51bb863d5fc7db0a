import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { PropertyValue } from '../../src/common/property-value.js';
import { instantOfMicros } from '../../src/projections/computed/computed-reads.js';
import { decayFactor, decayValue } from '../../src/projections/computed/decay.js';
import { TtlSweeper } from '../../src/server/computed/ttl-sweeper.js';
import { Database, type DatabaseOptions } from '../../src/server/database.js';
import type { ComputedPropertySpec } from '../../src/log/events.js';

/** TTL expiry as log entries: decided by the proposer's clock, re-checked at apply, the same on replay. */
const journaled = { acks: 1, level: 'journal', timeout_ms: 0 } as const;
const T0 = Date.UTC(2026, 0, 1) * 1000;
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function options(): DatabaseOptions {
  const dir = mkdtempSync(join(tmpdir(), 'weft-ttl-'));
  dirs.push(dir);
  return { data_dir: dir, node_id: 1, mvcc_retention_secs: 300, checkpoint_interval_entries: 100_000, log_segment_bytes_max: 1 << 20 };
}

const spec: ComputedPropertySpec = {
  name: 'expires',
  computed_type: 'TTL',
  formula_type: 'LINEAR',
  lambda: 0,
  tau: 0,
  alpha: 0,
  initial: 0,
  target: 0,
  duration_secs: 60,
  anchor_field: 'at',
  scope: 'NODE',
  target_field: '',
};

async function defineSession(db: Database): Promise<void> {
  await db.submit(
    { kind: 'label_defined', name: 'Session', properties: [{ name: 'at', type: { kind: 'scalar', scalar: 'TIMESTAMP' }, required: false }], computed: [spec], mode: 'VALIDATED', temporal: false },
    journaled,
  );
}

const session = (at_us: number): Map<string, PropertyValue> => new Map<string, PropertyValue>([['at', instantOfMicros(at_us)]]);

describe('TTL through the log', () => {
  it('replay: the sweep entry removes the same nodes when the log is replayed without a checkpoint', async () => {
    const opts = options();
    const db = await Database.open(opts);
    await defineSession(db);
    let now = T0;
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push((await db.write((ws) => ws.createNode(['Session'], session(T0 + i * 20_000_000)), { concern: journaled })).value.id);
    const sweeper = new TtlSweeper(db, { expire_batch_max: 2, concern: () => journaled, clock: () => now });
    now = T0 + 90_000_000; // sessions anchored at 0 s and 20 s are past 60 s; the one at 40 s is not
    expect(await sweeper.sweep()).toMatchObject({ expired: 2, lag_secs: 30 });
    expect(await sweeper.sweep()).toMatchObject({ expired: 0 });
    const alive = (d: Database): number[] => [...d.latestCommitted().nodesWithLabel('Session')].map((n) => n.id);
    expect(alive(db)).toEqual(ids.slice(2));
    // Reopened without a checkpoint: the state comes from replaying the log, sweep entry included.
    await db.log.close();
    db.dataDir.release();
    const again = await Database.open(opts);
    expect(alive(again)).toEqual(ids.slice(2));
    await again.close();
  });

  it('apply re-checks: a node whose anchor moved after the sweep found it is left alone', async () => {
    const db = await Database.open(options());
    await defineSession(db);
    const { value: node } = await db.write((ws) => ws.createNode(['Session'], session(T0)), { concern: journaled });
    const as_of_us = T0 + 61_000_000;
    // Refreshed after the sweep decided but before its entry: the entry no longer applies to it.
    await db.write((ws) => ws.setNodeProperties(node.id, session(T0 + 30_000_000), false), { concern: journaled });
    await db.submit({ kind: 'ttl_expired', as_of_us, expired: [{ node_id: node.id, label: 'Session', property: 'expires' }] }, journaled);
    expect(db.latestCommitted().node(node.id)).toBeDefined();
    await db.close();
  });
});

describe('decay formulas', () => {
  const base = { ...spec, computed_type: 'DECAY' as const, initial: 10, target: 2, duration_secs: 100, lambda: 3, tau: 0.25, alpha: 1.5 };
  it('every formula starts at initial, stays between initial and target, and ends at target', () => {
    for (const formula_type of ['LINEAR', 'EXPONENTIAL', 'POWER_LAW', 'STEP'] as const) {
      const s = { ...base, formula_type };
      expect(decayValue(s, 0), formula_type).toBe(10);
      expect(decayValue(s, -50), `${formula_type}: an anchor in the future is t = 0`).toBe(10);
      let previous = 10;
      for (let e = 1; e < 100; e += 7) {
        const v = decayValue(s, e);
        expect(v).toBeLessThanOrEqual(previous);
        expect(v).toBeGreaterThanOrEqual(2);
        previous = v;
      }
      expect(decayValue(s, 100), formula_type).toBe(2);
      expect(decayValue(s, 1e9), formula_type).toBe(2);
    }
  });
  it('the factors are the SPEC formulas', () => {
    expect(decayFactor({ ...base, formula_type: 'LINEAR' }, 0.3)).toBeCloseTo(0.7, 12);
    expect(decayFactor({ ...base, formula_type: 'EXPONENTIAL' }, 0.3)).toBeCloseTo(Math.exp(-0.9), 12);
    expect(decayFactor({ ...base, formula_type: 'POWER_LAW' }, 0.3)).toBeCloseTo(Math.pow(1 + 0.3 / 0.25, -1.5), 12);
    expect(decayFactor({ ...base, formula_type: 'STEP' }, 0.999)).toBe(1);
    expect(decayFactor({ ...base, formula_type: 'STEP' }, 1)).toBe(0);
  });
});
