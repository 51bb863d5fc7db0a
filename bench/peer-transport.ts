/**
 * Peer transport throughput and latency between two members on loopback, over the real gRPC +
 * mutual TLS transport: Raft appends of 256-byte entries sent the way a leader's Ready sends them
 * (many messages per send), a unary call's round trip, a lone append answered by its acknowledgement
 * (what one write at concurrency 1 costs the link: one frame each way), and a snapshot's transfer
 * rate. Both members run in this one process, so the figures include both ends' CPU on the same
 * cores; CPU per exchange is the process's user + system time over the case, which moves far less
 * with the machine's load than latency does.
 *
 *   npx tsx bench/peer-transport.ts [--engine weft|node]
 *
 * prints a table and writes bench/results/peer-transport.json; `--engine` picks the peer port's
 * HTTP/2 engine (setting peer_http2_engine; Weft's own by default).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startGrpcPeerTransport } from '../src/log/transport/grpc-peer-transport.js';
import { peer_http2_engine_default, peer_http2_engines, type PeerHttp2Engine } from '../src/log/transport/h2-peer-engine.js';
import type { AppendMessage, SnapshotMessage } from '../src/log/raft/types.js';
import { testAuthority } from '../test/support/certs.js';

const entry_bytes = 256;
/** Messages per send call, as one Ready round of a busy leader would hand over. */
const messages_per_send = 64;
const append_messages = 200_000;
const calls = 2_000;
/** Lone appends, each sent only once the previous one's acknowledgement came back. */
const exchanges = 2_000;
const snapshot_bytes = 256 * 1024 * 1024;

const engine_at = process.argv.indexOf('--engine');
const engine = (engine_at >= 0 ? process.argv[engine_at + 1] : peer_http2_engine_default) as PeerHttp2Engine;
if (!peer_http2_engines.includes(engine)) throw new Error(`--engine wants one of ${peer_http2_engines.join(', ')}, got ${engine}`);

const ca = await testAuthority('bench.weft');
const start = async (id: number) =>
  startGrpcPeerTransport({ node_id: id, host: '127.0.0.1', port: 0, tls: await ca.member(id), admission: 'bound', http2_engine: engine });
const a = await start(1);
const b = await start(2);
const peers = new Map([
  [1, { address: a.address, identity: `spiffe://${ca.trust_domain}/member/1` }],
  [2, { address: b.address, identity: `spiffe://${ca.trust_domain}/member/2` }],
]);
a.setPeers(peers);
b.setPeers(peers);
b.handle('echo', async (_from, payload) => payload);

// Appends: the sender must not outrun the bounded queue, so it sends a Ready's worth whenever the
// receiver has caught up to within a window, as Raft's flow control (inflight messages) would.
const window_messages = 4096;
let received = 0;
let snapshot_done: (() => void) | undefined;
/** Set while the lone-append case runs: member 2 acknowledges each append at once, as a follower does after its fsync. */
let acknowledging = false;
let acknowledged: (() => void) | undefined;
b.onRaftMessage((m) => {
  if (m.type === 'app') received++;
  if (m.type === 'app' && acknowledging) b.send([{ type: 'app_resp', from: 2, to: 1, term: 1, index: m.index + 1, reject: false, reject_hint: 0, log_term: 0 }]);
  if (m.type === 'snap') snapshot_done?.();
});
a.onRaftMessage((m) => {
  if (m.type === 'app_resp') acknowledged?.();
});
const cpuUs = (): number => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
const data = new Uint8Array(entry_bytes).fill(7);
const append = (i: number): AppendMessage => ({ type: 'app', from: 1, to: 2, term: 1, index: i, log_term: 1, commit: i, entries: [{ index: i + 1, term: 1, type: 'normal', data }] });
const t0 = performance.now();
let sent = 0;
while (received < append_messages) {
  while (sent < append_messages && sent - received < window_messages) {
    a.send(Array.from({ length: messages_per_send }, (_, k) => append(sent + k)));
    sent += messages_per_send;
  }
  await new Promise((r) => setImmediate(r));
}
const append_ms = performance.now() - t0;

