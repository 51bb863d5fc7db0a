/**
 * The per-call cost of a read over gRPC at concurrency 1, against the size of the graph: a `weft serve`
 * child is loaded with the social graph (bench/cypher-social-graph.ts), then each call below is sent
 * `--calls` times one after another and its median and p99 printed: the floor of any unary call
 * (grpc.health.v1 Check), the floor of a statement (`RETURN 1`), and the point lookup, 1-hop count
 * and person profile of bench/cypher-social.ts.
 *
 *   npx tsx bench/grpc-read-path.ts [--persons 100000] [--edges 1000000] [--calls 2000]
 *                                   [--node-args '--cpu-prof --cpu-prof-dir=/tmp/prof']
 *
 * `--node-args` are given to the server's node (a CPU profile or --trace-gc of the read path).
 * Prints a table and writes bench/results/grpc-read-path.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createGrpcClient } from '../src/api/grpc-client.js';
import { Health as HealthService } from '../src/gen/grpc/health/v1/health_pb.js';
import { generate, QUERIES } from './cypher-social-graph.js';
import { WeftGrpcEngine } from './cypher-social-weft.js';

function option(name: string, fallback: number | string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] !== undefined ? (process.argv[i + 1] as string) : String(fallback);
}

const PERSONS = Number(option('--persons', 100_000));
const EDGES = Number(option('--edges', 1_000_000));
const CALLS = Number(option('--calls', 2000));
const NODE_ARGS = option('--node-args', '').split(' ').filter((a) => a !== '');
const WARMUP_CALLS = 200;
const SEED = 42;

interface Row {
  readonly call: string;
  readonly median_ms: number;
  readonly p99_ms: number;
}

async function timeCalls(call: string, once: (i: number) => Promise<unknown>, warmup = WARMUP_CALLS, calls = CALLS): Promise<Row> {
  for (let i = 0; i < warmup; i++) await once(i);
  const ms: number[] = [];
  for (let i = 0; i < calls; i++) {
    const t0 = process.hrtime.bigint();
    await once(i);
    ms.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  ms.sort((a, b) => a - b);
  return { call, median_ms: ms[Math.floor(ms.length / 2)] as number, p99_ms: ms[Math.floor(ms.length * 0.99)] as number };
}

const graph = generate(PERSONS, EDGES, SEED);
const engine = new WeftGrpcEngine(NODE_ARGS);
const t0 = Date.now();
await engine.load(graph);
const load_s = (Date.now() - t0) / 1000;
const health = createGrpcClient(HealthService, engine.address);
const rows: Row[] = [];
const lookup = QUERIES.find((x) => x.name === 'point lookup by id')!;
try {
  // As bench/cypher-social.ts times it: 2 warm-up calls and 10 timed, at once after the load.
  rows.push(await timeCalls('point lookup, 10 calls right after load', (i) => engine.run(lookup, lookup.params(i, PERSONS)), 2, 10));
  rows.push(await timeCalls('health Check', () => health.check({ service: '' })));
  rows.push(await timeCalls('RETURN 1', () => engine.run({ name: 'RETURN 1', cypher: 'RETURN 1', params: () => ({}) }, {})));
  for (const name of ['point lookup by id', '1-hop count', 'person profile']) {
    const q = QUERIES.find((x) => x.name === name)!;
    rows.push(await timeCalls(name, (i) => engine.run(q, q.params(i, PERSONS))));
  }
} finally {
  health.close();
  await engine.close();
}
const load = loadavg().map((x) => x.toFixed(2)).join(' ');
console.log(`${PERSONS} persons, ${EDGES} KNOWS, loaded in ${load_s.toFixed(1)} s; ${CALLS} calls each at concurrency 1; load average ${load}`);
console.log('| call | median ms | p99 ms |');
console.log('|---|---|---|');
for (const r of rows) console.log(`| ${r.call} | ${r.median_ms.toFixed(3)} | ${r.p99_ms.toFixed(3)} |`);
const out = join(dirname(fileURLToPath(import.meta.url)), 'results', 'grpc-read-path.json');
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, JSON.stringify({ persons: PERSONS, edges: EDGES, calls: CALLS, load_s, loadavg: loadavg(), node_args: NODE_ARGS, rows }, null, 2));
