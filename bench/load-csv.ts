/**
 * LOAD CSV beside the bulk paths: the social graph of bench/cypher-social.ts (Person nodes and KNOWS
 * relationships from a fixed seed) loaded from the same CSV files, in the same run, by
 *   - Weft's `LOAD CSV ... CALL { } IN TRANSACTIONS` into an open database (persons, then an index on
 *     Person.id, then knows matched by id), the online path;
 *   - Weft's `importCsv` (what `weft import` runs) into a new data directory, the offline path;
 *   - Kùzu's COPY into a new database.
 * The three run in turn, `--runs` rounds in alternating order (the machine is shared: only their
 * medians, measured in one run, are compared); each round checks the counts. Rows per second count
 * the CSV rows read (persons + knows).
 *
 *   npx tsx bench/load-csv.ts [--persons 100000] [--edges 300000] [--runs 3] [--batch 10000]
 *
 * Prints a table and writes bench/results/load-csv.json.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importCsv, open } from '../src/index.js';
import { generate } from './cypher-social-graph.js';
import { kuzu_version, loadKuzu } from './kuzu-social-engine.js';

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] !== undefined ? Number(process.argv[i + 1]) : fallback;
}

const PERSONS = option('--persons', 100_000);
const EDGES = option('--edges', 300_000);
const RUNS = option('--runs', 3);
const BATCH = option('--batch', 10_000);
const SEED = 42;

type Loader = 'weft LOAD CSV' | 'weft import' | 'kuzu COPY';

async function kuzuCopy(dir: string, persons: string, knows: string): Promise<number> {
  const kuzu = loadKuzu();
  const db = new kuzu.Database(join(dir, 'kuzu-db'));
  const conn = new kuzu.Connection(db);
  const exec = async (q: string): Promise<void> => (await conn.query(q)).close();
  const t0 = performance.now();
  await exec('CREATE NODE TABLE Person(id INT64, name STRING, age INT64, city STRING, PRIMARY KEY(id))');
  await exec('CREATE REL TABLE KNOWS(FROM Person TO Person)');
  await exec(`COPY Person FROM '${persons}' (header=false)`);
  await exec(`COPY KNOWS FROM '${knows}' (header=false)`);
  const ms = performance.now() - t0;
  const result = await conn.query('MATCH (:Person)-[k:KNOWS]->() RETURN count(k) AS c');
  const c = (await result.getAll())[0]?.['c'];
  result.close();
  await conn.close();
  await db.close();
  if (Number(c) !== EDGES) throw new Error(`kuzu copied ${String(c)} KNOWS, expected ${EDGES}`);
  return ms;
}

async function weftImport(dir: string, csv: string): Promise<number> {
  const t0 = performance.now();
  await importCsv(join(dir, 'weft-import'), {
    nodes: [{ labels: ['Person'], files: [join(csv, 'persons-header.csv'), join(csv, 'persons.csv')] }],
    relationships: [{ type: 'KNOWS', files: [join(csv, 'knows-header.csv'), join(csv, 'knows.csv')] }],
    id_type: 'integer',
  });
  const ms = performance.now() - t0;
  await check(join(dir, 'weft-import'), csv);
  return ms;
}

/**
 * Persons in batches, the index, then knows in batches: what a user of an open database runs. Before
 * them, untimed in the total, both files read and parsed without writing (`RETURN count(*)`): the part
 * of the time that is LOAD CSV's own.
 */
async function weftLoadCsv(dir: string, csv: string): Promise<{ ms: number; persons_ms: number; knows_ms: number; read_ms: number }> {
  const db = await open(join(dir, 'weft-load'), { load_csv_import_dir: csv });
  try {
    const r0 = performance.now();
    for (const file of ['persons.csv', 'knows.csv']) await db.query(`LOAD CSV FROM 'file:///${file}' AS r RETURN count(*)`);
    const read_ms = performance.now() - r0;
    const t0 = performance.now();
    await db.query(`LOAD CSV FROM 'file:///persons.csv' AS r
      CALL (r) { CREATE (:Person {id: toInteger(r[0]), name: r[1], age: toInteger(r[2]), city: r[3]}) } IN TRANSACTIONS OF ${BATCH} ROWS`);
    const persons_ms = performance.now() - t0;
    await db.query('CREATE INDEX person_id FOR (p:Person) ON (p.id)');
    const t1 = performance.now();
    await db.query(`LOAD CSV FROM 'file:///knows.csv' AS r
      CALL (r) { MATCH (a:Person {id: toInteger(r[0])}), (b:Person {id: toInteger(r[1])}) CREATE (a)-[:KNOWS]->(b) } IN TRANSACTIONS OF ${BATCH} ROWS`);
    const knows_ms = performance.now() - t1;
    return { ms: performance.now() - t0, persons_ms, knows_ms, read_ms };
  } finally {
    await db.close();
    await check(join(dir, 'weft-load'), csv);
  }
}

