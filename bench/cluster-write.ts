/**
 * Replicated write throughput: a 3-member group of `weft serve` processes on loopback (mutual TLS
 * between members), CreateNode with a 256-byte property at concurrency 1 and 64 through the leader's
 * gRPC port, write concern MAJORITY + JOURNAL (the default). Group commit shows as writes per fsync
 * on each member (from its log counters).
 *
 *   npx tsx bench/cluster-write.ts [--seconds 5] [--paced 50]
 *
 * When `etcd` is on PATH the same run starts a 3-member etcd group on loopback (bench/etcd-group.ts)
 * and puts 256-byte values under new keys through its leader at the same concurrencies, measured the
 * same way; writes per fsync there come from its WAL fsync and committed-proposal counters. Without
 * etcd only the Weft side runs.
 *
 * CPU per write is each member's user + system CPU time (from /proc/<pid>/stat) and the bench
 * process's own (the client) over the case, divided by the writes: on a machine shared with other
 * work it changes far less with the load than writes/s and latency do.
 *
 * Net of idle: before the cases each group idles for a few seconds; each member's CPU rate then,
 * times a case's length, is taken off its CPU over the case. What is left is the writes' own cost,
 * which a starved run (few writes per second) would otherwise bury under ticks and heartbeats.
 *
 * Peer frames sent per write come from each Weft member's `graphdb_raft_frames_sent`: how many
 * times per write a member encoded a Raft frame and wrote it to a peer's stream.
 *
 * Prints a table and writes bench/results/cluster-write.json.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { createGrpcClient } from '../src/api/grpc-client.js';
import { startLocalCluster } from '../src/cli/cluster-command.js';
import type { MemberProcess } from '../src/cli/member-process.js';
import { GraphService } from '../src/gen/weft/v1/graph_pb.js';
import { etcdCounters, etcdPut, etcdVersion, startEtcdGroup } from './etcd-group.js';
import { percentile } from './stats.js';

/** Seconds per measured case; `--seconds N` overrides. */
const seconds_default = 5;
const seconds_at = process.argv.indexOf('--seconds');
const seconds = seconds_at >= 0 ? Number(process.argv[seconds_at + 1]) : seconds_default;
if (!(seconds > 0)) throw new Error(`--seconds wants a positive number, got ${process.argv[seconds_at + 1]}`);
/**
 * `--paced N`: also a case of one writer held to N writes per second on each system. At the same
 * rate the members' fixed costs per second weigh the same on every write, so runs at different
 * loads (and the code before and after a change) compare by CPU per write.
 */
const paced_at = process.argv.indexOf('--paced');
const paced_writes_per_s = paced_at >= 0 ? Number(process.argv[paced_at + 1]) : 0;
if (!(paced_writes_per_s >= 0)) throw new Error(`--paced wants a rate in writes per second, got ${process.argv[paced_at + 1]}`);

interface Row {
  readonly system: 'weft' | 'etcd';
  readonly case: string;
  readonly concurrency: number;
  /** Writes per second the writer was held to; 0 when it wrote as fast as answered. */
  readonly paced_writes_per_s: number;
  readonly ops_per_s: number;
  readonly p50_ms: number;
  readonly p99_ms: number;
  /** Per member, in member order. */
  readonly writes_per_fsync: readonly number[];
  /** CPU time per write in microseconds, per member in member order. */
  readonly member_cpu_us_per_write: readonly number[];
  /** The same less each member's idle CPU rate over the case's length (idleCpuUsPerS): the writes' own share. */
  readonly member_net_cpu_us_per_write: readonly number[];
  /** CPU time per write of the bench process itself, the client. */
  readonly client_cpu_us_per_write: number;
  /** Raft frames each member wrote to its peers per write (Weft only; etcd does not count them). */
  readonly frames_sent_per_write: readonly number[] | null;
}

/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ, 100 on Linux). */
const user_hz = 100;

/** User + system CPU time of process `pid` in microseconds. */
function processCpuUs(pid: number): number {
  // Fields after the command name, which is in parentheses and may hold spaces: utime and stime are the 12th and 13th.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / user_hz;
}

function clientCpuUs(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}

async function weftCounters(m: MemberProcess): Promise<MemberCounters> {
  const text = await (await fetch(`http://${m.ops}/metrics`)).text();
  const read = (name: string): number => Number(new RegExp(`^${name} (\\d+)`, 'm').exec(text)![1]);
  // A build without the frame counter (the code before it, in an A/B run) reports none.
  const frames = /^graphdb_raft_frames_sent (\d+)/m.exec(text)?.[1];
  return { fsyncs: read('graphdb_log_fsyncs'), entries: read('graphdb_log_entries_synced'), ...(frames === undefined ? {} : { frames_sent: Number(frames) }) };
}

