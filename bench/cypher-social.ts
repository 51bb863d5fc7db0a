/**
 * Cypher on a synthetic social graph: 100,000 Person nodes (id, name, age, city) and 1,000,000 KNOWS
 * relationships from a fixed seed, loaded into each engine in the same run, then a suite of read queries
 * timed over repeated runs (medians), with the ratio of each Weft engine's median to Kùzu's.
 *
 *   npm run bench:social -- [--persons 100000] [--edges 1000000] [--runs 10]
 *                           [--engine weft-embedded,weft-grpc,kuzu] [--queries name,name]
 *                           [--suite social|shapes|more|probes|wide|breadth] [--heap]
 *
 * `npm run bench:social` compiles with tsc into dist/ and runs the build users run; `npx tsx
 * bench/cypher-social.ts ...` runs the sources through tsx, which is slower (see bench/README.md).
 *
 * Engines: weft-embedded (open() in this process), weft-grpc (a `weft serve` child process,
 * ExecuteCypher per query), kuzu (npm `kuzu`, installed on first use into a scratch folder; see
 * bench/kuzu-social-engine.ts). Every engine answers the same query text (Kùzu its own spelling of
 * shortest paths); the row count and a digest of the sorted rows of each answer are compared across
 * engines and a difference is reported.
 *
 * `--suite shapes` runs the second suite (bench/cypher-social-shapes.ts) on the same graph, `--suite more` the
 * third (bench/cypher-social-more.ts); `--suite probes` the shapes of bench/cypher-social-probes.ts, one more
 * member of each class of queries a mechanism of the engine serves; `--suite wide` the fifth
 * (bench/cypher-social-wide.ts), shapes users write that none of the others holds; `--suite breadth` the sixth
 * (bench/cypher-social-breadth.ts), the breadth of what users write (subqueries, comprehensions, paths, short reads).
 *
 * Prints a table and writes bench/results/cypher-social.json (cypher-social-shapes.json and
 * cypher-social-more.json for the other suites).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getHeapStatistics } from 'node:v8';
import { answerOf, generate, QUERIES as SOCIAL, selectQueries, type Answer, type SocialEngine, type SocialGraph, type SocialQuery } from './cypher-social-graph.js';
import { BREADTH } from './cypher-social-breadth.js';
import { MORE } from './cypher-social-more.js';
import { PROBES } from './cypher-social-probes.js';
import { SHAPES } from './cypher-social-shapes.js';
import { WIDE } from './cypher-social-wide.js';
import { WeftEmbeddedEngine, WeftGrpcEngine } from './cypher-social-weft.js';
import { KuzuSocialEngine, kuzu_version } from './kuzu-social-engine.js';

function option(name: string, fallback: number | string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] !== undefined ? (process.argv[i + 1] as string) : String(fallback);
}

const PERSONS = Number(option('--persons', 100_000));
const EDGES = Number(option('--edges', 1_000_000));
const RUNS = Number(option('--runs', 10));
const WARMUP_RUNS = 2;
const SEED = 42;
const SUITE = option('--suite', 'social');
const suites: Record<string, readonly SocialQuery[]> = { social: SOCIAL, shapes: SHAPES, more: MORE, probes: PROBES, wide: WIDE, breadth: BREADTH };
const suite = suites[SUITE];
if (suite === undefined) throw new Error(`unknown suite ${SUITE} (known: ${Object.keys(suites).join(', ')})`);
const QUERIES = selectQueries(option('--queries', ''), suite);
/** `--heap`: after each query, print the heap (used, total, limit) and what the process holds in all. */
const HEAP = process.argv.includes('--heap');
/** Run as compiled JavaScript (dist/bench, `npm run bench:social`), or through tsx from the sources. */
const COMPILED = import.meta.url.endsWith('.js');
/** The sources' bench folder, where results go however the bench is run. */
const bench_dir = join(dirname(fileURLToPath(import.meta.url)), ...(COMPILED ? ['..', '..', 'bench'] : []));

const engines: Record<string, () => SocialEngine> = {
  'weft-embedded': () => new WeftEmbeddedEngine(),
  'weft-grpc': () => new WeftGrpcEngine(),
  kuzu: () => new KuzuSocialEngine(),
};

interface Result {
  readonly engine: string;
  readonly query: string;
  readonly median_ms: number;
  readonly min_ms: number;
  readonly max_ms: number;
  readonly rows: number;
  /** The first row of the last run, as JSON. */
  readonly first_row: string;
  /** A digest of the last run's sorted rows; compared across engines. */
  readonly digest: string;
}

