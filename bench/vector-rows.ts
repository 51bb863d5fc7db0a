/**
 * Why Weft's vector query cost more in bench/vector.ts's rows measured right after the online build
 * than after its reopen: one process builds the index as bench/vector.ts does, then measures in
 * phases, each changing one thing, with raw hnswlib-node, the index's own search (no Cypher) and
 * Weft through Cypher alternating in blocks of queries:
 *
 * - `built`: right after CREATE VECTOR INDEX returned, `--built-rounds` rounds (each a pass over
 *   the queries uncounted, then one counted), printed one by one: the curve of the process warming up;
 * - `fresh queries`: a second query set, near the same centres, that no phase searched before (the
 *   nodes it reads are cold: if the rounds above fell because of the data they touch, this rises);
 * - `graph re-read`: the index's HNSW graph written to a file and read back into it (the graph as a
 *   restart loads it; the nodes untouched);
 * - `reopened`: the database closed and opened (the checkpoint's nodes laid out by the load, the
 *   saved graph read).
 *
 * `--idle s` first waits `s` seconds after the build and prints the process's CPU time per 5 s (any
 * work the database does in the background). Per round: each side's CPU time (user + system) per
 * query, and the collections of the round; per phase, medians over its rounds.
 *
 *   npx tsx bench/vector-rows.ts [--dist] [--n 100000] [--dims 128] [--queries 500] [--built-rounds 4] [--rounds 2] [--mode current] [--ef 64] [--idle 0]
 *
 * Prints a table and writes bench/results/vector-rows.json.
 */
import { createRequire } from 'node:module';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { PerformanceObserver, constants as perfConstants, type PerformanceEntry } from 'node:perf_hooks';
import type { HierarchicalNSW as Hnsw } from 'hnswlib-node';
import type { VectorIndex } from '../src/projections/search/vector-index.js';
import { clusteredSet, exactKnn, recallAt } from './vector-data.js';

const { HierarchicalNSW } = createRequire(import.meta.url)('hnswlib-node') as typeof import('hnswlib-node');
const dist = process.argv.includes('--dist');
const { open } = (await import(dist ? '../dist/src/index.js' : '../src/index.js')) as typeof import('../src/index.js');

const arg = (name: string, fallback: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : fallback;
};
const n = Number(arg('n', '100000'));
const dims = Number(arg('dims', '128'));
const queryCount = Number(arg('queries', '500'));
const rounds = Number(arg('rounds', '2'));
const builtRounds = Number(arg('built-rounds', '4'));
const mode = arg('mode', 'current');
const k = 10;
/** The beam of every side: raw's setEf, the index's search, and Weft's `vector_ef` hint (none at 64, Weft's default). */
const ef = Number(arg('ef', '64'));
const seed = 42;
const clusters = 100;
const m = 16;
const ef_construction = 100;
const seed_batch_nodes = 5000;
const block_queries = 50;

const gcs: { minor: boolean; ms: number }[] = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) gcs.push({ minor: (e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind === perfConstants.NODE_PERFORMANCE_GC_MINOR, ms: e.duration });
}).observe({ entryTypes: ['gc'] });
type Db = Awaited<ReturnType<typeof open>>;
const cpuUs = (): number => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
const median = (xs: readonly number[]): number => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function vectorIndexOf(db: Db): VectorIndex {
  for (const gen of db.database.sm.schema.indexes.all()) if (gen.search?.kind === 'vector') return gen.search;
  throw new Error('no vector index');
}

interface PhaseResult {
  readonly phase: string;
  readonly raw_us: number;
  readonly index_us: number;
  readonly weft_us: number;
  readonly weft_recall: number;
  readonly recent: number;
  readonly rounds: readonly { raw_us: number; index_us: number; weft_us: number }[];
}

