import { describe, expect, it } from 'vitest';
import { withDb } from './support.js';

/**
 * A WHERE conjunct that calls rand(), randomUUID() or a real-time clock is drawn once per row it
 * filters. Moving it below a scan (it reads no variable, so every slot it needs is bound there) would
 * draw it once for all rows, keeping either every row or none. Each count below lies strictly between
 * none and all unless the draw is shared: with hundreds of independent draws the chance of either end
 * is below 1e-11.
 */
describe('non-deterministic filters are drawn per row', () => {
  it('rand() and randomUUID() in WHERE keep some rows and drop others', async () => {
    await withDb(async (db) => {
      await db.query('UNWIND range(1, 400) AS i CREATE (:P {i: i})');
      const cases: Array<[string, bigint]> = [
        ['MATCH (a:P) WHERE rand() < 0.5 RETURN count(*) AS n', 400n],
        ['MATCH (a:P) WHERE a.i > 0 AND rand() < 0.5 RETURN count(*) AS n', 400n],
        ['MATCH (a:P) WITH a WHERE rand() < 0.5 RETURN count(*) AS n', 400n],
        ['UNWIND range(1, 400) AS x WITH x WHERE rand() < 0.5 RETURN count(*) AS n', 400n],
        ["MATCH (a:P) WHERE randomUUID() STARTS WITH '0' RETURN count(*) AS n", 400n],
        ['MATCH (a:P), (b:P) WHERE a.i <= 100 AND b.i <= 100 AND rand() < 0.05 RETURN count(*) AS n', 10_000n],
      ];
      for (const [text, all] of cases) {
        for (let run = 0; run < 3; run++) {
          const n = (await db.query(text)).rows[0]?.[0] as bigint;
          expect(n > 0n && n < all, `${text}: ${n} of ${all}`).toBe(true);
        }
      }
    });
  });

  it('a CREATE under a rand() filter over pairs makes some pairs, not all or none', async () => {
    await withDb(async (db) => {
      await db.query('UNWIND range(1, 60) AS i CREATE (:Q {i: i})');
      await db.query('MATCH (a:Q), (b:Q) WHERE a.i < b.i AND rand() < 0.2 CREATE (a)-[:R]->(b)');
      const n = (await db.query('MATCH (:Q)-[r:R]->(:Q) RETURN count(r)')).rows[0]?.[0] as bigint;
      expect(n > 0n && n < 1770n, `${n} of 1770 pairs`).toBe(true);
    });
  });

  it('EXPLAIN keeps the rand() conjunct above the scans while the deterministic one sinks', async () => {
    await withDb(async (db) => {
      const plan = db.explain('MATCH (a:P), (b:P) WHERE a.i = 1 AND rand() < 0.5 RETURN count(*) AS n');
      const text = JSON.stringify(plan);
      const filterAt = text.indexOf('rand()');
      const scanAt = text.indexOf('(b:P)');
      expect(filterAt).toBeGreaterThanOrEqual(0);
      expect(scanAt).toBeGreaterThan(filterAt);
    });
  });
});