interface MemberCounters {
  readonly fsyncs: number;
  readonly entries: number;
  /** Absent where the system does not count them. */
  readonly frames_sent?: number;
}

type Counters = () => Promise<MemberCounters[]>;

/** Peer frames each member sent per write over a case; null where a member does not count them. */
function framesPerWrite(before: readonly MemberCounters[], after: readonly MemberCounters[], writes: number): number[] | null {
  const out: number[] = [];
  for (let i = 0; i < after.length; i++) {
    const [b, a] = [before[i]?.frames_sent, after[i]?.frames_sent];
    if (a === undefined || b === undefined) return null;
    out.push((a - b) / Math.max(1, writes));
  }
  return out;
}

/** Seconds each group idles, after its warm-up, to measure what its members spend without writes. */
const idle_seconds = 3;
/** Seconds waited after the warm-up before the idle measurement starts. */
const idle_settle_seconds = 2;

/**
 * CPU microseconds per second each member spends with no writes (ticks, heartbeats, probes): at a
 * few dozen writes per second on a loaded machine, that alone is hundreds of microseconds per write.
 */
async function idleCpuUsPerS(pids: readonly number[]): Promise<number[]> {
  // A starved follower may still be applying the warm-up's writes: let it finish first.
  await new Promise((r) => setTimeout(r, idle_settle_seconds * 1000));
  const before = pids.map(processCpuUs);
  const started = performance.now();
  await new Promise((r) => setTimeout(r, idle_seconds * 1000));
  const elapsed_s = (performance.now() - started) / 1000;
  return pids.map((pid, i) => (processCpuUs(pid) - before[i]!) / elapsed_s);
}

async function load(system: Row['system'], counters: Counters, pids: readonly number[], name: string, concurrency: number, call: () => Promise<unknown>, idle_us_per_s: readonly number[], pace_writes_per_s = 0): Promise<Row> {
  const before = await counters();
  const cpu_before = pids.map(processCpuUs);
  const client_before = clientCpuUs();
  const lat: number[] = [];
  const end = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let k = 1; performance.now() < end; k++) {
        // Paced: wait for this write's slot (a late write starts at once and the rest catch up).
        const slot = pace_writes_per_s > 0 ? started + (k * 1000) / pace_writes_per_s - performance.now() : 0;
        if (slot > 0) await new Promise((r) => setTimeout(r, slot));
        const t = performance.now();
        await call();
        lat.push(performance.now() - t);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const client_cpu = clientCpuUs() - client_before;
  const member_cpu = pids.map((pid, i) => processCpuUs(pid) - cpu_before[i]!);
  const after = await counters();
  lat.sort((a, b) => a - b);
  return {
    system,
    case: name,
    concurrency,
    paced_writes_per_s: pace_writes_per_s,
    ops_per_s: lat.length / elapsed,
    p50_ms: percentile(lat, 50),
    p99_ms: percentile(lat, 99),
    writes_per_fsync: after.map((a, i) => (a.entries - before[i]!.entries) / Math.max(1, a.fsyncs - before[i]!.fsyncs)),
    member_cpu_us_per_write: member_cpu.map((us) => us / Math.max(1, lat.length)),
    member_net_cpu_us_per_write: member_cpu.map((us, i) => Math.max(0, us - (idle_us_per_s[i] ?? 0) * elapsed) / Math.max(1, lat.length)),
    client_cpu_us_per_write: client_cpu / Math.max(1, lat.length),
    frames_sent_per_write: framesPerWrite(before, after, lat.length),
  };
}

const payload = 'x'.repeat(256);

