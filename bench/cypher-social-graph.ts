import { createHash } from 'node:crypto';

/**
 * The synthetic social graph and the read suite of `bench/cypher-social.ts`, shared by every engine
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

/**
 * The year a KNOWS relationship was made (its `since` property), from its two ends only, so the graph's
 * random stream (and every other suite's answers) stays what it was before relationships had properties.
 */
export function sinceOf(a: number, b: number): number {
  return 2000 + ((a * 31 + b * 17) % 25);
}

/**
 * One query of the suite; `params` gives the parameters of one run (a different start person per
 * run). `kuzu` is Kùzu's text where its dialect differs from Cypher's (shortest paths only): the same
 * question, answered with the same columns.
 */
export interface SocialQuery {
  readonly name: string;
  readonly cypher: string;
  readonly kuzu?: string;
  params(run: number, persons: number): SocialParams;
}

/** Parameters of one run: integers, or lists of integers (`UNWIND $ids`), as JavaScript numbers; strings and lists of them. */
export type SocialParams = Record<string, number | string | readonly number[] | readonly string[]>;

const start = (run: number, persons: number): Record<string, number> => ({ id: (run * 7919) % persons });
const none = (): Record<string, number> => ({});
/** Two persons far apart in id order (ids carry no locality, so they are as far as any random pair). */
const pair = (run: number, persons: number): Record<string, number> => ({ a: (run * 7919) % persons, b: (run * 7919 + Math.floor(persons / 2)) % persons });

export const QUERIES: readonly SocialQuery[] = [
  // The first six are the suite's original shapes: anchored lookups and fused label scans.
  { name: 'point lookup by id', cypher: 'MATCH (p:Person {id: $id}) RETURN p.name', params: start },
  { name: '1-hop count', cypher: 'MATCH (p:Person {id: $id})-[:KNOWS]->(f) RETURN count(f)', params: start },
  { name: '2-hop distinct count', cypher: 'MATCH (p:Person {id: $id})-[:KNOWS]->()-[:KNOWS]->(f) RETURN count(DISTINCT f)', params: start },
  { name: 'group by city', cypher: 'MATCH (p:Person) RETURN p.city AS city, count(*) AS people, avg(p.age) AS age ORDER BY people DESC, city', params: none },
  { name: 'filtered count', cypher: "MATCH (p:Person) WHERE p.age > 30 AND p.city = 'City7' RETURN count(*)", params: none },
  { name: 'top 10 by age', cypher: 'MATCH (p:Person) RETURN p.name, p.age ORDER BY p.age DESC, p.name LIMIT 10', params: none },
  // Whole-graph expansions: every relationship, then aggregation or a test of both ends.
  { name: 'expand all, count', cypher: 'MATCH (a:Person)-[:KNOWS]->(b:Person) RETURN count(*)', params: none },
  {
    name: 'expand all, group',
    cypher: 'MATCH (a:Person)-[:KNOWS]->(b:Person) RETURN a.city AS city, count(*) AS knows, avg(b.age) AS age ORDER BY knows DESC, city LIMIT 10',
    params: none,
  },
  { name: 'both ends compared', cypher: 'MATCH (a:Person)-[:KNOWS]->(b:Person) WHERE a.age > b.age AND a.city = b.city RETURN count(*)', params: none },
  { name: 'older friend share', cypher: 'MATCH (a:Person)-[:KNOWS]->(b:Person) WHERE b.age >= a.age + 20 RETURN a.city AS city, count(*) AS n ORDER BY n DESC, city LIMIT 5', params: none },
  // Degree rankings.
  { name: 'top 10 out-degree', cypher: 'MATCH (p:Person)-[:KNOWS]->() RETURN p.id AS id, count(*) AS degree ORDER BY degree DESC, id LIMIT 10', params: none },
  { name: 'top 10 in-degree', cypher: 'MATCH (p:Person)<-[:KNOWS]-() RETURN p.id AS id, count(*) AS degree ORDER BY degree DESC, id LIMIT 10', params: none },
  // Grouping after one and two hops.
  { name: 'group after 2 hops', cypher: 'MATCH (a:Person {id: $id})-[:KNOWS]->()-[:KNOWS]->(c:Person) RETURN c.city AS city, count(*) AS n ORDER BY n DESC, city LIMIT 5', params: start },
  {
    name: 'whole-graph 2 hops',
    cypher: "MATCH (a:Person)-[:KNOWS]->(b:Person)-[:KNOWS]->(c:Person) WHERE a.city = 'City7' AND c.age < 20 RETURN b.city AS city, count(*) AS n ORDER BY n DESC, city LIMIT 5",
    params: none,
  },
  // Shortest paths between two far persons (Kùzu writes them as recursive relationships).
  {
    name: 'shortest path',
    cypher: 'MATCH (a:Person {id: $a}), (b:Person {id: $b}) MATCH p = shortestPath((a)-[:KNOWS*..10]->(b)) RETURN length(p)',
    kuzu: 'MATCH p = (a:Person {id: $a})-[:KNOWS* SHORTEST 1..10]->(b:Person {id: $b}) RETURN length(p)',
    params: pair,
  },
  {
    name: 'all shortest paths',
    cypher: 'MATCH (a:Person {id: $a}), (b:Person {id: $b}) MATCH p = allShortestPaths((a)-[:KNOWS*..10]->(b)) RETURN length(p) AS hops, count(*) AS paths',
    kuzu: 'MATCH p = (a:Person {id: $a})-[:KNOWS* ALL SHORTEST 1..10]->(b:Person {id: $b}) RETURN length(p) AS hops, count(*) AS paths',
    params: pair,
  },
  // Variable-length patterns.
  { name: 'reach in 1..3', cypher: 'MATCH (a:Person {id: $id})-[:KNOWS*1..3]->(b:Person) RETURN count(DISTINCT b)', params: start },
  { name: 'paths 1..3 by city', cypher: 'MATCH (a:Person {id: $id})-[:KNOWS*1..3]->(b:Person) RETURN b.city AS city, count(*) AS paths ORDER BY paths DESC, city LIMIT 5', params: start },
  // OPTIONAL MATCH and subqueries.
  {
    name: 'optional match',
    cypher: 'MATCH (p:Person) WHERE p.age = 18 OPTIONAL MATCH (p)-[:KNOWS]->(f:Person) WHERE f.age = 77 RETURN p.city AS city, count(f) AS old ORDER BY old DESC, city LIMIT 5',
    params: none,
  },
  {
    name: 'exists subquery',
    cypher: "MATCH (p:Person) WHERE p.city = 'City3' AND EXISTS { MATCH (p)-[:KNOWS]->(f:Person) WHERE f.city = 'City3' } RETURN count(*)",
    params: none,
  },
  // A count per row, as OPTIONAL MATCH and WITH (Weft does not parse COUNT { } subqueries yet).
  {
    name: 'friend counts',
    cypher: 'MATCH (p:Person) WHERE p.age = 30 OPTIONAL MATCH (p)-[:KNOWS]->(f) WITH p, count(f) AS friends RETURN p.id AS id, friends ORDER BY friends DESC, id LIMIT 10',
    params: none,
  },
  // LDBC SNB Interactive short reads, in spirit: a profile, the newest friends, friends of friends.
  { name: 'person profile', cypher: 'MATCH (p:Person {id: $id}) RETURN p.name AS name, p.age AS age, p.city AS city', params: start },
  { name: 'newest friends', cypher: 'MATCH (p:Person {id: $id})-[:KNOWS]-(f:Person) RETURN f.id AS id, f.name AS name ORDER BY id DESC LIMIT 20', params: start },
  {
    name: 'friends of friends',
    cypher: 'MATCH (p:Person {id: $id})-[:KNOWS]-(:Person)-[:KNOWS]-(f:Person) WHERE f.id <> p.id AND f.city = p.city RETURN DISTINCT f.id AS id ORDER BY id LIMIT 20',
    params: start,
  },
];

