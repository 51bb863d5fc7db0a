/**
 * Whether SHA-256 of blob chunks belongs on worker threads: hashes `--mb` MiB of 256 KiB chunks on
 * the event loop, then on one and on two workers (each chunk transferred there, its digest sent
 * back, the chunk transferred back as an upload would need it to write it). Prints, per way, the
 * wall time, the event loop's busy seconds (what the loop could not spend on the stream) and the
 * process's CPU seconds, per GiB.
 *
 *   npx tsx bench/hash-worker.ts [--mb 1024]
 *
 * Writes bench/results/hash-worker.json.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';

const mb_at = process.argv.indexOf('--mb');
const blob_mb = mb_at >= 0 ? Number(process.argv[mb_at + 1]) : 1024;
const chunk_bytes = 256 * 1024;
const chunks = (blob_mb * 1024 * 1024) / chunk_bytes;
/** Chunks in flight per worker: as many as an upload keeps in flight. */
const in_flight_per_worker = 8;

const worker_source = `
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
parentPort.on('message', ({ id, data }) => {
  const digest = createHash('sha256').update(new Uint8Array(data)).digest();
  parentPort.postMessage({ id, digest, data }, [data]);
});
`;

interface Row {
  readonly way: string;
  readonly seconds_per_gib: number;
  readonly loop_busy_s_per_gib: number;
  readonly cpu_s_per_gib: number;
}

const base = randomBytes(chunk_bytes);
function chunk(i: number): ArrayBuffer {
  const b = new Uint8Array(chunk_bytes);
  b.set(base);
  new DataView(b.buffer).setUint32(0, i, true);
  return b.buffer;
}

async function measure(way: string, run: () => Promise<void>): Promise<Row> {
  const gib = blob_mb / 1024;
  const elu = performance.eventLoopUtilization();
  const cpu = process.cpuUsage();
  const started = performance.now();
  await run();
  const seconds = (performance.now() - started) / 1000;
  const busy = performance.eventLoopUtilization(elu);
  const used = process.cpuUsage(cpu);
  return { way, seconds_per_gib: seconds / gib, loop_busy_s_per_gib: busy.active / 1000 / gib, cpu_s_per_gib: (used.user + used.system) / 1e6 / gib };
}

async function inline(): Promise<void> {
  for (let i = 0; i < chunks; i++) {
    createHash('sha256').update(new Uint8Array(chunk(i))).digest();
    // Yields as an upload does between messages.
    if (i % 8 === 0) await new Promise((r) => setImmediate(r));
  }
}

async function onWorkers(n: number): Promise<void> {
  const workers = Array.from({ length: n }, () => new Worker(worker_source, { eval: true }));
  try {
    let next = 0;
    let done = 0;
    await new Promise<void>((resolve, reject) => {
      const send = (w: Worker): void => {
        if (next >= chunks) return;
        const data = chunk(next);
        w.postMessage({ id: next++, data }, [data]);
      };
      for (const w of workers) {
        w.on('error', reject);
        w.on('message', () => {
          done++;
          if (done === chunks) resolve();
          else send(w);
        });
        for (let k = 0; k < in_flight_per_worker; k++) send(w);
      }
    });
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

const rows = [
  await measure('createHash on the event loop', inline),
  await measure('one worker, chunks transferred', () => onWorkers(1)),
  await measure('two workers, chunks transferred', () => onWorkers(2)),
];
const [load1] = loadavg();
console.log(`\nSHA-256 of ${blob_mb} MiB in 256 KiB chunks; load average ${load1!.toFixed(2)}`);
console.log('| way | wall s/GiB | event loop busy s/GiB | process CPU s/GiB |');
console.log('|---|---:|---:|---:|');
for (const r of rows) console.log(`| ${r.way} | ${r.seconds_per_gib.toFixed(2)} | ${r.loop_busy_s_per_gib.toFixed(2)} | ${r.cpu_s_per_gib.toFixed(2)} |`);
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/hash-worker.json', JSON.stringify({ blob_mb, rows, load_average: loadavg(), at: new Date().toISOString() }, null, 2));