interface EngineRun {
  readonly engine: string;
  readonly load_s: number;
  readonly results: Result[];
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

async function benchEngine(engine: SocialEngine, graph: SocialGraph): Promise<EngineRun> {
  const t0 = performance.now();
  await engine.load(graph);
  const load_s = (performance.now() - t0) / 1000;
  console.error(`${engine.name}: loaded in ${load_s.toFixed(1)} s`);
  const results: Result[] = [];
  for (const q of QUERIES) {
    const times: number[] = [];
    let answer: Answer = { rows: 0, first: '', digest: '' };
    for (let i = 0; i < WARMUP_RUNS + RUNS; i++) {
      const t = performance.now();
      const rows = await engine.run(q, q.params(i, graph.persons.length));
      if (i >= WARMUP_RUNS) times.push(performance.now() - t);
      // Reduced outside the timing: the last run's answer is the one compared.
      if (i === WARMUP_RUNS + RUNS - 1) answer = answerOf(rows);
    }
    const r = { engine: engine.name, query: q.name, median_ms: median(times), min_ms: Math.min(...times), max_ms: Math.max(...times), rows: answer.rows, first_row: answer.first, digest: answer.digest };
    console.error(`${engine.name}: ${q.name} ${r.median_ms.toFixed(2)} ms, ${r.rows} rows${HEAP ? `, ${heapLine()}` : ''}`);
    results.push(r);
  }
  if (HEAP && engine.cacheReport !== undefined) console.error(`${engine.name}: after the suite\n${engine.cacheReport()}`);
  return { engine: engine.name, load_s, results };
}

const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

/** The heap after a query: V8's used and total heap, and the process's resident set and array buffers. */
function heapLine(): string {
  const h = getHeapStatistics();
  const m = process.memoryUsage();
  return `heap used ${mib(h.used_heap_size)} of ${mib(h.total_heap_size)}, rss ${mib(m.rss)}, array buffers ${mib(m.arrayBuffers)}`;
}

function ratioName(engine: string): string {
  return `${engine.replace('weft-', '')}/kuzu`;
}

async function main(): Promise<void> {
  const names = option('--engine', Object.keys(engines).join(',')).split(',');
  for (const name of names) if (engines[name] === undefined) throw new Error(`unknown engine ${name} (known: ${Object.keys(engines).join(', ')})`);
  const graph = generate(PERSONS, EDGES, SEED);
  const out: EngineRun[] = [];
  // One engine at a time, each closed before the next loads, so they do not share the two cores.
  for (const name of names) {
    const engine = engines[name]!();
    try {
      out.push(await benchEngine(engine, graph));
    } finally {
      await engine.close();
    }
  }

  const cell = (e: EngineRun, q: string): Result => e.results.find((r) => r.query === q)!;
  const kuzu = out.find((e) => e.engine === 'kuzu');
  const wefts = out.filter((e) => e.engine !== 'kuzu');
  const ratios = kuzu === undefined ? [] : wefts;
  console.log(`cypher-social: ${PERSONS} persons, ${EDGES} KNOWS, median of ${RUNS} runs after ${WARMUP_RUNS} warm-up, ${COMPILED ? 'compiled build (dist)' : 'through tsx'}`);
  for (const e of out) console.log(`${e.engine}: load ${e.load_s.toFixed(1)} s`);
  const header = [...out.map((e) => `${e.engine} ms`), ...ratios.map((e) => ratioName(e.engine))];
  console.log(`${'query'.padEnd(24)} ${header.map((h) => h.padStart(16)).join('')}   rows`);
  const mismatches: string[] = [];
  for (const q of QUERIES) {
    const cells = out.map((e) => cell(e, q.name).median_ms.toFixed(2));
    const rs = ratios.map((e) => (cell(e, q.name).median_ms / cell(kuzu!, q.name).median_ms).toFixed(2));
    const first = out[0] === undefined ? undefined : cell(out[0], q.name);
    console.log(`${q.name.padEnd(24)} ${[...cells, ...rs].map((c) => c.padStart(16)).join('')}   ${first?.rows ?? ''}`);
    for (const e of out.slice(1)) {
      const r = cell(e, q.name);
      if (first !== undefined && (r.rows !== first.rows || r.digest !== first.digest)) {
        mismatches.push(`${q.name}: ${first.engine} ${first.rows} rows ${first.first_row}, ${e.engine} ${r.rows} rows ${r.first_row}`);
      }
    }
  }
  for (const m of mismatches) console.log(`answers differ: ${m}`);
  if (kuzu !== undefined) {
    for (const e of wefts) {
      const rs = QUERIES.map((q) => cell(e, q.name).median_ms / cell(kuzu, q.name).median_ms);
      const worst = Math.max(...rs);
      console.log(`${ratioName(e.engine)}: median ratio ${median(rs).toFixed(2)}, worst ${worst.toFixed(2)} (${QUERIES[rs.indexOf(worst)]!.name})`);
    }
  }

  const dir = join(bench_dir, 'results');
  mkdirSync(dir, { recursive: true });
  const ratio_to_kuzu =
    kuzu === undefined
      ? {}
      : Object.fromEntries(wefts.map((e) => [e.engine, Object.fromEntries(QUERIES.map((q) => [q.name, cell(e, q.name).median_ms / cell(kuzu, q.name).median_ms]))]));
  const report = { suite: SUITE, build: COMPILED ? 'dist' : 'tsx', persons: PERSONS, edges: EDGES, runs: RUNS, seed: SEED, node: process.version, kuzu: kuzu_version, queries: QUERIES.map((q) => q.name), engines: out, ratio_to_kuzu, mismatches };
  writeFileSync(join(dir, SUITE === 'social' ? 'cypher-social.json' : `cypher-social-${SUITE}.json`), `${JSON.stringify(report, null, 2)}\n`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
