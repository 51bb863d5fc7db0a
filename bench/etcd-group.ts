/**
 * A 3-member etcd group on loopback for the replicated-write comparison in bench/cluster-write.ts.
 * Each member is an `etcd` child process with its own data directory under one temp directory and
 * a static initial cluster; client and peer ports are chosen free by the OS just before start.
 * Writes go through etcd's gRPC gateway (POST /v3/kv/put, base64 key and value) on the leader,
 * so no etcd client library is needed. etcd fsyncs its WAL before acknowledging each Raft Ready,
 * which matches Weft's MAJORITY + JOURNAL durability.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freeLoopbackPort } from '../src/cli/member-process.js';

/** How long the members get to elect a leader and report healthy. */
export const etcd_start_wait_ms = 30_000;
/** SIGTERM, then SIGKILL after this long. */
export const etcd_stop_wait_ms = 10_000;
const poll_interval_ms = 100;

export interface EtcdMember {
  readonly name: string;
  readonly pid: number;
  /** http://127.0.0.1:port */
  readonly client_url: string;
}

export interface EtcdGroup {
  readonly members: readonly EtcdMember[];
  /** The member that was leader once the group was healthy. */
  readonly leader: EtcdMember;
  /** Version line of the binary, for the report. */
  readonly version: string;
  stop(): Promise<void>;
}

/** The etcd version line when `etcd` runs from PATH, else null. */
export function etcdVersion(): string | null {
  const run = spawnSync('etcd', ['--version'], { encoding: 'utf8' });
  if (run.error !== undefined || run.status !== 0) return null;
  return /etcd Version: (\S+)/.exec(run.stdout)?.[1] ?? run.stdout.split('\n')[0]!;
}

interface Running {
  readonly member: EtcdMember;
  readonly child: ChildProcess;
  readonly exited: Promise<void>;
  output: string;
}

export async function startEtcdGroup(size: number): Promise<EtcdGroup> {
  const version = etcdVersion();
  if (version === null) throw new Error('etcd is not on PATH');
  const dir = mkdtempSync(join(tmpdir(), 'weft-bench-etcd-'));
  const names = Array.from({ length: size }, (_, i) => `m${i + 1}`);
  const ports: { client: number; peer: number }[] = [];
  for (const _ of names) ports.push({ client: await freeLoopbackPort(), peer: await freeLoopbackPort() });
  const initial = names.map((n, i) => `${n}=http://127.0.0.1:${ports[i]!.peer}`).join(',');
  const running: Running[] = names.map((name, i) => {
    const client_url = `http://127.0.0.1:${ports[i]!.client}`;
    const peer_url = `http://127.0.0.1:${ports[i]!.peer}`;
    const child = spawn(
      'etcd',
      [
        ...['--name', name, '--data-dir', join(dir, name)],
        ...['--listen-client-urls', client_url, '--advertise-client-urls', client_url],
        ...['--listen-peer-urls', peer_url, '--initial-advertise-peer-urls', peer_url],
        ...['--initial-cluster', initial, '--initial-cluster-state', 'new', '--initial-cluster-token', 'weft-bench'],
        ...['--log-level', 'warn'],
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const r: Running = {
      member: { name, pid: child.pid!, client_url },
      child,
      exited: new Promise<void>((resolve) => child.once('exit', () => resolve())),
      output: '',
    };
    child.stdout!.on('data', (d: Buffer) => (r.output += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (r.output += d.toString()));
    return r;
  });
  const stop = async (): Promise<void> => {
    await Promise.all(
      running.map(async (r) => {
        if (r.child.exitCode !== null || r.child.signalCode !== null) return;
        process.kill(r.member.pid, 'SIGTERM');
        const timer = setTimeout(() => process.kill(r.member.pid, 'SIGKILL'), etcd_stop_wait_ms);
        await r.exited;
        clearTimeout(timer);
      }),
    );
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const leader = await waitForLeader(running);
    return { members: running.map((r) => r.member), leader, version, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

/** Polls every member's /health, then asks each for its status until one reports itself leader. */
async function waitForLeader(running: readonly Running[]): Promise<EtcdMember> {
  const deadline = Date.now() + etcd_start_wait_ms;
  while (Date.now() < deadline) {
    const exited = running.find((r) => r.child.exitCode !== null);
    if (exited !== undefined) throw new Error(`etcd ${exited.member.name} exited:\n${exited.output}`);
    try {
      const healthy = await Promise.all(running.map(async (r) => ((await (await fetch(`${r.member.client_url}/health`)).json()) as { health: string }).health === 'true'));
      if (healthy.every((h) => h)) {
        for (const r of running) {
          const status = (await postJson(r.member.client_url, '/v3/maintenance/status', {})) as { header: { member_id: string }; leader: string };
          if (status.leader === status.header.member_id) return r.member;
        }
      }
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, poll_interval_ms));
  }
  throw new Error(`etcd group not healthy within ${etcd_start_wait_ms} ms:\n${running.map((r) => r.output).join('\n')}`);
}

async function postJson(base: string, path: string, body: unknown): Promise<unknown> {
  const res = await fetch(`${base}${path}`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  if (!res.ok) throw new Error(`etcd ${path}: HTTP ${res.status} ${await res.text()}`);
  return res.json();
}

/** A put of `value` under `key` on `member`; resolves once etcd has committed it. */
export function etcdPut(member: EtcdMember, key: string, value: string): Promise<unknown> {
  return postJson(member.client_url, '/v3/kv/put', { key: Buffer.from(key).toString('base64'), value: Buffer.from(value).toString('base64') });
}

/** WAL fsyncs and committed proposals on one member, from its Prometheus metrics. */
export async function etcdCounters(member: EtcdMember): Promise<{ fsyncs: number; entries: number }> {
  const text = await (await fetch(`${member.client_url}/metrics`)).text();
  const read = (name: string): number => Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1] ?? Number.NaN);
  return { fsyncs: read('etcd_disk_wal_fsync_duration_seconds_count'), entries: read('etcd_server_proposals_committed_total') };
}
