import { joinMembers } from '../../src/cli/cluster-command.js';
import { isWeftError } from '../../src/common/errors.js';
import type { ChaosCluster } from './chaos-cluster.js';

/**
 * Faults that need the group's view: whoever leads at the moment of the fault, and replacing a member
 * the way an operator replaces a machine whose disk was lost (docs/cluster.md, Shrinking and Growing):
 * DecommissionNode on the leader (which hands leadership over first when the member leads), the
 * member's process ended and its data directory wiped, a new member started there under a new node id
 * and identity, and JoinNode for it (a learner, caught up by log or snapshot, then promoted).
 */

/** Bound on one status call while looking for the leader. */
const status_timeout_ms = 2_000;
/** Bound on DecommissionNode, which may wait for a leadership transfer. */
const decommission_timeout_ms = 30_000;
/** How long a replacement's JoinNode is retried while leadership moves. */
const join_wait_ms = 60_000;

interface StatusView {
  readonly leaderId?: string;
  readonly nodes?: { readonly nodeId: string; readonly role: string }[];
}

async function statusOf(rest: string): Promise<StatusView | undefined> {
  try {
    const res = await fetch(`http://${rest}/v1/admin/cluster/status`, { signal: AbortSignal.timeout(status_timeout_ms) });
    return res.ok ? ((await res.json()) as StatusView) : undefined;
  } catch {
    return undefined;
  }
}

/** The member that leads as some running member sees it, if it is one of this run's running members. */
export async function findLeader(cluster: ChaosCluster): Promise<number | undefined> {
  for (const id of cluster.ids) {
    if (cluster.supervisor.state(id) !== 'running') continue;
    const leader = Number((await statusOf(cluster.rest(id)))?.leaderId ?? '');
    if (Number.isSafeInteger(leader) && leader > 0 && cluster.ids.includes(leader) && cluster.supervisor.state(leader) === 'running') return leader;
  }
  return undefined;
}

/** Polls for a leader, bounded; a group mid-election has none for a moment. */
export async function awaitLeader(cluster: ChaosCluster, wait_ms: number): Promise<number | undefined> {
  const deadline = Date.now() + wait_ms;
  for (;;) {
    const leader = await findLeader(cluster);
    if (leader !== undefined || Date.now() > deadline) return leader;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Replaces member `node` (see above). Returns what happened, for the run's log; a refused
 * decommission (no leader, the quorum gate) changes nothing and is reported as such.
 */
export async function replaceMember(cluster: ChaosCluster, node: number, log: (line: string) => void): Promise<string> {
  const leader = await awaitLeader(cluster, 10_000);
  if (leader === undefined) return `replace member ${node}: skipped, no leader found`;
  let answer: string;
  try {
    const res = await fetch(`http://${cluster.rest(leader)}/v1/admin/cluster/decommission`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ nodeId: String(node) }),
      signal: AbortSignal.timeout(decommission_timeout_ms),
    });
    answer = res.ok ? 'ok' : `${res.status} ${JSON.stringify(await res.json())}`;
  } catch (e) {
    answer = e instanceof Error ? e.message : String(e);
  }
  if (answer !== 'ok') return `replace member ${node}: decommission on leader ${leader} refused (${answer}); nothing changed`;
  log(`member ${node}: decommissioned on leader ${leader}`);
  await cluster.supervisor.kill(node);
  const next = await cluster.replaceSlot(node);
  log(`member ${next.node_id}: started on member ${node}'s wiped data directory and peer port, waiting to be joined`);
  const deadline = Date.now() + join_wait_ms;
  for (let attempt = 1; ; attempt++) {
    const now_leader = await awaitLeader(cluster, 10_000);
    try {
      if (now_leader !== undefined && (await joinMembers(cluster.rest(now_leader), [next], log))) return `replace member ${node}: member ${next.node_id} joined on leader ${now_leader} (attempt ${attempt})`;
    } catch (e) {
      // An earlier attempt whose answer was lost may have started the join: the member is then in the group.
      if (isWeftError(e) && e.reason === 'NODE_ID_IN_USE') return `replace member ${node}: member ${next.node_id} joined (an earlier attempt's answer was lost)`;
      log(`member ${next.node_id}: JoinNode attempt ${attempt} failed: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (Date.now() > deadline) return `replace member ${node}: member ${next.node_id} NOT joined within ${join_wait_ms} ms`;
    await new Promise((r) => setTimeout(r, 1_000));
  }
}

/** How long the group is given, after the last round, to show every member a voter and caught up. */
export const converge_wait_ms = 120_000;

/**
 * After the faults: the leader must list exactly this run's members, every one a voter (no join left
 * stuck as a learner), HEALTHY, and none behind the leader. Returns undefined once it does, or what
 * the leader last said when the wait ran out (a member that never catches up is a failure, not noise).
 */
export async function awaitConverged(cluster: ChaosCluster, wait_ms = converge_wait_ms): Promise<string | undefined> {
  const deadline = Date.now() + wait_ms;
  let last = 'no leader found';
  for (;;) {
    const leader = await findLeader(cluster);
    const view = leader === undefined ? undefined : await statusOf(cluster.rest(leader));
    if (view !== undefined) {
      const nodes = (view.nodes ?? []) as { nodeId: string; role: string; state?: string; lagEntries?: string }[];
      const want = [...cluster.ids].sort((a, b) => a - b).join(',');
      const got = nodes.map((n) => Number(n.nodeId)).sort((a, b) => a - b).join(',');
      const lagging = nodes.filter((n) => n.role === 'NODE_ROLE_LEARNER' || (n.state ?? '') !== 'NODE_STATE_HEALTHY' || Number(n.lagEntries ?? '0') > 0);
      if (got === want && lagging.length === 0) return undefined;
      last = `leader ${leader!}: members [${got}] (want [${want}]), not caught up: ${JSON.stringify(lagging)}`;
    }
    if (Date.now() > deadline) return last;
    await new Promise((r) => setTimeout(r, 500));
  }
}
