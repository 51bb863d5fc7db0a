/**
 * Batched pipelines against the row operators on the social graph, in one process on one snapshot:
 *   npx tsx bench/cypher-batched.ts [--persons 100000] [--edges 1000000] [--runs 10] [--queries name,name] [--suite shapes]
 * Loads the graph of bench/cypher-social.ts into an embedded database, then runs each whole-graph
 * query of the read suite through an engine with batching and one without, alternately, and prints
 * the medians (ms), the ratio and whether the batched engine took its batched path. `--suite shapes`
 * runs the second suite (bench/cypher-social-shapes.ts), all of it by default. Results go to
 * bench/results/cypher-batched.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { Value } from '../src/common/values/value.js';
import { batchedRuns } from '../src/query/execute/batch/batch-aggregate.js';
import { QueryEngine, type ExecuteContext } from '../src/query/engine.js';
import { generate, selectQueries } from './cypher-social-graph.js';
import { SHAPES } from './cypher-social-shapes.js';
import { bigints, WeftEmbeddedEngine } from './cypher-social-weft.js';

function option(name: string, fallback: string | number): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] !== undefined ? (process.argv[i + 1] as string) : String(fallback);
}

const PERSONS = Number(option('--persons', 100_000));
const EDGES = Number(option('--edges', 1_000_000));
const RUNS = Number(option('--runs', 10));
const WHOLE_GRAPH = 'expand all, count,expand all, group,both ends compared,older friend share,top 10 out-degree,top 10 in-degree,whole-graph 2 hops,group by city,filtered count,top 10 by age';
const SUITE = option('--suite', 'social');
const QUERIES = SUITE === 'shapes' ? selectQueries(option('--queries', ''), SHAPES) : selectQueries(option('--queries', WHOLE_GRAPH));

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

async function main(): Promise<void> {
  const weft = new WeftEmbeddedEngine();
  const started = performance.now();
  await weft.load(generate(PERSONS, EDGES, 42));
  console.log(`loaded ${PERSONS} persons and ${EDGES} KNOWS in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const db = weft.database;
  const engines = { rows: new QueryEngine({ batched: false }), batched: new QueryEngine() };
  const results: { query: string; rows_ms: number; batched_ms: number; ratio: number; batched: boolean }[] = [];
  for (const q of QUERIES) {
    const times = { rows: [] as number[], batched: [] as number[] };
    let took = false;
    // Two warm-up rounds, then RUNS timed rounds, the two engines alternating on the same snapshot.
    for (let run = 0; run < RUNS + 2; run++) {
      for (const name of ['rows', 'batched'] as const) {
        const engine = engines[name];
        const params = new Map<string, Value>(Object.entries(bigints(q.params(run, PERSONS))));
        const ctx: ExecuteContext = { params, memory_limit_bytes: 4096 * 1024 * 1024, now_us: 0 };
        const graph = db.database.latestCommitted();
        const before = batchedRuns.count;
        const t0 = performance.now();
        engine.execute(engine.prepare(q.cypher), graph, ctx);
        const ms = performance.now() - t0;
        if (name === 'batched' && batchedRuns.count > before) took = true;
        if (run >= 2) times[name].push(ms);
      }
    }
    const r = { query: q.name, rows_ms: median(times.rows), batched_ms: median(times.batched), ratio: 0, batched: took };
    r.ratio = r.batched_ms / r.rows_ms;
    results.push(r);
  }
  console.log('\n| query | rows ms | batched ms | batched/rows | batched path |');
  console.log('|---|---:|---:|---:|---|');
  for (const r of results) console.log(`| ${r.query} | ${r.rows_ms.toFixed(2)} | ${r.batched_ms.toFixed(2)} | ${r.ratio.toFixed(2)} | ${r.batched ? 'yes' : 'no'} |`);
  mkdirSync('bench/results', { recursive: true });
  writeFileSync(`bench/results/cypher-batched${SUITE === 'shapes' ? '-shapes' : ''}.json`, JSON.stringify({ suite: SUITE, persons: PERSONS, edges: EDGES, runs: RUNS, results }, null, 2));
  await weft.close();
}

await main();
