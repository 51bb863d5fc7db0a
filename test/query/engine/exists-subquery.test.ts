import { describe, expect, it } from 'vitest';
import { withDb } from './support.js';

/**
 * EXISTS { } with a full query as its body: without RETURN it asks whether the body's last clause has
 * rows, which must agree with the pattern form of the same question.
 */
describe('EXISTS subqueries', () => {
  it('answer true when a body without RETURN matches, as the pattern form does', async () => {
    await withDb(async (db) => {
      await db.query("CREATE (:P {c: 'x'})-[:K]->(:P {c: 'x'}), (:P {c: 'x'})-[:K]->(:P {c: 'y'}), (:P {c: 'x'})");
      const query = await db.query("MATCH (p:P) WHERE EXISTS { MATCH (p)-[:K]->(f:P) WHERE f.c = 'x' } RETURN count(*)");
      const pattern = await db.query("MATCH (p:P) WHERE EXISTS { (p)-[:K]->(f:P) WHERE f.c = 'x' } RETURN count(*)");
      expect(query.rows).toEqual([[1n]]);
      expect(pattern.rows).toEqual(query.rows);
      const any = await db.query('MATCH (p:P) WHERE EXISTS { MATCH (p)-[:K]->() } RETURN count(*)');
      expect(any.rows).toEqual([[2n]]);
      const with_return = await db.query('MATCH (p:P) WHERE EXISTS { MATCH (p)-[:K]->(f) RETURN f } RETURN count(*)');
      expect(with_return.rows).toEqual([[2n]]);
      const none = await db.query("MATCH (p:P) WHERE NOT EXISTS { MATCH (p)-[:K]->(f) WHERE f.c = 'z' } RETURN count(*)");
      expect(none.rows).toEqual([[5n]]);
    });
  });
});
