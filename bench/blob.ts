/**
 * Blob throughput end to end over gRPC: UploadBlob and DownloadBlob of one large blob, beside this
 * machine's SHA-256 rate and sequential write rate (256 KiB writes, fsync at the end) measured in
 * the same run. The goal is at least 40% of the slower of the two.
 *
 *   npx tsx bench/blob.ts [--mb 1024] [--cpu-prof <dir>] [--client-cpu-prof <dir>] [--fresh-buffers]
 *
 * The uploaded bytes come from a ring of `ring_pieces` buffers holding one random base, each piece
 * made distinct by a counter in its first bytes, so the client's CPU figures are the client's and
 * not this bench's allocator's (`--fresh-buffers` copies every piece into a new buffer instead, as
 * the bench did before). The blob id the uploads answer is checked against one computed here, and
 * each downloaded chunk against its counter.
 *
 * `--cpu-prof <dir>` runs the server under `node --cpu-prof` and leaves its profile in <dir>;
 * `--client-cpu-prof <dir>` profiles this process (the client) over the three cases and leaves
 * client.cpuprofile in <dir>. Each case's start and end on the profiles' clock are written to the
 * results (`window_us`), so `bench/cpu-profile-top.ts --from --to` can split a profile by case.
 *
 * Prints a table and writes bench/results/blob.json.
 */
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { createGrpcClient } from '../src/api/grpc-client.js';
import { BlobService } from '../src/gen/weft/v1/blob_pb.js';
import { startServerProcess } from '../test/support/server-process.js';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const blob_mb = arg('mb', 1024);
const prof_at = process.argv.indexOf('--cpu-prof');
const cpu_prof_dir = prof_at >= 0 ? process.argv[prof_at + 1] : undefined;
const client_prof_at = process.argv.indexOf('--client-cpu-prof');
const client_prof_dir = client_prof_at >= 0 ? process.argv[client_prof_at + 1] : undefined;
const piece_bytes = 256 * 1024;
const fresh_buffers = process.argv.includes('--fresh-buffers');
/**
 * Buffers the upload's pieces cycle through. The client writes a piece and, since a 256 KiB write
 * passes its stream's high-water mark, waits for 'drain' (its earlier writes done) before the next:
 * a slot is written again only many messages after it went out. The blob id check would catch one
 * changed under the stream.
 */
const ring_pieces = 64;
const pieces = (blob_mb * 1024 * 1024) / piece_bytes;

interface Row {
  readonly case: string;
  readonly mb_per_s: number;
  readonly seconds: number;
  /** CPU seconds (user + system) the server and this client process spent per GiB moved. */
  readonly server_cpu_s_per_gib?: number;
  readonly client_cpu_s_per_gib?: number;
  /** The part of the server's CPU seconds per GiB spent in the kernel (system time). */
  readonly server_sys_s_per_gib?: number;
  /** Each process's CPU seconds per GiB, split between its main thread and the others. */
  readonly server_cpu?: CpuPerGib;
  readonly client_cpu?: CpuPerGib;
  /** The case's start and end in microseconds of the monotonic clock V8's CPU profiles use. */
  readonly window_us?: readonly [number, number];
}

