/**
 * Vector search: raw hnswlib-node beside Weft through Cypher, in one run, on the same vectors.
 *
 * - data: `--n` vectors of `--dims` dimensions in `--clusters` Gaussian clusters (seeded, `--seed`);
 * - build: raw HNSW inserts vs Weft's online build (CREATE VECTOR INDEX, through the log and the
 *   build executor), both with M 16 and ef_construction 100;
 * - recall@k against exact search, and queries per second: raw at several beams, and Weft through
 *   `ORDER BY vector_distance(...) LIMIT k` (without filters its search asks HNSW for k with beam 64,
 *   so raw with k and ef 64 is the point of equal recall; they alternate in blocks of queries), and
 *   at two other beams (the hint vector_ef(n) beside raw's setEf(n));
 * - close and reopen: the HNSW graph is saved beside the checkpoint and read back.
 * - each query row gives QPS and the process's CPU time per query (user + system): on a machine other
 *   jobs share, wall time swings with their load, CPU time much less.
 *
 * - and the garbage collections (scavenges / full) that started during each side's counted blocks;
 * - `--order snapshot,current` runs the SNAPSHOT row first (CURRENT first by default);
 * - before the rows, and again after the reopen, a warm-up: rounds of the query set, uncounted, until
 *   Weft's CPU per query has settled (V8 optimizing the engine's code; the row "weft warm-up" prints
 *   each round's CPU per query);
 * - raw and Weft search the same vectors, inserted in the same order with the same level seed, with
 *   the same k and beam, each query passed as a fresh Array (raw: Array.from; Weft copies into one
 *   reused array); the answers are scored for recall outside the timed blocks.
 *
 *   npx tsx bench/vector.ts [--n 100000] [--dims 128] [--queries 500] [--k 10] [--clusters 100] [--seed 42] [--dist] [--order current,snapshot]
 *
 * Prints a table and writes bench/results/vector.json.
 */
import { createRequire } from 'node:module';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { PerformanceObserver, constants as perfConstants, type PerformanceEntry } from 'node:perf_hooks';
import type { HierarchicalNSW as Hnsw } from 'hnswlib-node';
import { clusteredSet, exactKnn, recallAt } from './vector-data.js';

const { HierarchicalNSW } = createRequire(import.meta.url)('hnswlib-node') as typeof import('hnswlib-node');
/**
 * `--dist` runs Weft's compiled build (`npm run build`: the code `weft serve` runs) instead of the
 * TypeScript sources through tsx, whose transform adds work to every call (names kept on closures).
 */
const dist = process.argv.includes('--dist');
const entry = dist ? '../dist/src/index.js' : '../src/index.js';
const { open } = (await import(entry)) as typeof import('../src/index.js');

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const n = arg('n', 100_000);
const dims = arg('dims', 128);
const queryCount = arg('queries', 500);
const k = arg('k', 10);
const clusters = arg('clusters', 100);
const seed = arg('seed', 42);
const m = 16;
const ef_construction = 100;
const seed_batch_nodes = 5000;
const block_queries = 50;
/** Warm-up rounds end when Weft's CPU per query moved by at most this fraction since the previous round. */
const warm_settled = 0.05;
const warm_rounds_min = 3;
/** The statements the rows run, as (consistency, `vector_ef` hint): the warm-up runs each. */
const warm_statements: readonly (readonly ['current' | 'snapshot', number | undefined])[] = [
  ['current', undefined],
  ['snapshot', undefined],
  ['current', 32],
  ['current', 128],
];
const warm_rounds_max = 8;

interface Row {
  readonly case: string;
  readonly recall?: number;
  readonly qps?: number;
  /** CPU time (user + system) of this process per query: steadier than QPS when other jobs share the machine. */
  readonly cpu_us?: number;
  readonly seconds?: number;
  /** Collections that started while this row's queries ran: scavenges / full. */
  readonly gcs?: string;
  readonly note?: string;
}

/** Every garbage collection of the run: its start (performance.now() time) and whether it was a scavenge. */
const collections: { start: number; minor: boolean }[] = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    collections.push({ start: e.startTime, minor: (e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind === perfConstants.NODE_PERFORMANCE_GC_MINOR });
  }
}).observe({ entryTypes: ['gc'] });

/** Scavenges / full collections that started inside `spans`; waits for the entries, which arrive asynchronously. */
async function collectionsIn(spans: readonly (readonly [number, number])[]): Promise<string> {
  await new Promise((resolve) => setTimeout(resolve, 20));
  const inside = collections.filter((c) => spans.some(([a, b]) => c.start >= a && c.start <= b));
  return `${inside.filter((c) => c.minor).length} / ${inside.filter((c) => !c.minor).length}`;
}

function timeQueries(run: (q: Float32Array) => number[], queries: readonly Float32Array[], truth: readonly number[][]): { recall: number; qps: number } {
  let recall = 0;
  const t = performance.now();
  queries.forEach((q, i) => (recall += recallAt(run(q).slice(0, k), truth[i]!)));
  const s = (performance.now() - t) / 1000;
  return { recall: recall / queries.length, qps: queries.length / s };
}

