/**
 * A fifth read suite on the social graph of `bench/cypher-social-graph.ts`, of shapes none of the other four
 * holds, written as users write them: string functions in filters and grouping keys, list and pattern
 * comprehensions per node, collect then UNWIND, top-k then expand, the best per group (value joins, over patterns
 * that expand and over inputs of every name too), several DISTINCT
 * aggregates, DISTINCT after two hops, anti-joins, OPTIONAL MATCH whose aggregates see nulls, ranges on two
 * properties, open and closed ranges on an indexed property, ranges of strings, IN lists of parameters, arithmetic and CASE in grouping keys and aggregates, relationship
 * properties (the `since` year of a KNOWS) in filters, groups and path predicates, path-length filters on
 * variable-length patterns, number expressions over ids (division, modulo, rounding, coalesce) as keys and
 * filters, a string range beside a bound on another property, bounds given as parameters, parameters in IN lists,
 * equalities and expressions, and string predicates on either end of an expand. Run it with `npx tsx bench/cypher-social.ts --suite wide`; the harness, the graph and
 * the cross-check of answers against Kùzu are the first suite's.
 *
 * `kuzu` holds Kùzu's spelling where its dialect differs (`lower`, 1-based `substring`, lambdas for list
 * comprehensions, no pattern predicates or comprehensions, `concat` and casts, shortest paths as recursive
 * relationships with a predicate on their relationships): the same question, answered with the same columns.
 */
import type { SocialParams, SocialQuery } from './cypher-social-graph.js';

const none = (): SocialParams => ({});
const start = (run: number, persons: number): SocialParams => ({ id: (run * 7919) % persons });
/** Two persons far apart in id order, as in the first suite's shortest paths. */
const pair = (run: number, persons: number): SocialParams => ({ a: (run * 7919) % persons, b: (run * 7919 + Math.floor(persons / 2)) % persons });
/** Three cities and three ages, different per run, as a user's form would send them. */
const choices = (run: number): SocialParams => ({
  cities: [`City${run % 50}`, `City${(run + 17) % 50}`, `City${(run + 33) % 50}`],
  ages: [18 + (run % 60), 18 + ((run + 20) % 60), 18 + ((run + 40) % 60)],
});

/** 2,000 person names, different per run, as a client would send a page of them. */
const names = (run: number, persons: number): SocialParams => ({
  names: Array.from({ length: 2000 }, (_, j) => `person${(run * 7919 + j * 37) % persons}`),
});

