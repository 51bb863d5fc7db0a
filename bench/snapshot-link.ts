/**
 * Snapshot transfer rate between two members over the real gRPC + mutual TLS peer transport, through
 * the chaos harness's loopback link proxy (test/chaos/link-proxy.ts) with no delay and with a delay
 * on every chunk each way, once with HTTP/2's own 64 KiB flow-control windows and once with the
 * transport's (stream_window_bytes). A link's latency divides a fixed window: the rate is at most
 * one window per round trip.
 *
 *   npx tsx bench/snapshot-link.ts [--mib 16]    prints a table, writes bench/results/snapshot-link.json
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { startGrpcPeerTransport } from '../src/log/transport/grpc-peer-transport.js';
import type { SnapshotMessage } from '../src/log/raft/types.js';
import { default_peer_transport_limits } from '../src/log/transport/transport-limits.js';
import { testAuthority } from '../test/support/certs.js';
import { LinkProxy } from '../test/chaos/link-proxy.js';

const mib_at = process.argv.indexOf('--mib');
const snapshot_mib = mib_at >= 0 ? Number(process.argv[mib_at + 1]) : 16;
/** HTTP/2's initial window, what the transport used before it raised its own. */
const http2_window_bytes = 65_535;
/** A whole transfer at 64 KiB per 100 ms would take minutes: the slow rows send less. */
const slow_snapshot_mib = 2;

const ca = await testAuthority('bench.weft');

async function transfer(window_bytes: number, delay_ms: number, mib: number): Promise<number> {
  const limits = { stream_window_bytes: window_bytes };
  const b = await startGrpcPeerTransport({ node_id: 2, host: '127.0.0.1', port: 0, tls: await ca.member(2), admission: 'bound', limits });
  const proxy = await LinkProxy.start(b.address);
  const a = await startGrpcPeerTransport({ node_id: 1, host: '127.0.0.1', port: 0, tls: await ca.member(1), admission: 'bound', limits, dial_overrides: new Map([[b.address, proxy.address]]) });
  const peers = new Map([
    [1, { address: a.address, identity: `spiffe://${ca.trust_domain}/member/1` }],
    [2, { address: b.address, identity: `spiffe://${ca.trust_domain}/member/2` }],
  ]);
  a.setPeers(peers);
  b.setPeers(peers);
  if (delay_ms > 0) proxy.set({ kind: 'delay', ms: delay_ms });
  const bytes = mib * 2 ** 20;
  const arrived = new Promise<void>((resolve) => b.onRaftMessage((m) => m.type === 'snap' && resolve()));
  const snap: SnapshotMessage = { type: 'snap', from: 1, to: 2, term: 1, snapshot: { meta: { index: 1, term: 1, conf_state: { voters: [1, 2], learners: [] } }, data: new Uint8Array(bytes).fill(3) } };
  const t = performance.now();
  a.send([snap]);
  await arrived;
  const ms = performance.now() - t;
  await Promise.all([a.close(), b.close()]);
  await proxy.close();
  return bytes / 2 ** 20 / (ms / 1000);
}

const rows: { window_bytes: number; delay_ms: number; snapshot_mib: number; mib_per_sec: number }[] = [];
for (const delay_ms of [0, 20, 50]) {
  for (const window_bytes of [http2_window_bytes, default_peer_transport_limits.stream_window_bytes]) {
    const mib = window_bytes === http2_window_bytes && delay_ms > 0 ? slow_snapshot_mib : snapshot_mib;
    rows.push({ window_bytes, delay_ms, snapshot_mib: mib, mib_per_sec: +(await transfer(window_bytes, delay_ms, mib)).toFixed(1) });
  }
}
console.log('| delay each way, ms | window, bytes | snapshot, MiB | MiB/s |');
console.log('|---:|---:|---:|---:|');
for (const r of rows) console.log(`| ${r.delay_ms} | ${r.window_bytes} | ${r.snapshot_mib} | ${r.mib_per_sec} |`);
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/snapshot-link.json', JSON.stringify({ bench: 'snapshot-link', at: new Date().toISOString(), rows }, null, 2));
