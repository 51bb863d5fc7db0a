/**
 * The cluster panel: the group's members as the leader reports them (GET /v1/admin/cluster/status),
 * refreshed every `cluster_refresh_ms` and on demand. A failed call keeps the last table visible but
 * marks it stale, so a person watching a failover sees that the numbers are old, not that all is well.
 */
import { CallFailed, call } from './wire.js';

/** How often the panel asks for the status while the page is open. */
export const cluster_refresh_ms = 3000;

interface ClusterNode {
  readonly nodeId?: string;
  readonly address?: string;
  readonly role?: string;
  readonly state?: string;
  readonly lagEntries?: string;
  readonly nodeIdentity?: string;
}

interface ClusterStatus {
  readonly nodes?: readonly ClusterNode[];
  readonly leaderId?: string;
  readonly raftTerm?: string;
  readonly deployment?: string;
}

/** proto3 JSON names enums in full (NODE_ROLE_LEADER); a person reads the last word. */
const short = (value: string | undefined, prefix: string): string => (value ?? '').replace(prefix, '') || 'UNSPECIFIED';

function cell(tag: 'td' | 'th', text: string, cls?: string): HTMLElement {
  const e = document.createElement(tag);
  e.textContent = text;
  if (cls !== undefined) e.className = cls;
  return e;
}

function tableOf(s: ClusterStatus): HTMLTableElement {
  const table = document.createElement('table');
  table.className = 'members';
  const head = document.createElement('tr');
  head.append(...['node', 'address', 'role', 'state', 'lag', 'identity'].map((h) => cell('th', h)));
  table.append(head);
  for (const n of s.nodes ?? []) {
    const role = short(n.role, 'NODE_ROLE_');
    const state = short(n.state, 'NODE_STATE_');
    const tr = document.createElement('tr');
    tr.dataset['nodeId'] = n.nodeId ?? '';
    tr.append(
      cell('td', n.nodeId ?? ''),
      cell('td', n.address ?? ''),
      cell('td', role, `role-${role.toLowerCase()}`),
      cell('td', state, `state-${state.toLowerCase()}`),
      cell('td', n.lagEntries ?? '0'),
      cell('td', n.nodeIdentity ?? ''),
    );
    table.append(tr);
  }
  return table;
}

export class ClusterPanel {
  private timer: ReturnType<typeof setInterval> | undefined;

  /** `root` holds the summary line and the members table; `stateLine` says when it was read or why it failed. */
  constructor(
    private readonly root: HTMLElement,
    private readonly stateLine: HTMLElement,
  ) {}

  start(): void {
    void this.refresh();
    this.timer ??= setInterval(() => void this.refresh(), cluster_refresh_ms);
  }

  async refresh(): Promise<void> {
    try {
      const s = await call<ClusterStatus>('GET', '/v1/admin/cluster/status');
      const summary = document.createElement('p');
      summary.className = 'cluster-summary';
      summary.textContent = `leader ${s.leaderId !== undefined && s.leaderId !== '' ? s.leaderId : 'none elected'} · term ${s.raftTerm ?? '0'} · deployment ${s.deployment !== undefined && s.deployment !== '' ? s.deployment : 'unknown'}`;
      this.root.replaceChildren(summary, tableOf(s));
      this.root.classList.remove('stale');
      this.stateLine.classList.remove('failed');
      this.stateLine.textContent = `read at ${new Date().toLocaleTimeString()}`;
    } catch (e) {
      // Keep the last answer on screen, marked stale: it is still the best information there is.
      this.root.classList.add('stale');
      this.stateLine.classList.add('failed');
      this.stateLine.textContent = `cluster status unavailable: ${e instanceof CallFailed ? e.message : e instanceof Error ? e.message : String(e)}`;
    }
  }
}
