/**
 * Cypher on a synthetic social graph: 100,000 Person nodes (id, name, age, city) and 1,000,000 KNOWS
 * relationships, built through the write path in batches from a fixed seed, then six read queries
 * timed over repeated runs (medians).
 *
 *   npx tsx bench/cypher-social.ts [--persons 100000] [--edges 1000000] [--runs 10] [--engine weft]
 *
 * Prints a table and writes bench/results/cypher-social.json. Each engine is a `SocialEngine`:
 * another one (Kùzu) plugs in beside Weft's by implementing the same four methods.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { open, type Db } from '../src/index.js';
import type { Value } from '../src/common/values/value.js';

function option(name: string, fallback: number | string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] !== undefined ? (process.argv[i + 1] as string) : String(fallback);
}

const PERSONS = Number(option('--persons', 100_000));
const EDGES = Number(option('--edges', 1_000_000));
const RUNS = Number(option('--runs', 10));
const WARMUP_RUNS = 2;
const SEED = 42;
const CITIES = 50;
const PERSON_BATCH = 10_000;
const EDGE_BATCH = 20_000;

/** A small seeded generator (mulberry32), so every engine loads the same graph. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Person {
  readonly id: number;
  readonly name: string;
  readonly age: number;
  readonly city: string;
}

export interface SocialGraph {
  readonly persons: readonly Person[];
  /** Pairs of person ids (the `id` property), source first. */
  readonly knows: readonly (readonly [number, number])[];
}

export function generate(persons: number, edges: number, seed: number): SocialGraph {
  const r = rng(seed);
  const ps: Person[] = [];
  for (let i = 0; i < persons; i++) ps.push({ id: i, name: `person${i}`, age: 18 + Math.floor(r() * 60), city: `City${Math.floor(r() * CITIES)}` });
  const knows: [number, number][] = [];
  for (let i = 0; i < edges; i++) {
    const a = Math.floor(r() * persons);
    let b = Math.floor(r() * persons);
    if (b === a) b = (b + 1) % persons;
    knows.push([a, b]);
  }
  return { persons: ps, knows };
}

/** The six queries, each with the parameters of one run (a different start person per run). */
export interface SocialQuery {
  readonly name: string;
  readonly cypher: string;
  params(run: number): Record<string, number>;
}

const start = (run: number): number => (run * 7919) % PERSONS;

export const QUERIES: readonly SocialQuery[] = [
  { name: 'point lookup by id', cypher: 'MATCH (p:Person {id: $id}) RETURN p.name', params: (i) => ({ id: start(i) }) },
  { name: '1-hop count', cypher: 'MATCH (p:Person {id: $id})-[:KNOWS]->(f) RETURN count(f)', params: (i) => ({ id: start(i) }) },
  {
    name: '2-hop distinct count',
    cypher: 'MATCH (p:Person {id: $id})-[:KNOWS]->()-[:KNOWS]->(f) RETURN count(DISTINCT f)',
    params: (i) => ({ id: start(i) }),
  },
  {
    name: 'group by city',
    cypher: 'MATCH (p:Person) RETURN p.city AS city, count(*) AS people, avg(p.age) AS age ORDER BY people DESC, city',
    params: () => ({}),
  },
  { name: 'filtered count', cypher: "MATCH (p:Person) WHERE p.age > 30 AND p.city = 'City7' RETURN count(*)", params: () => ({}) },
  { name: 'top 10 by age', cypher: 'MATCH (p:Person) RETURN p.name, p.age ORDER BY p.age DESC, p.name LIMIT 10', params: () => ({}) },
];

/** What the benchmark needs of an engine; Weft's is below, a second one plugs in the same way. */
export interface SocialEngine {
  readonly name: string;
  load(graph: SocialGraph): Promise<void>;
  /** Runs a query, returning its row count. Integer parameters are passed as JavaScript numbers. */
  run(cypher: string, params: Record<string, number>): Promise<number>;
  close(): Promise<void>;
}

class WeftSocialEngine implements SocialEngine {
  readonly name = 'weft';
  private db: Db | undefined;
  private readonly dir = mkdtempSync(join(tmpdir(), 'weft-bench-'));

