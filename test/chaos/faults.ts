import { sample, scrape } from '../support/metrics-text.js';
import { assertNever } from '../../src/common/assert.js';
import type { ChaosCluster } from './chaos-cluster.js';
import { findLeader, replaceMember } from './group-faults.js';

/**
 * The faults a chaos round can inject, each with how it is healed. Which ones a run draws from depends
 * on the group: process faults need only one member; link faults need a joined group of two or more.
 */
export type Fault =
  | { readonly kind: 'kill'; readonly node: number }
  | { readonly kind: 'pause'; readonly node: number }
  | { readonly kind: 'restart'; readonly node: number }
  | { readonly kind: 'isolate'; readonly node: number }
  | { readonly kind: 'one_way'; readonly from: number; readonly to: number }
  | { readonly kind: 'delay'; readonly ms: number }
  | { readonly kind: 'drop_links'; readonly node: number }
  /** Whoever leads when the fault starts (none: nothing is done). */
  | { readonly kind: 'kill_leader' }
  | { readonly kind: 'pause_leader' }
  /** Partition whoever leads from every other member, both ways: CheckQuorum must depose it. */
  | { readonly kind: 'isolate_leader' }
  /** Decommission, wipe and join again under a new id and identity (group-faults.ts); healed by itself. */
  | { readonly kind: 'replace'; readonly node: number }
  /** Fill the member's disk (a tmpfs of its own) to the last byte; healed by giving the space back. */
  | { readonly kind: 'diskfull'; readonly node: number };

export type FaultKind = Fault['kind'];

export const process_faults: readonly FaultKind[] = ['kill', 'pause', 'restart'];
export const link_faults: readonly FaultKind[] = ['isolate', 'one_way', 'delay', 'drop_links'];
/** Drawn only when a run names them (`--faults`): a default run's schedule stays what its seed always drew. */
export const group_faults: readonly FaultKind[] = ['kill_leader', 'pause_leader', 'isolate_leader', 'replace'];
/** Drawn only when named, and only over members on disks of their own (`--disk-mb`). */
export const disk_faults: readonly FaultKind[] = ['diskfull'];
export const all_faults: readonly FaultKind[] = [...process_faults, ...link_faults, ...group_faults, ...disk_faults];

/**
 * What an injected fault did, for its healing: a leader fault names the member it hit; a full disk
 * the member's count of writes refused for space when it was filled, and after healing whether a
 * write of the member met the full disk (ENOSPC) meanwhile.
 */
export type Injected = { readonly fault: Fault; readonly hit?: number; readonly refusals_before?: number; enospc?: boolean };

/**
 * How long a full disk is kept past the round's fault span, at most, until a write of the member
 * meets it. A member writing into space it already holds (a zero-filled next segment) needs none
 * for a while: the disk stays full until it does, as a real one would. (At 30 s, one round of run
 * 93112 ended before: a member just restarted, writing about 7 entries a second into pages it held.)
 */
export const diskfull_hit_wait_ms_max = 60_000;

export function describeFault(f: Fault): string {
  switch (f.kind) {
    case 'kill':
      return `kill -9 member ${f.node}, then restart it`;
    case 'pause':
      return `SIGSTOP member ${f.node}, then SIGCONT`;
    case 'restart':
      return `SIGTERM member ${f.node}, then start it`;
    case 'isolate':
      return `partition member ${f.node} from every other member, both ways`;
    case 'one_way':
      return `cut the link ${f.from} -> ${f.to} one way`;
    case 'delay':
      return `delay every link by ${f.ms} ms`;
    case 'drop_links':
      return `reset every link of member ${f.node}`;
    case 'kill_leader':
      return 'kill -9 the leader, then restart it';
    case 'pause_leader':
      return 'SIGSTOP the leader, then SIGCONT';
    case 'isolate_leader':
      return 'partition the leader from every other member, both ways';
    case 'replace':
      return `replace member ${f.node}: decommission, wipe its data directory, join a new member there`;
    case 'diskfull':
      return `fill the disk of member ${f.node} to the last byte, then free it`;
    default:
      return assertNever(f, 'fault');
  }
}

/** Draws a fault of the allowed kinds for a group of `ids`. */
export function drawFault(kinds: readonly FaultKind[], ids: readonly number[], random: () => number): Fault {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const kind = pick(kinds);
  const node = pick(ids);
  switch (kind) {
    case 'kill':
    case 'pause':
    case 'restart':
    case 'isolate':
    case 'drop_links':
    case 'replace':
    case 'diskfull':
      return { kind, node };
    case 'kill_leader':
    case 'pause_leader':
    case 'isolate_leader':
      return { kind };
    case 'one_way':
      return { kind, from: node, to: pick(ids.filter((id) => id !== node)) };
    case 'delay':
      return { kind, ms: 20 + Math.floor(random() * 200) };
    default:
      return assertNever(kind, 'fault kind');
  }
}

const others = (cluster: ChaosCluster, node: number): number[] => cluster.ids.filter((id) => id !== node);

