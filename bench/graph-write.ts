/**
 * Single-member write throughput over gRPC: CreateNode at concurrency 1 and 64, and CreateNodesBatch
 * of 1,000 nodes, beside this machine's own fsync rate measured in the same run. Group commit shows as
 * writes per fsync (from the server's log counters). When `etcd` is on PATH the same run starts a
 * single etcd member (bench/etcd-group.ts) and puts 256 B values at concurrency 1 and 64 beside it.
 * Goals (issue 12): CreateNode p50 at concurrency 1 within 0.3 ms of the fsync p50; at concurrency 64
 * at least 1.5x etcd's single-member puts/s.
 *
 *   npx tsx bench/graph-write.ts [--seconds 5]
 *
 * Prints a table and writes bench/results/graph-write.json.
 */
import { closeSync, fdatasyncSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGrpcClient } from '../src/api/grpc-client.js';
import { GraphService } from '../src/gen/weft/v1/graph_pb.js';
import { startServerProcess, type ServerProcess } from '../test/support/server-process.js';
import { percentile } from './stats.js';
import { etcdCounters, etcdPut, etcdVersion, startEtcdGroup } from './etcd-group.js';

const seconds = Number(process.argv[process.argv.indexOf('--seconds') + 1] || 5);

interface Row {
  readonly case: string;
  readonly ops_per_s: number;
  readonly p50_ms: number;
  readonly p99_ms: number;
  readonly writes_per_fsync?: number;
}

/** The machine's fsync rate: 4 KiB appends each followed by fdatasync, in the same temp folder. */
function fsyncRate(dir: string, duration_ms: number): Row {
  const path = join(dir, 'fsync-probe');
  const fd = openSync(path, 'w');
  const block = Buffer.alloc(4096, 7);
  const lat: number[] = [];
  const end = performance.now() + duration_ms;
  while (performance.now() < end) {
    const t = performance.now();
    writeSync(fd, block);
    fdatasyncSync(fd);
    lat.push(performance.now() - t);
  }
  closeSync(fd);
  lat.sort((a, b) => a - b);
  return { case: 'machine fsync (4 KiB write + fdatasync)', ops_per_s: lat.length / (duration_ms / 1000), p50_ms: percentile(lat, 50), p99_ms: percentile(lat, 99) };
}

async function logCounters(server: ServerProcess): Promise<{ fsyncs: number; entries: number }> {
  const text = await (await fetch(`${server.ops}/metrics`)).text();
  const read = (name: string) => Number(new RegExp(`^${name} (\\d+)`, 'm').exec(text)![1]);
  return { fsyncs: read('graphdb_log_fsyncs'), entries: read('graphdb_log_entries_synced') };
}

type Counters = () => Promise<{ fsyncs: number; entries: number }>;

async function load(counters: Counters, name: string, concurrency: number, call: () => Promise<unknown>, per_call: number): Promise<Row> {
  const before = await counters();
  const lat: number[] = [];
  const end = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const t = performance.now();
        await call();
        lat.push(performance.now() - t);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const after = await counters();
  lat.sort((a, b) => a - b);
  return {
    case: name,
    ops_per_s: (lat.length * per_call) / elapsed,
    p50_ms: percentile(lat, 50),
    p99_ms: percentile(lat, 99),
    writes_per_fsync: (after.entries - before.entries) / Math.max(1, after.fsyncs - before.fsyncs),
  };
}

/** Puts of 256 B on a one-member etcd, at concurrency 1 and 64 (etcd fsyncs its WAL before answering). */
async function etcdSingle(): Promise<Row[]> {
  const group = await startEtcdGroup(1);
  const rows: Row[] = [];
  try {
    const member = group.leader;
    const counters: Counters = () => etcdCounters(member);
    const payload = 'v'.repeat(256);
    let next_key = 0;
    const put = (): Promise<unknown> => etcdPut(member, `bench/${next_key++}`, payload);
    await load(counters, 'warm-up', 8, put, 1);
    for (const c of [1, 64]) rows.push(await load(counters, `etcd ${group.version} single member put 256 B, concurrency ${c}`, c, put, 1));
  } finally {
    await group.stop();
  }
  return rows;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'weft-bench-'));
  const server = await startServerProcess(join(dir, 'data'));
  const client = createGrpcClient(GraphService, server.grpc);
  const rows: Row[] = [];
  try {
    rows.push(fsyncRate(dir, seconds * 1000));
    const node = { labels: ['Bench'], properties: { name: { kind: { case: 'stringValue' as const, value: 'n' } } } };
    const weft: Counters = () => logCounters(server);
    await load(weft, 'warm-up', 8, () => client.createNode(node), 1);
    rows.push(await load(weft, 'CreateNode, concurrency 1', 1, () => client.createNode(node), 1));
    rows.push(await load(weft, 'CreateNode, concurrency 64', 64, () => client.createNode(node), 1));
    const batch = { nodes: Array.from({ length: 1000 }, () => node) };
    rows.push(await load(weft, 'CreateNodesBatch of 1,000 (nodes/s), concurrency 1', 1, () => client.createNodesBatch(batch), 1000));
  } finally {
    client.close();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  // etcd runs after Weft has stopped, so the two never share the machine's cores.
  const etcd = etcdVersion();
  if (etcd === null) console.log('\netcd is not on PATH: the etcd comparison is skipped');
  else rows.push(...(await etcdSingle()));
  console.log(`\nWeft single member, gRPC, ${seconds} s per case`);
  console.log('| case | ops/s | p50 ms | p99 ms | writes per fsync |');
  console.log('|---|---:|---:|---:|---:|');
  for (const r of rows) {
    console.log(`| ${r.case} | ${r.ops_per_s.toFixed(0)} | ${r.p50_ms.toFixed(2)} | ${r.p99_ms.toFixed(2)} | ${r.writes_per_fsync?.toFixed(1) ?? ''} |`);
  }
  const fsync = rows[0]!;
  const c1 = rows.find((r) => r.case === 'CreateNode, concurrency 1');
  const c64 = rows.find((r) => r.case === 'CreateNode, concurrency 64');
  const etcd64 = rows.find((r) => r.case.startsWith('etcd') && r.case.endsWith('concurrency 64'));
  const goals = {
    c1_p50_over_fsync_p50_ms: c1 === undefined ? null : c1.p50_ms - fsync.p50_ms,
    c64_weft_over_etcd: c64 === undefined || etcd64 === undefined ? null : c64.ops_per_s / etcd64.ops_per_s,
  };
  console.log(
    `\nCreateNode c=1 p50 - fsync p50: ${goals.c1_p50_over_fsync_p50_ms?.toFixed(2) ?? 'n/a'} ms (goal <= 0.3); ` +
      `CreateNode c=64 / etcd single member c=64: ${goals.c64_weft_over_etcd?.toFixed(2) ?? 'n/a'}x (goal >= 1.5)`,
  );
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/graph-write.json', JSON.stringify({ seconds, rows, goals, at: new Date().toISOString() }, null, 2));
}

await main();
