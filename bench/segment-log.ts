/**
 * What the segment log's integrity costs: append throughput with group commit (256-byte entries,
 * 64 appenders per turn), recovery at open (every record verified), reads and scans with checksums,
 * and the corruption check open runs when the newest segment is damaged near its start (the search
 * for intact records of a later batch over the rest of the segment). Then one 300-byte entry
 * appended and synced at a time (concurrency 1) into preallocated segments beside segments that grow
 * with every write, in interleaved rounds (docs/storage.md, "Preallocated segments").
 *
 *   npx tsx bench/segment-log.ts [--entries 200000]
 *
 * Prints a table and writes bench/results/segment-log.json.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { SegmentLog, type SegmentLogOptions } from '../src/log/storage/segment-log.js';
import { RECORD_HEADER_BYTES, SEGMENT_HEADER_BYTES } from '../src/log/storage/segment-format.js';
import { scanSegment } from '../src/log/storage/segment-recovery.js';

const entries_at = process.argv.indexOf('--entries');
const entries_total = entries_at >= 0 ? Number(process.argv[entries_at + 1]) : 200_000;
const ENTRY_BYTES = 256;
/** Appends per event-loop turn: the concurrency group commit gathers. */
const APPENDERS = 64;
/** The lone-write comparison: entry size, writes per round, rounds (alternating the two kinds). */
const LONE_ENTRY_BYTES = 300;
const LONE_WRITES = 1000;
const LONE_ROUNDS = 3;

interface Row {
  readonly case: string;
  readonly entries: number;
  readonly ms: number;
  readonly entries_per_s: number;
  readonly mb_per_s: number;
  readonly note: string;
}

function row(name: string, entries: number, bytes: number, ms: number, note = ''): Row {
  return { case: name, entries, ms: Number(ms.toFixed(1)), entries_per_s: Math.round(entries / (ms / 1000)), mb_per_s: Number((bytes / 1e6 / (ms / 1000)).toFixed(1)), note };
}

const dir = mkdtempSync(join(tmpdir(), 'weft-bench-log-'));
const rows: Row[] = [];
try {
  const payload = Buffer.alloc(ENTRY_BYTES, 0x61);
  const record_bytes = RECORD_HEADER_BYTES + ENTRY_BYTES;
  const total_bytes = entries_total * record_bytes;

  const log = SegmentLog.open(dir);
  let t = performance.now();
  for (let next = 1; next <= entries_total; ) {
    const batch = [];
    for (let k = 0; k < APPENDERS && next <= entries_total; k++, next++) batch.push({ index: next, term: 1, data: payload });
    for (const e of batch) log.append([e]);
    await log.whenDurable(next - 1, 'journal');
  }
  rows.push(row('append + fdatasync', entries_total, total_bytes, performance.now() - t, `${(log.stats.entries_synced / log.stats.fsyncs).toFixed(1)} entries per fsync`));

  t = performance.now();
  for (let i = 1; i <= entries_total; i += 1000) log.read(i, Math.min(entries_total, i + 999));
  rows.push(row('read, checksums verified', entries_total, total_bytes, performance.now() - t));

  t = performance.now();
  let seen = 0;
  log.scan(1, () => seen++);
  rows.push(row('scan, checksums verified', seen, total_bytes, performance.now() - t));
  await log.close();

  t = performance.now();
  const again = SegmentLog.open(dir);
  rows.push(row('open: recovery verifies every record', again.lastIndex, total_bytes, performance.now() - t, 'includes the fdatasync of open'));
  await again.close();

  // Damage the first record of the (only) segment: open must search the rest for a later batch.
  const name = '1'.padStart(20, '0') + '.seg';
  const bytes = readFileSync(join(dir, name));
  const flip_at = SEGMENT_HEADER_BYTES + RECORD_HEADER_BYTES;
  bytes.writeUInt8(bytes.readUInt8(flip_at) ^ 1, flip_at);
  t = performance.now();
  const verdict = scanSegment(name, bytes, 1, true);
  rows.push(row('open: damage at the start, later batch found', entries_total, bytes.byteLength, performance.now() - t, `verdict ${verdict.kind}`));

  // The worst case: the whole segment is one batch, so the search reads to the end and finds a tear.
  const one_batch = join(dir, 'one-batch');
  const big = SegmentLog.open(one_batch);
  big.append(Array.from({ length: entries_total }, (_, k) => ({ index: k + 1, term: 1, data: payload })));
  await big.sync();
  await big.close();
  const whole = readFileSync(join(one_batch, name));
  whole.writeUInt8(whole.readUInt8(flip_at) ^ 1, flip_at);
  t = performance.now();
  const worst = scanSegment(name, whole, 1, true);
  rows.push(row('open: damage at the start of one huge batch', entries_total, whole.byteLength, performance.now() - t, `verdict ${worst.kind}, whole segment searched`));
} finally {
  rmSync(dir, { recursive: true, force: true });
}

/** Appends and syncs one entry at a time; latencies in microseconds. */
async function loneWrites(options: SegmentLogOptions, writes: number): Promise<number[]> {
  const at = mkdtempSync(join(tmpdir(), 'weft-bench-lone-'));
  const log = SegmentLog.open(at, options);
  const data = Buffer.alloc(LONE_ENTRY_BYTES, 0x62);
  const us: number[] = [];
  try {
    for (let i = 1; i <= writes; i++) {
      const t = performance.now();
      log.append([{ index: i, term: 1, data }]);
      await log.sync();
      us.push((performance.now() - t) * 1000);
    }
  } finally {
    await log.close();
    rmSync(at, { recursive: true, force: true });
  }
  return us;
}

interface LoneRow {
  readonly segments: string;
  readonly writes: number;
  readonly p50_us: number;
  readonly p90_us: number;
  readonly p99_us: number;
}

const lone: Record<'preallocated' | 'growing', number[]> = { preallocated: [], growing: [] };
for (let round = 0; round < LONE_ROUNDS; round++) {
  lone.preallocated.push(...(await loneWrites({ segment_bytes_max: 64 * 1024 * 1024 }, LONE_WRITES)));
  lone.growing.push(...(await loneWrites({ segment_bytes_max: 64 * 1024 * 1024, preallocate: false }, LONE_WRITES)));
}
const lone_rows: LoneRow[] = Object.entries(lone).map(([segments, us]) => {
  const sorted = [...us].sort((a, b) => a - b);
  const at = (p: number): number => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!);
  return { segments, writes: sorted.length, p50_us: at(0.5), p90_us: at(0.9), p99_us: at(0.99) };
});

console.log(`segment log, ${entries_total} entries of ${ENTRY_BYTES} bytes, ${APPENDERS} appends per turn`);
console.table(rows);
console.log(`one ${LONE_ENTRY_BYTES}-byte entry appended and synced at a time, ${LONE_ROUNDS} interleaved rounds, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
console.table(lone_rows);
const out = join(dirname(new URL(import.meta.url).pathname), 'results', 'segment-log.json');
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, JSON.stringify({ entries: entries_total, entry_bytes: ENTRY_BYTES, appenders: APPENDERS, rows, lone_writes: lone_rows }, null, 2) + '\n');
