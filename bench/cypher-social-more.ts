/**
 * A third read suite on the social graph of `bench/cypher-social-graph.ts`, of shapes neither of the first two
 * holds, written as users write them: WITH chains that aggregate and then match again, UNION, CASE in RETURN and
 * in a grouping key, list and pattern comprehensions, collect then UNWIND, path functions, an undirected shortest
 * path with a filter, two hops grouped by the far end, ORDER BY an expression over ~100,000 rows without LIMIT,
 * OPTIONAL MATCH of two hops, NOT EXISTS { } on a two-node pattern, two MATCH clauses joined on a property, IN over
 * a collected list, people per degree bucket and string functions over the whole label. Run it with
 * `npx tsx bench/cypher-social.ts --suite more`; the harness, the graph and the cross-check of answers against
 * Kùzu are the first suite's.
 *
 * `kuzu` holds Kùzu's spelling where its dialect differs (lambdas for list comprehensions, no pattern
 * comprehensions, shortest paths as recursive relationships, `upper`): the same question, answered with the
 * same columns.
 */
import type { SocialParams, SocialQuery } from './cypher-social-graph.js';

const none = (): SocialParams => ({});
const start = (run: number, persons: number): SocialParams => ({ id: (run * 7919) % persons });
/** Two persons far apart in id order, as in the first suite's shortest paths. */
const pair = (run: number, persons: number): SocialParams => ({ a: (run * 7919) % persons, b: (run * 7919 + Math.floor(persons / 2)) % persons });

