/**
 * Where the time of one write at concurrency 1 goes on a single member (issues 11 and 12).
 *
 * 1. Timeline: an in-process Database; each step of one CreateNode-like write (propose, Ready,
 *    append, writev, fdatasync returned, apply, write resolved) is stamped in ms since the write
 *    began, by wrapping the log's and the driver's methods. Median over many writes after a warm-up.
 * 2. fdatasync of a lone small write through the thread pool (what the log does) beside the same
 *    call on the event loop's thread: the price of the pool's round trip and wakeup.
 * 3. Over gRPC against a `weft serve` process: CreateNode beside GetNode of one node, so the
 *    round trip of a call without the write path shows next to one with it; with the client on
 *    Weft's own HTTP/2 engine and on node:http2 (the client's share of a call).
 *
 * The in-process Database takes the server's default log settings (src/server/config.ts), so its
 * timeline is the one a `weft serve` member of a group of one runs.
 *
 *   npx tsx bench/write-timeline.ts [--writes 3000]
 *
 * Prints tables and writes bench/results/write-timeline.json.
 */
import { closeSync, fdatasync, fdatasyncSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createGrpcClient } from '../src/api/grpc-client.js';
import { GraphService } from '../src/gen/weft/v1/graph_pb.js';
import type { PropertyMap } from '../src/common/property-value.js';
import { LogDriver, type ConcernWait } from '../src/log/driver/log-driver.js';
import { SegmentLog } from '../src/log/storage/segment-log.js';
import type { ClientHttp2Engine } from '../src/common/grpc/client-stream.js';
import { defaultConfig } from '../src/server/config.js';
import { Database } from '../src/server/database.js';
import { startServerProcess } from '../test/support/server-process.js';
import { percentile } from './stats.js';

const writes_at = process.argv.indexOf('--writes');
const writes = writes_at >= 0 ? Number(process.argv[writes_at + 1]) : 3000;
if (!(writes > 0)) throw new Error(`--writes wants a positive number, got ${process.argv[writes_at + 1]}`);
/** Writes before the measured ones, so the code is compiled and the caches warm. */
const warm_up_writes = 1000;
/** Duration of each gRPC case, in ms. */
const grpc_case_ms = 3000;

type Method = (...args: unknown[]) => unknown;
type Mark = readonly [step: string, at_ms: number];

/** Stamps entry to `name` on `proto`, and its return (or its promise settling, as `name:end`). */
function stamp(proto: object, name: string, marks: Mark[]): void {
  const methods = proto as Record<string, Method>;
  const inner = methods[name];
  if (inner === undefined) throw new Error(`no method ${name} to stamp`);
  methods[name] = function (this: unknown, ...args: unknown[]): unknown {
    marks.push([name, performance.now()]);
    const out = inner.apply(this, args);
    if (out instanceof Promise) void out.then(() => marks.push([`${name}:end`, performance.now()]), () => undefined);
    else marks.push([`${name}:ret`, performance.now()]);
    return out;
  };
}

interface Step {
  readonly step: string;
  readonly p50_ms: number;
}

