/**
 * A sixth read suite on the social graph of `bench/cypher-social-graph.ts`: the breadth of what users write, in
 * shapes none of the other five holds. OPTIONAL MATCH under aggregation, variable-length patterns with bounds and
 * filters on DISTINCT ends, shortest paths between varied pairs, EXISTS { } and COUNT { } in WHERE and RETURN,
 * pattern and list comprehensions, collect then UNWIND, DISTINCT over several columns, ORDER BY an expression with
 * SKIP and LIMIT, degree rankings both ways, two hops grouped with filters on the middle node, triangles and
 * reciprocal pairs, CASE in grouping keys, string predicates with grouping, WITH chains filtered on aggregates,
 * count(DISTINCT) after expands, collect with size, min and max of strings, and reads in the spirit of the LDBC
 * SNB Interactive short reads (a profile, recent links, friends, mutual friends). Run it with
 * `npx tsx bench/cypher-social.ts --suite breadth`; the harness, the graph and the cross-check of answers against
 * Kùzu are the first suite's.
 *
 * `kuzu` holds Kùzu's spelling where its dialect differs (lambdas for list comprehensions, no pattern
 * comprehensions, `MATCH` inside `COUNT { }`, shortest paths as recursive relationships): the same question,
 * answered with the same columns.
 */
import type { SocialParams, SocialQuery } from './cypher-social-graph.js';

const none = (): SocialParams => ({});
const start = (run: number, persons: number): SocialParams => ({ id: (run * 7919) % persons });
/** Two persons close in id order: ids carry no locality, so as far as any random pair, but other pairs than the suites' before. */
const near = (run: number, persons: number): SocialParams => ({ a: (run * 7919) % persons, b: (run * 7919 + 1 + run) % persons });
const from = (run: number, persons: number): SocialParams => ({ a: (run * 7919) % persons });
/** A window of ids three tenths of the label wide, as a page of members by id. */
const window = (run: number, persons: number): SocialParams => {
  const lo = (run * 7919) % Math.floor(persons / 2);
  return { lo, hi: lo + Math.floor((persons * 3) / 10) };
};

