/**
 * Probes on the social graph of `bench/cypher-social-graph.ts`: shapes in none of the three suites, each
 * a second member of a class of queries a general mechanism of the engine serves (see docs/query-engine.md,
 * "The third read suite"), so a change made for one suite's shape can be seen to help the class. Run it
 * with `npx tsx bench/cypher-social.ts --suite probes`; answers are cross-checked against Kùzu as in the
 * suites.
 */
import type { SocialParams, SocialQuery } from './cypher-social-graph.js';

const none = (): SocialParams => ({});

export const PROBES: readonly SocialQuery[] = [
  // A join on a property between two MATCH clauses (the scan of `b` reads its label once into a table).
  {
    name: 'join on age gap',
    cypher: "MATCH (a:Person) WHERE a.city = 'City1' AND a.age > 70 MATCH (b:Person) WHERE b.age = a.age - 50 AND b.city = 'City2' RETURN count(*) AS pairs",
    params: none,
  },
  // Two hops through a selective middle node, counted as products of degrees.
  {
    name: 'shared friend pairs',
    cypher: "MATCH (a:Person)-[:KNOWS]->(b:Person)<-[:KNOWS]-(c:Person) WHERE b.city = 'City1' RETURN count(*) AS n",
    // Kùzu does not keep a MATCH's relationships distinct: the pair of one relationship with itself is ruled out by hand.
    kuzu: "MATCH (a:Person)-[r1:KNOWS]->(b:Person)<-[r2:KNOWS]-(c:Person) WHERE b.city = 'City1' AND id(r1) <> id(r2) RETURN count(*) AS n",
    params: none,
  },
  {
    name: 'two hops by middle city',
    cypher: 'MATCH (a:Person)-[:KNOWS]->(b:Person)-[:KNOWS]->(c:Person) WHERE b.age = 70 RETURN b.city AS city, count(*) AS n ORDER BY n DESC, city LIMIT 5',
    params: none,
  },
  // CASE in a filter over a whole-graph expand (typed over batches).
  { name: 'case in a filter', cypher: 'MATCH (a:Person)-[:KNOWS]->(b:Person) WHERE CASE WHEN a.age < 30 THEN b.age ELSE a.age END > 60 RETURN count(*) AS n', params: none },
  // CASE in RETURN under ORDER BY ... LIMIT (computed for the kept rows only).
  {
    name: 'case in a top-k',
    cypher: "MATCH (p:Person) WHERE p.city = 'City9' RETURN p.name AS name, CASE p.age WHEN 18 THEN 'newcomer' ELSE 'member' END AS kind ORDER BY p.age, name LIMIT 10",
    params: none,
  },
  // A top-k over a label filtered by a range of another integer property (candidates among the nodes in range).
  { name: 'bounded top-k by id', cypher: 'MATCH (p:Person) WHERE p.age > 60 AND p.age <= 70 RETURN p.id AS id, p.name AS name ORDER BY id DESC LIMIT 10', params: none },
  // A percentile per group after an expand (exact integers sorted as doubles).
  {
    name: 'p90 of friends by age',
    cypher: "MATCH (a:Person)-[:KNOWS]->(b:Person) WHERE a.city = 'City4' RETURN a.age AS age, percentileDisc(b.age, 0.9) AS p90 ORDER BY age",
    kuzu: "MATCH (a:Person)-[:KNOWS]->(b:Person) WHERE a.city = 'City4' WITH a.age AS age, list_sort(collect(b.age)) AS ages RETURN age, ages[CAST(ceil(0.9 * size(ages)) AS INT64)] AS p90 ORDER BY age",
    params: none,
  },
  // A label scan after a single-row WITH (picked from typed columns by the value the row gives).
  {
    name: 'same city and age as one',
    cypher: 'MATCH (p:Person {id: $id}) WITH p.city AS c MATCH (q:Person) WHERE q.city = c AND q.age = 30 RETURN count(*) AS n',
    params: (run, persons) => ({ id: (run * 7919) % persons }),
  },
  // Filters on the end node only, folded into the expand as a bitmap by node id; grouped by the start.
  {
    name: 'young friends by city',
    cypher: "MATCH (a:Person)-[:KNOWS]->(b:Person) WHERE b.age < 25 AND b.city <> 'City1' RETURN a.city AS city, count(*) AS n ORDER BY n DESC, city LIMIT 5",
    params: none,
  },
  // Two hops from a selective start, the far end filtered: the last hop counted through the folded filter.
  { name: 'two hops to the old', cypher: 'MATCH (a:Person)-[:KNOWS]->(b:Person)-[:KNOWS]->(c:Person) WHERE a.age = 30 AND c.age > 70 RETURN count(*) AS n', params: none },
];
