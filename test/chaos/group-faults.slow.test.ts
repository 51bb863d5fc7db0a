import { describe, expect, it } from 'vitest';
import { testSeed } from '../support/prng.js';
import { runChaos } from './chaos-run.js';

/**
 * The group faults of the chaos harness over three member processes (`npm run test:slow`; the long
 * runs are `npm run chaos -- --faults ...`): whoever leads is killed, paused or cut off, and a member
 * is replaced as an operator replaces a machine whose disk was lost (decommission, wipe, join under a
 * new id), and a member's disk is filled to the last byte and freed. Small checkpoints and segments make restarted and new members catch up by snapshot. No
 * acknowledged MAJORITY+JOURNAL write may be lost; the history must be linearizable. Replay a failure
 * with WEFT_SEED=<seed> or `npm run chaos -- --seed <seed> --members 3 --faults ...`.
 */
const rounds = Number(process.env['WEFT_CHAOS_ROUNDS'] ?? 6);

describe('chaos (group faults)', () => {
  it(`${rounds} rounds of leader faults and member replacement on three members lose no acknowledged write; the history is linearizable`, async () => {
    const seed = testSeed('chaos-group');
    const report = await runChaos({
      seed,
      members: 3,
      rounds,
      round_ms: 3000,
      clients: 3,
      registers: 3,
      workload: 'cas',
      run_ms_max: 240_000,
      faults: ['kill_leader', 'pause_leader', 'isolate_leader', 'replace', 'diskfull'],
      member_args: ['--checkpoint-interval-entries', '200', '--log-segment-bytes-max', '65536'],
      // Each member on a tmpfs of its own, so `diskfull` fills one for real (needs root).
      disk_bytes: 64 * 1024 * 1024,
    });
    console.log(`chaos (group): seed ${seed}: ${report.operations} operations, ${report.counts.unknown} of unknown outcome, faults ${JSON.stringify(report.faults)}, ${report.duration_ms} ms`);
    expect(report.rounds_done).toBe(rounds);
    expect(report.counts.ok).toBeGreaterThan(0);
    expect(report.result).toEqual({ ok: true });
    expect(report.not_converged).toBeUndefined();
  }, 300_000);
});