export async function inject(cluster: ChaosCluster, f: Fault, log: (line: string) => void): Promise<Injected> {
  const s = cluster.supervisor;
  switch (f.kind) {
    case 'kill':
      await s.kill(f.node);
      return { fault: f };
    case 'pause':
      s.pause(f.node);
      return { fault: f };
    case 'restart':
      await s.restart(f.node);
      return { fault: f };
    case 'kill_leader':
    case 'pause_leader':
    case 'isolate_leader': {
      const leader = await findLeader(cluster);
      if (leader === undefined) {
        log('no leader found: nothing done');
        return { fault: f };
      }
      log(`the leader is member ${leader}`);
      if (f.kind === 'kill_leader') await s.kill(leader);
      else if (f.kind === 'pause_leader') s.pause(leader);
      else linkFault(cluster, { kind: 'isolate', node: leader });
      return { fault: f, hit: leader };
    }
    case 'replace':
      log(await replaceMember(cluster, f.node, log));
      return { fault: f };
    case 'diskfull': {
      const refusals_before = await diskRefusals(cluster, f.node);
      log(`member ${f.node}: ${cluster.fillDisk(f.node)} bytes written until the disk was full`);
      return refusals_before === undefined ? { fault: f } : { fault: f, refusals_before };
    }
    default:
      linkFault(cluster, f);
      return { fault: f };
  }
}

function linkFault(cluster: ChaosCluster, f: Extract<Fault, { kind: 'isolate' | 'one_way' | 'delay' | 'drop_links' }>): void {
  switch (f.kind) {
    case 'isolate':
      return cluster.setLinks(
        others(cluster, f.node).flatMap((o) => [[f.node, o] as const, [o, f.node] as const]),
        { kind: 'partition', direction: 'both' },
      );
    case 'one_way':
      return cluster.setLinks([[f.from, f.to]], { kind: 'partition', direction: 'forward' });
    case 'delay':
      return cluster.setLinks(
        cluster.ids.flatMap((a) => others(cluster, a).map((b) => [a, b] as const)),
        { kind: 'delay', ms: f.ms },
      );
    case 'drop_links':
      return cluster.setLinks(
        others(cluster, f.node).flatMap((o) => [[f.node, o] as const, [o, f.node] as const]),
        { kind: 'drop' },
      );
    default:
      return assertNever(f, 'fault');
  }
}

export async function heal(cluster: ChaosCluster, injected: Injected, log: (line: string) => void = () => {}): Promise<void> {
  const f = injected.fault;
  switch (f.kind) {
    case 'kill':
      await cluster.supervisor.restart(f.node);
      return;
    case 'pause':
      return cluster.supervisor.resume(f.node);
    case 'kill_leader':
      if (injected.hit !== undefined) await cluster.supervisor.restart(injected.hit);
      return;
    case 'pause_leader':
      if (injected.hit !== undefined) cluster.supervisor.resume(injected.hit);
      return;
    case 'isolate_leader':
      return cluster.healLinks();
    case 'restart':
    case 'replace':
      return;
    case 'diskfull':
      injected.enospc = await awaitDiskRefusal(cluster, f.node, injected.refusals_before, log);
      log(`member ${f.node} says before its disk is freed: ${await readiness(cluster, f.node)}`);
      cluster.emptyDisk(f.node);
      return restartIfLogFailed(cluster, f.node);
    case 'isolate':
    case 'one_way':
    case 'delay':
    case 'drop_links':
      return cluster.healLinks();
    default:
      return assertNever(f, 'fault');
  }
}

/**
 * A member recovers from a full disk by itself, except where a write the disk refused left its log
 * failed (docs/cluster.md, "A full disk": a snapshot install): then it says so on /ready and waits
 * for a restart, which its supervisor gives it here as an operator's would.
 */
async function restartIfLogFailed(cluster: ChaosCluster, node: number): Promise<void> {
  if ((await readiness(cluster, node)).startsWith('log failed')) await cluster.supervisor.restart(node);
}

/** The member's writes refused for space since its start (`graphdb_disk_full_refusals_total`); undefined when it did not answer. */
async function diskRefusals(cluster: ChaosCluster, node: number): Promise<number | undefined> {
  if (cluster.supervisor.state(node) !== 'running') return undefined;
  try {
    return sample(await scrape(cluster.supervisor.member(node).ops), 'graphdb_disk_full_refusals_total');
  } catch {
    return undefined;
  }
}

/**
 * Keeps the disk full until a write of the member meets it (its refusals counter moves), bounded by
 * diskfull_hit_wait_ms_max; says which.
 */
async function awaitDiskRefusal(cluster: ChaosCluster, node: number, before: number | undefined, log: (line: string) => void): Promise<boolean> {
  const started = Date.now();
  for (;;) {
    const now = await diskRefusals(cluster, node);
    if (now !== undefined && now > (before ?? 0)) {
      log(`member ${node}: a write met the full disk (ENOSPC; ${now - (before ?? 0)} refused) ${Date.now() - started} ms after the fault span`);
      return true;
    }
    if (Date.now() - started > diskfull_hit_wait_ms_max) {
      log(`member ${node}: NO write met the full disk within ${diskfull_hit_wait_ms_max} ms after the fault span`);
      return false;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** What a running member's /ready says: 'ready', or why not ('' when it did not answer). */
async function readiness(cluster: ChaosCluster, node: number): Promise<string> {
  const s = cluster.supervisor;
  if (s.state(node) !== 'running') return '';
  return fetch(`http://${s.member(node).ops}/ready`, { signal: AbortSignal.timeout(5_000) })
    .then(async (res) => ((await res.json()) as { ready?: boolean; reason?: string }))
    .then((r) => (r.ready === true ? 'ready' : (r.reason ?? '')))
    .catch(() => '');
}