async function check(path: string, csv: string): Promise<void> {
  const db = await open(path, { load_csv_import_dir: csv });
  try {
    const people = (await db.query('MATCH (p:Person) RETURN count(p)')).rows[0]![0];
    const knows = (await db.query('MATCH (:Person)-[k:KNOWS]->() RETURN count(k)')).rows[0]![0];
    if (people !== BigInt(PERSONS) || knows !== BigInt(EDGES)) throw new Error(`${path}: ${String(people)} persons and ${String(knows)} KNOWS, expected ${PERSONS} and ${EDGES}`);
  } finally {
    await db.close();
  }
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

async function main(): Promise<void> {
  const csv = mkdtempSync(join(tmpdir(), 'weft-bench-load-csv-'));
  try {
    const graph = generate(PERSONS, EDGES, SEED);
    const persons = join(csv, 'persons.csv');
    const knows = join(csv, 'knows.csv');
    writeFileSync(persons, graph.persons.map((p) => `${p.id},${p.name},${p.age},${p.city}\n`).join(''));
    writeFileSync(knows, graph.knows.map(([a, b]) => `${a},${b}\n`).join(''));
    writeFileSync(join(csv, 'persons-header.csv'), 'id:ID(Person),name,age:int,city\n');
    writeFileSync(join(csv, 'knows-header.csv'), ':START_ID(Person),:END_ID(Person)\n');

    const times = new Map<Loader, number[]>([
      ['weft LOAD CSV', []],
      ['weft import', []],
      ['kuzu COPY', []],
    ]);
    const parts = { persons: [] as number[], knows: [] as number[], read: [] as number[] };
    const load_before = loadavg()[0]!;
    const order: Loader[] = ['weft LOAD CSV', 'weft import', 'kuzu COPY'];
    for (let run = 0; run < RUNS; run++) {
      // Alternate the order so no loader always runs first (or after the same one).
      const round = run % 2 === 0 ? order : [...order].reverse();
      for (const loader of round) {
        const dir = mkdtempSync(join(tmpdir(), 'weft-bench-load-csv-db-'));
        try {
          let ms: number;
          if (loader === 'kuzu COPY') ms = await kuzuCopy(dir, persons, knows);
          else if (loader === 'weft import') ms = await weftImport(dir, csv);
          else {
            const r = await weftLoadCsv(dir, csv);
            ms = r.ms;
            parts.persons.push(r.persons_ms);
            parts.knows.push(r.knows_ms);
            parts.read.push(r.read_ms);
          }
          times.get(loader)!.push(ms);
          console.error(`run ${run + 1}: ${loader} ${(ms / 1000).toFixed(2)} s`);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      }
    }
    const rows = PERSONS + EDGES;
    console.log(`load: ${PERSONS} persons + ${EDGES} KNOWS = ${rows} CSV rows, ${RUNS} runs each, batches of ${BATCH} rows; medians`);
    const report: Record<string, unknown> = { persons: PERSONS, edges: EDGES, runs: RUNS, batch: BATCH, seed: SEED, node: process.version, kuzu: kuzu_version };
    for (const [loader, xs] of times) {
      const m = median(xs);
      console.log(`${loader.padEnd(16)} ${(m / 1000).toFixed(2).padStart(8)} s ${Math.round(rows / (m / 1000)).toLocaleString('en-US').padStart(12)} rows/s   runs: ${xs.map((x) => (x / 1000).toFixed(2)).join(', ')}`);
      report[loader] = { median_ms: m, rows_per_s: rows / (m / 1000), runs_ms: xs };
    }
    const p = median(parts.persons);
    const k = median(parts.knows);
    console.log(`  LOAD CSV persons ${(p / 1000).toFixed(2)} s (${Math.round(PERSONS / (p / 1000)).toLocaleString('en-US')} rows/s), knows ${(k / 1000).toFixed(2)} s (${Math.round(EDGES / (k / 1000)).toLocaleString('en-US')} rows/s)`);
    const read = median(parts.read);
    console.log(`  LOAD CSV read + parse alone (RETURN count(*), no writes) ${(read / 1000).toFixed(2)} s (${Math.round(rows / (read / 1000)).toLocaleString('en-US')} rows/s)`);
    const lc = median(times.get('weft LOAD CSV')!);
    console.log(`ratio LOAD CSV / weft import ${(lc / median(times.get('weft import')!)).toFixed(2)}, LOAD CSV / kuzu COPY ${(lc / median(times.get('kuzu COPY')!)).toFixed(2)}`);
    const load_after = loadavg()[0]!;
    console.log(`load average (1 min) ${load_before.toFixed(2)} before, ${load_after.toFixed(2)} at the end`);
    Object.assign(report, { persons_ms: p, knows_ms: k, read_ms: read, load_before, load_after });
    const out = join(dirname(fileURLToPath(import.meta.url)), 'results');
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'load-csv.json'), `${JSON.stringify(report, null, 2)}\n`);
  } finally {
    rmSync(csv, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
