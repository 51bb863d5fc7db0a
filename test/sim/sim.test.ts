import { describe, expect, it } from 'vitest';
import { runSimulation } from './cluster.js';
import type { SimResult } from './cluster.js';
import { churnOptions, defaultOptions, harshOptions } from './options.js';
import type { SimOptions } from './options.js';

// The seeded slice of the simulator that runs with every test run. Longer runs:
//   npm run sim -- --seeds 10000            (and --profile harsh)
// A failing seed replays exactly with: npm run sim -- --seed N [--profile harsh]
const DEFAULT_SEEDS = 1000;
const HARSH_SEEDS = 300;
/** The fixed small seed set each planted bug must be caught within (and the clean run must pass). */
const PLANTED_SEEDS = 40;
/** The liveness bound asserted after faults stop, in ticks (election_ticks is 10). */
const LIVENESS_TICKS_MAX = 120;

function runSlice(count: number, options: (seed: number) => SimOptions): { failures: SimResult[]; liveness: number[] } {
  const failures: SimResult[] = [];
  const liveness: number[] = [];
  for (let seed = 1; seed <= count; seed++) {
    const result = runSimulation(options(seed));
    if (result.violations.length > 0) failures.push(result);
    if (result.liveness_ticks !== undefined) liveness.push(result.liveness_ticks);
  }
  return { failures, liveness };
}

function describeFailures(failures: readonly SimResult[], profile: string): string {
  return failures
    .slice(0, 5)
    .map((f) => `seed ${f.seed}: ${f.violations.join('; ')} (replay: npm run sim -- --seed ${f.seed}${profile})`)
    .join('\n');
}

/** The first seed in 1..count whose run finds a violation, or undefined. */
function firstCaught(count: number, options: (seed: number) => SimOptions): SimResult | undefined {
  for (let seed = 1; seed <= count; seed++) {
    const result = runSimulation(options(seed));
    if (result.violations.some((v) => !v.startsWith('liveness'))) return result;
  }
  return undefined;
}

describe('simulator: safety, linearizability and liveness under faults', () => {
  it(`${DEFAULT_SEEDS} seeds of the default profile (3 or 5 members, crashes, partitions, membership changes) find no violation`, () => {
    const { failures, liveness } = runSlice(DEFAULT_SEEDS, (seed) => defaultOptions(seed, { liveness_ticks_max: LIVENESS_TICKS_MAX }));
    expect(describeFailures(failures, '')).toBe('');
    expect(liveness).toHaveLength(DEFAULT_SEEDS);
    expect(Math.max(...liveness)).toBeLessThanOrEqual(LIVENESS_TICKS_MAX);
  });

  it(`${HARSH_SEEDS} seeds of the harsh profile find no violation`, () => {
    const { failures } = runSlice(HARSH_SEEDS, (seed) => harshOptions(seed, { liveness_ticks_max: LIVENESS_TICKS_MAX }));
    expect(describeFailures(failures, ' --profile harsh')).toBe('');
  });

  it('liveness: once faults stop, a leader is elected and a new proposal commits within the bound', () => {
    const result = runSimulation(defaultOptions(7, { fault_ticks: 0 }));
    expect(result.violations).toEqual([]);
    // From a cold start: one randomized election timeout (< 2 * election_ticks) plus a few round trips.
    expect(result.liveness_ticks).toBeLessThanOrEqual(2 * 10 + 10);
  });

  it(`${PLANTED_SEEDS} seeds of membership churn (changes back to back) find no violation`, () => {
    const { failures } = runSlice(PLANTED_SEEDS, (seed) => churnOptions(seed));
    expect(describeFailures(failures, ' --profile churn')).toBe('');
  });

  it('the disk and process faults happen: torn writes, failed fsyncs, bit flips repaired from peers, pauses', () => {
    const totals: Record<string, number> = {};
    for (let seed = 1; seed <= 200; seed++) {
      for (const [k, v] of Object.entries(runSimulation(defaultOptions(seed)).stats)) totals[k] = (totals[k] ?? 0) + v;
    }
    for (const fault of ['torn_writes', 'fsync_failures', 'bit_flips', 'repairs', 'pauses']) expect(totals[fault], fault).toBeGreaterThan(0);
  });

  it('replay: a seed reproduces its run exactly', () => {
    const a = runSimulation(defaultOptions(42));
    const b = runSimulation(defaultOptions(42));
    expect(b).toEqual(a);
    const c = runSimulation(defaultOptions(43));
    expect(c.stats).not.toEqual(a.stats);
  });
});

describe('simulator: the checker bites a deliberately broken core', () => {
  it('unsafe_bugs.double_vote is caught within the default slice (election safety)', () => {
    const caught = firstCaught(DEFAULT_SEEDS, (seed) => defaultOptions(seed, { unsafe_bugs: { double_vote: true } }));
    expect(caught, 'double_vote went unnoticed').toBeDefined();
    expect(caught!.violations.join('\n')).toMatch(/election safety/);
  });

  it('a driver that ignores must_sync (a crash forgets votes and acknowledged entries) is caught', () => {
    const caught = firstCaught(DEFAULT_SEEDS, (seed) => defaultOptions(seed, { unsafe_driver_skips_sync: true }));
    expect(caught, 'skipping fsync went unnoticed').toBeDefined();
  });

  it('unsafe_bugs.commit_old_term_by_count (Raft figure 8) is caught within the harsh slice', () => {
    const caught = firstCaught(HARSH_SEEDS, (seed) => harshOptions(seed, { unsafe_bugs: { commit_old_term_by_count: true } }));
    expect(caught, 'commit_old_term_by_count went unnoticed').toBeDefined();
    expect(caught!.violations.join('\n')).toMatch(/state machine safety|leader completeness|log matching|linearizability/);
  });

  it(`a driver that does not fsync a vote (must_sync ignored for a hard state alone) is caught within ${PLANTED_SEEDS} harsh seeds`, () => {
    const caught = firstCaught(PLANTED_SEEDS, (seed) => harshOptions(seed, { unsafe_driver_skips_vote_sync: true }));
    expect(caught, 'an unsynced vote went unnoticed').toBeDefined();
    expect(caught!.violations.join('\n')).toMatch(/election safety|leader completeness/);
  });

  it(`unsafe_bugs.conf_change_while_pending (a wrong membership guard) is caught within ${PLANTED_SEEDS} churn seeds`, () => {
    const caught = firstCaught(PLANTED_SEEDS, (seed) => churnOptions(seed, { unsafe_bugs: { conf_change_while_pending: true } }));
    expect(caught, 'two pending membership changes went unnoticed').toBeDefined();
    expect(caught!.violations.join('\n')).toMatch(/election safety|leader completeness|state machine safety/);
  });

  it('a leader that counts its own unsynced entries toward a commit (its fsync still running) is caught within the harsh slice', () => {
    const caught = firstCaught(HARSH_SEEDS, (seed) => harshOptions(seed, { unsafe_leader_counts_unsynced: true }));
    expect(caught, 'a commit on one durable copy went unnoticed').toBeDefined();
    expect(caught!.violations.join('\n')).toMatch(/leader completeness|state machine safety|linearizability/);
  });

  it(`a snapshot reported delivered though its data was lost is caught within ${PLANTED_SEEDS} seeds`, () => {
    const caught = firstCaught(PLANTED_SEEDS, (seed) => defaultOptions(seed, { unsafe_snapshot_lost_reported_delivered: true }));
    expect(caught, 'a lost snapshot went unnoticed').toBeDefined();
    expect(caught!.violations.join('\n')).toMatch(/state convergence|linearizability/);
  });
});
