/**
 * Vector queries only, on a data set built once and kept: Weft through Cypher beside raw
 * hnswlib-node reading its own saved graph of the same vectors, alternating in blocks of queries so
 * both see the same load. For comparing two builds back to back without rebuilding 100,000 vectors
 * each time (`bench/vector.ts` measures the builds, reopen and recall at several beams).
 *
 * - `--dir` holds the Weft data directory and raw's saved graph; made on first use (seeded, as
 *   bench/vector.ts makes its data), opened as it is afterwards;
 * - `--shapes` picks query shapes (comma-separated; default all): `plain` the bench's query, `dist`
 *   the distance projected and ordered by its alias, `filter` a filter passing half the nodes, `k1`
 *   and `k100` other limits, `literal` the query vector written into the text, `ef128` the beam hint;
 * - per shape and consistency mode, CPU time (user + system) per query of each side and their ratio
 *   (raw searches with the shape's k and beam, without the filter), and the scavenges and mark-sweeps
 *   each side's queries caused (from `gc` performance entries);
 * - `--rounds` repeats the whole set, so one run gives several figures per row;
 * - `--metric cosine` or `dot` indexes (and orders) by that metric instead of euclidean, in a directory
 *   of its own.
 *
 *   npx tsx bench/vector-query.ts [--dist] [--dir /tmp/weft-vector-query] [--n 100000] [--dims 128] [--metric euclidean]
 *     [--queries 500] [--rounds 3] [--shapes plain,dist,filter,k1,k100,literal,ef128] [--modes current,snapshot]
 *
 * Prints a table and writes bench/results/vector-query.json.
 */
import { createRequire } from 'node:module';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { PerformanceObserver, constants as perfConstants, type PerformanceEntry } from 'node:perf_hooks';
import type { HierarchicalNSW as Hnsw } from 'hnswlib-node';
import { clusteredSet } from './vector-data.js';

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
const rounds = Number(arg('rounds', '3'));
const metric = arg('metric', 'euclidean');
const space = ({ euclidean: 'l2', cosine: 'cosine', dot: 'ip' } as const)[metric as 'euclidean' | 'cosine' | 'dot'];
if (space === undefined) throw new Error(`--metric takes euclidean, cosine or dot, not ${metric}`);
const dir = arg('dir', `/tmp/weft-vector-query-${n}x${dims}${metric === 'euclidean' ? '' : `-${metric}`}`);
const seed = 42;
const clusters = 100;
const m = 16;
const ef_construction = 100;
const seed_batch_nodes = 5000;
const block_queries = 50;

interface Shape {
  readonly name: string;
  readonly k: number;
  readonly ef: number;
  /** The statement, and its parameters, for query vector `q`. */
  statement(q: Float32Array): { text: string; params: Record<string, Float32Array> };
}

const order = `ORDER BY vector_distance(d.emb, $q, '${metric}')`;
const shapes: readonly Shape[] = [
  { name: 'plain', k: 10, ef: 64, statement: (q) => ({ text: `MATCH (d:Doc) RETURN d.id ${order} LIMIT 10`, params: { q } }) },
  {
    name: 'dist',
    k: 10,
    ef: 64,
    statement: (q) => ({ text: `MATCH (d:Doc) RETURN d.id, vector_distance(d.emb, $q, '${metric}') AS dist ORDER BY dist LIMIT 10`, params: { q } }),
  },
  { name: 'filter', k: 10, ef: 64, statement: (q) => ({ text: `MATCH (d:Doc) WHERE d.id % 2 = 0 RETURN d.id ${order} LIMIT 10`, params: { q } }) },
  { name: 'k1', k: 1, ef: 64, statement: (q) => ({ text: `MATCH (d:Doc) RETURN d.id ${order} LIMIT 1`, params: { q } }) },
  { name: 'k100', k: 100, ef: 100, statement: (q) => ({ text: `MATCH (d:Doc) RETURN d.id ${order} LIMIT 100`, params: { q } }) },
  {
    name: 'literal',
    k: 10,
    ef: 64,
    statement: (q) => ({ text: `MATCH (d:Doc) RETURN d.id ORDER BY vector_distance(d.emb, [${Array.from(q).join(', ')}], '${metric}') LIMIT 10`, params: {} }),
  },
  { name: 'ef128', k: 10, ef: 128, statement: (q) => ({ text: `/*+ vector_ef(128) */ MATCH (d:Doc) RETURN d.id ${order} LIMIT 10`, params: { q } }) },
];