const latencies: number[] = [];
const call_cpu_before = cpuUs();
for (let i = 0; i < calls; i++) {
  const t = performance.now();
  await a.call(2, 'echo', data, 5000);
  latencies.push(performance.now() - t);
}
const call_cpu_us = (cpuUs() - call_cpu_before) / calls;
latencies.sort((x, y) => x - y);

acknowledging = true;
const exchange_latencies: number[] = [];
const exchange_cpu_before = cpuUs();
for (let i = 0; i < exchanges; i++) {
  const t = performance.now();
  const back = new Promise<void>((resolve) => (acknowledged = resolve));
  a.send([append(append_messages + i)]);
  await back;
  exchange_latencies.push(performance.now() - t);
}
const exchange_cpu_us = (cpuUs() - exchange_cpu_before) / exchanges;
acknowledging = false;
exchange_latencies.sort((x, y) => x - y);

const snap: SnapshotMessage = { type: 'snap', from: 1, to: 2, term: 1, snapshot: { meta: { index: 1, term: 1, conf_state: { voters: [1, 2], learners: [] } }, data: new Uint8Array(snapshot_bytes).fill(3) } };
const reported = new Promise<boolean>((resolve) => a.onSnapshotSent((_to, ok) => resolve(ok)));
const arrived = new Promise<void>((resolve) => (snapshot_done = resolve));
const t1 = performance.now();
a.send([snap]);
const [ok] = await Promise.all([reported, arrived]);
const snapshot_ms = performance.now() - t1;
await Promise.all([a.close(), b.close()]);

const results = {
  appends_per_sec: Math.round(append_messages / (append_ms / 1000)),
  append_mib_per_sec: +((append_messages * entry_bytes) / (append_ms / 1000) / 2 ** 20).toFixed(1),
  call_p50_ms: +latencies[Math.floor(calls * 0.5)]!.toFixed(3),
  call_p99_ms: +latencies[Math.floor(calls * 0.99)]!.toFixed(3),
  call_cpu_us: Math.round(call_cpu_us),
  lone_append_p50_ms: +exchange_latencies[Math.floor(exchanges * 0.5)]!.toFixed(3),
  lone_append_cpu_us: Math.round(exchange_cpu_us),
  snapshot_mib_per_sec: +(snapshot_bytes / 2 ** 20 / (snapshot_ms / 1000)).toFixed(1),
  snapshot_delivered: ok,
  dropped_messages: a.counters.dropped_messages,
};
const rows: [string, string][] = [
  [`appends (1 x ${entry_bytes} B entry each), per second`, String(results.appends_per_sec)],
  ['append payload, MiB/s', String(results.append_mib_per_sec)],
  ['unary call round trip p50, ms', String(results.call_p50_ms)],
  ['unary call round trip p99, ms', String(results.call_p99_ms)],
  ['unary call, CPU us (both ends)', String(results.call_cpu_us)],
  ['lone append and its ack, round trip p50, ms', String(results.lone_append_p50_ms)],
  ['lone append and its ack, CPU us (both ends)', String(results.lone_append_cpu_us)],
  [`snapshot of ${snapshot_bytes / 2 ** 20} MiB, MiB/s`, `${results.snapshot_mib_per_sec} (${ok ? 'delivered' : 'NOT delivered'})`],
];
console.log(`peer port on the ${engine} HTTP/2 engine`);
for (const [k, v] of rows) console.log(`${k.padEnd(46)} ${v}`);
console.log(`load average at the end: ${loadavg().map((l) => l.toFixed(2)).join(', ')}`);
const out = join(dirname(fileURLToPath(import.meta.url)), 'results', 'peer-transport.json');
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, JSON.stringify({ bench: 'peer-transport', at: new Date().toISOString(), engine, load_average: loadavg(), results }, null, 2));