export const WIDE: readonly SocialQuery[] = [
  // String functions in filters and grouping keys.
  {
    name: 'toLower in key and filter',
    cypher: "MATCH (p:Person) WHERE toLower(p.city) ENDS WITH '1' RETURN toLower(p.city) AS c, count(*) AS n ORDER BY n DESC, c LIMIT 5",
    kuzu: "MATCH (p:Person) WHERE lower(p.city) ENDS WITH '1' RETURN lower(p.city) AS c, count(*) AS n ORDER BY n DESC, c LIMIT 5",
    params: none,
  },
  {
    name: 'substring prefix groups',
    cypher: 'MATCH (p:Person) WHERE p.age < 30 RETURN substring(p.name, 0, 8) AS prefix, count(*) AS n ORDER BY n DESC, prefix LIMIT 5',
    kuzu: 'MATCH (p:Person) WHERE p.age < 30 RETURN substring(p.name, 1, 8) AS prefix, count(*) AS n ORDER BY n DESC, prefix LIMIT 5',
    params: none,
  },
  { name: 'name length by city', cypher: 'MATCH (p:Person) WHERE size(p.name) = 10 RETURN p.city AS city, count(*) AS n ORDER BY n DESC, city LIMIT 5', params: none },
  { name: 'starts with, then expand', cypher: "MATCH (a:Person)-[:KNOWS]->(b:Person) WHERE a.name STARTS WITH 'person12' AND b.city = 'City3' RETURN count(*) AS n", params: none },
  { name: 'contains on the far end', cypher: "MATCH (a:Person)-[:KNOWS]->(b:Person) WHERE a.age = 50 AND b.name CONTAINS '12' RETURN count(*) AS n", params: none },
  {
    name: 'ends with after expand',
    cypher: "MATCH (a:Person)-[:KNOWS]->(b:Person) WHERE b.city ENDS WITH '7' RETURN a.age AS age, count(*) AS n ORDER BY n DESC, age LIMIT 5",
    params: none,
  },
  {
    name: 'concatenated key',
    cypher: "MATCH (p:Person) WHERE p.age < 20 RETURN p.city + '-' + toString(p.age) AS k, count(*) AS n ORDER BY n DESC, k LIMIT 5",
    kuzu: "MATCH (p:Person) WHERE p.age < 20 RETURN concat(p.city, '-', CAST(p.age AS STRING)) AS k, count(*) AS n ORDER BY n DESC, k LIMIT 5",
    params: none,
  },
  // List and pattern comprehensions per node.
  {
    name: 'comprehension over friends',
    cypher:
      "MATCH (p:Person)-[:KNOWS]->(f:Person) WHERE p.city = 'City12' WITH p, collect(f.age) AS ages RETURN p.age AS age, sum(size([a IN ages WHERE a < 25])) AS young, count(*) AS people ORDER BY age",
    kuzu: "MATCH (p:Person)-[:KNOWS]->(f:Person) WHERE p.city = 'City12' WITH p, collect(f.age) AS ages RETURN p.age AS age, sum(size(list_filter(ages, a -> a < 25))) AS young, count(*) AS people ORDER BY age",
    params: none,
  },
  {
    name: 'pattern comprehension, correlated',
    cypher: 'MATCH (p:Person) WHERE p.age = 19 RETURN p.id AS id, size([(p)<-[:KNOWS]-(f:Person) WHERE f.city = p.city | f.id]) AS local_fans ORDER BY local_fans DESC, id LIMIT 10',
    kuzu: 'MATCH (p:Person) WHERE p.age = 19 OPTIONAL MATCH (p)<-[:KNOWS]-(f:Person) WHERE f.city = p.city WITH p, count(f) AS local_fans RETURN p.id AS id, local_fans ORDER BY local_fans DESC, id LIMIT 10',
    params: none,
  },
  // collect, then UNWIND the list again.
  {
    name: 'collect ids, unwind',
    cypher: 'MATCH (p:Person) WHERE p.age = 22 WITH p.city AS city, collect(p.id) AS ids UNWIND ids AS i RETURN city, count(i) AS n, max(i) AS top ORDER BY n DESC, city LIMIT 5',
    params: none,
  },
  // A sorted page, then an expand from it; a ranking by an aggregate, then an expand from the ranked.
  {
    name: 'page by name, then expand',
    cypher: "MATCH (p:Person) WHERE p.city = 'City4' WITH p ORDER BY p.name LIMIT 50 MATCH (p)-[:KNOWS]-(f:Person) RETURN f.city AS city, count(*) AS n ORDER BY n DESC, city LIMIT 5",
    params: none,
  },
  {
    name: 'most followed, then follows',
    cypher:
      'MATCH (p:Person)<-[:KNOWS]-(:Person) WITH p, count(*) AS fans ORDER BY fans DESC, p.id LIMIT 20 MATCH (p)-[:KNOWS]->(f:Person) RETURN p.id AS id, fans, count(f) AS follows ORDER BY fans DESC, id',
    params: none,
  },
  // The best per group: the oldest age of each city, then the people of that city and age.
  {
    name: 'oldest per city',
    cypher: 'MATCH (p:Person) WITH p.city AS city, max(p.age) AS oldest MATCH (q:Person) WHERE q.city = city AND q.age = oldest RETURN city, count(*) AS n, min(q.id) AS first ORDER BY city',
    params: none,
  },
  // Several DISTINCT aggregates at once; DISTINCT after two hops.
  {
    name: 'several distinct aggregates',
    cypher:
      'MATCH (a:Person)-[:KNOWS]->(b:Person) WHERE a.age < 22 RETURN a.city AS city, count(DISTINCT b.city) AS cities, count(DISTINCT b.age) AS ages, sum(DISTINCT b.age) AS s ORDER BY city LIMIT 10',
    params: none,
  },
  {
    name: 'distinct after 2 hops',
    cypher: "MATCH (a:Person)-[:KNOWS]->(:Person)-[:KNOWS]->(c:Person) WHERE a.city = 'City8' AND a.age > 70 RETURN count(DISTINCT c) AS n",
    params: none,
  },
  // Anti-joins: no friend in one's own city; a pattern predicate between two expanded nodes.
  {
    name: 'no friend in own city',
    cypher: 'MATCH (p:Person) WHERE p.age > 75 AND NOT EXISTS { MATCH (p)-[:KNOWS]-(f:Person) WHERE f.city = p.city } RETURN p.city AS city, count(*) AS n ORDER BY n DESC, city LIMIT 5',
    params: none,
  },
  {
    name: 'not followed back',
    cypher: "MATCH (a:Person)-[:KNOWS]->(b:Person) WHERE a.city = 'City21' AND b.age < 25 AND NOT (b)-[:KNOWS]->(a) RETURN b.city AS city, count(*) AS n ORDER BY n DESC, city LIMIT 5",
    kuzu: "MATCH (a:Person)-[:KNOWS]->(b:Person) WHERE a.city = 'City21' AND b.age < 25 AND NOT EXISTS { MATCH (b)-[:KNOWS]->(a) } RETURN b.city AS city, count(*) AS n ORDER BY n DESC, city LIMIT 5",
    params: none,
  },
  // OPTIONAL MATCH whose aggregates see nulls.
  {
    name: 'optional, aggregates of nulls',
    cypher:
      "MATCH (p:Person) WHERE p.city = 'City10' OPTIONAL MATCH (p)<-[:KNOWS]-(f:Person) WHERE f.age < 20 RETURN p.age AS age, count(f) AS young_fans, avg(f.age) AS fan_age, count(*) AS rows ORDER BY age",
    params: none,
  },
  // Ranges on two properties; IN lists of parameters; an IN list of strings after an expand.
  {
    name: 'ranges on two properties',
    cypher: 'MATCH (p:Person) WHERE p.age >= 25 AND p.age <= 27 AND p.id >= 20000 AND p.id < 30000 RETURN p.city AS city, count(*) AS n ORDER BY n DESC, city LIMIT 5',
    params: none,
  },
  // Ranges the histograms weigh: an open range on the indexed id (5%: a scan picked by columns beats the seek), a
  // closed one (0.5%: the seek), and a range of strings.
  { name: 'open range on id', cypher: 'MATCH (p:Person) WHERE p.id > 95000 AND p.age < 40 RETURN p.age AS age, count(*) AS n ORDER BY n DESC, age LIMIT 5', params: none },
  {
    name: 'narrow id range and age range',
    cypher: 'MATCH (p:Person) WHERE p.age > 20 AND p.age < 70 AND p.id >= 50000 AND p.id <= 50500 RETURN p.city AS city, count(*) AS n ORDER BY n DESC, city LIMIT 5',
    params: none,
  },
  {
    name: 'string range on names',
    cypher: "MATCH (p:Person) WHERE p.name >= 'person500' AND p.name < 'person501' RETURN p.city AS city, count(*) AS n ORDER BY n DESC, city LIMIT 5",
    params: none,
  },
  { name: 'in lists of parameters', cypher: 'MATCH (p:Person) WHERE p.city IN $cities AND p.age IN $ages RETURN p.city AS city, p.age AS age, count(*) AS n ORDER BY city, age', params: choices },
  {
    name: 'in a string list, expanded',
    cypher: "MATCH (a:Person)-[:KNOWS]->(b:Person) WHERE b.city IN ['City1', 'City2', 'City3'] AND a.age > 70 RETURN b.city AS city, count(*) AS n ORDER BY city",
    params: none,
  },
  // Arithmetic and CASE in grouping keys and aggregates; two keys across both ends; strings compared across ends.
  {
    name: 'arithmetic group key',
    cypher: 'MATCH (a:Person)-[:KNOWS]->(b:Person) RETURN (a.age / 10) * 10 AS decade, count(*) AS n, avg(b.age) AS friend_age ORDER BY decade',
    params: none,
  },
  {
    name: 'case in an aggregate',
    cypher: 'MATCH (a:Person)-[:KNOWS]->(b:Person) RETURN a.city AS city, sum(CASE WHEN b.age > a.age THEN 1 ELSE 0 END) AS older, count(*) AS n ORDER BY older DESC, city LIMIT 5',
    params: none,
  },
  {
    name: 'two keys across the ends',
    cypher: 'MATCH (a:Person)-[:KNOWS]->(b:Person) WHERE a.age > 60 RETURN a.city AS ac, b.age / 10 AS bdecade, count(*) AS n ORDER BY n DESC, ac, bdecade LIMIT 10',
    params: none,
  },
  {
    name: 'city order across the ends',
    cypher: 'MATCH (a:Person)-[:KNOWS]->(b:Person) WHERE a.age = 30 AND a.city < b.city RETURN a.city AS x, b.city AS y, count(*) AS n ORDER BY n DESC, x, y LIMIT 5',
    params: none,
  },
  // A range per row of an UNWIND over a literal range.
  {
    name: 'unwind range of bands',
    cypher: "UNWIND range(18, 77, 10) AS lo MATCH (p:Person) WHERE p.age >= lo AND p.age < lo + 10 AND p.city = 'City1' RETURN lo, count(*) AS n ORDER BY lo",
    params: none,
  },
  // Relationship properties: a filter on an undirected expand, groups by the property, aggregates of it.
  {
    name: 'undirected, relationship filter',
    cypher: "MATCH (a:Person)-[k:KNOWS]-(b:Person) WHERE a.city = 'City15' AND k.since >= 2020 RETURN b.age AS age, count(*) AS n ORDER BY n DESC, age LIMIT 5",
    params: none,
  },
  { name: 'group by relationship year', cypher: 'MATCH (a:Person)-[k:KNOWS]->(b:Person) RETURN k.since AS year, count(*) AS n, avg(a.age + b.age) AS ages ORDER BY year', params: none },
  {
    name: 'relationship years per city',
    cypher: 'MATCH (a:Person)-[k:KNOWS]->(:Person) WHERE a.age < 40 RETURN a.city AS city, min(k.since) AS first, max(k.since) AS last, avg(k.since) AS mean ORDER BY city LIMIT 10',
    params: none,
  },
  // Variable-length patterns filtered on the path's length; a shortest path under a relationship predicate.
  {
    name: 'path length filter',
    cypher: 'MATCH p = (a:Person {id: $id})-[:KNOWS*1..3]->(b:Person) WHERE length(p) = 3 AND b.age < 20 RETURN count(DISTINCT b) AS n',
    params: start,
  },
  { name: 'var-length from 2, same city', cypher: 'MATCH (a:Person {id: $id})-[:KNOWS*2..3]->(b:Person) WHERE b.city = a.city RETURN count(*) AS n', params: start },
  {
    name: 'shortest path, recent links',
    cypher: 'MATCH (a:Person {id: $a}), (b:Person {id: $b}) MATCH p = shortestPath((a)-[:KNOWS*..10]->(b)) WHERE all(r IN relationships(p) WHERE r.since >= 2005) RETURN length(p) AS hops',
    kuzu: 'MATCH p = (a:Person {id: $a})-[:KNOWS* SHORTEST 1..10 (r, _ | WHERE r.since >= 2005)]->(b:Person {id: $b}) RETURN length(p) AS hops',
    params: pair,
  },
  // EXISTS over two hops, correlated on a property of the start.
  {
    name: 'exists over two hops',
    cypher: 'MATCH (p:Person) WHERE p.age = 33 AND EXISTS { MATCH (p)-[:KNOWS]->(:Person)-[:KNOWS]->(q:Person) WHERE q.age = 77 AND q.city = p.city } RETURN count(*) AS n',
    params: none,
  },
  // The best per group again, by other keys and aggregates: a value join on an integer and a string key, one on
  // three keys; and relationship properties aggregated by the far end's city.
  {
    name: 'first name per age',
    cypher: 'MATCH (p:Person) WITH p.age AS age, min(p.name) AS first MATCH (q:Person) WHERE q.age = age AND q.name = first RETURN age, q.city AS city ORDER BY age',
    params: none,
  },
  {
    name: 'join on three keys',
    cypher:
      'MATCH (p:Person) WHERE p.age < 25 WITH p.city AS city, p.age AS age, max(p.name) AS name MATCH (q:Person) WHERE q.city = city AND q.age = age AND q.name = name RETURN age, count(*) AS n ORDER BY age',
    params: none,
  },
  {
    name: 'relationship years by far city',
    cypher: 'MATCH (a:Person)-[k:KNOWS]->(b:Person) WHERE a.age > 60 RETURN b.city AS city, min(k.since) AS first, max(k.since) AS last, count(*) AS n ORDER BY city LIMIT 10',
    params: none,
  },
  // Value joins beyond a few thousand input rows and over patterns that expand: the best per group met across a
  // KNOWS (keys on the scanned node, and keys on both ends), an input of every name (the input larger than a
  // table of the pattern is worth), a join after OPTIONAL MATCH (null keys join nothing), and an input filtered on
  // its aggregate by WITH ... WHERE.
  {
    name: 'oldest per city, their friends',
    cypher:
      'MATCH (p:Person) WITH p.city AS city, max(p.age) AS oldest MATCH (q:Person)-[:KNOWS]->(f:Person) WHERE q.city = city AND q.age = oldest RETURN city, count(f) AS n ORDER BY city',
    params: none,
  },
  {
    name: 'youngest per city across a knows',
    cypher:
      'MATCH (p:Person) WITH p.city AS city, min(p.age) AS youngest MATCH (a:Person)-[:KNOWS]->(b:Person) WHERE a.city = city AND b.age = youngest RETURN city, count(*) AS n ORDER BY city LIMIT 10',
    params: none,
  },
  {
    name: 'every name, joined',
    cypher:
      'MATCH (p:Person) WHERE p.age < 60 WITH p.name AS name, p.age AS age, count(*) AS c MATCH (q:Person) WHERE q.name = name AND q.age = age RETURN q.city AS city, count(*) AS n ORDER BY n DESC, city LIMIT 5',
    params: none,
  },
  {
    name: 'every name, joined across a knows',
    cypher:
      'MATCH (p:Person) WHERE p.age > 70 WITH p.name AS name, count(*) AS c MATCH (a:Person)-[:KNOWS]->(b:Person) WHERE a.name = name AND b.age < 20 RETURN b.city AS city, count(*) AS n ORDER BY n DESC, city LIMIT 5',
    params: none,
  },
  {
    name: 'join after optional match',
    cypher:
      'MATCH (p:Person) WHERE p.age = 18 OPTIONAL MATCH (p)-[:KNOWS]->(f:Person) WHERE f.age = 77 WITH f.city AS city, count(*) AS c MATCH (q:Person) WHERE q.city = city AND q.age = 77 RETURN count(*) AS n, sum(c) AS s',
    params: none,
  },
  {
    name: 'join on a filtered aggregate',
    cypher:
      'MATCH (p:Person) WITH p.city AS city, p.age AS age, count(*) AS c WHERE c > 40 MATCH (q:Person)-[:KNOWS]->(f:Person) WHERE q.city = city AND q.age = age RETURN f.city AS city, count(*) AS n ORDER BY n DESC, city LIMIT 5',
    params: none,
  },
  // Joins whose output is grouped by the matched side: two keys after grouping, a grouping by the far end's age, an
  // input of a list parameter unwound, an input that is a DISTINCT, and a string key filtered on both sides.
  {
    name: 'two keys after grouping, joined',
    cypher:
      'MATCH (p:Person) WHERE p.age > 70 WITH p.city AS pc, p.age AS pa, count(*) AS c MATCH (q:Person)-[:KNOWS]->(f:Person) WHERE q.city = pc AND q.age = pa RETURN f.city AS city, count(*) AS n ORDER BY n DESC, city LIMIT 5',
    params: none,
  },
  {
    name: 'joined, by the far age',
    cypher:
      'MATCH (p:Person) WHERE p.age = 30 WITH p.city AS pc, count(*) AS c MATCH (q:Person)-[:KNOWS]->(f:Person) WHERE q.city = pc AND q.age = 31 RETURN f.age AS age, count(*) AS n ORDER BY n DESC, age LIMIT 5',
    params: none,
  },
  {
    name: 'unwound names, joined',
    cypher: 'UNWIND $names AS nm MATCH (q:Person) WHERE q.name = nm RETURN q.city AS city, count(*) AS n, avg(q.age) AS age ORDER BY n DESC, city LIMIT 5',
    params: names,
  },
  {
    name: 'distinct names, joined',
    cypher:
      'MATCH (p:Person) WHERE p.age > 72 WITH DISTINCT p.name AS dn MATCH (q:Person)-[:KNOWS]->(f:Person) WHERE q.name = dn RETURN f.city AS city, count(*) AS n ORDER BY n DESC, city LIMIT 5',
    params: none,
  },
  {
    name: 'string key, both filtered',
    cypher:
      "MATCH (p:Person) WHERE p.age < 30 WITH p.name AS nm MATCH (q:Person) WHERE q.name = nm AND q.city <> 'City3' RETURN q.city AS city, count(*) AS n ORDER BY n DESC, city LIMIT 5",
    params: none,
  },
  // Expressions over columns of many distinct values (ids), evaluated over a whole label or after an expand, as keys
  // and filters; a string range with a bound on another property; bounds given as parameters.
  {
    name: 'integer division key',
    cypher: 'MATCH (p:Person) RETURN toInteger(p.id / 7) AS k, count(*) AS n ORDER BY n DESC, k LIMIT 5',
    kuzu: 'MATCH (p:Person) RETURN p.id / 7 AS k, count(*) AS n ORDER BY n DESC, k LIMIT 5',
    params: none,
  },
  {
    name: 'rounded float key',
    cypher: 'MATCH (p:Person) RETURN round(toFloat(p.age) / 7.0) AS k, count(*) AS n ORDER BY n DESC, k LIMIT 5',
    kuzu: 'MATCH (p:Person) RETURN round(CAST(p.age AS DOUBLE) / 7.0, 0) AS k, count(*) AS n ORDER BY n DESC, k LIMIT 5',
    params: none,
  },
  {
    name: 'modulo filter and key',
    cypher: 'MATCH (p:Person) WHERE p.id % 10 = 3 RETURN p.age % 5 AS k, count(*) AS n ORDER BY k',
    params: none,
  },
  {
    name: 'division by a column',
    cypher: 'MATCH (p:Person) WHERE p.id / p.age > 3000 RETURN p.age / 10 AS decade, count(*) AS n ORDER BY decade',
    params: none,
  },
  {
    name: 'abs and modulo filter',
    cypher: 'MATCH (p:Person) WHERE abs(p.age - 50) < 3 AND p.id % 2 = 0 RETURN count(*) AS n',
    params: none,
  },
  {
    name: 'coalesce over ids',
    cypher: 'MATCH (p:Person) WHERE coalesce(p.id, 0) % 1000 < 5 RETURN p.age / 10 AS decade, count(*) AS n ORDER BY decade',
    params: none,
  },
  {
    name: 'float band key after an expand',
    cypher: 'MATCH (a:Person)-[:KNOWS]->(b:Person) WHERE a.age < 25 RETURN floor(toFloat(b.id) / 10000.0) AS band, count(*) AS n ORDER BY band',
    kuzu: 'MATCH (a:Person)-[:KNOWS]->(b:Person) WHERE a.age < 25 RETURN floor(CAST(b.id AS DOUBLE) / 10000.0) AS band, count(*) AS n ORDER BY band',
    params: none,
  },
  {
    name: 'string range and age bound',
    cypher: "MATCH (p:Person) WHERE p.name >= 'person5' AND p.name < 'person6' AND p.age > 30 RETURN count(*) AS n",
    params: none,
  },
  {
    name: 'age bound as parameter',
    cypher: 'MATCH (p:Person) WHERE p.age > $min RETURN p.city AS city, count(*) AS n ORDER BY n DESC, city LIMIT 5',
    params: (run) => ({ min: 70 + (run % 5) }),
  },
  {
    name: 'id range as parameters',
    cypher: 'MATCH (p:Person) WHERE p.id >= $lo AND p.id < $hi AND p.age > 40 RETURN count(*) AS n, avg(p.age) AS a',
    params: (run, persons) => ({ lo: (run * 7919) % (persons - 2000), hi: ((run * 7919) % (persons - 2000)) + 2000 }),
  },
  // Relationship properties read other ways: a filter on the property grouped by the far end, a sum per start
  // node ranked, the property against a node's, the incoming side, and both relationships of two hops.
  {
    name: 'recent links by far city',
    cypher: 'MATCH (a:Person)-[k:KNOWS]->(b:Person) WHERE k.since >= 2020 RETURN b.city AS city, count(*) AS n ORDER BY n DESC, city LIMIT 5',
    params: none,
  },
  {
    name: 'link years summed per person',
    cypher: 'MATCH (a:Person)-[k:KNOWS]->(:Person) RETURN a.id AS id, sum(k.since - 2000) AS years, count(*) AS n ORDER BY years DESC, id LIMIT 10',
    params: none,
  },
  {
    name: 'link year against far age',
    cypher: 'MATCH (a:Person)-[k:KNOWS]->(b:Person) WHERE k.since - b.age > 1975 RETURN a.city AS city, count(*) AS n ORDER BY n DESC, city LIMIT 5',
    params: none,
  },
  {
    name: 'incoming link years by age',
    cypher: 'MATCH (a:Person)<-[k:KNOWS]-(:Person) WHERE a.city = $city RETURN a.age AS age, min(k.since) AS first, avg(k.since) AS mean, count(*) AS n ORDER BY age',
    params: (run: number): SocialParams => ({ city: `City${run % 50}` }),
  },
  {
    name: 'two hops, both link years',
    cypher:
      'MATCH (a:Person)-[k:KNOWS]->(b:Person)-[l:KNOWS]->(c:Person) WHERE a.age = 30 AND l.since > k.since RETURN c.city AS city, count(*) AS n, avg(l.since - k.since) AS gap ORDER BY n DESC, city LIMIT 5',
    params: none,
  },
  // Parameters weighed in other places than a bound: an IN list, an equality, an expression, a small range; and
  // string predicates over the coded city column on either end of an expand, decided once per distinct city.
  {
    name: 'ids in a list parameter',
    cypher: 'MATCH (p:Person) WHERE p.id IN $ids RETURN count(*) AS n, avg(p.age) AS a',
    params: (run: number, persons: number): SocialParams => ({ ids: Array.from({ length: 20 }, (_, k) => (run * 7919 + k * 4001) % persons) }),
  },
  {
    name: 'age equality as parameter',
    cypher: 'MATCH (p:Person) WHERE p.age = $age RETURN p.city AS city, count(*) AS n ORDER BY n DESC, city LIMIT 5',
    params: (run: number): SocialParams => ({ age: 18 + ((run * 7) % 60) }),
  },
  {
    name: 'bound as a parameter expression',
    cypher: 'MATCH (p:Person) WHERE p.age > $min + 10 AND p.city IN $cities RETURN count(*) AS n',
    params: (run: number): SocialParams => ({ min: 18 + ((run * 11) % 50), cities: choices(run).cities as readonly string[] }),
  },
  {
    name: 'small id range as parameters',
    cypher: 'MATCH (p:Person) WHERE p.id >= $lo AND p.id < $lo + 100 RETURN p.city AS city, count(*) AS n ORDER BY n DESC, city LIMIT 3',
    params: (run: number, persons: number): SocialParams => ({ lo: (run * 7919) % (persons - 100) }),
  },
  {
    name: 'starts with on the near end',
    cypher: "MATCH (a:Person)-[:KNOWS]->(b:Person) WHERE a.city STARTS WITH 'City1' RETURN b.age AS age, count(*) AS n ORDER BY n DESC, age LIMIT 5",
    params: none,
  },
  {
    name: 'contains on both ends',
    cypher: "MATCH (a:Person)-[:KNOWS]->(b:Person) WHERE a.city CONTAINS '3' AND b.city CONTAINS '4' RETURN count(*) AS n",
    params: none,
  },
  {
    name: 'far city in a list parameter',
    cypher: 'MATCH (a:Person)-[:KNOWS]->(b:Person) WHERE b.city IN $cities RETURN a.age AS age, count(*) AS n ORDER BY n DESC, age LIMIT 5',
    params: (run: number): SocialParams => ({ cities: choices(run).cities as readonly string[] }),
  },
  {
    name: 'regex on the far end',
    cypher: "MATCH (a:Person)-[:KNOWS]->(b:Person) WHERE b.city =~ 'City[12]5' RETURN a.city AS city, count(*) AS n ORDER BY n DESC, city LIMIT 5",
    params: none,
  },
];
