/**
 * The floor of one unary gRPC call at concurrency 1, by server: grpc.health.v1 Check answered by
 * Weft's gRPC server (node:http2, src/api/grpc-server.ts) and by a grpc-js server that moves raw
 * bytes and decodes with protobuf-es (what the public port ran before), each in its own child
 * process, called by the grpc-js client the SDK uses. Rounds alternate between the two servers so
 * both see the same machine load; the table gives the median of the rounds' medians, and the CPU
 * time each server process spent per call (user + system, after warm-up), which a loaded machine
 * disturbs less than latency.
 *
 *   npx tsx bench/grpc-server-floor.ts [--calls 2000] [--rounds 5]
 *
 * Prints a table and writes bench/results/grpc-server-floor.json.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { createGrpcClient } from '../src/api/grpc-client.js';
import { healthService, HealthBoard } from '../src/api/grpc-health.js';
import { startGrpcServer } from '../src/api/grpc-server.js';
import { Health, HealthCheckRequestSchema, HealthCheckResponseSchema } from '../src/gen/grpc/health/v1/health_pb.js';
import { percentile } from './stats.js';

type ServerKind = 'weft' | 'grpc-js';
const kinds: readonly ServerKind[] = ['weft', 'grpc-js'];

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] !== undefined ? Number(process.argv[i + 1]) : fallback;
}

/** Child mode: serve Health on a free loopback port and print it; answer each IPC message with the CPU used. */
async function serve(kind: ServerKind): Promise<void> {
  process.on('message', () => process.send?.(process.cpuUsage()));
  if (kind === 'weft') {
    const server = await startGrpcServer({ port: 0, services: [] });
    console.log(server.port);
    return;
  }
  const board = new HealthBoard();
  const identity = (b: Buffer): Buffer => b;
  const server = new grpc.Server();
  server.addService(
    {
      Check: {
        path: '/grpc.health.v1.Health/Check',
        requestStream: false,
        responseStream: false,
        requestSerialize: identity,
        requestDeserialize: identity,
        responseSerialize: identity,
        responseDeserialize: identity,
      },
    },
    {
      Check: (call: grpc.ServerUnaryCall<Buffer, Buffer>, callback: grpc.sendUnaryData<Buffer>) => {
        const req = fromBinary(HealthCheckRequestSchema, call.request);
        const reply = create(HealthCheckResponseSchema, { status: board.get(req.service) ?? 0 });
        callback(null, Buffer.from(toBinary(HealthCheckResponseSchema, reply)));
      },
    },
  );
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, p) => (err === null ? resolve(p) : reject(err))),
  );
  console.log(port);
}

async function startChild(kind: ServerKind): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--serve', kind], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  const line = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`${kind} server exited with ${String(code)}`)));
  });
  return { child, port: Number(line) };
}

/** The child's CPU time so far (user + system), in microseconds. */
function cpuOf(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    child.once('message', (m) => {
      const u = m as NodeJS.CpuUsage;
      resolve(u.user + u.system);
    });
    child.send('cpu');
  });
}

async function main(): Promise<void> {
  const calls = option('--calls', 2000);
  const rounds = option('--rounds', 5);
  const warmup_calls = 500;
  const servers = await Promise.all(kinds.map(async (kind) => ({ kind, ...(await startChild(kind)) })));
  const clients = servers.map((s) => ({ kind: s.kind, client: createGrpcClient(Health, `127.0.0.1:${s.port}`) }));
  const medians = new Map<ServerKind, number[]>(kinds.map((k) => [k, []]));
  const all = new Map<ServerKind, number[]>(kinds.map((k) => [k, []]));
  const cpu_before = new Map<ServerKind, number>();
  const cpu_after = new Map<ServerKind, number>();
  try {
    for (const { client } of clients) for (let i = 0; i < warmup_calls; i++) await client.check({ service: '' });
    for (const s of servers) cpu_before.set(s.kind, await cpuOf(s.child));
    for (let round = 0; round < rounds; round++) {
      for (const { kind, client } of clients) {
        const ms: number[] = [];
        for (let i = 0; i < calls; i++) {
          const t0 = performance.now();
          await client.check({ service: '' });
          ms.push(performance.now() - t0);
        }
        ms.sort((a, b) => a - b);
        medians.get(kind)!.push(percentile(ms, 50));
        all.get(kind)!.push(...ms);
      }
    }
    for (const s of servers) cpu_after.set(s.kind, await cpuOf(s.child));
  } finally {
    for (const { client } of clients) client.close();
    for (const s of servers) s.child.kill();
  }
  const load = loadavg().map((x) => x.toFixed(2)).join(' ');
  console.log(`health Check, grpc-js client, ${rounds} rounds of ${calls} calls per server at concurrency 1; load average ${load}`);
  console.log('| server | median of round p50s, µs | round p50s, µs | p99 µs | server CPU per call, µs |');
  console.log('|---|---:|---|---:|---:|');
  const rows = kinds.map((kind) => {
    const per_round = medians.get(kind)!;
    const sorted_rounds = [...per_round].sort((a, b) => a - b);
    const every = all.get(kind)!.sort((a, b) => a - b);
    const cpu_us_per_call = ((cpu_after.get(kind) ?? 0) - (cpu_before.get(kind) ?? 0)) / (rounds * calls);
    return { server: kind, p50_us: percentile(sorted_rounds, 50) * 1000, round_p50s_us: per_round.map((x) => x * 1000), p99_us: percentile(every, 99) * 1000, cpu_us_per_call };
  });
  for (const r of rows) {
    console.log(`| ${r.server} | ${r.p50_us.toFixed(0)} | ${r.round_p50s_us.map((x) => x.toFixed(0)).join(' ')} | ${r.p99_us.toFixed(0)} | ${r.cpu_us_per_call.toFixed(0)} |`);
  }
  const out = join(dirname(fileURLToPath(import.meta.url)), 'results', 'grpc-server-floor.json');
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify({ calls, rounds, load_average: loadavg(), rows }, null, 2));
}

const serveAt = process.argv.indexOf('--serve');
if (serveAt >= 0) await serve(process.argv[serveAt + 1] as ServerKind);
else await main();
