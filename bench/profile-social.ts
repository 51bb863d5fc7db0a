/**
 * Loads the social graph of bench/cypher-social-graph.ts into an embedded Weft and runs the named queries of
 * any suite repeatedly, printing each one's median; meant to run under `node --cpu-prof` to see where one
 * query's time goes, without Kùzu or the other queries in the profile.
 *
 *   npx tsx bench/profile-social.ts --queries 'name,name' [--persons 100000] [--edges 1000000] [--runs 30]
 *                                   [--after social|shapes|more|probes|wide|breadth]
 *
 * `--after <suite>` times the named queries fresh, then runs every query of that suite `--runs` times in the same
 * process, then times the named queries again: whether the state a process reaches after many shapes (its inline
 * caches, its heap) slows a query down.
 */
import { answerOf, generate, QUERIES as SOCIAL, selectQueries, type SocialQuery } from './cypher-social-graph.js';
import { BREADTH } from './cypher-social-breadth.js';
import { MORE } from './cypher-social-more.js';
import { PROBES } from './cypher-social-probes.js';
import { SHAPES } from './cypher-social-shapes.js';
import { WIDE } from './cypher-social-wide.js';
import { WeftEmbeddedEngine } from './cypher-social-weft.js';

function option(name: string, fallback: number | string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] !== undefined ? (process.argv[i + 1] as string) : String(fallback);
}

const PERSONS = Number(option('--persons', 100_000));
const EDGES = Number(option('--edges', 1_000_000));
const RUNS = Number(option('--runs', 30));
const SEED = 42;
const all: readonly SocialQuery[] = [...SOCIAL, ...SHAPES, ...MORE, ...PROBES, ...WIDE, ...BREADTH];
const queries = selectQueries(option('--queries', ''), all);
const suites: Record<string, readonly SocialQuery[]> = { social: SOCIAL, shapes: SHAPES, more: MORE, probes: PROBES, wide: WIDE, breadth: BREADTH };
const after = option('--after', '');
if (after !== '' && suites[after] === undefined) throw new Error(`unknown suite ${after} (known: ${Object.keys(suites).join(', ')})`);

/** Medians (after two warm-up runs) of wall and CPU time over RUNS runs of `q`, and its answer's first row. */
async function timeQuery(engine: WeftEmbeddedEngine, q: SocialQuery, persons: number): Promise<{ median: number; min: number; cpu: number; first: string }> {
  const times: number[] = [];
  const cpus: number[] = [];
  let rows: readonly (readonly unknown[])[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    const c = process.cpuUsage();
    rows = await engine.run(q, q.params(i, persons));
    times.push(performance.now() - t);
    const used = process.cpuUsage(c);
    cpus.push((used.user + used.system) / 1000);
  }
  const sorted = times.slice(2).sort((a, b) => a - b);
  const cpu = cpus.slice(2).sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)] ?? Number.NaN, min: sorted[0] ?? Number.NaN, cpu: cpu[Math.floor(cpu.length / 2)] ?? Number.NaN, first: answerOf(rows).first };
}

async function main(): Promise<void> {
  const graph = generate(PERSONS, EDGES, SEED);
  const engine = new WeftEmbeddedEngine();
  try {
    const t0 = performance.now();
    await engine.load(graph);
    console.log(`loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const timeAll = async (label: string): Promise<void> => {
      for (const q of queries) {
        const r = await timeQuery(engine, q, graph.persons.length);
        // CPU time is steadier than wall time when other processes share the cores.
        console.log(`${label}${q.name.padEnd(32)} median ${r.median.toFixed(2)} ms  min ${r.min.toFixed(2)} ms  cpu ${r.cpu.toFixed(2)} ms  ${r.first}`);
      }
    };
    await timeAll('');
    if (after !== '') {
      for (const q of suites[after] as readonly SocialQuery[]) await timeQuery(engine, q, graph.persons.length);
      await timeAll(`after ${after}: `);
    }
  } finally {
    await engine.close();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
