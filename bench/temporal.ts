/**
 * What valid time costs, embedded: `--nodes` nodes of a plain label beside as many of a temporal
 * label, each temporal node with `--versions` valid-time versions.
 *
 * - version writes: one auto-committed `SET n.valid_from = ..., n.v = ...` per version;
 * - label scans (`MATCH (n:L) WHERE n.v = $x RETURN count(n)`), median of `--runs`: the plain label,
 *   the temporal label read at now (the default), and at a valid time in the middle of its history.
 *
 *   npx tsx bench/temporal.ts [--nodes 20000] [--versions 8] [--runs 15]
 *
 * Prints a table and writes bench/results/temporal.json.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open } from '../src/index.js';
import { percentile } from './stats.js';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const nodes = arg('nodes', 20_000);
const versions = arg('versions', 8);
const runs = arg('runs', 15);
const batch_nodes = 5000;
/** Nodes whose versions are written one statement each (the rest are written in bulk). */
const single_nodes_max = 100;
const year0 = 2000;

interface Row {
  readonly case: string;
  readonly value: number;
  readonly unit: string;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'weft-bench-temporal-'));
  const db = await open(dir);
  const rows: Row[] = [];
  try {
    await db.defineLabel({ name: 'T', properties: [], computed: [], mode: 'FLEXIBLE', temporal: true });
    for (let done = 0; done < nodes; done += batch_nodes) {
      const ids = Array.from({ length: Math.min(batch_nodes, nodes - done) }, (_, i) => BigInt(done + i));
      await db.query('UNWIND $ids AS i CREATE (:P {k: i, v: i % 10})', { ids });
      await db.query(`UNWIND $ids AS i CREATE (:T {k: i, v: i % 10, valid_from: datetime({year: ${year0}})})`, { ids });
    }
    // Versions one statement each (each waits for its own fsync) over the first nodes, then in bulk.
    const single_nodes = Math.min(single_nodes_max, nodes);
    let started = performance.now();
    for (let y = 1; y < versions; y++) {
      for (let k = 0; k < single_nodes; k++) {
        await db.query(`MATCH (n:T {k: $k}) SET n.valid_from = datetime({year: ${year0 + y}}), n.v = (n.v + 1) % 10`, { k: BigInt(k) });
      }
    }
    rows.push({ case: 'version write, one auto-committed statement each', value: (single_nodes * (versions - 1)) / ((performance.now() - started) / 1000), unit: 'versions/s' });
    started = performance.now();
    for (let y = 1; y < versions; y++) {
      await db.query(`MATCH (n:T) WHERE n.k >= $from SET n.valid_from = datetime({year: ${year0 + y}}), n.v = (n.v + 1) % 10`, { from: BigInt(single_nodes) });
    }
    rows.push({ case: 'version write, bulk (one statement per valid_from)', value: ((nodes - single_nodes) * (versions - 1)) / ((performance.now() - started) / 1000), unit: 'versions/s' });

    const scan = async (name: string, text: string): Promise<void> => {
      const times: number[] = [];
      let count = 0n;
      await db.query(text, { x: 3n }); // warm-up, not counted
      for (let r = 0; r < runs; r++) {
        const t0 = performance.now();
        const res = await db.query(text, { x: 3n });
        times.push(performance.now() - t0);
        count = res.rows[0]![0] as bigint;
      }
      times.sort((a, b) => a - b);
      rows.push({ case: `${name} (${count} of ${nodes})`, value: percentile(times, 50), unit: 'ms p50' });
    };
    await scan('scan, plain label', 'MATCH (n:P) WHERE n.v = $x RETURN count(n)');
    await scan('scan, temporal label at now', 'MATCH (n:T) WHERE n.v = $x RETURN count(n)');
    await scan('scan, temporal label at a past valid time', `USING valid_at(datetime({year: ${year0 + Math.floor(versions / 2)}, month: 6})) MATCH (n:T) WHERE n.v = $x RETURN count(n)`);
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(`temporal bench: ${nodes} nodes per label, ${versions} versions per temporal node, ${runs} runs per scan`);
  console.log('\n| case | value | unit |\n|---|---|---|');
  for (const row of rows) console.log(`| ${row.case} | ${row.value.toFixed(2)} | ${row.unit} |`);
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/temporal.json', JSON.stringify({ nodes, versions, runs, rows, at: new Date().toISOString() }, null, 2));
}

await main();
