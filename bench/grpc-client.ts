/**
 * What a gRPC call costs its client: Weft's client (src/common/grpc, used by the SDK and
 * createGrpcClient) on each of its HTTP/2 engines (Weft's own, the default, and node:http2) beside the @grpc/grpc-js path it replaced and the bare minimum over node:http2
 * (the floor under any client on it) and over Weft's own engine (src/common/h2), against one
 * `weft serve` child, in the same run. Each round times `--calls` calls of each kind at concurrency 1 with each client in
 * turn (so load on the machine falls on both alike) and measures this process's CPU over them:
 * CPU per call is the figure that survives a loaded machine, latency is printed beside it.
 *
 *   npx tsx bench/grpc-client.ts [--calls 2000] [--rounds 3]
 *
 * Prints a table and writes bench/results/grpc-client.json.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect as h2connect } from 'node:http2';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DescMessage, DescMethodUnary, MessageInitShape, MessageShape } from '@bufbuild/protobuf';
import { createGrpcClient } from '../src/api/grpc-client.js';
import type { ClientHttp2Engine } from '../src/common/grpc/client-stream.js';
import { Health } from '../src/gen/grpc/health/v1/health_pb.js';
import { GraphService } from '../src/gen/weft/v1/graph_pb.js';
import { QueryService } from '../src/gen/weft/v1/query_pb.js';
import { startServerProcess } from '../test/support/server-process.js';
import { connectH2 } from '../src/common/h2/client.js';
import { bareH2Unary, grpcJsChannel, grpcJsUnary } from './grpc-js-unary.js';
import { bareWeftUnary } from './weft-h2-unary.js';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const calls = arg('calls', 2000);
const rounds = arg('rounds', 3);
const warmup_calls = 300;

type Unary = <I extends DescMessage, O extends DescMessage>(method: DescMethodUnary<I, O>, req: MessageInitShape<I>) => Promise<MessageShape<O>>;

interface Sample {
  readonly ms: number[];
  cpu_us: number;
  calls: number;
}

interface Row {
  readonly call: string;
  readonly client: string;
  readonly median_ms: number;
  readonly p99_ms: number;
  readonly client_cpu_us_per_call: number;
}

const dir = mkdtempSync(join(tmpdir(), 'weft-bench-grpc-client-'));
const server = await startServerProcess(dir, ['--checkpoint-interval-entries', '1000000']);
const channelsOn = (http2_engine: ClientHttp2Engine) => ({
  health: createGrpcClient(Health, server.grpc, { http2_engine }),
  graph: createGrpcClient(GraphService, server.grpc, { http2_engine }),
  query: createGrpcClient(QueryService, server.grpc, { http2_engine }),
});
const weft_channels = channelsOn('weft');
const weft_node_channels = channelsOn('node');
type Channels = typeof weft_channels;
const weftUnary = (channels: Channels): Unary => (method, req) => {
  const c = (method.parent.typeName === Health.typeName ? channels.health : method.parent.typeName === GraphService.typeName ? channels.graph : channels.query) as unknown as Record<string, (r: unknown) => Promise<never>>;
  return c[method.localName]!(req);
};
const js = grpcJsChannel(server.grpc);
const bare = h2connect(`http://${server.grpc}`);
const [bare_host, bare_port] = [server.grpc.slice(0, server.grpc.lastIndexOf(':')), Number(server.grpc.slice(server.grpc.lastIndexOf(':') + 1))];
const bare_weft = connectH2({ host: bare_host, port: bare_port });

/** Both clients behind one signature, each sending through its own connection. */
const clients: Record<string, Unary> = {
  'weft on weft h2': weftUnary(weft_channels),
  'weft on node:http2': weftUnary(weft_node_channels),
  'grpc-js': (method, req) => grpcJsUnary(js, method, req),
  'bare node:http2': (method, req) => bareH2Unary(bare, method, req),
  'bare weft h2': (method, req) => bareWeftUnary(bare_weft, method, req),
};

const node = await weft_channels.graph.createNode({ labels: ['Bench'], properties: { name: { kind: { case: 'stringValue', value: 'x' } } } });
const kinds: Record<string, (u: Unary) => Promise<unknown>> = {
  'health Check': (u) => u(Health.method.check, { service: '' }),
  'RETURN 1': (u) => u(QueryService.method.executeCypher, { query: 'RETURN 1' }),
  'GetNode (point lookup)': (u) => u(GraphService.method.getNode, { nodeId: node.nodeId }),
  'CreateNode': (u) => u(GraphService.method.createNode, { labels: ['Bench'] }),
};

const samples = new Map<string, Sample>();
try {
  for (const [kind, once] of Object.entries(kinds)) for (const u of Object.values(clients)) for (let i = 0; i < warmup_calls; i++) await once(u);
  for (let round = 0; round < rounds; round++) {
    for (const [kind, once] of Object.entries(kinds)) {
      for (const [name, u] of Object.entries(clients)) {
        const key = `${kind}\u0000${name}`;
        const s = samples.get(key) ?? { ms: [], cpu_us: 0, calls: 0 };
        samples.set(key, s);
        const cpu0 = process.cpuUsage();
        for (let i = 0; i < calls; i++) {
          const t0 = process.hrtime.bigint();
          await once(u);
          s.ms.push(Number(process.hrtime.bigint() - t0) / 1e6);
        }
        const cpu = process.cpuUsage(cpu0);
        s.cpu_us += cpu.user + cpu.system;
        s.calls += calls;
      }
    }
  }
} finally {
  for (const c of [...Object.values(weft_channels), ...Object.values(weft_node_channels)]) c.close();
  js.close();
  bare.close();
  bare_weft.goaway();
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}

const rows: Row[] = [];
for (const [key, s] of samples) {
  const [call, client] = key.split('\u0000') as [string, string];
  s.ms.sort((a, b) => a - b);
  rows.push({ call, client, median_ms: s.ms[Math.floor(s.ms.length / 2)]!, p99_ms: s.ms[Math.floor(s.ms.length * 0.99)]!, client_cpu_us_per_call: s.cpu_us / s.calls });
}
const load = loadavg().map((x) => x.toFixed(2)).join(' ');
console.log(`${calls} calls x ${rounds} rounds per client and call, concurrency 1; load average ${load}`);
console.log('| call | client | median ms | p99 ms | client CPU us/call |');
console.log('|---|---|---:|---:|---:|');
for (const r of rows) console.log(`| ${r.call} | ${r.client} | ${r.median_ms.toFixed(3)} | ${r.p99_ms.toFixed(3)} | ${r.client_cpu_us_per_call.toFixed(1)} |`);
const out = join(dirname(fileURLToPath(import.meta.url)), 'results', 'grpc-client.json');
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, JSON.stringify({ calls, rounds, loadavg: loadavg(), rows }, null, 2));