async function runWeft(): Promise<Row[]> {
  const cluster = await startLocalCluster({ members: 3 });
  const leader = cluster.members[0]!;
  const client = createGrpcClient(GraphService, leader.grpc);
  const rows: Row[] = [];
  try {
    if (!cluster.joined) throw new Error('the members were not joined');
    // Wait until both joined members are voters, so MAJORITY means 2 of 3.
    for (;;) {
      const status = (await (await fetch(`http://${leader.rest}/v1/admin/cluster/status`)).json()) as { nodes: { role: string }[] };
      if (status.nodes.filter((n) => n.role === 'NODE_ROLE_FOLLOWER').length === 2) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const node = { labels: ['Bench'], properties: { payload: { kind: { case: 'stringValue' as const, value: payload } } } };
    const counters: Counters = () => Promise.all(cluster.members.map(weftCounters));
    const pids = cluster.members.map((m) => m.pid);
    await load('weft', counters, pids, 'warm-up', 8, () => client.createNode(node), []);
    const idle = await idleCpuUsPerS(pids);
    for (const c of [1, 64]) rows.push(await load('weft', counters, pids, `Weft CreateNode 256 B, MAJORITY+JOURNAL, concurrency ${c}`, c, () => client.createNode(node), idle));
    if (paced_writes_per_s > 0) rows.push(await load('weft', counters, pids, `Weft CreateNode 256 B, MAJORITY+JOURNAL, 1 writer paced at ${paced_writes_per_s}/s`, 1, () => client.createNode(node), idle, paced_writes_per_s));
  } finally {
    client.close();
    await cluster.stop();
    rmSync(cluster.dir, { recursive: true, force: true });
  }
  return rows;
}

async function runEtcd(): Promise<Row[]> {
  const group = await startEtcdGroup(3);
  const rows: Row[] = [];
  try {
    const counters: Counters = () => Promise.all(group.members.map(etcdCounters));
    let next_key = 0;
    const put = (): Promise<unknown> => etcdPut(group.leader, `bench/${next_key++}`, payload);
    const pids = group.members.map((m) => m.pid);
    await load('etcd', counters, pids, 'warm-up', 8, put, []);
    const idle = await idleCpuUsPerS(pids);
    for (const c of [1, 64]) rows.push(await load('etcd', counters, pids, `etcd ${group.version} put 256 B, concurrency ${c}`, c, put, idle));
    if (paced_writes_per_s > 0) rows.push(await load('etcd', counters, pids, `etcd ${group.version} put 256 B, 1 writer paced at ${paced_writes_per_s}/s`, 1, put, idle, paced_writes_per_s));
  } finally {
    await group.stop();
  }
  return rows;
}

function ratio(rows: readonly Row[], pick: (r: Row) => number, concurrency: number): string {
  const weft = rows.find((r) => r.system === 'weft' && r.concurrency === concurrency && r.paced_writes_per_s === 0);
  const etcd = rows.find((r) => r.system === 'etcd' && r.concurrency === concurrency && r.paced_writes_per_s === 0);
  return weft === undefined || etcd === undefined ? 'n/a' : (pick(weft) / pick(etcd)).toFixed(2);
}

async function main(): Promise<void> {
  const rows = await runWeft();
  const etcd = etcdVersion();
  if (etcd === null) console.log('\netcd is not on PATH: the etcd comparison is skipped (apt-get install etcd-server)');
  else rows.push(...(await runEtcd()));
  console.log(`\n3 members each on loopback, writes to the leader, ${seconds} s per case`);
  console.log('| case | ops/s | p50 ms | p99 ms | writes per fsync (members 1, 2, 3) | CPU us per write (members 1, 2, 3; client) | net of idle (members 1, 2, 3) | peer frames sent per write (members 1, 2, 3) |');
  console.log('|---|---:|---:|---:|---|---|---|---|');
  for (const r of rows) {
    const cpu = `${r.member_cpu_us_per_write.map((us) => us.toFixed(0)).join(', ')}; ${r.client_cpu_us_per_write.toFixed(0)}`;
    const frames = r.frames_sent_per_write === null ? '-' : r.frames_sent_per_write.map((f) => f.toFixed(2)).join(', ');
    console.log(`| ${r.case} | ${r.ops_per_s.toFixed(0)} | ${r.p50_ms.toFixed(2)} | ${r.p99_ms.toFixed(2)} | ${r.writes_per_fsync.map((w) => w.toFixed(1)).join(', ')} | ${cpu} | ${r.member_net_cpu_us_per_write.map((us) => us.toFixed(0)).join(', ')} | ${frames} |`);
  }
  const ratios = {
    c64_throughput_weft_over_etcd: ratio(rows, (r) => r.ops_per_s, 64),
    c1_p50_weft_over_etcd: ratio(rows, (r) => r.p50_ms, 1),
  };
  if (etcd !== null) console.log(`\nWeft / etcd: writes/s at concurrency 64 ${ratios.c64_throughput_weft_over_etcd}x (goal >= 1.5), p50 at concurrency 1 ${ratios.c1_p50_weft_over_etcd}x (goal <= 1)`);
  mkdirSync('bench/results', { recursive: true });
  const load_average = loadavg();
  console.log(`load average at the end: ${load_average.map((l) => l.toFixed(2)).join(', ')}`);
  writeFileSync('bench/results/cluster-write.json', JSON.stringify({ seconds, members: 3, etcd, rows, ratios, load_average, at: new Date().toISOString() }, null, 2));
}

await main();