  async load(graph: SocialGraph): Promise<void> {
    this.db = await open(this.dir, { memory_limit_bytes: 4096 * 1024 * 1024, checkpoint_interval_entries: 1_000_000 });
    // Node ids are the database's; the load maps each person's id property to the node id it got.
    const nodeOf = new Array<number>(graph.persons.length);
    for (let i = 0; i < graph.persons.length; i += PERSON_BATCH) {
      const batch: Value[] = graph.persons
        .slice(i, i + PERSON_BATCH)
        .map((p) => new Map<string, Value>([['id', BigInt(p.id)], ['name', p.name], ['age', BigInt(p.age)], ['city', p.city]]));
      const r = await this.db.query('UNWIND $batch AS p CREATE (n:Person {id: p.id, name: p.name, age: p.age, city: p.city}) RETURN p.id, id(n)', {
        batch,
      });
      for (const [pid, nid] of r.rows) nodeOf[Number(pid)] = Number(nid);
    }
    for (let i = 0; i < graph.knows.length; i += EDGE_BATCH) {
      const batch: Value[] = graph.knows.slice(i, i + EDGE_BATCH).map(([a, b]) => [BigInt(nodeOf[a] as number), BigInt(nodeOf[b] as number)]);
      await this.db.query('UNWIND $batch AS e MATCH (a), (b) WHERE id(a) = e[0] AND id(b) = e[1] CREATE (a)-[:KNOWS]->(b)', { batch });
    }
  }

  async run(cypher: string, params: Record<string, number>): Promise<number> {
    const p: Record<string, Value> = {};
    for (const [k, v] of Object.entries(params)) p[k] = BigInt(v);
    return (await this.db!.query(cypher, p)).rows.length;
  }

  async close(): Promise<void> {
    await this.db?.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

const engines: Record<string, () => SocialEngine> = { weft: () => new WeftSocialEngine() };

interface Result {
  readonly engine: string;
  readonly query: string;
  readonly median_ms: number;
  readonly min_ms: number;
  readonly max_ms: number;
  readonly rows: number;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

async function benchEngine(engine: SocialEngine, graph: SocialGraph): Promise<{ load_s: number; results: Result[] }> {
  const t0 = performance.now();
  await engine.load(graph);
  const load_s = (performance.now() - t0) / 1000;
  const results: Result[] = [];
  for (const q of QUERIES) {
    const times: number[] = [];
    let rows = 0;
    for (let i = 0; i < WARMUP_RUNS + RUNS; i++) {
      const t = performance.now();
      rows = await engine.run(q.cypher, q.params(i));
      if (i >= WARMUP_RUNS) times.push(performance.now() - t);
    }
    results.push({ engine: engine.name, query: q.name, median_ms: median(times), min_ms: Math.min(...times), max_ms: Math.max(...times), rows });
  }
  return { load_s, results };
}

async function main(): Promise<void> {
  const names = option('--engine', 'weft').split(',');
  const graph = generate(PERSONS, EDGES, SEED);
  const out: { engine: string; load_s: number; results: Result[] }[] = [];
  for (const name of names) {
    const make = engines[name];
    if (make === undefined) throw new Error(`unknown engine ${name} (known: ${Object.keys(engines).join(', ')})`);
    const engine = make();
    try {
      out.push({ engine: name, ...(await benchEngine(engine, graph)) });
    } finally {
      await engine.close();
    }
  }
  console.log(`cypher-social: ${PERSONS} persons, ${EDGES} KNOWS, median of ${RUNS} runs`);
  for (const e of out) console.log(`${e.engine}: load ${e.load_s.toFixed(1)} s`);
  console.log(`${'query'.padEnd(24)} ${names.map((n) => `${n} ms`.padStart(12)).join(' ')}   rows`);
  for (const q of QUERIES) {
    const cells = out.map((e) => e.results.find((r) => r.query === q.name)!.median_ms.toFixed(2).padStart(12));
    console.log(`${q.name.padEnd(24)} ${cells.join(' ')}   ${out[0]?.results.find((r) => r.query === q.name)?.rows ?? ''}`);
  }
  const dir = join(dirname(fileURLToPath(import.meta.url)), 'results');
  mkdirSync(dir, { recursive: true });
  const report = { persons: PERSONS, edges: EDGES, runs: RUNS, seed: SEED, node: process.version, engines: out };
  writeFileSync(join(dir, 'cypher-social.json'), `${JSON.stringify(report, null, 2)}\n`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