export const BREADTH: readonly SocialQuery[] = [
  // OPTIONAL MATCH under aggregation: the nulls of persons without a match are counted apart.
  {
    name: 'optional match, count per city',
    cypher: "MATCH (p:Person) WHERE p.age = 40 OPTIONAL MATCH (p)-[:KNOWS]->(f:Person) WHERE f.city = 'City1' RETURN p.city AS city, count(f) AS n, count(*) AS seen ORDER BY n DESC, city LIMIT 5",
    params: none,
  },
  {
    name: 'optional fans, avg age',
    cypher: "MATCH (p:Person) WHERE p.city = 'City3' AND p.age > 70 OPTIONAL MATCH (p)<-[:KNOWS]-(f:Person) RETURN p.id AS id, count(f) AS fans, avg(f.age) AS age ORDER BY fans DESC, id LIMIT 10",
    params: none,
  },
  {
    name: 'optional two hops, distinct',
    cypher: 'MATCH (p:Person {id: $id}) OPTIONAL MATCH (p)-[:KNOWS]->(:Person)-[:KNOWS]->(q:Person) WHERE q.age > 70 RETURN p.id AS id, count(DISTINCT q) AS n',
    params: start,
  },
  // Variable-length patterns with bounds and filters, DISTINCT ends.
  { name: 'var-length 1..3, old ends', cypher: 'MATCH (a:Person {id: $id})-[:KNOWS*1..3]->(b:Person) WHERE b.age > 60 RETURN count(DISTINCT b) AS n', params: start },
  {
    name: 'exactly two hops by city',
    cypher: 'MATCH (a:Person {id: $id})-[:KNOWS*2..2]->(b:Person) RETURN b.city AS city, count(DISTINCT b) AS n ORDER BY n DESC, city LIMIT 5',
    params: start,
  },
  { name: 'var-length from a group', cypher: "MATCH (a:Person)-[:KNOWS*1..2]->(b:Person) WHERE a.city = 'City5' AND a.age = 30 RETURN count(DISTINCT b) AS n", params: none },
  { name: 'var-length ends, listed', cypher: "MATCH (a:Person {id: $id})-[:KNOWS*1..3]->(b:Person) WHERE b.city = 'City1' RETURN DISTINCT b.id AS id ORDER BY id LIMIT 20", params: start },
  // Shortest paths between other pairs: undirected, and from one person to several.
  {
    name: 'shortest path, undirected',
    cypher: 'MATCH (a:Person {id: $a}), (b:Person {id: $b}) MATCH p = shortestPath((a)-[:KNOWS*..10]-(b)) RETURN length(p) AS hops',
    kuzu: 'MATCH p = (a:Person {id: $a})-[:KNOWS* SHORTEST 1..10]-(b:Person {id: $b}) RETURN length(p) AS hops',
    params: near,
  },
  {
    name: 'shortest paths to five',
    cypher: 'MATCH (a:Person {id: $a}), (b:Person) WHERE b.id IN [11, 222, 3333, 44444, 55555] MATCH p = shortestPath((a)-[:KNOWS*..10]->(b)) RETURN b.id AS id, length(p) AS hops ORDER BY id',
    kuzu: 'MATCH p = (a:Person {id: $a})-[:KNOWS* SHORTEST 1..10]->(b:Person) WHERE b.id IN [11, 222, 3333, 44444, 55555] RETURN b.id AS id, length(p) AS hops ORDER BY id',
    params: from,
  },
  // EXISTS { } and COUNT { } in WHERE and in RETURN.
  {
    name: 'exists in where, grouped',
    cypher: "MATCH (p:Person) WHERE p.city = 'City8' AND EXISTS { MATCH (p)-[:KNOWS]->(f:Person) WHERE f.age > 75 } RETURN p.age AS age, count(*) AS n ORDER BY n DESC, age LIMIT 5",
    params: none,
  },
  { name: 'count subquery in where', cypher: 'MATCH (p:Person) WHERE p.age = 60 AND COUNT { MATCH (p)<-[:KNOWS]-(:Person) } >= 15 RETURN count(*) AS n', params: none },
  {
    name: 'exists in return',
    cypher: "MATCH (p:Person) WHERE p.city = 'City9' AND p.age < 22 RETURN EXISTS { MATCH (p)-[:KNOWS]->(:Person)-[:KNOWS]->(p) } AS mutual, count(*) AS n ORDER BY mutual",
    params: none,
  },
  {
    name: 'count subquery per friend',
    cypher: 'MATCH (p:Person {id: $id})-[:KNOWS]->(f:Person) RETURN f.id AS id, COUNT { MATCH (f)-[:KNOWS]->(g:Person) WHERE g.age < 30 } AS young ORDER BY young DESC, id LIMIT 5',
    params: start,
  },
  // Pattern and list comprehensions.
  {
    name: 'pattern comprehension per friend',
    cypher: 'MATCH (p:Person {id: $id})-[:KNOWS]->(f:Person) RETURN f.id AS id, size([(f)-[:KNOWS]->(g:Person) WHERE g.city = f.city | g.id]) AS n ORDER BY n DESC, id LIMIT 5',
    kuzu: 'MATCH (p:Person {id: $id})-[:KNOWS]->(f:Person) OPTIONAL MATCH (f)-[:KNOWS]->(g:Person) WHERE g.city = f.city WITH f, count(g) AS n RETURN f.id AS id, n ORDER BY n DESC, id LIMIT 5',
    params: start,
  },
  {
    name: 'list comprehension, mapped',
    cypher: "MATCH (p:Person)-[:KNOWS]->(f:Person) WHERE p.city = 'City2' AND p.age = 25 WITH p, collect(f.age) AS ages RETURN p.id AS id, size([a IN ages WHERE a >= 50]) AS old, size([a IN ages | a / 10]) AS n ORDER BY old DESC, id LIMIT 10",
    kuzu: "MATCH (p:Person)-[:KNOWS]->(f:Person) WHERE p.city = 'City2' AND p.age = 25 WITH p, collect(f.age) AS ages RETURN p.id AS id, size(list_filter(ages, a -> a >= 50)) AS old, size(list_transform(ages, a -> a / 10)) AS n ORDER BY old DESC, id LIMIT 10",
    params: none,
  },
  // collect, then UNWIND the list again.
  {
    name: 'unwind friends cities',
    cypher: 'MATCH (p:Person {id: $id})-[:KNOWS]->(f:Person) WITH collect(f.city) AS cs UNWIND cs AS c RETURN c AS city, count(*) AS n ORDER BY n DESC, city LIMIT 3',
    params: start,
  },
  {
    name: 'collect nodes, unwind, expand',
    cypher: "MATCH (p:Person) WHERE p.age = 70 AND p.city = 'City4' WITH collect(p) AS ps UNWIND ps AS q MATCH (q)<-[:KNOWS]-(f:Person) RETURN count(DISTINCT f) AS n",
    params: none,
  },
  // DISTINCT over several columns.
  {
    name: 'distinct of three columns',
    cypher: "MATCH (a:Person)-[:KNOWS]->(b:Person) WHERE a.city = 'City10' WITH DISTINCT a.age AS aa, b.age / 10 AS bd, b.city = a.city AS same RETURN count(*) AS n, sum(aa) AS ages",
    params: none,
  },
  {
    name: 'id window, then expand',
    cypher: 'MATCH (a:Person)-[:KNOWS]->(b:Person) WHERE a.id >= $lo AND a.id < $hi RETURN b.city AS city, count(*) AS n ORDER BY n DESC, city LIMIT 5',
    params: window,
  },
  { name: 'distinct pairs of label', cypher: 'MATCH (p:Person) WHERE p.id < 20000 WITH DISTINCT p.city AS city, p.age > 50 AS older RETURN older, count(*) AS n ORDER BY older', params: none },
  // ORDER BY an expression, with SKIP and LIMIT.
  { name: 'order by expression, page', cypher: "MATCH (p:Person) WHERE p.city = 'City6' RETURN p.id AS id ORDER BY p.age * 1000 - p.id DESC SKIP 10 LIMIT 10", params: none },
  { name: 'order by distance to 45', cypher: 'MATCH (p:Person) WHERE p.id % 3 = 0 RETURN p.id AS id, p.age AS age ORDER BY abs(p.age - 45), id SKIP 5 LIMIT 5', params: none },
  // Filters, keys and sort keys over a label alone made of functions and number kernels.
  { name: 'name length and age modulo', cypher: 'MATCH (p:Person) WHERE size(p.name) < 10 AND p.age % 7 = 0 RETURN p.city AS city, count(*) AS n ORDER BY n DESC, city LIMIT 5', params: none },
  {
    name: 'upper city prefix, age band',
    cypher: "MATCH (p:Person) WHERE toUpper(p.city) STARTS WITH 'CITY1' AND abs(p.age - 40) <= 5 RETURN count(*) AS n",
    kuzu: "MATCH (p:Person) WHERE upper(p.city) STARTS WITH 'CITY1' AND abs(p.age - 40) <= 5 RETURN count(*) AS n",
    params: none,
  },
  {
    name: 'case in a filter',
    cypher: 'MATCH (p:Person) WHERE CASE WHEN p.age < 30 THEN p.id % 3 ELSE p.id % 5 END = 0 RETURN p.age / 10 AS decade, count(*) AS n ORDER BY decade',
    params: none,
  },
  { name: 'or of two expression filters', cypher: 'MATCH (p:Person) WHERE p.id % 97 = 0 OR abs(p.age - 60) < 1 RETURN count(*) AS n', params: none },
  { name: 'order by expression, no limit', cypher: 'MATCH (p:Person) WHERE p.id % 500 = 0 RETURN p.id AS id ORDER BY p.age % 10, id', params: none },
  { name: 'top by distance in ids', cypher: 'MATCH (p:Person) RETURN p.id AS id, p.age AS age ORDER BY abs(p.id % 1000 - 500) + p.age, id LIMIT 10', params: none },
  { name: 'distinct of expressions', cypher: 'MATCH (p:Person) WHERE p.id % 4 = 1 RETURN DISTINCT p.age / 5 AS band, p.id % 3 AS r', params: none },
  // Degree rankings in both directions.
  { name: 'top 10 degree, both ways', cypher: 'MATCH (p:Person)-[:KNOWS]-() RETURN p.id AS id, count(*) AS d ORDER BY d DESC, id LIMIT 10', params: none },
  {
    name: 'fewest fans among old',
    cypher: 'MATCH (p:Person)<-[:KNOWS]-(f:Person) WHERE p.age > 75 RETURN p.id AS id, count(f) AS fans ORDER BY fans, id LIMIT 10',
    params: none,
  },
  {
    name: 'net degree per person',
    cypher: "MATCH (p:Person) WHERE p.city = 'City3' RETURN p.id AS id, COUNT { MATCH (p)<-[:KNOWS]-() } - COUNT { MATCH (p)-[:KNOWS]->() } AS net ORDER BY net DESC, id LIMIT 10",
    params: none,
  },
  // Two hops grouped, with filters on the middle node.
  {
    name: 'two hops, young middle',
    cypher: "MATCH (a:Person)-[:KNOWS]->(b:Person)-[:KNOWS]->(c:Person) WHERE b.city = 'City20' AND b.age < 25 RETURN a.age / 10 AS decade, count(DISTINCT c) AS n ORDER BY decade",
    params: none,
  },
  {
    name: 'two hops, middle name',
    cypher: "MATCH (a:Person)-[:KNOWS]->(b:Person)-[:KNOWS]->(c:Person) WHERE b.name ENDS WITH '99' AND a.age > c.age RETURN c.city AS city, count(*) AS n ORDER BY n DESC, city LIMIT 5",
    params: none,
  },
  // Triangles and reciprocal relationships.
  {
    name: 'young triangles per city',
    cypher: 'MATCH (a:Person)-[:KNOWS]->(b:Person)-[:KNOWS]->(c:Person)-[:KNOWS]->(a) WHERE a.age < 30 RETURN a.city AS city, count(*) AS n ORDER BY n DESC, city LIMIT 5',
    params: none,
  },
  {
    name: 'reciprocal pairs per city',
    cypher: 'MATCH (a:Person)-[:KNOWS]->(b:Person)-[:KNOWS]->(a) WHERE a.id < b.id RETURN a.city AS city, count(*) AS n ORDER BY n DESC, city LIMIT 5',
    params: none,
  },
  // CASE in grouping keys.
  {
    name: 'case bands after expand',
    cypher:
      "MATCH (a:Person)-[:KNOWS]->(b:Person) WHERE a.city = 'City11' RETURN CASE WHEN b.age < 30 THEN 'young' WHEN b.age < 60 THEN 'middle' ELSE 'old' END AS band, count(*) AS n, avg(a.age) AS age ORDER BY band",
    params: none,
  },
  { name: 'case key over label', cypher: "MATCH (p:Person) RETURN CASE WHEN p.age < 40 THEN p.city ELSE 'older' END AS k, count(*) AS n ORDER BY n DESC, k LIMIT 5", params: none },
  // String predicates with grouping.
  {
    name: 'prefix and suffix, expanded',
    cypher: "MATCH (p:Person)-[:KNOWS]->(f:Person) WHERE p.name STARTS WITH 'person4' AND f.city ENDS WITH '5' RETURN f.city AS city, count(*) AS n ORDER BY city",
    params: none,
  },
  { name: 'contains, age range', cypher: "MATCH (p:Person) WHERE p.name CONTAINS '00' RETURN p.city AS city, min(p.age) AS lo, max(p.age) AS hi, count(*) AS n ORDER BY n DESC, city LIMIT 5", params: none },
  // WITH chains filtered on aggregates.
  {
    name: 'hubs per city, filtered twice',
    cypher:
      'MATCH (p:Person)<-[:KNOWS]-(f:Person) WITH p, count(f) AS fans WHERE fans > 20 WITH p.city AS city, count(*) AS hubs, max(fans) AS most WHERE hubs >= 2 RETURN city, hubs, most ORDER BY hubs DESC, city LIMIT 5',
    params: none,
  },
  // count(DISTINCT) after expands; collect with size; min and max of strings.
  {
    name: 'two distinct counts per city',
    cypher: 'MATCH (a:Person)-[:KNOWS]->(b:Person) WHERE a.age = 18 RETURN b.city AS city, count(DISTINCT a) AS fans, count(DISTINCT b) AS people ORDER BY city LIMIT 10',
    params: none,
  },
  {
    name: 'collected cities per age',
    // One aggregate: Kùzu 0.11.3 answers null for any other aggregate beside a collect(DISTINCT).
    cypher: "MATCH (a:Person)-[:KNOWS]->(b:Person) WHERE a.city = 'City13' WITH a.age AS age, collect(DISTINCT b.city) AS cities RETURN age, size(cities) AS c ORDER BY age",
    params: none,
  },
  { name: 'string extremes of friends', cypher: 'MATCH (a:Person)-[:KNOWS]->(b:Person) WHERE a.age = 77 RETURN a.city AS city, min(b.name) AS first, max(b.city) AS last ORDER BY city LIMIT 10', params: none },
  // In the spirit of the LDBC SNB Interactive short reads, on this graph.
  {
    name: 'profile with degrees',
    cypher: 'MATCH (p:Person {id: $id}) RETURN p.name AS name, p.age AS age, p.city AS city, COUNT { MATCH (p)-[:KNOWS]->() } AS follows, COUNT { MATCH (p)<-[:KNOWS]-() } AS followers',
    params: start,
  },
  { name: 'recent links', cypher: 'MATCH (p:Person {id: $id})-[k:KNOWS]->(f:Person) WHERE k.since >= 2015 RETURN f.id AS id, f.name AS name, k.since AS since ORDER BY since DESC, id LIMIT 10', params: start },
  { name: 'friends, newest first', cypher: 'MATCH (p:Person {id: $id})-[k:KNOWS]-(f:Person) RETURN f.id AS id, f.name AS name, k.since AS since ORDER BY since DESC, id', params: start },
  {
    name: 'followers, known back',
    cypher: 'MATCH (p:Person {id: $id})<-[:KNOWS]-(f:Person) OPTIONAL MATCH (p)-[k:KNOWS]->(f) RETURN f.id AS id, k IS NOT NULL AS back ORDER BY id',
    params: start,
  },
  {
    name: 'friends of friends, same city',
    cypher:
      'MATCH (p:Person {id: $id})-[:KNOWS]-(:Person)-[:KNOWS]-(q:Person) WHERE q.city = p.city AND q.id <> p.id RETURN q.id AS id, count(*) AS ways ORDER BY ways DESC, id LIMIT 10',
    params: start,
  },
];
