import { describe, expect, it } from 'vitest';
import { testSeed } from '../support/prng.js';
import { runOnlineBuild } from './online-build.js';

/**
 * The quick slice of the online build soak (bench/index-online-build.ts runs it on 1,000,000 nodes):
 * 20,000 stored nodes, 8 writers all along, a UNIQUE constraint built meanwhile.
 */
describe('online index build under 8 writers (20,000 nodes)', () => {
  it('writes are refused only as real duplicates; planted duplicates are repaired; indexed advances to the total', async () => {
    const seed = testSeed('online build');
    const r = await runOnlineBuild({ nodes: 20_000, writers: 8, duplicates: 100, rename: true, kill: false, seed, baseline_writes: 50, duplicate_every: 25 });
    expect(r.wrong).toEqual([]);
    expect(r.outcome).toBe('PUBLISHED');
    expect(r.repairs).toHaveLength(100);
    expect(new Set(r.repairs.map((x) => x.newValue)).size).toBe(100);
    expect(r.refused_duplicates).toBeGreaterThan(0);
    const samples = r.indexed_samples;
    for (let i = 1; i < samples.length; i++) expect(samples[i]! >= samples[i - 1]!).toBe(true);
    expect(samples[samples.length - 1]!).toBeGreaterThanOrEqual(20_000n);
  });

  it('kill -9 in the middle of a build: after a restart the build is taken up and ends the same way', async () => {
    const seed = testSeed('online build restart');
    const r = await runOnlineBuild({ nodes: 60_000, writers: 4, duplicates: 100, rename: true, kill: true, seed, baseline_writes: 10, duplicate_every: 25 });
    expect(r.killed_mid_build).toBe(true);
    expect(r.wrong).toEqual([]);
    expect(r.outcome).toBe('PUBLISHED');
    expect(r.repairs).toHaveLength(100);
    expect(new Set(r.repairs.map((x) => x.newValue)).size).toBe(100);
    expect(new Set(r.repairs.map((x) => x.oldValue)).size).toBe(100);
  });
});
