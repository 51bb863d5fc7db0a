import { assertNever } from '../../src/common/assert.js';
import type { ChaosCluster } from './chaos-cluster.js';

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
  | { readonly kind: 'drop_links'; readonly node: number };

export type FaultKind = Fault['kind'];

export const process_faults: readonly FaultKind[] = ['kill', 'pause', 'restart'];
export const link_faults: readonly FaultKind[] = ['isolate', 'one_way', 'delay', 'drop_links'];

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
      return { kind, node };
    case 'one_way':
      return { kind, from: node, to: pick(ids.filter((id) => id !== node)) };
    case 'delay':
      return { kind, ms: 20 + Math.floor(random() * 200) };
    default:
      return assertNever(kind, 'fault kind');
  }
}

const others = (cluster: ChaosCluster, node: number): number[] => cluster.ids.filter((id) => id !== node);

export async function inject(cluster: ChaosCluster, f: Fault): Promise<void> {
  const s = cluster.supervisor;
  switch (f.kind) {
    case 'kill':
      return s.kill(f.node);
    case 'pause':
      return s.pause(f.node);
    case 'restart':
      await s.restart(f.node);
      return;
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

export async function heal(cluster: ChaosCluster, f: Fault): Promise<void> {
  switch (f.kind) {
    case 'kill':
      await cluster.supervisor.restart(f.node);
      return;
    case 'pause':
      return cluster.supervisor.resume(f.node);
    case 'restart':
      return;
    case 'isolate':
    case 'one_way':
    case 'delay':
    case 'drop_links':
      return cluster.healLinks();
    default:
      return assertNever(f, 'fault');
  }
}
