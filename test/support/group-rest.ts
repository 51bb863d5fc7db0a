/**
 * REST probes of a replicated group's members in process tests: a bounded JSON call, a bounded wait
 * for a condition, and a member's view of the group.
 */
import type { MemberProcess } from '../../src/cli/member-process.js';

export interface Answer {
  readonly status: number;
  readonly json: Record<string, unknown>;
}

export const rest_call_timeout_ms = 10_000;

export async function rest(m: MemberProcess, method: 'GET' | 'POST', path: string, body?: unknown, timeout_ms = rest_call_timeout_ms): Promise<Answer> {
  const res = await fetch(`http://${m.rest}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    signal: AbortSignal.timeout(timeout_ms),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

/** Polls `probe` every 100 ms until it gives a value; a probe that throws counts as not yet. */
export async function until<T>(probe: () => Promise<T | undefined>, what: string, timeout_ms = 30_000): Promise<T> {
  const deadline = Date.now() + timeout_ms;
  for (;;) {
    const v = await probe().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeout_ms} ms waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface GroupView {
  readonly leaderId: string;
  readonly raftTerm: string;
  readonly nodes: { readonly nodeId: string; readonly role: string }[];
}

export async function groupStatus(m: MemberProcess): Promise<GroupView> {
  const s = await rest(m, 'GET', '/v1/admin/cluster/status');
  if (s.status !== 200) throw new Error(`status ${s.status}`);
  return s.json as unknown as GroupView;
}

/** Waits until `m` sees `voters` voting members (joined learners promoted). */
export function votersReady(m: MemberProcess, voters: number): Promise<GroupView> {
  return until(async () => {
    const s = await groupStatus(m);
    return s.leaderId !== '' && s.nodes.filter((n) => n.role !== 'NODE_ROLE_LEARNER').length === voters ? s : undefined;
  }, `${voters} members are voters`);
}
