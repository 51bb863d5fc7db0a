import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { withDb } from './support.js';

/**
 * Golden plans: each query of plans.txt with the EXPLAIN tree the planner makes for it on a fixed
 * graph. A change of plan shows as a diff of this file; after checking it, regenerate with
 *   WEFT_REWRITE=1 npx vitest run test/query/engine/plans.test.ts
 */
const file = join(dirname(fileURLToPath(import.meta.url)), 'plans.txt');

const SETUP = [
  'UNWIND range(1, 200) AS i CREATE (:Person {id: i, name: "p" + toString(i), age: 18 + i % 50})',
  'UNWIND range(1, 5) AS i CREATE (:City {name: "c" + toString(i)})',
  'MATCH (p:Person), (c:City) WHERE c.name = "c" + toString(p.id % 5 + 1) CREATE (p)-[:LIVES_IN]->(c)',
  'MATCH (a:Person), (b:Person) WHERE b.id = a.id + 1 OR b.id = a.id * 2 CREATE (a)-[:KNOWS]->(b)',
];

const QUERIES = [
  'MATCH (p:Person)-[:LIVES_IN]->(c:City) RETURN p, c',
  'MATCH (n) WHERE id(n) = $id RETURN n',
  'MATCH (n:Person) WHERE elementId(n) = $e RETURN n.name',
  "MATCH (p:Person {name: 'p7'})-[:KNOWS]->(f) WHERE f.age > 30 RETURN f.name",
  'MATCH (p:Person) OPTIONAL MATCH (p)-[:LIVES_IN]->(c) RETURN p.name, c.name',
  'MATCH (a:Person {id: 1})-[:KNOWS*1..3]->(b) RETURN count(DISTINCT b)',
  'MATCH (p:Person) RETURN p.age AS age, count(*) AS n ORDER BY n DESC LIMIT 3',
  'MATCH (p:Person) WHERE (p)-[:LIVES_IN]->() RETURN count(p)',
  'MATCH (p:City) RETURN p.name AS name UNION MATCH (p:Person) RETURN p.name AS name',
  'MATCH (p:Person {id: 3}) SET p.seen = true',
  'MERGE (c:City {name: $name}) ON CREATE SET c.new = true RETURN c',
  'MATCH (n) WHERE n:City RETURN n.name',
  'MATCH (p:Person) RETURN p.name, p.age ORDER BY p.age DESC, p.name LIMIT 10',
];

function render(query: string, explain: string): string {
  return `> ${query}\n${explain}\n`;
}

describe('golden plans', () => {
  it('the planner makes the plans of plans.txt', async () => {
    await withDb(async (db) => {
      for (const s of SETUP) await db.query(s);
      const actual = QUERIES.map((q) => render(q, db.explain(q).details['explain'] ?? '')).join('\n');
      if (process.env['WEFT_REWRITE'] === '1' || !existsSync(file)) writeFileSync(file, actual);
      expect(actual).toBe(readFileSync(file, 'utf8'));
    });
  });
});