/** Weft's share of raw's rate at equal recall, by wall time and by CPU time. */
function ofRaw(weft: { qps: number; cpu_us: number }, raw: { qps: number; cpu_us: number }): string {
  return `${((weft.qps / raw.qps) * 100).toFixed(0)}% of raw QPS, ${((raw.cpu_us / weft.cpu_us) * 100).toFixed(0)}% by CPU time, at equal recall`;
}

async function main(): Promise<void> {
  const rows: Row[] = [];
  console.log(`vector bench: n ${n}, dims ${dims}, clusters ${clusters}, queries ${queryCount}, k ${k}, seed ${seed}, weft from ${dist ? 'dist (compiled)' : 'src (tsx)'}`);
  const { data, queries } = clusteredSet(seed, n, queryCount, dims, clusters, 0.35);
  const truth = queries.map((q) => exactKnn(data, q, k));

  // ---- raw hnswlib-node ----
  let t = performance.now();
  const raw: Hnsw = new HierarchicalNSW('l2', dims);
  raw.initIndex({ maxElements: n, m, efConstruction: ef_construction, randomSeed: 100 });
  for (let i = 0; i < n; i++) raw.addPoint(Array.from(data[i]!), i);
  const rawBuild = (performance.now() - t) / 1000;
  rows.push({ case: 'raw hnswlib build', seconds: rawBuild });
  for (const ef of [16, 32, 64, 128]) {
    raw.setEf(ef);
    const r = timeQueries((q) => raw.searchKnn(Array.from(q), k).neighbors, queries, truth);
    rows.push({ case: `raw k=${k} ef=${ef}`, ...r });
  }

  // ---- Weft through Cypher ----
  const dir = mkdtempSync(join(tmpdir(), 'weft-bench-vector-'));
  try {
    let db = await open(dir, { index_build_statement_wait_secs: 3600 });
    t = performance.now();
    for (let i = 0; i < n; i += seed_batch_nodes) {
      await db.database.write(
        (ws) => {
          for (let j = i; j < Math.min(n, i + seed_batch_nodes); j++) ws.createNode(['Doc'], new Map<string, bigint | Float32Array>([['id', BigInt(j)], ['emb', data[j]!]]));
        },
        { concern: { acks: 1, level: 'journal', timeout_ms: 0 } },
      );
    }
    rows.push({ case: 'weft seed nodes', seconds: (performance.now() - t) / 1000, note: `${n} nodes, batches of ${seed_batch_nodes}` });
    t = performance.now();
    await db.query(
      `CREATE VECTOR INDEX doc_emb FOR (d:Doc) ON (d.emb) OPTIONS {indexConfig: {\`vector.dimensions\`: ${dims}, \`vector.similarity_function\`: 'euclidean', \`vector.hnsw.m\`: ${m}, \`vector.hnsw.ef_construction\`: ${ef_construction}}}`,
    );
    const weftBuild = (performance.now() - t) / 1000;
    rows.push({ case: 'weft online build (CREATE VECTOR INDEX)', seconds: weftBuild, note: `${(weftBuild / rawBuild).toFixed(2)}x raw` });
    const cypher = `MATCH (d:Doc) RETURN d.id ORDER BY vector_distance(d.emb, $q, 'euclidean') LIMIT ${k}`;
    // Raw and Weft alternate in blocks of queries, so both see the same load on a shared machine;
    // a first pass warms both up and is not counted.
    type Side = { recall: number; qps: number; cpu_us: number; gcs: string };
    const cpuUs = (): number => {
      const u = process.cpuUsage();
      return u.user + u.system;
    };
    const statement = (mode: 'current' | 'snapshot', ef?: number): string => `/*+ vector_consistency('${mode}') */ ${ef === undefined ? '' : `/*+ vector_ef(${ef}) */ `}${cypher}`;
    const run = async (mode: 'current' | 'snapshot', ef?: number): Promise<{ weft: Side; raw: Side }> => {
      const text = statement(mode, ef);
      let weftRecall = 0;
      let rawRecall = 0;
      let weftMs = 0;
      let rawMs = 0;
      let weftCpu = 0;
      let rawCpu = 0;
      const weftSpans: [number, number][] = [];
      const rawSpans: [number, number][] = [];
      const weftAnswers: (readonly (readonly unknown[])[])[] = [];
      const rawAnswers: number[][] = [];
      raw.setEf(ef ?? 64);
      for (let pass = 0; pass < 2; pass++) {
        for (let b = 0; b < queries.length; b += block_queries) {
          const block = queries.slice(b, b + block_queries);
          // Answers are kept and scored after each side's block, so neither side's time holds the scoring.
          let t0 = performance.now();
          let c0 = cpuUs();
          for (let i = 0; i < block.length; i++) weftAnswers[i] = (await db.query(text, { q: block[i]! })).rows;
          if (pass === 1) {
            weftMs += performance.now() - t0;
            weftCpu += cpuUs() - c0;
            weftSpans.push([t0, performance.now()]);
            for (let i = 0; i < block.length; i++) weftRecall += recallAt(weftAnswers[i]!.map((r) => Number(r[0] as bigint)), truth[b + i]!);
          }
          t0 = performance.now();
          c0 = cpuUs();
          for (let i = 0; i < block.length; i++) rawAnswers[i] = raw.searchKnn(Array.from(block[i]!), k).neighbors;
          if (pass === 1) {
            rawMs += performance.now() - t0;
            rawCpu += cpuUs() - c0;
            rawSpans.push([t0, performance.now()]);
            for (let i = 0; i < block.length; i++) rawRecall += recallAt(rawAnswers[i]!, truth[b + i]!);
          }
        }
      }
      const count = queries.length;
      return {
        weft: { recall: weftRecall / count, qps: count / (weftMs / 1000), cpu_us: weftCpu / count, gcs: await collectionsIn(weftSpans) },
        raw: { recall: rawRecall / count, qps: count / (rawMs / 1000), cpu_us: rawCpu / count, gcs: await collectionsIn(rawSpans) },
      };
    };
    /**
     * V8 optimizes the engine's code while the first queries run: on a loaded machine Weft's CPU per
     * query falls for the first 1,500 to 2,000 queries after a start (bench/vector-rows.ts), while the
     * addon's search is compiled code from the first call. Rows measure throughput once that is over:
     * rounds of the query set in every statement the rows run (CURRENT, SNAPSHOT, then the two
     * `vector_ef` hints: a statement whose context differs, as a hint's beam does, sends the
     * optimized code down paths it has not seen, and it is optimized again), raw between the blocks, at least
     * `warm_rounds_min` (one round's CPU can match the next while both are still early), then until
     * Weft's CPU per query moves less than `warm_settled` between two rounds, at most `warm_rounds_max`.
     */
    const warmUp = async (when: string): Promise<void> => {
      const curve: string[] = [];
      let last = Infinity;
      for (let round = 0; round < warm_rounds_max; round++) {
        let weftCpu = 0;
        for (const [mode, ef] of warm_statements) {
          const text = statement(mode, ef);
          raw.setEf(ef ?? 64);
          for (let b = 0; b < queries.length; b += block_queries) {
            const block = queries.slice(b, b + block_queries);
            const c0 = cpuUs();
            for (const q of block) await db.query(text, { q });
            weftCpu += cpuUs() - c0;
            for (const q of block) raw.searchKnn(Array.from(q), k);
          }
        }
        const perQuery = weftCpu / (warm_statements.length * queries.length);
        curve.push(perQuery.toFixed(0));
        if (round + 1 >= warm_rounds_min && Math.abs(perQuery - last) <= warm_settled * last) break;
        last = perQuery;
      }
      rows.push({ case: `weft warm-up ${when}: CPU us/query per round of ${warm_statements.length * queries.length} queries`, note: curve.join(', ') });
    };
    await warmUp('after the build');
    const order = process.argv.includes('--order') && process.argv[process.argv.indexOf('--order') + 1] === 'snapshot,current' ? (['snapshot', 'current'] as const) : (['current', 'snapshot'] as const);
    for (const mode of order) {
      const r = await run(mode);
      rows.push({ case: `raw k=${k} ef=64, alternating with the next row`, ...r.raw });
      rows.push({ case: `weft cypher ${mode.toUpperCase()}`, ...r.weft, note: ofRaw(r.weft, r.raw) });
    }
    for (const ef of [32, 128]) {
      const r = await run('current', ef);
      rows.push({ case: `raw k=${k} ef=${ef}, alternating with the next row`, ...r.raw });
      rows.push({ case: `weft cypher CURRENT vector_ef(${ef})`, ...r.weft, note: ofRaw(r.weft, r.raw) });
    }
    t = performance.now();
    await db.close();
    rows.push({ case: 'weft close (checkpoint, HNSW graph saved beside it)', seconds: (performance.now() - t) / 1000 });
    t = performance.now();
    db = await open(dir);
    rows.push({ case: 'weft reopen (checkpoint, saved HNSW graph read back)', seconds: (performance.now() - t) / 1000 });
    await warmUp('after the reopen');
    const again = await run('snapshot');
    rows.push({ case: 'raw k=10 ef=64, alternating with the next row', ...again.raw });
    rows.push({ case: 'weft after reopen SNAPSHOT', ...again.weft, note: ofRaw(again.weft, again.raw) });
    await db.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  const load = loadavg().map((x) => x.toFixed(1)).join(' ');
  console.log(`\nload average at the end: ${load}`);
  console.log('\n| case | recall@k | QPS | CPU us/query | GCs (scavenges / full) | seconds | note |\n|---|---|---|---|---|---|---|');
  for (const r of rows) {
    console.log(`| ${r.case} | ${r.recall?.toFixed(3) ?? ''} | ${r.qps?.toFixed(0) ?? ''} | ${r.cpu_us?.toFixed(0) ?? ''} | ${r.gcs ?? ''} | ${r.seconds?.toFixed(2) ?? ''} | ${r.note ?? ''} |`);
  }
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/vector.json', JSON.stringify({ n, dims, clusters, queries: queryCount, k, seed, m, ef_construction, weft: dist ? 'dist' : 'src', load_average: load, rows }, null, 2));
}

await main();
