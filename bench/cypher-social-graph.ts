/**
 * The synthetic social graph and the six queries of `bench/cypher-social.ts`, shared by every engine
 * that plugs into it, so each one loads the same graph from the same seed and answers the same text.
 */

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

const cities = 50;

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
  for (let i = 0; i < persons; i++) ps.push({ id: i, name: `person${i}`, age: 18 + Math.floor(r() * 60), city: `City${Math.floor(r() * cities)}` });
  const knows: [number, number][] = [];
  for (let i = 0; i < edges; i++) {
    const a = Math.floor(r() * persons);
    let b = Math.floor(r() * persons);
    if (b === a) b = (b + 1) % persons;
    knows.push([a, b]);
  }
  return { persons: ps, knows };
}

/** One of the six queries; `params` gives the parameters of one run (a different start person per run). */
export interface SocialQuery {
  readonly name: string;
  readonly cypher: string;
  params(run: number, persons: number): Record<string, number>;
}

const start = (run: number, persons: number): Record<string, number> => ({ id: (run * 7919) % persons });

export const QUERIES: readonly SocialQuery[] = [
  { name: 'point lookup by id', cypher: 'MATCH (p:Person {id: $id}) RETURN p.name', params: start },
  { name: '1-hop count', cypher: 'MATCH (p:Person {id: $id})-[:KNOWS]->(f) RETURN count(f)', params: start },
  { name: '2-hop distinct count', cypher: 'MATCH (p:Person {id: $id})-[:KNOWS]->()-[:KNOWS]->(f) RETURN count(DISTINCT f)', params: start },
  {
    name: 'group by city',
    cypher: 'MATCH (p:Person) RETURN p.city AS city, count(*) AS people, avg(p.age) AS age ORDER BY people DESC, city',
    params: () => ({}),
  },
  { name: 'filtered count', cypher: "MATCH (p:Person) WHERE p.age > 30 AND p.city = 'City7' RETURN count(*)", params: () => ({}) },
  { name: 'top 10 by age', cypher: 'MATCH (p:Person) RETURN p.name, p.age ORDER BY p.age DESC, p.name LIMIT 10', params: () => ({}) },
];

/** What a query returned, reduced so engines can be compared: the row count and the first row. */
export interface Answer {
  readonly rows: number;
  /** The first row's values as JSON (integers as numbers, floats rounded to 6 places); '' with no rows. */
  readonly first: string;
}

/** Plain JavaScript values of one row, each engine converting its own first. */
export function answerOf(rows: number, first: readonly unknown[] | undefined): Answer {
  if (first === undefined) return { rows, first: '' };
  const plain = first.map((v) => (typeof v === 'bigint' ? Number(v) : typeof v === 'number' && !Number.isInteger(v) ? Math.round(v * 1e6) / 1e6 : v));
  return { rows, first: JSON.stringify(plain) };
}

/** What the benchmark needs of an engine. */
export interface SocialEngine {
  readonly name: string;
  load(graph: SocialGraph): Promise<void>;
  /** Runs a query. Integer parameters are passed as JavaScript numbers. */
  run(cypher: string, params: Record<string, number>): Promise<Answer>;
  close(): Promise<void>;
}