export const MORE: readonly SocialQuery[] = [
  // An aggregate carried into a second MATCH from the aggregated node.
  {
    name: 'popular, then their friends',
    cypher:
      'MATCH (a:Person)-[:KNOWS]->(b:Person) WITH b, count(*) AS fans WHERE fans >= 20 MATCH (b)-[:KNOWS]->(c:Person) RETURN c.city AS city, count(*) AS n ORDER BY n DESC, city LIMIT 5',
    params: none,
  },
  // UNION ALL of two aggregations, and UNION (deduplicated) of two projections.
  {
    name: 'union all of counts',
    cypher:
      "MATCH (p:Person) WHERE p.age < 20 RETURN 'young' AS g, count(*) AS n UNION ALL MATCH (a:Person)-[:KNOWS]->(b:Person) WHERE b.age > 75 RETURN 'old friend' AS g, count(*) AS n",
    params: none,
  },
  {
    name: 'union of cities',
    cypher: 'MATCH (p:Person) WHERE p.age = 18 AND p.name ENDS WITH \'7\' RETURN p.city AS city UNION MATCH (p:Person) WHERE p.age = 77 AND p.name ENDS WITH \'3\' RETURN p.city AS city',
    params: none,
  },
  // CASE as a grouping key after a whole-graph expand, and CASE in RETURN.
  {
    name: 'case as group key',
    cypher:
      "MATCH (a:Person)-[:KNOWS]->(b:Person) RETURN CASE WHEN b.age < 30 THEN 'young' WHEN b.age < 50 THEN 'middle' ELSE 'old' END AS band, count(*) AS n, avg(a.age) AS age ORDER BY band",
    params: none,
  },
  {
    name: 'case in return',
    cypher: "MATCH (p:Person) WHERE p.city = 'City5' RETURN p.id AS id, CASE WHEN p.age >= 65 THEN 'senior' ELSE 'adult' END AS kind ORDER BY p.age DESC, id LIMIT 10",
    params: none,
  },
  // A list comprehension over a collected list; a pattern comprehension per row.
  {
    name: 'list comprehension',
    cypher:
      'MATCH (p:Person)-[:KNOWS]->(f:Person) WHERE p.age = 33 WITH p, collect(f.age) AS ages RETURN p.id AS id, size([x IN ages WHERE x > 60]) AS old ORDER BY old DESC, id LIMIT 10',
    kuzu: 'MATCH (p:Person)-[:KNOWS]->(f:Person) WHERE p.age = 33 WITH p, collect(f.age) AS ages RETURN p.id AS id, size(list_filter(ages, x -> x > 60)) AS old ORDER BY old DESC, id LIMIT 10',
    params: none,
  },
  {
    name: 'pattern comprehension',
    cypher: 'MATCH (p:Person) WHERE p.age = 44 RETURN p.id AS id, size([(p)-[:KNOWS]->(f:Person) WHERE f.age > 60 | f.id]) AS n ORDER BY n DESC, id LIMIT 10',
    kuzu: 'MATCH (p:Person) WHERE p.age = 44 OPTIONAL MATCH (p)-[:KNOWS]->(f:Person) WHERE f.age > 60 WITH p, count(f) AS n RETURN p.id AS id, n ORDER BY n DESC, id LIMIT 10',
    params: none,
  },
  // collect, then UNWIND into a second hop.
  {
    name: 'collect, unwind, match',
    cypher: 'MATCH (p:Person {id: $id})-[:KNOWS]->(f:Person) WITH collect(f) AS fs UNWIND fs AS f MATCH (f)-[:KNOWS]->(g:Person) RETURN count(DISTINCT g) AS n',
    params: start,
  },
  // Path functions over variable-length paths; an undirected shortest path between far persons, filtered.
  {
    name: 'path length and nodes',
    cypher: 'MATCH p = (a:Person {id: $id})-[:KNOWS*1..3]->(b:Person) RETURN length(p) AS hops, count(*) AS paths, sum(size(nodes(p))) AS nodes ORDER BY hops',
    params: start,
  },
  {
    name: 'undirected shortest, filtered',
    cypher: 'MATCH (a:Person {id: $a}), (b:Person {id: $b}) MATCH p = shortestPath((a)-[:KNOWS*..10]-(b)) WHERE length(p) > 1 RETURN length(p) AS hops',
    kuzu: 'MATCH p = (a:Person {id: $a})-[:KNOWS* SHORTEST 1..10]-(b:Person {id: $b}) WHERE length(p) > 1 RETURN length(p) AS hops',
    params: pair,
  },
  // Two hops from a filtered start, grouped by the far end.
  {
    name: 'two hops by far end',
    cypher: 'MATCH (a:Person)-[:KNOWS]->(:Person)-[:KNOWS]->(c:Person) WHERE a.age = 20 RETURN c.city AS city, count(*) AS n ORDER BY n DESC, city LIMIT 5',
    params: none,
  },
  // ORDER BY an expression, no LIMIT, over most of the label (every row goes back to the caller).
  {
    name: 'order by expression, all rows',
    cypher: 'MATCH (p:Person) WHERE p.age > 20 RETURN p.id AS id, p.age * 2 + p.id % 7 AS score ORDER BY score DESC, id',
    params: none,
  },
  // OPTIONAL MATCH of two hops with a WHERE across both ends.
  {
    name: 'optional two hops',
    cypher:
      'MATCH (p:Person) WHERE p.age = 60 OPTIONAL MATCH (p)-[:KNOWS]->(:Person)-[:KNOWS]->(g:Person) WHERE g.city = p.city RETURN p.id AS id, count(g) AS n ORDER BY n DESC, id LIMIT 10',
    params: none,
  },
  // An anti-join on a two-node pattern: relationships not returned.
  {
    name: 'not exists, unreturned',
    cypher: "MATCH (a:Person)-[:KNOWS]->(b:Person) WHERE a.city = 'City2' AND NOT EXISTS { MATCH (b)-[:KNOWS]->(a) } RETURN count(*) AS n",
    params: none,
  },
  // Two MATCH clauses joined on a property: pairs of one age band living in the same city.
  {
    name: 'join on a property',
    cypher: 'MATCH (a:Person) WHERE a.age = 77 MATCH (b:Person) WHERE b.age = 18 AND b.city = a.city RETURN count(*) AS pairs',
    params: none,
  },
  // IN over a list collected from one person's friends.
  {
    name: 'in a collected list',
    cypher: 'MATCH (p:Person {id: $id})-[:KNOWS]->(f:Person) WITH collect(f.city) AS cities MATCH (q:Person) WHERE q.age = 40 AND q.city IN cities RETURN count(*) AS n',
    params: start,
  },
  // People per out-degree bucket.
  {
    name: 'degree buckets',
    cypher: 'MATCH (p:Person)-[:KNOWS]->() WITH p, count(*) AS d RETURN d / 5 AS bucket, count(*) AS people ORDER BY bucket',
    params: none,
  },
  // String functions in a filter over the whole label.
  {
    name: 'string functions filter',
    cypher: "MATCH (p:Person) WHERE toUpper(p.name) ENDS WITH '42' AND size(p.city) = 6 RETURN p.city AS city, count(*) AS n ORDER BY n DESC, city LIMIT 5",
    kuzu: "MATCH (p:Person) WHERE upper(p.name) ENDS WITH '42' AND size(p.city) = 6 RETURN p.city AS city, count(*) AS n ORDER BY n DESC, city LIMIT 5",
    params: none,
  },
];
