/**
 * Replicated write throughput: a 3-member group of `weft serve` processes on loopback (mutual TLS
 * between members), CreateNode with a 256-byte property at concurrency 1 and 64 through the leader's
 * gRPC port, write concern MAJORITY + JOURNAL (the default). Group commit shows as writes per fsync
 * on each member (from its log counters).
 *
 *   npx tsx bench/cluster-write.ts [--seconds 5]
 *
 * Prints a table and writes bench/results/cluster-write.json. etcd is not started by this script
 * (the comparison with a 3-member etcd is still to be added).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createGrpcClient } from '../src/api/grpc-client.js';
import { startLocalCluster } from '../src/cli/cluster-command.js';
import type { MemberProcess } from '../src/cli/member-process.js';
import { GraphService } from '../src/gen/weft/v1/graph_pb.js';

const seconds = Number(process.argv[process.argv.indexOf('--seconds') + 1] || 5);

interface Row {
  readonly case: string;
  readonly ops_per_s: number;
  readonly p50_ms: number;
  readonly p99_ms: number;
  /** Per member, in member order. */
  readonly writes_per_fsync: readonly number[];
}

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function counters(m: MemberProcess): Promise<{ fsyncs: number; entries: number }> {
  const text = await (await fetch(`http://${m.ops}/metrics`)).text();
  const read = (name: string): number => Number(new RegExp(`^${name} (\\d+)`, 'm').exec(text)![1]);
  return { fsyncs: read('graphdb_log_fsyncs'), entries: read('graphdb_log_entries_synced') };
}

async function load(members: readonly MemberProcess[], name: string, concurrency: number, call: () => Promise<unknown>): Promise<Row> {
  const before = await Promise.all(members.map(counters));
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
  const after = await Promise.all(members.map(counters));
  lat.sort((a, b) => a - b);
  return {
    case: name,
    ops_per_s: lat.length / elapsed,
    p50_ms: percentile(lat, 50),
    p99_ms: percentile(lat, 99),
    writes_per_fsync: after.map((a, i) => (a.entries - before[i]!.entries) / Math.max(1, a.fsyncs - before[i]!.fsyncs)),
  };
}

async function main(): Promise<void> {
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
    const node = { labels: ['Bench'], properties: { payload: { kind: { case: 'stringValue' as const, value: 'x'.repeat(256) } } } };
    await load(cluster.members, 'warm-up', 8, () => client.createNode(node));
    rows.push(await load(cluster.members, 'CreateNode 256 B, MAJORITY+JOURNAL, concurrency 1', 1, () => client.createNode(node)));
    rows.push(await load(cluster.members, 'CreateNode 256 B, MAJORITY+JOURNAL, concurrency 64', 64, () => client.createNode(node)));
  } finally {
    client.close();
    await cluster.stop();
    rmSync(cluster.dir, { recursive: true, force: true });
  }
  console.log(`\nWeft, 3 members on loopback, gRPC to the leader, ${seconds} s per case`);
  console.log('| case | ops/s | p50 ms | p99 ms | writes per fsync (members 1, 2, 3) |');
  console.log('|---|---:|---:|---:|---|');
  for (const r of rows) {
    console.log(`| ${r.case} | ${r.ops_per_s.toFixed(0)} | ${r.p50_ms.toFixed(2)} | ${r.p99_ms.toFixed(2)} | ${r.writes_per_fsync.map((w) => w.toFixed(1)).join(', ')} |`);
  }
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/cluster-write.json', JSON.stringify({ seconds, members: 3, rows, at: new Date().toISOString() }, null, 2));
}

await main();