async function main(): Promise<void> {
  console.log(`vector-rows: n ${n}, dims ${dims}, queries ${queryCount}, rounds ${rounds}, mode ${mode}, ef ${ef}, weft from ${dist ? 'dist (compiled)' : 'src (tsx)'}`);
  // Twice the queries: the second half is a set no phase before `fresh queries` has searched for.
  const { data, queries: all } = clusteredSet(seed, n, 2 * queryCount, dims, clusters, 0.35);
  const sets = [all.slice(0, queryCount), all.slice(queryCount)] as const;
  const truths = sets.map((set) => set.map((q) => exactKnn(data, q, k)));
  const raw: Hnsw = new HierarchicalNSW('l2', dims);
  raw.initIndex({ maxElements: n, m, efConstruction: ef_construction, randomSeed: 100 });
  for (let i = 0; i < n; i++) raw.addPoint(Array.from(data[i]!), i);
  raw.setEf(ef);

  const dir = mkdtempSync(join(tmpdir(), 'weft-bench-vector-rows-'));
  const results: PhaseResult[] = [];
  try {
    let db = await open(join(dir, 'weft'), { index_build_statement_wait_secs: 3600 });
    for (let i = 0; i < n; i += seed_batch_nodes) {
      await db.database.write(
        (ws) => {
          for (let j = i; j < Math.min(n, i + seed_batch_nodes); j++) ws.createNode(['Doc'], new Map<string, bigint | Float32Array>([['id', BigInt(j)], ['emb', data[j]!]]));
        },
        { concern: { acks: 1, level: 'journal', timeout_ms: 0 } },
      );
    }
    await db.query(
      `CREATE VECTOR INDEX doc_emb FOR (d:Doc) ON (d.emb) OPTIONS {indexConfig: {\`vector.dimensions\`: ${dims}, \`vector.similarity_function\`: 'euclidean', \`vector.hnsw.m\`: ${m}, \`vector.hnsw.ef_construction\`: ${ef_construction}}}`,
    );
    const text = `/*+ vector_consistency('${mode}') */ ${ef === 64 ? '' : `/*+ vector_ef(${ef}) */ `}MATCH (d:Doc) RETURN d.id ORDER BY vector_distance(d.emb, $q, 'euclidean') LIMIT ${k}`;
    const phase = async (name: string, set = 0): Promise<void> => {
      const queries = sets[set]!;
      const truth = truths[set]!;
      const index = vectorIndexOf(db);
      const per: { raw_us: number; index_us: number; weft_us: number }[] = [];
      let weftRecall = 0;
      const answers: (readonly (readonly unknown[])[])[] = [];
      for (let round = 0; round < (name === 'built' ? builtRounds : rounds); round++) {
        const g0 = gcs.length;
        let rawCpu = 0;
        let indexCpu = 0;
        let weftCpu = 0;
        // A first pass warms up and is not counted.
        for (let pass = 0; pass < 2; pass++) {
          for (let b = 0; b < queries.length; b += block_queries) {
            const end = Math.min(queries.length, b + block_queries);
            let c0 = cpuUs();
            for (let i = b; i < end; i++) raw.searchKnn(Array.from(queries[i]!), k);
            if (pass === 1) rawCpu += cpuUs() - c0;
            c0 = cpuUs();
            for (let i = b; i < end; i++) index.search(queries[i]!, k, ef);
            if (pass === 1) indexCpu += cpuUs() - c0;
            c0 = cpuUs();
            for (let i = b; i < end; i++) answers[i - b] = (await db.query(text, { q: queries[i]! })).rows;
            if (pass === 1) weftCpu += cpuUs() - c0;
            // Scored outside the timed block.
            if (pass === 1 && round === 0) for (let i = b; i < end; i++) weftRecall += recallAt(answers[i - b]!.map((r) => Number(r[0] as bigint)), truth[i]!);
          }
        }
        const q = queries.length;
        per.push({ raw_us: rawCpu / q, index_us: indexCpu / q, weft_us: weftCpu / q });
        await new Promise((resolve) => setTimeout(resolve, 20));
        const mine = gcs.slice(g0);
        const gcMs = (minor: boolean): string => `${mine.filter((g) => g.minor === minor).length} (${mine.filter((g) => g.minor === minor).reduce((a, g) => a + g.ms, 0).toFixed(0)} ms)`;
        console.log(
          `${name} round ${round}: raw ${(rawCpu / q).toFixed(0)} us, index.search ${(indexCpu / q).toFixed(0)} us, weft ${(weftCpu / q).toFixed(0)} us; scavenges ${gcMs(true)}, other collections ${gcMs(false)}`,
        );
      }
      results.push({
        phase: name,
        raw_us: median(per.map((p) => p.raw_us)),
        index_us: median(per.map((p) => p.index_us)),
        weft_us: median(per.map((p) => p.weft_us)),
        weft_recall: weftRecall / queries.length,
        recent: index.recentIds().length,
        rounds: per,
      });
    };
    const idleSecs = Number(arg('idle', '0'));
    for (let t = 0; t < idleSecs; t += 5) {
      const c0 = cpuUs();
      const h0 = process.hrtime.bigint();
      await new Promise((resolve) => setTimeout(resolve, 5000));
      console.log(`idle ${t}-${t + 5} s after the build: ${((cpuUs() - c0) / 1000).toFixed(0)} ms CPU in ${(Number(process.hrtime.bigint() - h0) / 1e6).toFixed(0)} ms`);
    }
    await phase('built');
    await phase('fresh queries', 1);
    const graphFile = join(dir, 'reread.hnsw');
    const index = vectorIndexOf(db);
    index.graph()!.writeIndexSync(graphFile);
    index.reloadSaved(graphFile);
    await phase('graph re-read');
    await db.close();
    db = await open(join(dir, 'weft'));
    await phase('reopened');
    await db.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const load = loadavg().map((x) => x.toFixed(1)).join(' ');
  console.log(`\nload average at the end: ${load}\n`);
  console.log('| phase | raw CPU us/query | index.search | weft Cypher (rounds) | index / raw | raw / weft (share of raw by CPU) | weft recall@10 | recent list |\n|---|---|---|---|---|---|---|---|');
  for (const r of results) {
    console.log(
      `| ${r.phase} | ${r.raw_us.toFixed(0)} | ${r.index_us.toFixed(0)} | ${r.weft_us.toFixed(0)} (${r.rounds.map((x) => x.weft_us.toFixed(0)).join(', ')}) | ${(r.index_us / r.raw_us).toFixed(2)} | ${((r.raw_us / r.weft_us) * 100).toFixed(0)}% | ${r.weft_recall.toFixed(3)} | ${r.recent} |`,
    );
  }
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/vector-rows.json', JSON.stringify({ n, dims, queries: queryCount, rounds, mode, weft: dist ? 'dist' : 'src', load_average: load, results }, null, 2));
}

await main();
