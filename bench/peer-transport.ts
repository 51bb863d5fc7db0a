/**
 * Peer transport throughput and latency between two members on loopback, over the real gRPC +
 * mutual TLS transport: Raft appends of 256-byte entries sent the way a leader's Ready sends them
 * (many messages per send), a unary call's round trip, and a snapshot's transfer rate. Both members
 * run in this one process, so the figures include both ends' CPU on the same cores.
 *
 *   npx tsx bench/peer-transport.ts        prints a table, writes bench/results/peer-transport.json
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startGrpcPeerTransport } from '../src/log/transport/grpc-peer-transport.js';
import type { AppendMessage, SnapshotMessage } from '../src/log/raft/types.js';
import { testAuthority } from '../test/support/certs.js';

const entry_bytes = 256;
/** Messages per send call, as one Ready round of a busy leader would hand over. */
const messages_per_send = 64;
const append_messages = 200_000;
const calls = 2_000;
const snapshot_bytes = 256 * 1024 * 1024;

const ca = await testAuthority('bench.weft');
const start = async (id: number) =>
  startGrpcPeerTransport({ node_id: id, host: '127.0.0.1', port: 0, tls: await ca.member(id), admission: 'bound' });
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
b.onRaftMessage((m) => {
  if (m.type === 'app') received++;
  if (m.type === 'snap') snapshot_done?.();
});
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
for (let i = 0; i < calls; i++) {
  const t = performance.now();
  await a.call(2, 'echo', data, 5000);
  latencies.push(performance.now() - t);
}
latencies.sort((x, y) => x - y);

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
  snapshot_mib_per_sec: +(snapshot_bytes / 2 ** 20 / (snapshot_ms / 1000)).toFixed(1),
  snapshot_delivered: ok,
  dropped_messages: a.counters.dropped_messages,
};
const rows: [string, string][] = [
  [`appends (1 x ${entry_bytes} B entry each), per second`, String(results.appends_per_sec)],
  ['append payload, MiB/s', String(results.append_mib_per_sec)],
  ['unary call round trip p50, ms', String(results.call_p50_ms)],
  ['unary call round trip p99, ms', String(results.call_p99_ms)],
  [`snapshot of ${snapshot_bytes / 2 ** 20} MiB, MiB/s`, `${results.snapshot_mib_per_sec} (${ok ? 'delivered' : 'NOT delivered'})`],
];
for (const [k, v] of rows) console.log(`${k.padEnd(46)} ${v}`);
const out = join(dirname(fileURLToPath(import.meta.url)), 'results', 'peer-transport.json');
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, JSON.stringify({ bench: 'peer-transport', at: new Date().toISOString(), results }, null, 2));
