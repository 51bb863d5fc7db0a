/**
 * How often HNSW misses the query's cluster on tightly clustered vectors, over many seeds, and what
 * the remedies within hnswlib-node's API would give.
 *
 * Data: test/search/data.ts `clusteredVectors` (`--clusters` tight clusters, centres uniform in
 * [-1, 1]^d, noise +-0.2): `--n` vectors of `--dims` dimensions in Weft's `VectorIndex` (M 16,
 * ef_construction 100), built over the first `--built` share of them and published, the rest
 * inserted after, every `--delete-every`-th deleted (the history of test/tools/backup-vector.test.ts).
 * Queries: `--probes` points of clusters drawn afresh (`--probes-from other`, as that test's probes:
 * they fall between the data's clusters) or further points of the data's own clusters (`same`).
 * Per search: recall@10 against brute force over the live vectors, and the probes that "missed"
 * (recall@10 below 0.5: most answers came from another cluster).
 *
 * Searches: the HNSW graph alone at beams 32 to 512; `VectorIndex.search` at beam 64 (the exact list
 * of recent inserts merged in, and one search at four times the beam when a listed vector the
 * graph did not answer is nearer than its k-th answer); and checks on the graph alone that retry
 * at four times the beam when a vector measured exactly beats the graph's k-th (or best) answer:
 * the exact list, or `--landmarks` held vectors (every (n / L)-th) measured for the check alone.
 * The checks table gives how often each fired, on how many real misses, and the misses it let by.
 *
 *   npx tsx bench/vector-clusters.ts [--seeds 200] [--n 1200] [--dims 16] [--clusters 10] [--probes 8] [--landmarks 64] [--built 0.833] [--delete-every 9] [--probes-from other|same]
 *
 * Prints a table and writes bench/results/vector-clusters.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { recent_retry_beam_factor, VectorIndex } from '../src/projections/search/vector-index.js';
import { bruteForce, clusteredVectors } from '../test/search/data.js';
import { record } from '../test/search/records.js';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const seeds = arg('seeds', 200);
const n = arg('n', 1200);
const dims = arg('dims', 16);
const clusters = arg('clusters', 10);
const probes = arg('probes', 8);
const landmarks = arg('landmarks', 64);
const first_seed = arg('seed', 1);
const k = 10;
/** Share of the vectors in the graph at its publication; the rest are written after it. */
const built_fraction = arg('built', 1000 / 1200);
/** Every this-many-th vector (by position, from the first) is deleted after the writes. */
const deleteEvery = arg('delete-every', 9);
const probesFrom = process.argv.includes('--probes-from') ? process.argv[process.argv.indexOf('--probes-from') + 1] : 'other';
if (probesFrom !== 'same' && probesFrom !== 'other') throw new Error('--probes-from takes same or other');
const beams = [32, 64, 128, 256, 512];
/** A probe whose recall@10 is below this took its answers from another cluster. */
const missed_below = 0.5;
/** The retry's beam, as a multiple of the first search's. */
const retry_beam_factor = recent_retry_beam_factor;
const spec = { kind: 'vector' as const, dimensions: dims, metric: 'L2' as const, m: 16, ef_construction: 100 };

interface Tally {
  recall: number;
  missed: number;
  probes: number;
  seedsWithMiss: number;
}
const tally = (): Tally => ({ recall: 0, missed: 0, probes: 0, seedsWithMiss: 0 });
const byBeam = new Map<number, Tally>(beams.map((b) => [b, tally()]));
/** Weft's search: the graph at beam 64, the exact list merged in, retried wider when the list shows a miss. */
const indexed = tally();
/** Ids on the exact lists after the writes, summed over the seeds. */
let listed = 0;
/**
 * Checks of a search's answer at beam 64 (each retried at four times the beam when it fires):
 * the exact list's vectors (VectorIndex's `recent`, measured by every search anyway) or the
 * landmarks, against the graph's k-th or best answer.
 */
const checks = ['recent beats k-th', 'recent beats best', 'landmarks beat k-th', 'landmarks beat best'].map((name) => ({
  name,
  ...tally(),
  fired: 0,
  firedOnMiss: 0,
  missesUnfired: 0,
}));

/** Squared Euclidean distance, as hnswlib's l2 space gives it. */
function squared(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i]! - b[i]!) ** 2;
  return s;
}

const recallOf = (got: readonly number[], want: readonly number[]): number => got.filter((x) => want.includes(x)).length / want.length;

