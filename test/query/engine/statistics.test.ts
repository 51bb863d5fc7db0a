import { describe, expect, it } from 'vitest';
import { estimateDistinct } from '../../../src/query/plan/cardinality.js';
import { find, withDb } from './support.js';

/**
 * The planner estimates an equality on a property from the distinct values of that property in a
 * sample of the label's nodes, so a pattern starts at the end its predicates pin to fewest nodes.
 */
describe('distinct-value statistics', () => {
  it('the estimator is exact for a whole population and reaches the population when all differ', () => {
    expect(estimateDistinct(100, 37, 5, 100)).toBe(37);
    expect(estimateDistinct(1000, 1000, 1000, 100_000)).toBe(100_000);
    // 50 values each seen about 20 times in a sample of 1000 out of 100,000: about 50.
    expect(estimateDistinct(1000, 50, 0, 100_000)).toBe(50);
    expect(estimateDistinct(0, 0, 0, 100)).toBe(0);
    // Half the sample seen once: many more values than the sample shows, but no more than there are rows.
    const d = estimateDistinct(1000, 600, 500, 100_000);
    expect(d).toBeGreaterThan(600);
    expect(d).toBeLessThanOrEqual(100_000);
  });

  it('a pattern starts at the end pinned by the property with more distinct values', async () => {
    await withDb(async (db) => {
      await db.query("UNWIND range(1, 400) AS i CREATE (:Person {name: 'p' + toString(i), team: i % 4})");
      await db.query('MATCH (a:Person), (b:Person) WHERE b.team = (a.team + 1) % 4 AND id(b) % 50 = id(a) % 50 CREATE (a)-[:KNOWS]->(b)');
      for (const text of [
        "MATCH (a:Person {team: 1})-[:KNOWS]->(b:Person {name: 'p7'}) RETURN count(*)",
        "MATCH (b:Person {name: 'p7'})<-[:KNOWS]-(a:Person {team: 1}) RETURN count(*)",
        "MATCH (a:Person)-[:KNOWS]->(b:Person) WHERE a.team = 1 AND b.name = 'p7' RETURN count(*)",
      ]) {
        const scan = find(db.explain(text), 'NodeByLabelScan')!;
        expect(scan.details['pattern'], text).toBe('(b:Person)');
        expect(scan.estimated_rows, text).toBe(1);
      }
      const counted = await db.query("MATCH (a:Person {team: 1})-[:KNOWS]->(b:Person {name: 'p7'}) RETURN count(*)");
      const brute = await db.query("MATCH (a:Person)-[:KNOWS]->(b:Person) WITH a, b WHERE a.team = 1 AND b.name = 'p7' RETURN count(*)");
      expect(counted.rows).toEqual(brute.rows);
    });
  });
});
