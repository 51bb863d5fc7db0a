import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { initAuthority, issueMember } from '../../src/cli/certs-command.js';
import { joinMembers } from '../../src/cli/cluster-command.js';
import { freeLoopbackPort, type MemberProcess, startMemberProcess } from '../../src/cli/member-process.js';
import { rest, until } from '../support/group-rest.js';

/**
 * A group of `weft serve` processes for upgrade tests. One build plays two releases: the "old" one
 * runs its own engine format, the "new" one runs `new_format` through the test-only setting
 * engine_format_override (allowed by WEFT_TEST_FORMATS=1). Each member keeps its data directory and
 * peer port across restarts, so updating a member is stopping it and starting the other release on
 * the same directory, as an operator would. Every process is stopped by pid.
 */
export const old_format = 1;
export const new_format = 2;

const tick_ms = 50;

export interface VersionJson {
  readonly node_id: number;
  readonly pair: { engine: number; host_epoch: number };
  readonly group_pair: { pair: { engine: number; host_epoch: number }; seq: number };
  readonly read_only: null | { reason: string; behind: boolean; as_of: number; leader: null | { node_id: number; address: string } };
  readonly voters: { node_id: number; pair: { engine: number; host_epoch: number } | null; live: boolean }[];
  readonly majority_pair: { engine: number; host_epoch: number } | null;
  readonly pause_ms: number | null;
}

interface Slot {
  readonly id: number;
  readonly peer_port: number;
  readonly data_dir: string;
  tls: { ca_file: string; cert_file: string; key_file: string; identity: string };
  process: MemberProcess | undefined;
  format: number;
}

export class UpgradeGroup {
  readonly dir = mkdtempSync(join(tmpdir(), 'weft-upgrade-'));
  private readonly certs = join(this.dir, 'certs');
  private readonly slots = new Map<number, Slot>();

  private constructor(private readonly log: (line: string) => void) {}

  static async start(members: number, log: (line: string) => void): Promise<UpgradeGroup> {
    const g = new UpgradeGroup(log);
    try {
      await initAuthority(g.certs, 'upgrade.weft');
      for (let id = 1; id <= members; id++) {
        const data_dir = join(g.dir, `member-${id}`);
        mkdirSync(data_dir, { recursive: true });
        g.slots.set(id, { id, peer_port: await freeLoopbackPort(), data_dir, tls: await issueMember(g.certs, id), process: undefined, format: old_format });
      }
      await g.launch(1, old_format, false);
      await Promise.all([...g.slots.keys()].filter((id) => id !== 1).map((id) => g.launch(id, old_format, true)));
      const joined = await joinMembers(
        g.member(1).rest,
        [...g.slots.values()].filter((s) => s.id !== 1).map((s) => ({ node_id: s.id, peer: g.peer(s.id), identity: s.tls.identity })),
        log,
      );
      if (!joined) throw new Error('the members could not be joined');
      return g;
    } catch (e) {
      await g.stop();
      throw e;
    }
  }

  member(id: number): MemberProcess {
    const p = this.slot(id).process;
    if (p === undefined) throw new Error(`member ${id} is not running`);
    return p;
  }

  running(): MemberProcess[] {
    return [...this.slots.values()].flatMap((s) => (s.process === undefined ? [] : [s.process]));
  }

  peer(id: number): string {
    return `127.0.0.1:${this.slot(id).peer_port}`;
  }

  dataDir(id: number): string {
    return this.slot(id).data_dir;
  }

  identity(id: number): string {
    return this.slot(id).tls.identity;
  }

  /** Starts member `id` running `format` on its data directory; `join_wait` for a member to be joined. */
  async launch(id: number, format: number, join_wait: boolean): Promise<MemberProcess> {
    const slot = this.slot(id);
    slot.process = await startMemberProcess({
      node_id: id,
      data_dir: slot.data_dir,
      peer_port: slot.peer_port,
      args: ['--tick-ms', String(tick_ms), '--tls-ca-file', slot.tls.ca_file, '--tls-cert-file', slot.tls.cert_file, '--tls-key-file', slot.tls.key_file],
      env: { WEFT_TEST_FORMATS: '1', WEFT_ENGINE_FORMAT_OVERRIDE: String(format), ...(join_wait ? { WEFT_JOIN_WAIT: 'true' } : {}) },
    });
    slot.format = format;
    return slot.process;
  }

  /** SIGTERM by pid; resolves once the process is gone. */
  async halt(id: number): Promise<void> {
    const slot = this.slot(id);
    await slot.process?.stop();
    slot.process = undefined;
  }

  /** Updating a member: stop it, start the release of `format` on the same data directory. */
  async update(id: number, format: number): Promise<MemberProcess> {
    const t0 = Date.now();
    await this.halt(id);
    const t1 = Date.now();
    const p = await this.launch(id, format, false);
    this.log(`member ${id} updated to format ${format}: stopped in ${t1 - t0} ms, serving ${Date.now() - t1} ms later`);
    return p;
  }

  /** A member that comes back under a new identity (a removed identity is never admitted again). */
  async reissue(id: number, identity: string): Promise<void> {
    this.slot(id).tls = await issueMember(this.certs, id, identity);
  }

  async stop(): Promise<void> {
    await Promise.all([...this.slots.values()].map((s) => s.process?.stop()));
    for (const s of this.slots.values()) s.process = undefined;
    rmSync(this.dir, { recursive: true, force: true });
  }

  private slot(id: number): Slot {
    const s = this.slots.get(id);
    if (s === undefined) throw new Error(`no member ${id}`);
    return s;
  }
}

export async function version(m: MemberProcess): Promise<VersionJson> {
  const res = await fetch(`http://${m.ops}/version`, { signal: AbortSignal.timeout(5000) });
  if (res.status !== 200) throw new Error(`GET /version answered ${res.status}`);
  return (await res.json()) as VersionJson;
}

export async function metric(m: MemberProcess, name: string): Promise<number> {
  const res = await fetch(`http://${m.ops}/metrics`, { signal: AbortSignal.timeout(5000) });
  const line = (await res.text()).split('\n').find((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{}`));
  if (line === undefined) throw new Error(`no metric ${name}`);
  return Number(line.slice(line.lastIndexOf(' ') + 1));
}

/** The member that leads, as `m` reports it. */
export async function leaderOf(m: MemberProcess): Promise<number> {
  const s = await rest(m, 'GET', '/v1/admin/cluster/status');
  const id = Number((s.json as { leaderId?: string }).leaderId ?? '0');
  if (!(id > 0)) throw new Error('no leader');
  return id;
}

/** Waits until every running member reports `format` as its pair, its group's and every voter's, and writes. */
export function allMatched(g: UpgradeGroup, format: number, voters: number): Promise<VersionJson[]> {
  return until(async () => {
    const reports = await Promise.all(g.running().map(version));
    const ok = reports.every(
      (r) => r.pair.engine === format && r.group_pair.pair.engine === format && r.read_only === null && r.voters.length === voters && r.voters.every((v) => v.pair?.engine === format) && r.majority_pair?.engine === format,
    );
    return ok ? reports : undefined;
  }, `every member reports version ${format} as matched`);
}

export { rest, until };
