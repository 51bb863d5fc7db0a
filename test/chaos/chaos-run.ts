import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prng } from '../support/prng.js';
import { checkLinearizable, type LinearizabilityResult } from '../sim/linearizability.js';
import { startChaosCluster } from './chaos-cluster.js';
import { describeFault, drawFault, type FaultKind, heal, inject, link_faults, process_faults } from './faults.js';
import { RegisterWorkload, type WorkloadCounts } from './register-workload.js';
import { awaitConverged } from './group-faults.js';

/**
 * One chaos run: a group of real member processes on loopback, a register workload through the
 * public REST API, and `rounds` fault rounds drawn from the seed (which fault, which member, when it
 * starts and how long it lasts). Then a final read of every register and the linearizability check of
 * the whole history: an acknowledged MAJORITY + JOURNAL write that was lost shows as a read that no
 * order of the operations explains. The seed replays the same schedule; timings are the machine's.
 */
export interface ChaosOptions {
  readonly seed: number;
  readonly members: number;
  readonly rounds: number;
  /** Length of one round, split at random between calm, fault and recovery. */
  readonly round_ms: number;
  readonly clients: number;
  readonly registers: number;
  /**
   * 'rw': reads and blind writes. 'cas': compare-and-set too, whose outcome depends on the state it
   * reads; it checks that a write's decision and later reads agree (docs/cluster.md, chaos).
   */
  readonly workload: 'rw' | 'cas';
  /** The whole run is abandoned past this (a wedged member must not hang a test or CI). */
  readonly run_ms_max: number;
  /** The fault kinds drawn from; absent: the process faults, and the link faults over 2+ members. */
  readonly faults?: readonly FaultKind[];
  /** Extra flags for every member (e.g. small checkpoints, so members catch up by snapshot). */
  readonly member_args?: readonly string[];
  /** Each member on a tmpfs of this many bytes (needed by `diskfull`; chaos-cluster.ts). */
  readonly disk_bytes?: number;
  readonly log?: (line: string) => void;
}

export const default_chaos_options: Omit<ChaosOptions, 'seed'> = {
  members: 1,
  rounds: 20,
  round_ms: 1500,
  clients: 4,
  registers: 3,
  workload: 'cas',
  run_ms_max: 30 * 60 * 1000,
};

export interface ChaosReport {
  readonly seed: number;
  readonly members: number;
  readonly rounds_done: number;
  readonly faults: Readonly<Partial<Record<FaultKind, number>>>;
  /** `diskfull` rounds in which a write of the member met the full disk (its metrics said ENOSPC). */
  readonly diskfull_enospc: number;
  readonly counts: WorkloadCounts;
  readonly operations: number;
  readonly duration_ms: number;
  readonly result: LinearizabilityResult;
  /** Undefined when every member ended a voter, healthy and caught up; otherwise what the leader said (group-faults.ts). */
  readonly not_converged: string | undefined;
  /** Where a failed run's data directories and member logs were kept; undefined when removed (it passed). */
  readonly kept_dir: string | undefined;
}

export async function runChaos(o: ChaosOptions): Promise<ChaosReport> {
  const log = o.log ?? (() => {});
  // Two streams from one seed: the fault schedule must not shift with how many operations ran.
  const random = prng(o.seed);
  const workload_random = prng(o.seed ^ 0x5eed5eed);
  const started = Date.now();
  const dir = mkdtempSync(join(tmpdir(), 'weft-chaos-'));
  const cluster = await startChaosCluster(dir, o.members, log, { member_args: o.member_args ?? [], ...(o.disk_bytes !== undefined ? { disk_bytes: o.disk_bytes } : {}) });
  // Until the run has checked its history, it counts as failed: one that throws keeps its directory too.
  let failed = true;
  let stopped = false;
  const guard = setTimeout(() => {
    log(`chaos: the run passed run_ms_max ${o.run_ms_max} ms; stopping every member`);
    stopped = true;
  }, o.run_ms_max);
  try {
    if (o.members > 1 && !cluster.joined) {
      throw new Error(`a chaos run over ${o.members} members needs JoinNode on the leader, which this build does not serve; run with --members 1`);
    }
    const kinds: readonly FaultKind[] = o.faults ?? [...process_faults, ...(o.members > 1 ? link_faults : [])];
    const workload = new RegisterWorkload(
      Array.from({ length: o.registers }, (_, i) => `r${i}`),
      workload_random,
      () => cluster.rest(cluster.ids[Math.floor(workload_random() * cluster.ids.length)]!),
      o.workload === 'cas',
    );
    await workload.setup();
    workload.start(o.clients);
    const faults: Partial<Record<FaultKind, number>> = {};
    let rounds_done = 0;
    let diskfull_enospc = 0;
    const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
    for (let round = 0; round < o.rounds && !stopped; round++) {
      const fault = drawFault(kinds, cluster.ids, random);
      const calm_ms = Math.floor(o.round_ms * (0.2 + 0.3 * random()));
      const fault_ms = Math.floor(o.round_ms * (0.1 + 0.3 * random()));
      await sleep(calm_ms);
      log(`round ${round + 1}/${o.rounds}: ${describeFault(fault)} for ${fault_ms} ms`);
      const injected = await inject(cluster, fault, log);
      await sleep(fault_ms);
      await heal(cluster, injected, log);
      if (injected.enospc === true) diskfull_enospc++;
      faults[fault.kind] = (faults[fault.kind] ?? 0) + 1;
      rounds_done++;
      await sleep(Math.max(0, o.round_ms - calm_ms - fault_ms));
    }
    await workload.stop();
    await workload.finalReads();
    const not_converged = o.members > 1 ? await awaitConverged(cluster) : undefined;
    // The check blocks this process's event loop for as long as it searches, and the link proxies
    // live here: the members are stopped first, so a long search cannot cut every link under them.
    await cluster.stop();
    const result = checkLinearizable(workload.history);
    failed = !result.ok || not_converged !== undefined;
    // The history beside the data, so a failed check can be looked at (and checked again) offline.
    if (failed) writeFileSync(join(dir, 'history.json'), JSON.stringify(workload.history, (_k, v: unknown) => (v === Infinity ? 'Infinity' : v)));
    return { seed: o.seed, members: o.members, rounds_done, faults, diskfull_enospc, counts: workload.counts, operations: workload.history.length, duration_ms: Date.now() - started, result, not_converged, kept_dir: failed ? dir : undefined };
  } finally {
    clearTimeout(guard);
    await cluster.stop();
    cluster.releaseDisks(failed);
    // A failed run keeps its data directories and member logs for a look afterwards.
    if (!failed) rmSync(dir, { recursive: true, force: true });
  }
}
