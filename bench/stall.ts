/**
 * Whether long statements stall the server: latency of GET /health, a point write over gRPC
 * (CreateNode) and a point write in Cypher over REST, on an idle member and then while four runaway
 * reads run (`UNWIND range(1,3000) x3 ... RETURN count(*)`, no deadline of their own but a long one,
 * so they run for the whole measurement). The goal: each probe within 100 ms at p99 under the load.
 *
 *   npx tsx bench/stall.ts [--samples 200] [--runaways 4] [--big-nodes 1000000] [--node-args '--max-semi-space-size=32'] [--loads reads,writes,big]
 *
 * `--node-args` are V8/Node flags for the server process (an A/B of young-generation sizing).
 * The server also loads `bench/loop-monitor.ts`, and a second table gives, per load, the longest
 * event-loop block and garbage-collection pauses inside the server: what held it, whatever the
 * machine's load did to the probes' round trips.
 *
 * Prints a table and writes bench/results/stall.json.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createGrpcClient } from '../src/api/grpc-client.js';
import { GraphService } from '../src/gen/weft/v1/graph_pb.js';
import { startServerProcess, type ServerProcess } from '../test/support/server-process.js';

const option = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] !== undefined ? Number(process.argv[i + 1]) : fallback;
};
const samples = option('--samples', 200);
/** Which loads to measure besides idle (`--loads reads,writes,big`, all by default). */
const loads_at = process.argv.indexOf('--loads');
const loads = new Set((loads_at >= 0 ? (process.argv[loads_at + 1] ?? '') : 'reads,writes,big').split(','));
const node_args_at = process.argv.indexOf('--node-args');
const node_args = node_args_at >= 0 ? (process.argv[node_args_at + 1] ?? '').split(' ').filter((a) => a !== '') : [];
const runaways = option('--runaways', 4);
/** Bound on waiting for the runaway statements to start or to leave. */
const settle_wait_ms = 30_000;
const big_nodes = option('--big-nodes', 1_000_000);
const RUNAWAY = 'UNWIND range(1, 3000) AS a UNWIND range(1, 3000) AS b UNWIND range(1, 3000) AS c RETURN count(*)';
const RUNAWAY_WRITE = 'UNWIND range(1, 10000) AS a UNWIND range(1, 10000) AS b MERGE (m:M {k: b % 1000}) SET m.v = a';
/** What a large write may hold, in MiB (the most a call may ask). */
const big_memory_mb = 4096;

interface Row {
  readonly load: string;
  readonly probe: string;
  readonly n: number;
  readonly p50_ms: number;
  readonly p99_ms: number;
  readonly max_ms: number;
}

/** What held the server's event loop during one load's window (bench/loop-monitor.ts). */
interface Window {
  readonly load: string;
  readonly from_ms: number;
  readonly to_ms: number;
  readonly loadavg: readonly [number, number];
}

interface Held {
  readonly load: string;
  readonly loadavg: readonly [number, number];
  readonly delay_max_ms: number;
  readonly scavenge_max_ms: number;
  readonly scavenge_ms: number;
  readonly gc_max_ms: number;
}

/** The monitor's lines that fall in each window, folded. */
function held(output: string, windows: readonly Window[]): Held[] {
  const lines = [...output.matchAll(/^weft-loop t=(\d+) delay_max_ms=([\d.]+) scavenge_max_ms=([\d.]+) scavenge_ms=([\d.]+) gc_max_ms=([\d.]+)$/gm)].map((m) => m.slice(1).map(Number));
  return windows.map((w) => {
    const inside = lines.filter(([t]) => t! >= w.from_ms && t! <= w.to_ms);
    const max = (i: number): number => inside.reduce((a, l) => Math.max(a, l[i]!), 0);
    return { load: w.load, loadavg: w.loadavg, delay_max_ms: max(1), scavenge_max_ms: max(2), scavenge_ms: inside.reduce((a, l) => a + l[3]!, 0), gc_max_ms: max(4) };
  });
}

const pct = (s: readonly number[], p: number): number => s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;

async function running(server: ServerProcess): Promise<number> {
  const text = await (await fetch(`${server.ops}/metrics`)).text();
  return Number(/^graphdb_statements_running (\d+)/m.exec(text)?.[1] ?? NaN);
}

