/**
 * Blob throughput end to end over gRPC: UploadBlob and DownloadBlob of one large blob, beside this
 * machine's SHA-256 rate and sequential write rate (256 KiB writes, fsync at the end) measured in
 * the same run. The goal is at least 40% of the slower of the two.
 *
 *   npx tsx bench/blob.ts [--mb 1024] [--cpu-prof <dir>]
 *
 * `--cpu-prof <dir>` runs the server under `node --cpu-prof` and leaves its profile in <dir>.
 *
 * Prints a table and writes bench/results/blob.json.
 */
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
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
const piece_bytes = 256 * 1024;
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
}

/**
 * CPU seconds (user + system) a process has used, from /proc: on a machine shared with other work
 * it says what a case costs when its wall time says mostly how busy the machine was.
 */
function cpuSecondsOf(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime are fields 14 and 15 of stat(5), in clock ticks (100 per second on Linux).
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

/** System (kernel) CPU seconds of a process, from /proc: field 15 of stat(5). */
function systemSecondsOf(pid: number): number {
  try {
    return Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[12]) / 100;
  } catch {
    return Number.NaN;
  }
}

function clientCpuSeconds(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

/** A distinct 256 KiB piece per index (a counter in a random base), made on demand. */
function piece(base: Buffer, i: number): Buffer {
  const b = Buffer.from(base);
  b.writeUInt32LE(i, 0);
  b.writeUInt32LE(0x5eed, 4);
  return b;
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
    const frames = function* (): Iterable<{ data: Uint8Array; sequence: number }> {
      for (let i = 0; i < pieces; i++) {
        const data = piece(base, i);
        data.writeUInt32LE(0xb10b, 4);
        yield { data, sequence: i };
      }
    };
    const gib = blob_mb / 1024;
    /** Runs one case, timing it and charging the CPU both processes spent to it. */
    const measure = async <T>(name: (out: T) => string, run: () => Promise<T>): Promise<T> => {
      const server_cpu = cpuSecondsOf(server.pid);
      const server_sys = systemSecondsOf(server.pid);
      const client_cpu = clientCpuSeconds();
      const started = performance.now();
      const out = await run();
      const seconds = (performance.now() - started) / 1000;
      rows.push({
        case: name(out),
        mb_per_s: blob_mb / seconds,
        seconds,
        server_cpu_s_per_gib: (cpuSecondsOf(server.pid) - server_cpu) / gib,
        client_cpu_s_per_gib: (clientCpuSeconds() - client_cpu) / gib,
        server_sys_s_per_gib: (systemSecondsOf(server.pid) - server_sys) / gib,
      });
      return out;
    };
    const up = await measure(() => `UploadBlob, ${blob_mb} MiB over gRPC`, () => client.uploadBlob(frames()));
    await measure(
      () => `DownloadBlob, ${blob_mb} MiB over gRPC`,
      async () => {
        let bytes = 0;
        for await (const c of client.downloadBlob({ blobId: up.blobId })) bytes += c.data.byteLength;
        if (bytes !== blob_mb * 1024 * 1024) throw new Error(`downloaded ${bytes} bytes`);
      },
    );
    await measure((again) => `UploadBlob again (all ${again.dedupChunks} chunks deduplicated)`, () => client.uploadBlob(frames()));
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
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/blob.json', JSON.stringify({ blob_mb, goal_mb_per_s: goal, rows, load_average: loadavg(), at: new Date().toISOString() }, null, 2));
}

await main();
