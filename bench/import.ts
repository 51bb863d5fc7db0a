/**
 * Bulk load of the social graph of bench/cypher-social.ts (100,000 Person nodes, 1,000,000 KNOWS
 * relationships from a fixed seed) from the same CSV files into Kùzu (COPY) and into Weft
 * (`importCsv`, what `weft import` runs), in the same run, one after the other. Weft reads the
 * header from separate files, so both read exactly the same data files. Weft writes no checkpoint
 * (docs/import.md): the imported directory is then opened, which replays the import's entries, and
 * checked (counts); that open is timed apart. The load average and peak RSS are printed beside.
 *
 *   npx tsx bench/import.ts [--persons 100000] [--edges 1000000]
 *
 * Prints a table and writes bench/results/import.json.
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
const EDGES = option('--edges', 1_000_000);
const SEED = 42;

/** CPU time of this process (every thread: Kùzu copies on several) in ms, read beside wall time on a shared machine. */
function cpuMs(since: NodeJS.CpuUsage): number {
  const u = process.cpuUsage(since);
  return (u.user + u.system) / 1000;
}

async function kuzuCopy(dir: string, persons: string, knows: string): Promise<{ wall: number; cpu: number }> {
  const kuzu = loadKuzu();
  const db = new kuzu.Database(join(dir, 'kuzu-db'));
  const conn = new kuzu.Connection(db);
  const exec = async (q: string): Promise<void> => (await conn.query(q)).close();
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  await exec('CREATE NODE TABLE Person(id INT64, name STRING, age INT64, city STRING, PRIMARY KEY(id))');
  await exec('CREATE REL TABLE KNOWS(FROM Person TO Person)');
  await exec(`COPY Person FROM '${persons}' (header=false)`);
  await exec(`COPY KNOWS FROM '${knows}' (header=false)`);
  const wall = performance.now() - t0;
  const cpu = cpuMs(c0);
  await conn.close();
  await db.close();
  return { wall, cpu };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'weft-bench-import-'));
  try {
    const graph = generate(PERSONS, EDGES, SEED);
    const persons = join(dir, 'persons.csv');
    const knows = join(dir, 'knows.csv');
    writeFileSync(persons, graph.persons.map((p) => `${p.id},${p.name},${p.age},${p.city}\n`).join(''));
    writeFileSync(knows, graph.knows.map(([a, b]) => `${a},${b}\n`).join(''));
    writeFileSync(join(dir, 'persons-header.csv'), 'id:ID(Person),name,age:int,city\n');
    writeFileSync(join(dir, 'knows-header.csv'), ':START_ID(Person),:END_ID(Person)\n');

    const kuzu = await kuzuCopy(dir, persons, knows);
    const kuzu_ms = kuzu.wall;
    console.error(`kuzu: COPY in ${(kuzu_ms / 1000).toFixed(2)} s`);

    const load_before = loadavg()[0]!;
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const s = await importCsv(join(dir, 'weft-db'), {
      nodes: [{ labels: ['Person'], files: [join(dir, 'persons-header.csv'), persons] }],
      relationships: [{ type: 'KNOWS', files: [join(dir, 'knows-header.csv'), knows] }],
      id_type: 'integer',
    });
    const weft_ms = performance.now() - t0;
    const weft_cpu_ms = cpuMs(c0);
    const rss_import_mb = process.resourceUsage().maxRSS / 1024;
    console.error(`weft: import in ${(weft_ms / 1000).toFixed(2)} s`);

    const t1 = performance.now();
    const c1 = process.cpuUsage();
    const db = await open(join(dir, 'weft-db'));
    const open_ms = performance.now() - t1;
    const open_cpu_ms = cpuMs(c1);
    const count = (await db.query('MATCH (:Person)-[k:KNOWS]->() RETURN count(k)')).rows[0]![0];
    const people = (await db.query('MATCH (p:Person) RETURN count(p)')).rows[0]![0];
    await db.close();
    if (count !== BigInt(EDGES) || people !== BigInt(PERSONS)) throw new Error(`imported ${String(people)} persons and ${String(count)} KNOWS, expected ${PERSONS} and ${EDGES}`);

    const rows: [string, string][] = [
      ['kuzu COPY (create tables + COPY)', (kuzu_ms / 1000).toFixed(2)],
      ['weft import total', (weft_ms / 1000).toFixed(2)],
      ['  read + parse + check', (s.read_ms / 1000).toFixed(2)],
      ['  last part: check, write, fsync', (s.write_ms / 1000).toFixed(2)],
      ['weft open after import (replays the import)', (open_ms / 1000).toFixed(2)],
      ['weft open cpu time', (open_cpu_ms / 1000).toFixed(2)],
      ['kuzu COPY cpu time (all threads)', (kuzu.cpu / 1000).toFixed(2)],
      ['weft import cpu time', (weft_cpu_ms / 1000).toFixed(2)],
      ['ratio weft import / kuzu COPY, wall', (weft_ms / kuzu_ms).toFixed(2)],
      ['ratio weft import / kuzu COPY, cpu', (weft_cpu_ms / kuzu.cpu).toFixed(2)],
      ['ratio weft import + open / kuzu COPY, wall', ((weft_ms + open_ms) / kuzu_ms).toFixed(2)],
    ];
    console.log(`import: ${PERSONS} persons, ${EDGES} KNOWS, ${s.entries} log entries`);
    for (const [k, v] of rows) console.log(`${k.padEnd(44)} ${v.padStart(8)}${k.startsWith('ratio') ? '' : ' s'}`);
    const rss_peak_mb = process.resourceUsage().maxRSS / 1024;
    const load_after = loadavg()[0]!;
    console.log(`peak RSS after import ${rss_import_mb.toFixed(0)} MiB, after open ${rss_peak_mb.toFixed(0)} MiB (one process: Kùzu, the import and the open)`);
    console.log(`load average (1 min) ${load_before.toFixed(2)} before the import, ${load_after.toFixed(2)} at the end`);

    const out = join(dirname(fileURLToPath(import.meta.url)), 'results');
    mkdirSync(out, { recursive: true });
    const report = {
      persons: PERSONS,
      edges: EDGES,
      seed: SEED,
      node: process.version,
      kuzu: kuzu_version,
      kuzu_copy_ms: kuzu_ms,
      kuzu_copy_cpu_ms: kuzu.cpu,
      weft_import_cpu_ms: weft_cpu_ms,
      weft_import_ms: weft_ms,
      weft_read_ms: s.read_ms,
      weft_write_ms: s.write_ms,
      weft_open_ms: open_ms,
      weft_open_cpu_ms: open_cpu_ms,
      rss_import_mb,
      rss_peak_mb,
      load_before,
      load_after,
      entries: s.entries,
      ratio: weft_ms / kuzu_ms,
      ratio_cpu: weft_cpu_ms / kuzu.cpu,
    };
    writeFileSync(join(out, 'import.json'), `${JSON.stringify(report, null, 2)}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