/** Now on the monotonic clock of `process.hrtime` and of V8's CPU profiles, in microseconds. */
function monotonicUs(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

/**
 * CPU seconds a process has used, from /proc, in user space and in the kernel, for the whole
 * process and for its main thread (the event loop; the other threads are libuv's pool, doing the
 * file writes and fsyncs, and V8's, doing garbage collection). On a machine shared with other work
 * they say what a case costs when its wall time says mostly how busy the machine was.
 */
interface CpuTimes {
  readonly user: number;
  readonly sys: number;
  readonly main_user: number;
  readonly main_sys: number;
}

/** utime and stime, fields 14 and 15 of stat(5), in seconds (100 clock ticks per second on Linux). */
function statTimes(path: string): { readonly user: number; readonly sys: number } {
  try {
    const fields = readFileSync(path, 'utf8').split(') ')[1]!.split(' ');
    return { user: Number(fields[11]) / 100, sys: Number(fields[12]) / 100 };
  } catch {
    return { user: Number.NaN, sys: Number.NaN };
  }
}

function cpuTimesOf(pid: number): CpuTimes {
  const all = statTimes(`/proc/${pid}/stat`);
  const main = statTimes(`/proc/${pid}/task/${pid}/stat`);
  return { user: all.user, sys: all.sys, main_user: main.user, main_sys: main.sys };
}

/** What a process spent between two readings, in seconds per GiB moved. */
interface CpuPerGib {
  readonly total: number;
  readonly sys: number;
  /** The main thread's part of `total`. */
  readonly main: number;
  /** The main thread's time in the kernel. */
  readonly main_sys: number;
}

function perGib(before: CpuTimes, after: CpuTimes, gib: number): CpuPerGib {
  return {
    total: (after.user + after.sys - before.user - before.sys) / gib,
    sys: (after.sys - before.sys) / gib,
    main: (after.main_user + after.main_sys - before.main_user - before.main_sys) / gib,
    main_sys: (after.main_sys - before.main_sys) / gib,
  };
}

/** A distinct 256 KiB piece per index (a counter in a random base), made on demand. */
function piece(base: Buffer, i: number): Buffer {
  const b = Buffer.from(base);
  b.writeUInt32LE(i, 0);
  b.writeUInt32LE(0x5eed, 4);
  return b;
}

/** The blob id of `count` pieces as the server names it (docs/blobs.md): SHA-256 over the chunk hashes. */
function blobIdOf(count: number, pieceAt: (i: number) => Buffer): string {
  const h = createHash('sha256');
  for (let i = 0; i < count; i++) h.update(createHash('sha256').update(pieceAt(i)).digest());
  return h.digest('hex');
}

function sha256Rate(base: Buffer): Row {
  const started = performance.now();
  for (let i = 0; i < pieces; i++) createHash('sha256').update(piece(base, i)).digest();
  const seconds = (performance.now() - started) / 1000;
  return { case: 'machine SHA-256 (256 KiB pieces)', mb_per_s: blob_mb / seconds, seconds };
}

function sequentialWriteRate(dir: string, base: Buffer): Row {
  const path = join(dir, 'write-probe');
  const started = performance.now();
  const fd = openSync(path, 'w');
  for (let i = 0; i < pieces; i++) writeSync(fd, piece(base, i));
  fsyncSync(fd);
  closeSync(fd);
  const seconds = (performance.now() - started) / 1000;
  rmSync(path);
  return { case: 'machine sequential write (256 KiB writes, one fsync)', mb_per_s: blob_mb / seconds, seconds };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'weft-bench-blob-'));
  const base = randomBytes(piece_bytes);
  const rows: Row[] = [];
  const node_args = cpu_prof_dir === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', cpu_prof_dir];
  const server = await startServerProcess(join(dir, 'data'), [], node_args);
  const client = createGrpcClient(BlobService, server.grpc);
  let goal = 0;
  try {
    rows.push(sha256Rate(base));
    rows.push(sequentialWriteRate(dir, base));
    goal = 0.4 * Math.min(rows[0]!.mb_per_s, rows[1]!.mb_per_s);
    // The bench's own blob uses another seed word, so no chunk is a dedup of the probes.
    const blobPiece = (into: Buffer, i: number): Buffer => {
      into.writeUInt32LE(i, 0);
      into.writeUInt32LE(0xb10b, 4);
      return into;
    };
    const ring = Array.from({ length: ring_pieces }, () => Buffer.from(base));
    const frames = function* (): Iterable<{ data: Uint8Array; sequence: number }> {
      for (let i = 0; i < pieces; i++) {
        const data = fresh_buffers ? blobPiece(Buffer.from(base), i) : blobPiece(ring[i % ring_pieces]!, i);
        yield { data, sequence: i };
      }
    };
    const scratch = Buffer.from(base);
    const expected_blob_id = blobIdOf(pieces, (i) => blobPiece(scratch, i));
    const gib = blob_mb / 1024;
    /** Runs one case, timing it and charging the CPU both processes spent to it. */
    const measure = async <T>(name: (out: T) => string, run: () => Promise<T>): Promise<T> => {
      const from_us = monotonicUs();
      const server_before = cpuTimesOf(server.pid);
      const client_before = cpuTimesOf(process.pid);
      const started = performance.now();
      const out = await run();
      const seconds = (performance.now() - started) / 1000;
      const server_cpu = perGib(server_before, cpuTimesOf(server.pid), gib);
      const client_cpu = perGib(client_before, cpuTimesOf(process.pid), gib);
      rows.push({
        case: name(out),
        mb_per_s: blob_mb / seconds,
        seconds,
        server_cpu_s_per_gib: server_cpu.total,
        client_cpu_s_per_gib: client_cpu.total,
        server_sys_s_per_gib: server_cpu.sys,
        server_cpu,
        client_cpu,
        window_us: [from_us, monotonicUs()],
      });
      return out;
    };
    const profiler = client_prof_dir === undefined ? undefined : new Session();
    if (profiler !== undefined) {
      profiler.connect();
      await profiler.post('Profiler.enable');
      await profiler.post('Profiler.start');
    }
    const checkId = (blob_id: string): void => {
      if (blob_id !== expected_blob_id) throw new Error(`the upload answered blob ${blob_id}, not the ${expected_blob_id} of the bytes sent`);
    };
    const up = await measure(() => `UploadBlob, ${blob_mb} MiB over gRPC`, () => client.uploadBlob(frames()));
    checkId(up.blobId);
    await measure(
      () => `DownloadBlob, ${blob_mb} MiB over gRPC`,
      async () => {
        let bytes = 0;
        for await (const c of client.downloadBlob({ blobId: up.blobId })) {
          const counter = Buffer.from(c.data.buffer, c.data.byteOffset, 4).readUInt32LE(0);
          if (counter !== c.sequence) throw new Error(`downloaded chunk ${c.sequence} holds piece ${counter}`);
          bytes += c.data.byteLength;
        }
        if (bytes !== blob_mb * 1024 * 1024) throw new Error(`downloaded ${bytes} bytes`);
      },
    );
    const again = await measure((out) => `UploadBlob again (all ${out.dedupChunks} chunks deduplicated)`, () => client.uploadBlob(frames()));
    checkId(again.blobId);
    if (profiler !== undefined && client_prof_dir !== undefined) {
      const { profile } = await profiler.post('Profiler.stop');
      mkdirSync(client_prof_dir, { recursive: true });
      writeFileSync(join(client_prof_dir, 'client.cpuprofile'), JSON.stringify(profile));
      profiler.disconnect();
    }
  } finally {
    client.close();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  const [load1, load5] = loadavg();
  console.log(`\nload average ${load1!.toFixed(2)} (1 min), ${load5!.toFixed(2)} (5 min) at the end of the run`);
  console.log(`\nWeft blobs, single member, one ${blob_mb} MiB blob; goal ${goal.toFixed(0)} MB/s (40% of the slower machine rate)`);
  console.log('| case | MiB/s | seconds | share of goal | server CPU s/GiB | client CPU s/GiB |');
  console.log('|---|---:|---:|---:|---:|---:|');
  const cpu = (v: number | undefined): string => (v === undefined ? '' : v.toFixed(2));
  for (const r of rows) {
    console.log(`| ${r.case} | ${r.mb_per_s.toFixed(0)} | ${r.seconds.toFixed(2)} | ${(r.mb_per_s / goal).toFixed(2)} | ${cpu(r.server_cpu_s_per_gib)} | ${cpu(r.client_cpu_s_per_gib)} |`);
  }
  console.log(`\nof the server's CPU s/GiB, in the kernel: ${rows.map((r) => cpu(r.server_sys_s_per_gib)).join(' · ')} (the cases in order)`);
  console.log('\nCPU s/GiB by thread: main thread (of it in the kernel) + other threads (of it in the kernel)');
  console.log('| case | server main | server others | client main | client others |');
  console.log('|---|---:|---:|---:|---:|');
  const split = (c: CpuPerGib | undefined, side: 'main' | 'others'): string => {
    if (c === undefined) return '';
    return side === 'main' ? `${c.main.toFixed(2)} (${c.main_sys.toFixed(2)})` : `${(c.total - c.main).toFixed(2)} (${(c.sys - c.main_sys).toFixed(2)})`;
  };
  for (const r of rows) {
    if (r.server_cpu === undefined) continue;
    console.log(`| ${r.case} | ${split(r.server_cpu, 'main')} | ${split(r.server_cpu, 'others')} | ${split(r.client_cpu, 'main')} | ${split(r.client_cpu, 'others')} |`);
  }
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/blob.json', JSON.stringify({ blob_mb, fresh_buffers, goal_mb_per_s: goal, rows, load_average: loadavg(), at: new Date().toISOString() }, null, 2));
}

await main();
