import { describe, expect, it } from 'vitest';
import type { Value } from '../../../src/common/values/value.js';
import { prng, testSeed } from '../../support/prng.js';
import { canonical, withDb } from './support.js';

/**
 * An aggregation or a top-k straight over a label scan runs as one loop over the label's kept list,
 * reading properties from its columns, once the store keeps that list; before that it runs row at a
 * time. A write to the label drops its list; after it, the label's first read walks its records, the
 * second makes the list, and the third reads it. So each query below runs after a write that leaves
 * the data as it was, is answered by both paths, and the answers must be the same, in the same order.
 * The values mix types, absent properties and several labels per node.
 */
const QUERIES: readonly string[] = [
  'MATCH (n:P) RETURN n.k AS k, count(*) AS c, sum(n.i) AS s, min(n.x) AS lo, max(n.x) AS hi',
  'MATCH (n:P) RETURN n.k AS k, avg(n.i) AS a, collect(n.s) AS xs, count(DISTINCT n.x) AS d',
  'MATCH (n:P) RETURN count(*), count(n.i), count(n.x), sum(n.f), avg(n.f)',
  'MATCH (n:P) WHERE n.i > 3 AND n.k <> \'b\' RETURN count(*), sum(n.i)',
  'MATCH (n:P {k: \'a\'}) RETURN count(*), collect(n.i)',
  'MATCH (n:P {i: 4}) WHERE n.f IS NOT NULL RETURN n.k, count(*)',
  'MATCH (n:P) WHERE n:Q RETURN n.k, count(*)',
  'MATCH (n:P) RETURN labels(n) AS l, count(*) AS c',
  'MATCH (n:P) RETURN n.i % 3 AS m, size(keys(n)) AS ks, count(*)',
  'MATCH (n:P) RETURN n {.k, .i} AS m, count(*)',
  'MATCH (n:P) RETURN n.x AS x, count(*)',
  'MATCH (n:P) RETURN n.i, n.s ORDER BY n.i DESC, n.s LIMIT 7',
  'MATCH (n:P) RETURN n.x ORDER BY n.x LIMIT 5',
  'MATCH (n:P) RETURN n.s, id(n) ORDER BY n.f, id(n) DESC SKIP 2 LIMIT 4',
  'MATCH (n:P) WHERE n.i >= 2 RETURN n ORDER BY n.i, n.s LIMIT 3',
  'MATCH (n:P {k: \'c\'}) RETURN n.i + n.f AS y ORDER BY y DESC LIMIT 3',
  'MATCH (n:P) RETURN n.k AS k, count(*) AS c ORDER BY c DESC, k LIMIT 2',
  // `r` is an INTEGER on every node: a top-k drops rows by its doubles first.
  'MATCH (n:P) RETURN n.r, n.s ORDER BY n.r DESC, n.s LIMIT 9',
  'MATCH (n:P) RETURN n.r, id(n) ORDER BY n.r, id(n) DESC SKIP 3 LIMIT 6',
  'MATCH (n:P) WHERE n.k = \'a\' RETURN n.r, n.s ORDER BY n.r DESC, n.s LIMIT 2',
  // Bounds of INTEGERs on every node by constants: the candidates of the top-k are chosen among the nodes that pass.
  'MATCH (n:P) WHERE n.r >= -4 AND n.r < 6 RETURN n.r, n.s ORDER BY n.r DESC, n.s SKIP 2 LIMIT 5',
  'MATCH (n:P) WHERE 2.5 > n.r AND n.z = 3 RETURN n.r, id(n) ORDER BY n.r, id(n) LIMIT 4',
  'MATCH (n:P) WHERE n.z <= 2 RETURN n.r ORDER BY n.r LIMIT 3',
  "MATCH (n:P) WHERE n.r > 'a' RETURN n.r ORDER BY n.r LIMIT 3",
  'MATCH (n:P) WHERE n.r = 7 OR n.r = -7 RETURN n.r, n.s ORDER BY n.r DESC, n.s LIMIT 3',
  // sum and avg of an INTEGER on every node add its doubles.
  'MATCH (n:P) RETURN n.k AS k, sum(n.r) AS s, avg(n.r) AS a, count(n.r) AS c',
  'MATCH (n:P) WHERE n.r > 0 RETURN avg(n.r), sum(n.r + 1), sum(DISTINCT n.r), avg(n.z)',
  // `z` is the same on every node: every row ties with the k-th on the first key.
  'MATCH (n:P) RETURN n.s, n.r ORDER BY n.z, n.s, n.r DESC LIMIT 5',
];