/** The queries of `suite` named in `names` (comma-separated), all of them when it is empty. */
export function selectQueries(names: string, suite: readonly SocialQuery[] = QUERIES): readonly SocialQuery[] {
  if (names === '') return suite;
  // Some names hold a comma ('expand all, count'): at each piece, the longest run of pieces that is a name wins.
  const pieces = names.split(',').map((x) => x.trim());
  const wanted: string[] = [];
  for (let i = 0; i < pieces.length; ) {
    let taken = 1;
    for (let j = pieces.length; j > i; j--) {
      if (suite.some((q) => q.name === pieces.slice(i, j).join(', '))) {
        taken = j - i;
        break;
      }
    }
    wanted.push(pieces.slice(i, i + taken).join(', '));
    i += taken;
  }
  const unknown = wanted.filter((n) => !suite.some((q) => q.name === n));
  if (unknown.length > 0) throw new Error(`unknown queries ${unknown.join(', ')} (known: ${suite.map((q) => q.name).join(', ')})`);
  return suite.filter((q) => wanted.includes(q.name));
}

/** What a query returned, reduced so engines can be compared. */
export interface Answer {
  readonly rows: number;
  /** The first row's values as JSON (integers as numbers, floats rounded to 6 places); '' with no rows. */
  readonly first: string;
  /** A hash of every row in that form, sorted, so two engines agree whatever order ties come in. */
  readonly digest: string;
}

/** A value as plain JSON-able data: integers as numbers, floats rounded to 6 places, lists element-wise. */
function plain(v: unknown): unknown {
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'number' && !Number.isInteger(v)) return Math.round(v * 1e6) / 1e6;
  if (Array.isArray(v)) return v.map(plain);
  return v;
}

/** Rows of plain JavaScript values, each engine converting its own first. */
export function answerOf(rows: readonly (readonly unknown[])[]): Answer {
  const lines = rows.map((r) => JSON.stringify(r.map(plain)));
  const first = lines[0] ?? '';
  lines.sort();
  return { rows: rows.length, first, digest: createHash('sha256').update(lines.join('\n')).digest('hex').slice(0, 16) };
}

/** What the benchmark needs of an engine. */
export interface SocialEngine {
  readonly name: string;
  load(graph: SocialGraph): Promise<void>;
  /** Runs a query and answers its rows. Integer parameters (and lists of them) are passed as JavaScript numbers. */
  run(query: SocialQuery, params: SocialParams): Promise<readonly (readonly unknown[])[]>;
  /** What the engine keeps for scanning, per kind of form (count and bytes), where it can tell (`--heap`). */
  cacheReport?(): string;
  close(): Promise<void>;
}
