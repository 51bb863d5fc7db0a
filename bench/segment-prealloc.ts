/**
 * What a lone small write + fdatasync costs by how the file under it was prepared: a file that grows
 * with every write (each fdatasync also commits the new size through the filesystem's journal), a
 * file extended with ftruncate (a sparse file: holes), a file filled with zeros and fsynced, and a
 * file given blocks with fallocate(1) (util-linux; no native module). The segment log's
 * preallocation method (docs/storage.md, "Preallocated segments") was chosen from this table.
 *
 *   npx tsx bench/segment-prealloc.ts [--writes 2000] [--bytes 300]
 *
 * Prints a table and writes bench/results/segment-prealloc.json.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, fdatasyncSync, fsyncSync, ftruncateSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

const arg = (name: string, fallback: number): number => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
};
const writes = arg('--writes', 2000);
const write_bytes = arg('--bytes', 300);
/** The size every prepared file gets: room for all the writes of one case. */
const file_bytes = Math.max(64 * 1024 * 1024, writes * write_bytes * 2);

type Method = 'growing' | 'ftruncate' | 'zero-fill' | 'fallocate';
const methods: readonly Method[] = ['growing', 'ftruncate', 'zero-fill', 'fallocate'];

interface Row {
  readonly method: Method;
  readonly prepare_ms: number;
  readonly p50_us: number;
  readonly p90_us: number;
  readonly p99_us: number;
}

function prepare(method: Method, path: string): boolean {
  switch (method) {
    case 'growing':
      writeFileSync(path, '');
      return true;
    case 'ftruncate': {
      const fd = openSync(path, 'w');
      ftruncateSync(fd, file_bytes);
      fsyncSync(fd);
      closeSync(fd);
      return true;
    }
    case 'zero-fill': {
      const fd = openSync(path, 'w');
      const chunk = Buffer.alloc(1024 * 1024);
      for (let at = 0; at < file_bytes; at += chunk.byteLength) writeSync(fd, chunk, 0, chunk.byteLength, at);
      fsyncSync(fd);
      closeSync(fd);
      return true;
    }
    case 'fallocate': {
      const made = spawnSync('fallocate', ['-l', String(file_bytes), path]);
      if (made.status !== 0) return false;
      const fd = openSync(path, 'r+');
      fsyncSync(fd);
      closeSync(fd);
      return true;
    }
  }
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

const dir = mkdtempSync(join(tmpdir(), 'weft-bench-prealloc-'));
const rows: Row[] = [];
try {
  const payload = Buffer.alloc(write_bytes, 0x61);
  // Two rounds, methods interleaved, so a change in machine load touches every method alike.
  const samples = new Map<Method, { prepare: number[]; us: number[] }>(methods.map((m) => [m, { prepare: [], us: [] }]));
  for (let round = 0; round < 2; round++) {
    for (const method of methods) {
      const path = join(dir, `${method}-${round}`);
      let t = performance.now();
      if (!prepare(method, path)) continue;
      samples.get(method)!.prepare.push(performance.now() - t);
      const fd = openSync(path, 'r+');
      for (let i = 0; i < writes; i++) {
        t = performance.now();
        writeSync(fd, payload, 0, payload.byteLength, i * write_bytes);
        fdatasyncSync(fd);
        samples.get(method)!.us.push((performance.now() - t) * 1000);
      }
      closeSync(fd);
      rmSync(path);
    }
  }
  for (const method of methods) {
    const s = samples.get(method)!;
    if (s.us.length === 0) continue;
    const us = [...s.us].sort((a, b) => a - b);
    const prep = [...s.prepare].sort((a, b) => a - b);
    rows.push({ method, prepare_ms: Number(percentile(prep, 0.5).toFixed(1)), p50_us: Math.round(percentile(us, 0.5)), p90_us: Math.round(percentile(us, 0.9)), p99_us: Math.round(percentile(us, 0.99)) });
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const load = loadavg().map((l) => l.toFixed(2)).join(' ');
console.log(`${writes * 2} writes of ${write_bytes} B + fdatasync per method, files of ${file_bytes / 1024 / 1024} MiB, load average ${load}`);
console.table(rows);
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/segment-prealloc.json', JSON.stringify({ writes: writes * 2, write_bytes, file_bytes, load_average: load, rows }, null, 2));