/** Median time since the write began of each step, for the writes whose steps came in the usual order. */
async function timeline(): Promise<Step[]> {
  const marks: Mark[] = [];
  for (const name of ['append', 'flush', 'writeBatch', 'notify']) stamp(SegmentLog.prototype, name, marks);
  for (const name of ['runReady', 'applyCommitted']) stamp(LogDriver.prototype, name, marks);
  const dir = mkdtempSync(join(tmpdir(), 'weft-write-timeline-'));
  const db = await Database.open({
    data_dir: dir,
    node_id: 1,
    mvcc_retention_secs: 0,
    checkpoint_interval_entries: 1_000_000,
    log_segment_bytes_max: 1 << 26,
    log_inline_fsync_entries_max: defaultConfig.log_inline_fsync_entries_max,
    log_follower_inline_fsync_entries_max: defaultConfig.log_follower_inline_fsync_entries_max,
    log_single_member_inline_fsync_entries_max: defaultConfig.log_single_member_inline_fsync_entries_max,
  });
  // What a single member's CreateNode waits for: its own fsync.
  const concern: ConcernWait = { acks: 1, level: 'journal', timeout_ms: 0 };
  const props: PropertyMap = new Map([['name', 'n']]);
  const by_step = new Map<string, number[]>();
  try {
    for (let i = 0; i < warm_up_writes + writes; i++) {
      marks.length = 0;
      const began = performance.now();
      await db.write((ws) => ws.createNode(['Bench'], props), { concern });
      marks.push(['write resolved', performance.now()]);
      if (i < warm_up_writes) continue;
      marks.forEach(([step, at], k) => {
        const key = `${String(k).padStart(2, '0')} ${step}`;
        const list = by_step.get(key) ?? [];
        list.push(at - began);
        by_step.set(key, list);
      });
    }
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
  // A step seen in fewer than half the writes belongs to an unusual order (a tick, a checkpoint).
  return [...by_step]
    .filter(([, list]) => list.length >= writes / 2)
    .map(([step, list]) => ({ step, p50_ms: percentile(list.sort((a, b) => a - b), 50) }));
}

interface Row {
  readonly case: string;
  readonly count: number;
  readonly p50_ms: number;
  readonly p99_ms: number;
}

function row(name: string, lat: number[]): Row {
  lat.sort((a, b) => a - b);
  return { case: name, count: lat.length, p50_ms: percentile(lat, 50), p99_ms: percentile(lat, 99) };
}

/** A 300-byte write and its fdatasync, the fdatasync through the thread pool or on this thread. */
async function fsyncPaths(): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'weft-fsync-paths-'));
  const fd = openSync(join(dir, 'probe'), 'w');
  const block = Buffer.alloc(300, 7);
  const pooled = promisify(fdatasync);
  const rows: Row[] = [];
  try {
    for (const path of ['thread pool', 'event loop thread'] as const) {
      const lat: number[] = [];
      for (let i = 0; i < warm_up_writes + writes; i++) {
        const t = performance.now();
        writeSync(fd, block);
        if (path === 'thread pool') await pooled(fd);
        else fdatasyncSync(fd);
        if (i >= warm_up_writes) lat.push(performance.now() - t);
      }
      rows.push(row(`300 B write + fdatasync on the ${path}`, lat));
    }
  } finally {
    closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

async function overGrpc(engine: ClientHttp2Engine): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'weft-write-timeline-grpc-'));
  const server = await startServerProcess(join(dir, 'data'));
  const client = createGrpcClient(GraphService, server.grpc, { http2_engine: engine });
  const node = { labels: ['Bench'], properties: { name: { kind: { case: 'stringValue' as const, value: 'n' } } } };
  const rows: Row[] = [];
  try {
    const created = await client.createNode(node);
    const timed = async (call: () => Promise<unknown>): Promise<number[]> => {
      const lat: number[] = [];
      const end = performance.now() + grpc_case_ms;
      while (performance.now() < end) {
        const t = performance.now();
        await call();
        lat.push(performance.now() - t);
      }
      return lat;
    };
    // The first round warms both calls on both sides; the second is reported.
    for (const round of [0, 1]) {
      const create = await timed(() => client.createNode(node));
      const get = await timed(() => client.getNode({ nodeId: created.nodeId }));
      if (round === 1) rows.push(row(`gRPC CreateNode, concurrency 1, client on ${engine}`, create), row(`gRPC GetNode, concurrency 1, client on ${engine}`, get));
    }
  } finally {
    client.close();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

async function main(): Promise<void> {
  const load_before = loadavg();
  const steps = await timeline();
  const fsyncs = await fsyncPaths();
  const grpc = [...(await overGrpc('weft')), ...(await overGrpc('node'))];
  console.log(`\nOne write on a single member, in process: ms since the write began (median of ${writes})`);
  console.log('| step | p50 ms |');
  console.log('|---|---:|');
  for (const s of steps) console.log(`| ${s.step} | ${s.p50_ms.toFixed(3)} |`);
  console.log('\n| case | count | p50 ms | p99 ms |');
  console.log('|---|---:|---:|---:|');
  for (const r of [...fsyncs, ...grpc]) console.log(`| ${r.case} | ${r.count} | ${r.p50_ms.toFixed(3)} | ${r.p99_ms.toFixed(3)} |`);
  const load_after = loadavg();
  console.log(`\nload average before ${load_before.map((l) => l.toFixed(2)).join(', ')}; after ${load_after.map((l) => l.toFixed(2)).join(', ')}`);
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/write-timeline.json', JSON.stringify({ writes, steps, rows: [...fsyncs, ...grpc], load_before, load_after, at: new Date().toISOString() }, null, 2));
}

await main();