for (let seed = first_seed; seed < first_seed + seeds; seed++) {
  const all = clusteredVectors(seed, n + probes, dims, clusters);
  const vs = all.slice(0, n);
  // Points of the data's own clusters, or of clusters drawn afresh (between the data's clusters).
  const qs = probesFrom === 'same' ? all.slice(n) : clusteredVectors(seed + 1, probes, dims, clusters);
  const index = new VectorIndex(spec, 'P', 'v');
  // Built over the first `built_fraction`, published, then the rest inserted one by one and every
  // `--delete-every`-th deleted: the history test/tools/backup-vector.test.ts gives its graph.
  const built = Math.floor(n * built_fraction);
  vs.slice(0, built).forEach((v, i) => index.refresh(record(i + 1, ['P'], { v })));
  index.settleBuild();
  vs.slice(built).forEach((v, i) => index.refresh(record(built + i + 1, ['P'], { v })));
  for (let i = 0; i < n; i += deleteEvery) index.forget(i + 1);
  const live = (i: number): boolean => i % deleteEvery !== 0;
  listed += index.recentIds().length;
  const marks = [...Array(Math.min(landmarks, n)).keys()].map((j) => Math.floor((j * n) / Math.min(landmarks, n)));
  const graph = index.graph()!;
  /** The graph's own answer, without the exact list (ids, then squared distances). */
  const graphAlone = (q: Float32Array, beam: number): { neighbors: number[]; distances: number[] } => {
    // The index remembers the beam it set last: it is put back, or the index would search at this one.
    const was = graph.getEf();
    graph.setEf(beam);
    const res = graph.searchKnn(Array.from(q), k);
    graph.setEf(was);
    return res;
  };
  const searches: [Tally, (q: Float32Array) => number[]][] = [
    ...beams.map((b): [Tally, (q: Float32Array) => number[]] => [byBeam.get(b)!, (q) => graphAlone(q, b).neighbors]),
    [indexed, (q) => index.search(q, k, 64).map((h) => h.id)],
  ];
  for (const [t, search] of searches) {
    let any = false;
    for (const q of qs) {
      const want = bruteForce(vs, q, k, live).map((i) => i + 1);
      const r = recallOf(search(q), want);
      t.recall += r;
      t.probes++;
      if (r < missed_below) {
        t.missed++;
        any = true;
      }
    }
    if (any) t.seedsWithMiss++;
  }
  // The checks at the default beam: each names vectors measured exactly; when one the graph did not
  // answer is nearer than its k-th (or its best) answer, the search runs again with a wider beam.
  const recent = new Set(index.recentIds());
  const markIds = marks.filter(live).map((i) => i + 1);
  for (const check of checks) {
    const measured = check.name.startsWith('recent') ? [...recent] : markIds;
    let any = false;
    for (const q of qs) {
      const want = bruteForce(vs, q, k, live).map((i) => i + 1);
      // The graph's own answer (without the exact list merged in).
      const own = graphAlone(q, 64);
      const bound = check.name.endsWith('best') ? own.distances[0]! : own.distances.at(-1)!;
      const answered = new Set(own.neighbors);
      const beaten = measured.some((id) => !answered.has(id) && squared(index.vectorOf(id)!, q) < bound);
      const miss = recallOf(own.neighbors, want) < missed_below;
      const got = graphAlone(q, beaten ? 64 * retry_beam_factor : 64).neighbors;
      if (beaten) check.fired++;
      if (beaten && miss) check.firedOnMiss++;
      if (!beaten && miss) check.missesUnfired++;
      const r = recallOf(got, want);
      check.recall += r;
      check.probes++;
      if (r < missed_below) {
        check.missed++;
        any = true;
      }
    }
    if (any) check.seedsWithMiss++;
  }
}

const rows = [
  ...beams.map((b) => ({ case: `graph alone, beam ${b}`, ...byBeam.get(b)! })),
  { case: 'VectorIndex.search, beam 64 (exact list merged, retried at 256 when it shows a miss)', ...indexed },
  ...checks.map((c) => ({ case: `graph alone, beam 64, retried at ${64 * retry_beam_factor} when ${c.name}`, ...c })),
];
const load = loadavg().map((x) => x.toFixed(1)).join(' ');
console.log(`vector clusters: seeds ${first_seed}..${first_seed + seeds - 1}, n ${n}, dims ${dims}, clusters ${clusters}, probes ${probes} per seed from ${probesFrom} clusters, built ${built_fraction.toFixed(3)}, every ${deleteEvery}th deleted, k ${k}; exact list after the writes: ${(listed / seeds).toFixed(1)} ids on average; load average ${load}\n`);
console.log('| search | recall@10 | probes that missed their cluster | seeds with a miss |\n|---|---|---|---|');
for (const r of rows) console.log(`| ${r.case} | ${(r.recall / r.probes).toFixed(4)} | ${r.missed} of ${r.probes} | ${r.seedsWithMiss} of ${seeds} |`);
console.log('\n| check (beam 64) | fired | fired on a miss | misses not caught |\n|---|---|---|---|');
for (const c of checks) console.log(`| ${c.name} | ${c.fired} of ${c.probes} | ${c.firedOnMiss} | ${c.missesUnfired} |`);
mkdirSync('bench/results', { recursive: true });
writeFileSync(
  'bench/results/vector-clusters.json',
  JSON.stringify({ mean_exact_list: listed / seeds, seeds, first_seed, n, dims, clusters, probes, probes_from: probesFrom, built_fraction, delete_every: deleteEvery, landmarks, k, load_average: load, rows }, null, 2),
);
