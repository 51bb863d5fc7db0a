/**
 * What the exact list of recent inserts (docs/vector.md, section 3a) costs a search: a vector index
 * of `--n` x `--dims` clustered vectors (bench/vector-data.ts), built and published (its list is then
 * empty or nearly), then `--moved` of its vectors moved to fresh points of the same clusters
 * (updates: each joins the list, which holds at most 256). Per search (k 10, beam 64), CPU time of:
 * the HNSW graph alone, and `VectorIndex.search` (the graph, the list measured exactly and merged),
 * alternating in blocks of 50 queries, `--rounds` times; the difference is the list's cost.
 *
 *   npx tsx bench/vector-recent.ts [--n 20000] [--dims 128] [--moved 256] [--queries 500] [--rounds 3]
 *
 * Prints a table and writes bench/results/vector-recent.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { exact_recent_max, VectorIndex } from '../src/projections/search/vector-index.js';
import { record } from '../test/search/records.js';
import { clusteredSet } from './vector-data.js';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const n = arg('n', 20_000);
const dims = arg('dims', 128);
const moved = arg('moved', exact_recent_max);
const queryCount = arg('queries', 500);
const rounds = arg('rounds', 3);
const k = 10;
const ef = 64;
const block_queries = 50;

const { data, queries } = clusteredSet(42, n, queryCount, dims, 100, 0.35);
const fresh = clusteredSet(43, moved, 0, dims, 100, 0.35).data;
const index = new VectorIndex({ kind: 'vector', dimensions: dims, metric: 'L2', m: 16, ef_construction: 100 }, 'Doc', 'emb');
let t = performance.now();
data.forEach((v, i) => index.refresh(record(i + 1, ['Doc'], { emb: v })));
index.settleBuild();
console.log(`built ${n} x ${dims} in ${((performance.now() - t) / 1000).toFixed(1)} s; list after the build: ${index.recentIds().length}`);
// Moved: every (n / moved)-th node gets a fresh vector.
for (let j = 0; j < moved; j++) index.refresh(record(1 + Math.floor((j * n) / moved), ['Doc'], { emb: fresh[j]! }));
console.log(`list after ${moved} moves: ${index.recentIds().length}`);
const graph = index.graph()!;
const cpuUs = (): number => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
const rows: { round: number; graph_us: number; index_us: number; retried: number }[] = [];
for (let round = 0; round < rounds; round++) {
  let graphCpu = 0;
  let indexCpu = 0;
  let retried = 0;
  for (let pass = 0; pass < 2; pass++) {
    for (let b = 0; b < queryCount; b += block_queries) {
      const block = queries.slice(b, b + block_queries);
      let c0 = cpuUs();
      for (const q of block) {
        // As the index searches: the query copied into an array, the beam set when it changed.
        if (graph.getEf() !== ef) graph.setEf(ef);
        graph.searchKnn(Array.from(q), k);
      }
      if (pass === 1) graphCpu += cpuUs() - c0;
      c0 = cpuUs();
      for (const q of block) {
        index.search(q, k, ef);
        if (pass === 1 && graph.getEf() !== ef) retried++;
      }
      if (pass === 1) indexCpu += cpuUs() - c0;
    }
  }
  rows.push({ round, graph_us: graphCpu / queryCount, index_us: indexCpu / queryCount, retried });
}
const load = loadavg().map((x) => x.toFixed(1)).join(' ');
console.log(`\nload average at the end: ${load}\n`);
console.log(`| round | graph alone, CPU us/search | VectorIndex.search with ${index.recentIds().length} listed | the list's cost | searches retried wider |\n|---|---|---|---|---|`);
for (const r of rows) console.log(`| ${r.round} | ${r.graph_us.toFixed(0)} | ${r.index_us.toFixed(0)} | ${(r.index_us - r.graph_us).toFixed(0)} us | ${r.retried} of ${queryCount} |`);
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/vector-recent.json', JSON.stringify({ n, dims, moved, queries: queryCount, k, ef, load_average: load, rows }, null, 2));