async function prepare(): Promise<void> {
  if (existsSync(join(dir, 'raw.hnsw'))) return;
  console.log(`making ${dir}: ${n} x ${dims}`);
  mkdirSync(dir, { recursive: true });
  const { data } = clusteredSet(seed, n, queryCount, dims, clusters, 0.35);
  const db = await open(join(dir, 'weft'), { index_build_statement_wait_secs: 3600 });
  for (let i = 0; i < n; i += seed_batch_nodes) {
    await db.database.write(
      (ws) => {
        for (let j = i; j < Math.min(n, i + seed_batch_nodes); j++) ws.createNode(['Doc'], new Map<string, bigint | Float32Array>([['id', BigInt(j)], ['emb', data[j]!]]));
      },
      { concern: { acks: 1, level: 'journal', timeout_ms: 0 } },
    );
  }
  await db.query(
    `CREATE VECTOR INDEX doc_emb FOR (d:Doc) ON (d.emb) OPTIONS {indexConfig: {\`vector.dimensions\`: ${dims}, \`vector.similarity_function\`: '${metric}', \`vector.hnsw.m\`: ${m}, \`vector.hnsw.ef_construction\`: ${ef_construction}}}`,
  );
  await db.close();
  const raw: Hnsw = new HierarchicalNSW(space, dims);
  raw.initIndex({ maxElements: n, m, efConstruction: ef_construction, randomSeed: 100 });
  for (let i = 0; i < n; i++) raw.addPoint(Array.from(data[i]!), i);
  raw.writeIndexSync(join(dir, 'raw.hnsw'));
}

/** Every garbage collection of the run (start in performance.now() time, and whether it was a scavenge). */
const collections: { start: number; minor: boolean }[] = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    collections.push({ start: e.startTime, minor: (e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind === perfConstants.NODE_PERFORMANCE_GC_MINOR });
  }
}).observe({ entryTypes: ['gc'] });

interface Side {
  cpu_us: number;
  /** The side's counted blocks, [start, end] in performance.now() time. */
  spans: [number, number][];
  scavenges: number;
  full_gcs: number;
}

