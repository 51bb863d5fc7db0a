/**
 * Loads the social graph of bench/cypher-social-graph.ts into an embedded Weft and runs the named queries of
 * any suite repeatedly, printing each one's median; meant to run under `node --cpu-prof` to see where one
 * query's time goes, without Kùzu or the other queries in the profile.
 *
 *   npx tsx bench/profile-social.ts --queries 'name,name' [--persons 100000] [--edges 1000000] [--runs 30]
 */
import { answerOf, generate, QUERIES as SOCIAL, selectQueries, type SocialQuery } from './cypher-social-graph.js';
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
const all: readonly SocialQuery[] = [...SOCIAL, ...SHAPES, ...MORE, ...PROBES, ...WIDE];
const queries = selectQueries(option('--queries', ''), all);

async function main(): Promise<void> {
  const graph = generate(PERSONS, EDGES, SEED);
  const engine = new WeftEmbeddedEngine();
  try {
    const t0 = performance.now();
    await engine.load(graph);
    console.log(`loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    for (const q of queries) {
      const times: number[] = [];
      const cpus: number[] = [];
      let rows: readonly (readonly unknown[])[] = [];
      for (let i = 0; i < RUNS; i++) {
        const t = performance.now();
        const c = process.cpuUsage();
        rows = await engine.run(q, q.params(i, graph.persons.length));
        times.push(performance.now() - t);
        const used = process.cpuUsage(c);
        cpus.push((used.user + used.system) / 1000);
      }
      const sorted = times.slice(2).sort((a, b) => a - b);
      const median = sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
      const cpu = cpus.slice(2).sort((a, b) => a - b);
      const cpuMedian = cpu[Math.floor(cpu.length / 2)] ?? Number.NaN;
      // CPU time is steadier than wall time when other processes share the cores.
      console.log(`${q.name.padEnd(32)} median ${median.toFixed(2)} ms  min ${(sorted[0] ?? Number.NaN).toFixed(2)} ms  cpu ${cpuMedian.toFixed(2)} ms  ${answerOf(rows).first}`);
    }
  } finally {
    await engine.close();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
