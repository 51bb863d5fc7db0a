import { describe, expect, it } from 'vitest';
import { prng, testSeed } from '../../support/prng.js';
import { withDb } from './support.js';

/**
 * Scans of an unchanged label read a kept list of its nodes, and property reads over it come from
 * columns of that list. Through random writes between the reads, every answer must be what the
 * model holds, including scans nested in scans of the same label (where the node a property is
 * read from is not the one the inner scan produced last).
 */
describe('scans over kept label lists', () => {
  it('answer like the model through writes, repeated reads and nested scans', async () => {
    const seed = testSeed('scan-columns');
    const r = prng(seed);
    await withDb(async (db) => {
      /** The model: node id -> v, for nodes labelled P. */
      const model = new Map<bigint, bigint>();
      const create = async (): Promise<void> => {
        const rows = (await db.query('UNWIND range(1, 40) AS i CREATE (n:P {v: i % 7}) RETURN id(n), n.v')).rows;
        for (const [id, v] of rows) model.set(id as bigint, v as bigint);
      };
      await create();
      for (let step = 0; step < 30; step++) {
        const x = r();
        const ids = [...model.keys()];
        const id = ids[Math.floor(r() * ids.length)]!;
        if (x < 0.3) {
          const v = BigInt(Math.floor(r() * 7));
          await db.query('MATCH (n) WHERE id(n) = $id SET n.v = $v', { id, v });
          model.set(id, v);
        } else if (x < 0.45) {
          await db.query('MATCH (n) WHERE id(n) = $id REMOVE n:P', { id });
          model.delete(id);
        } else if (x < 0.6) {
          await db.query('MATCH (n) WHERE id(n) = $id DETACH DELETE n', { id });
          model.delete(id);
        } else if (x < 0.7) {
          await create();
        }
        const sums = new Map<bigint, bigint>();
        for (const v of model.values()) sums.set(v, (sums.get(v) ?? 0n) + 1n);
        const expectedGroups = [...sums].sort((a, b) => Number(a[0] - b[0]));
        const pairs = [...sums.values()].reduce((n, c) => n + c * c, 0n);
        const total = [...model.values()].reduce((a, b) => a + b, 0n);
        // Read several times: the first walks the records, the second keeps a list, later ones read columns.
        for (let k = 0; k < 3; k++) {
          const context = `seed ${seed}, step ${step}, read ${k}`;
          expect((await db.query('MATCH (n:P) RETURN n.v AS v, count(*) AS c ORDER BY v')).rows, context).toEqual(expectedGroups);
          expect((await db.query('MATCH (n:P) RETURN sum(n.v)')).rows, context).toEqual([[total]]);
          expect((await db.query('MATCH (a:P), (b:P) WHERE a.v = b.v RETURN count(*)')).rows, context).toEqual([[pairs]]);
          // a.v is read after the inner scan produced b, so it must not come from b's place in a column.
          const n = BigInt(model.size);
          expect((await db.query('MATCH (a:P), (b:P) RETURN sum(a.v * b.v + a.v)')).rows, context).toEqual([[total * total + n * total]]);
          const top = [...model].sort((a, b) => Number(b[1] - a[1]) || Number(a[0] - b[0])).slice(0, 3).map(([i, v]) => [v, i]);
          expect((await db.query('MATCH (n:P) RETURN n.v, id(n) ORDER BY n.v DESC, id(n) LIMIT 3')).rows, context).toEqual(top);
        }
      }
    });
  });
});
