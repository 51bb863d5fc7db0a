/**
 * `CALL { } IN [n] CONCURRENT TRANSACTIONS` on a write-heavy statement, through the embedded API:
 *   npx tsx bench/in-transactions-concurrency.ts [--rows 100000] [--batch 1000] [--runs 5]
 * Each round runs the same statement (every row creates a node with a few properties, one batch committed
 * per OF n ROWS) once without CONCURRENT (the peer) and once with n = 1, 2, 4 and 8, in an order that
 * rotates from round to round, deleting the nodes between runs (untimed). Prints the medians (ms) and the
 * ratio to the peer. Bodies run one at a time whatever n is; what n overlaps is each batch's commit wait
 * (its fsync under the journaled concern) with the next batches' bodies (docs/cypher.md 2.1).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { open } from '../src/index.js';

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] !== undefined ? Number(process.argv[i + 1]) : fallback;
}

const ROWS = option('--rows', 100_000);
const BATCH = option('--batch', 1000);
const RUNS = option('--runs', 5);

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

const body = 'CALL (i) { CREATE (:W {i: i, name: "w" + toString(i), group: i % 97, score: toFloat(i) / 3.0}) }';
const statements: Readonly<Record<string, string>> = {
  'IN TRANSACTIONS': `UNWIND range(1, $rows) AS i ${body} IN TRANSACTIONS OF $batch ROWS`,
  ...Object.fromEntries([1, 2, 4, 8].map((n) => [`IN ${n} CONCURRENT`, `UNWIND range(1, $rows) AS i ${body} IN ${n} CONCURRENT TRANSACTIONS OF $batch ROWS`])),
};

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'weft-bench-concurrent-'));
  const db = await open(dir);
  const names = Object.keys(statements);
  const times = new Map<string, number[]>(names.map((n) => [n, []]));
  const params = { rows: BigInt(ROWS), batch: BigInt(BATCH) };
  try {
    // One warm-up round, then RUNS timed rounds; the order rotates so no form always runs first.
    for (let round = 0; round <= RUNS; round++) {
      for (let k = 0; k < names.length; k++) {
        const name = names[(k + round) % names.length]!;
        const t0 = performance.now();
        const result = await db.query(statements[name]!, params);
        const ms = performance.now() - t0;
        if (result.stats.nodes_created !== ROWS) throw new Error(`${name} created ${result.stats.nodes_created} nodes, not ${ROWS}`);
        await db.query('MATCH (w:W) CALL (w) { DELETE w } IN TRANSACTIONS OF 10000 ROWS');
        if (round > 0) times.get(name)!.push(ms);
      }
    }
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const peer = median(times.get('IN TRANSACTIONS')!);
  console.log(`${ROWS} rows, ${BATCH} per batch, median of ${RUNS} runs each`);
  console.log('| form | median ms | runs (ms) | / IN TRANSACTIONS |');
  console.log('|---|---:|---|---:|');
  for (const n of names) {
    const xs = times.get(n)!;
    console.log(`| ${n} | ${median(xs).toFixed(0)} | ${xs.map((x) => x.toFixed(0)).join(', ')} | ${(median(xs) / peer).toFixed(2)} |`);
  }
}

await main();