async function until(server: ServerProcess, n: number): Promise<void> {
  const end = Date.now() + settle_wait_ms;
  while ((await running(server)) !== n) {
    if (Date.now() > end) throw new Error(`the running-statements gauge did not reach ${n} within ${settle_wait_ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

type Measure = (load: string, stop?: () => boolean) => Promise<void>;

/**
 * The probes while `runaways` copies of one statement run (no deadline of their own but a long one);
 * they are then cancelled (their clients leave). All of them must still be running when the probes end.
 */
async function beside(server: ServerProcess, measure: Measure, what: string, body: Readonly<Record<string, unknown>>): Promise<void> {
  const clients = Array.from({ length: runaways }, () => new AbortController());
  const statements = clients.map((c) =>
    fetch(`${server.rest}/v1/query/cypher`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'grpc-timeout': '3600S' },
      body: JSON.stringify(body),
      signal: c.signal,
    }).catch(() => undefined),
  );
  await until(server, runaways);
  await measure(`${runaways} ${what}`);
  const still = await running(server);
  for (const c of clients) c.abort();
  await Promise.all(statements);
  await until(server, 0);
  if (still !== runaways) throw new Error(`only ${still} of the ${runaways} ${what} were still running at the end`);
}

/** The probes while `runaways` runaway reads run. */
const runawayReads = (server: ServerProcess, measure: Measure): Promise<void> => beside(server, measure, 'runaway reads', { query: RUNAWAY });

/** The probes while `runaways` MERGE loops run. */
const runawayWrites = (server: ServerProcess, measure: Measure): Promise<void> =>
  beside(server, measure, 'runaway writes', { query: RUNAWAY_WRITE, queryMemoryLimitMb: big_memory_mb });

/** The probes while one large CREATE runs and commits, sampled until it answers. */
async function bigWrite(server: ServerProcess, measure: Measure): Promise<void> {
  let settled = false;
  const t0 = performance.now();
  const write = fetch(`${server.rest}/v1/query/cypher`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'grpc-timeout': '3600S' },
    body: JSON.stringify({ query: `UNWIND range(1, ${big_nodes}) AS x CREATE (:X {v: x})`, queryMemoryLimitMb: big_memory_mb }),
  }).then(async (res) => {
    const body = await res.text();
    settled = true;
    if (res.status !== 200) throw new Error(`the large write answered ${res.status}: ${body}`);
  });
  // Awaited below; until then a failure must not end the process before the measurement's own error.
  write.catch(() => undefined);
  await until(server, 1);
  await measure(`one ${big_nodes}-node CREATE`, () => settled);
  await write;
  console.log(`the ${big_nodes}-node CREATE answered after ${(performance.now() - t0).toFixed(0)} ms`);
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'weft-bench-stall-'));
  const monitor = fileURLToPath(new URL('./loop-monitor.ts', import.meta.url));
  const server = await startServerProcess(join(dir, 'data'), [], [...node_args, '--import', 'tsx', '--import', monitor]);
  const windows: Window[] = [];
  const graph = createGrpcClient(GraphService, server.grpc);
  const rows: Row[] = [];
  let seq = 0;
  const probes: Record<string, () => Promise<void>> = {
    'GET /health': async () => {
      const res = await fetch(`${server.ops}/health`);
      if (res.status !== 200) throw new Error(`/health answered ${res.status}`);
      await res.arrayBuffer();
    },
    'CreateNode (gRPC)': async () => {
      await graph.createNode({ labels: ['Probe'] });
    },
    'Cypher CREATE (REST)': async () => {
      const res = await fetch(`${server.rest}/v1/query/cypher`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'CREATE (p:Probe {i: $i}) RETURN p.i', parameters: { i: { intValue: String(seq++) } } }),
      });
      if (res.status !== 200) throw new Error(`Cypher CREATE answered ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
    },
  };
  /** Samples every probe `samples` times, or until `stop` says so when given. */
  const measure = async (load: string, stop?: () => boolean): Promise<void> => {
    const times = new Map<string, number[]>(Object.keys(probes).map((k) => [k, []]));
    const from_ms = Date.now();
    const load_before = loadavg()[0]!;
    for (let i = 0; stop === undefined ? i < samples : !stop(); i++) {
      for (const [name, probe] of Object.entries(probes)) {
        const t0 = performance.now();
        await probe();
        times.get(name)!.push(performance.now() - t0);
      }
    }
    windows.push({ load, from_ms, to_ms: Date.now(), loadavg: [load_before, loadavg()[0]!] });
    for (const [probe, t] of times) {
      t.sort((a, b) => a - b);
      rows.push({ load, probe, n: t.length, p50_ms: pct(t, 50), p99_ms: pct(t, 99), max_ms: t[t.length - 1] ?? 0 });
    }
  };
  try {
    // Warm both paths first, so the idle row is not the JIT's.
    for (let i = 0; i < 50; i++) for (const probe of Object.values(probes)) await probe();
    await measure('idle');
    if (loads.has('reads')) await runawayReads(server, measure);
    if (loads.has('writes')) await runawayWrites(server, measure);
    if (loads.has('big')) await bigWrite(server, measure);
  } finally {
    graph.close();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(`\nWeft single member, ${samples} sequential samples per probe and load; server node flags: ${node_args.join(' ') || 'none'}`);
  console.log('| load | probe | n | p50 ms | p99 ms | max ms |');
  console.log('|---|---|---:|---:|---:|---:|');
  for (const r of rows) console.log(`| ${r.load} | ${r.probe} | ${r.n} | ${r.p50_ms.toFixed(2)} | ${r.p99_ms.toFixed(2)} | ${r.max_ms.toFixed(2)} |`);
  const holds = held(server.output(), windows);
  console.log('\nInside the server, per load (longest over the window; scavenge ms is their total)');
  console.log('| load | load average | event-loop block max ms | scavenge max ms | scavenge ms | GC pause max ms |');
  console.log('|---|---|---:|---:|---:|---:|');
  for (const h of holds) {
    console.log(`| ${h.load} | ${h.loadavg[0].toFixed(1)} to ${h.loadavg[1].toFixed(1)} | ${h.delay_max_ms.toFixed(1)} | ${h.scavenge_max_ms.toFixed(1)} | ${h.scavenge_ms.toFixed(0)} | ${h.gc_max_ms.toFixed(1)} |`);
  }
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/stall.json', JSON.stringify({ samples, runaways, big_nodes, node_args, rows, held: holds, at: new Date().toISOString() }, null, 2));
}

await main();