function randomValue(r: () => number): Value {
  const x = r();
  if (x < 0.4) return BigInt(Math.floor(r() * 6));
  if (x < 0.6) return Math.floor(r() * 60) / 10;
  if (x < 0.8) return ['a', 'b', 'c', ''][Math.floor(r() * 4)] as string;
  if (x < 0.9) return r() < 0.5;
  return [BigInt(Math.floor(r() * 3))];
}

describe('fused scans over kept label lists', () => {
  it('answer every query as the row-at-a-time plan does, through writes that drop the list', async () => {
    const seed = testSeed('fused-scans');
    const r = prng(seed);
    await withDb(async (db) => {
      const store = db.database.sm.graph;
      const rows: Value[] = [];
      const nodes = 300;
      for (let i = 0; i < nodes; i++) {
        const m = new Map<string, Value>();
        if (r() < 0.9) m.set('k', ['a', 'b', 'c'][Math.floor(r() * 3)] as string);
        if (r() < 0.85) m.set('i', BigInt(Math.floor(r() * 8)));
        if (r() < 0.7) m.set('f', Math.floor(r() * 100) / 8);
        if (r() < 0.8) m.set('s', `s${Math.floor(r() * 20)}`);
        if (r() < 0.8) m.set('x', randomValue(r));
        m.set('q', r() < 0.3);
        m.set('r', BigInt(Math.floor(r() * 21)) - 10n);
        m.set('z', 3n);
        rows.push(m);
      }
      await db.query('UNWIND $rows AS row CREATE (n:P) SET n = row WITH n WHERE n.q REMOVE n.q SET n:Q', { rows });
      const kept = (): boolean => store.keptMembers('P', db.database.latestCommitted().read_index) !== undefined;
      for (let round = 0; round < 4; round++) {
        for (const q of QUERIES) {
          const context = `seed ${seed}, round ${round}: ${q}`;
          const ordered = q.includes('ORDER BY');
          // A node of the label made, then deleted: writes to the label that leave nothing visible.
          await db.query('CREATE (:P:Temporary)');
          await db.query('MATCH (x:Temporary) DELETE x');
          expect(kept(), context).toBe(false);
          const rowAtATime = canonical((await db.query(q)).rows, ordered);
          expect(canonical((await db.query(q)).rows, ordered), context).toEqual(rowAtATime);
          expect(kept(), context).toBe(true);
          expect(canonical((await db.query(q)).rows, ordered), context).toEqual(rowAtATime);
        }
        // A write to the label drops its list: the next reads walk the records again.
        const id = BigInt(1 + Math.floor(r() * nodes));
        await db.query('MATCH (n) WHERE id(n) = $id SET n.i = $i, n.k = $k', { id, i: BigInt(Math.floor(r() * 8)), k: ['a', 'b', 'z'][Math.floor(r() * 3)] as string });
      }
    });
  });

  it('a statement that writes reads row at a time, and sees its own writes', async () => {
    await withDb(async (db) => {
      await db.query('UNWIND range(1, 50) AS i CREATE (:P {i: i % 5})');
      for (let k = 0; k < 3; k++) await db.query('MATCH (n:P) RETURN n.i, count(*)');
      const out = await db.query('MATCH (n:P) WHERE n.i = 0 SET n.i = 10 WITH count(*) AS moved MATCH (m:P) RETURN moved, m.i AS i, count(*) AS c ORDER BY i');
      expect(out.rows).toEqual([
        [10n, 1n, 10n],
        [10n, 2n, 10n],
        [10n, 3n, 10n],
        [10n, 4n, 10n],
        [10n, 10n, 10n],
      ]);
    });
  });
});