async function main(): Promise<void> {
  await prepare();
  const { queries } = clusteredSet(seed, n, queryCount, dims, clusters, 0.35);
  const raw: Hnsw = new HierarchicalNSW(space, dims);
  raw.readIndexSync(join(dir, 'raw.hnsw'));
  const db = await open(join(dir, 'weft'));
  const picked = arg('shapes', shapes.map((s) => s.name).join(',')).split(',');
  const modes = arg('modes', 'current,snapshot').split(',');
  const cpuUs = (): number => {
    const u = process.cpuUsage();
    return u.user + u.system;
  };
  type Counted = Omit<Side, 'spans'>;
  type Result = { shape: string; mode: string; round: number; weft: Counted; raw: Counted; ratio: number };
  const results: Result[] = [];
  /** Runs `body` and adds its CPU time to `side`; its collections are counted once their entries arrive. */
  const measure = async (body: () => Promise<void> | void, side: Side): Promise<void> => {
    const t0 = performance.now();
    const c0 = cpuUs();
    await body();
    side.cpu_us += cpuUs() - c0;
    side.spans.push([t0, performance.now()]);
  };
  const counted = ({ cpu_us, scavenges, full_gcs }: Side): Counted => ({ cpu_us, scavenges, full_gcs });
  /** Collections that started inside the side's blocks (gc entries arrive asynchronously: waits for them). */
  const countCollections = async (side: Side): Promise<void> => {
    await new Promise((resolve) => setTimeout(resolve, 20));
    for (const c of collections) {
      if (!side.spans.some(([a, b]) => c.start >= a && c.start <= b)) continue;
      if (c.minor) side.scavenges++;
      else side.full_gcs++;
    }
  };
  console.log(`vector-query: n ${n}, dims ${dims}, metric ${metric}, queries ${queryCount}, rounds ${rounds}, weft from ${dist ? 'dist (compiled)' : 'src (tsx)'}`);
  for (let round = 0; round < rounds; round++) {
    for (const shape of shapes.filter((s) => picked.includes(s.name))) {
      const statements = queries.map((q) => shape.statement(q));
      for (const mode of modes) {
        const weft: Side = { cpu_us: 0, spans: [], scavenges: 0, full_gcs: 0 };
        const rawSide: Side = { cpu_us: 0, spans: [], scavenges: 0, full_gcs: 0 };
        raw.setEf(shape.ef);
        // A first pass warms both up and is not counted.
        for (let pass = 0; pass < 2; pass++) {
          for (let b = 0; b < queries.length; b += block_queries) {
            // The warm-up pass measures into sides that are dropped.
            const w: Side = pass === 1 ? weft : { cpu_us: 0, spans: [], scavenges: 0, full_gcs: 0 };
            const r: Side = pass === 1 ? rawSide : { cpu_us: 0, spans: [], scavenges: 0, full_gcs: 0 };
            await measure(async () => {
              for (let i = b; i < Math.min(queries.length, b + block_queries); i++) {
                const s = statements[i]!;
                await db.query(`/*+ vector_consistency('${mode}') */ ${s.text}`, s.params);
              }
            }, w);
            await measure(() => {
              for (let i = b; i < Math.min(queries.length, b + block_queries); i++) raw.searchKnn(Array.from(queries[i]!), shape.k);
            }, r);
          }
        }
        await countCollections(weft);
        await countCollections(rawSide);
        weft.cpu_us /= queries.length;
        rawSide.cpu_us /= queries.length;
        const result = { shape: shape.name, mode, round, weft: counted(weft), raw: counted(rawSide), ratio: rawSide.cpu_us / weft.cpu_us };
        results.push(result);
        console.log(
          `round ${round} ${shape.name} ${mode}: weft ${weft.cpu_us.toFixed(0)} us (${weft.scavenges} scavenges, ${weft.full_gcs} full), raw ${rawSide.cpu_us.toFixed(0)} us (${rawSide.scavenges} scavenges): ${(result.ratio * 100).toFixed(0)}%`,
        );
      }
    }
  }
  await db.close();
  const load = loadavg().map((x) => x.toFixed(1)).join(' ');
  console.log(`\nload average at the end: ${load}\n`);
  console.log(`| shape | mode | weft CPU us/query (rounds) | raw CPU us/query | median ratio by CPU time | weft scavenges per ${queryCount} queries |\n|---|---|---|---|---|---|`);
  const median = (xs: number[]): number => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  for (const shape of shapes.filter((s) => picked.includes(s.name))) {
    for (const mode of modes) {
      const rs = results.filter((r) => r.shape === shape.name && r.mode === mode);
      console.log(
        `| ${shape.name} | ${mode} | ${rs.map((r) => r.weft.cpu_us.toFixed(0)).join(' / ')} | ${rs.map((r) => r.raw.cpu_us.toFixed(0)).join(' / ')} | ${(median(rs.map((r) => r.ratio)) * 100).toFixed(0)}% | ${rs.map((r) => r.weft.scavenges).join(' / ')} |`,
      );
    }
  }
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/vector-query.json', JSON.stringify({ n, dims, metric, queries: queryCount, rounds, weft: dist ? 'dist' : 'src', load_average: load, results }, null, 2));
}

await main();
