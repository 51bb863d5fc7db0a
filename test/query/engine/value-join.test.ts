import { describe, expect, it } from 'vitest';
import type { Value } from '../../../src/common/values/value.js';
import { QueryEngine, type QueryResult } from '../../../src/query/engine.js';
import type { GraphReader } from '../../../src/projections/graph/view.js';
import { prng, testSeed } from '../../support/prng.js';
import { canonical, find, withDb } from './support.js';

/**
 * A MATCH tied to the rows before it only by equalities of values (`MATCH (q:P) WHERE q.k = k`) is
 * planned as a value hash join: its pattern runs once into a table probed by each row. Each query is run
 * on random graphs three ways: per row (joins never), joined wherever allowed (joins always), and as the
 * estimates choose; all must give the same rows in the same order. Keys mix INTEGERs, FLOATs equal to
 * them, INTEGERs beyond 2^53 and the FLOAT they round to, NaN, strings, lists (some holding null), nulls
 * and absent properties.
 */
const JOINED: readonly string[] = [
  'MATCH (p:P) WITH p.k AS k, max(p.a) AS top MATCH (q:P) WHERE q.k = k AND q.a = top RETURN k, count(*) AS n, min(id(q)) AS first ORDER BY n, first',
  'UNWIND $keys AS k MATCH (q:P) WHERE q.k = k RETURN k, id(q)',
  'UNWIND $keys AS k MATCH (q:P) WHERE k = q.k AND q.a > 1 RETURN k, id(q), q.a',
  'MATCH (a:P) WHERE a.a < 3 MATCH (q:P)-[:R]->(r) WHERE q.k = a.k AND r.a <> 0 RETURN id(a), id(q), id(r)',
  'MATCH (a:P) MATCH (q:P) WHERE q.k = a.k AND q.a = a.a RETURN id(a), id(q)',
  'MATCH (a:P) WITH a.k AS k, collect(a.a) AS xs MATCH (q:P) WHERE q.k = k RETURN k, size(xs), id(q)',
  // No input rows: nothing is built, nothing matches.
  'UNWIND [] AS k MATCH (q:P) WHERE q.k = k RETURN count(*)',
  'MATCH (a:P) WHERE a.a > 100 MATCH (q:P) WHERE q.k = a.k RETURN count(*)',
];

/** Queries that keep the per-row plan: OPTIONAL MATCH (its null row), a key computed from the row, an inline map reading the row. */
const PER_ROW: readonly string[] = [
  'MATCH (a:P) OPTIONAL MATCH (q:P) WHERE q.k = a.k RETURN id(a), id(q)',
  'MATCH (a:P) MATCH (q:P) WHERE q.k = coalesce(a.k, 0) RETURN id(a), id(q)',
  'MATCH (a:P) MATCH (q:P {k: a.k}) RETURN id(a), id(q)',
];

/** Property values (a stored list cannot hold null), and the looked-up keys, which also hold null and [null]. */
const PROPERTY_KEYS: readonly Value[] = [1n, 1, 1.5, 2n, 'x', '1', [1n], [1], true, 2n ** 53n + 1n, 2 ** 53];
const KEYS: readonly Value[] = [...PROPERTY_KEYS, null, [null], 1n, 'x', Number.NaN, 2n ** 53n];

/** A key property's value; undefined: the node has none. */
function randomKey(r: () => number): Value | undefined {
  const x = r();
  if (x < 0.1) return undefined;
  return PROPERTY_KEYS[Math.floor(r() * PROPERTY_KEYS.length)] as Value;
}

function run(engine: QueryEngine, text: string, graph: GraphReader): QueryResult | string {
  try {
    return engine.execute(engine.prepare(text), graph, { params: new Map([['keys', KEYS]]), memory_limit_bytes: 64 * 1024 * 1024, now_us: 0 });
  } catch (e) {
    return `error: ${(e as Error).message}`;
  }
}

const never = new QueryEngine({ join_policy: 'never' });
const always = new QueryEngine({ join_policy: 'always' });
const cost = new QueryEngine();

describe('a MATCH joined to earlier rows by values', () => {
  it('answers as the per-row plan does on random graphs, rows and order', async () => {
    const seed = testSeed('value-join');
    const r = prng(seed);
    for (let graphNo = 0; graphNo < 3; graphNo++) {
      await withDb(async (db) => {
        const rows: Value[] = [];
        for (let i = 0; i < 60 + graphNo * 40; i++) {
          const m = new Map<string, Value>([['a', BigInt(Math.floor(r() * 5))]]);
          const k = randomKey(r);
          if (k !== undefined) m.set('k', k);
          rows.push(m);
        }
        await db.query('UNWIND $rows AS row CREATE (n:P) SET n = row', { rows });
        await db.query('MATCH (a:P), (b:P) WHERE rand() < 0.05 CREATE (a)-[:R]->(b)');
        const graph = db.database.latestCommitted();
        let withRows = 0;
        for (const text of [...JOINED, ...PER_ROW]) {
          const context = `seed ${seed}, graph ${graphNo}: ${text}`;
          const expected = run(never, text, graph);
          if (typeof expected === 'string') throw new Error(`${context}: ${expected}`);
          if (expected.rows.length > 0) withRows++;
          const want = canonical(expected.rows, true);
          expect(canonical((run(always, text, graph) as QueryResult).rows, true), context).toEqual(want);
          expect(canonical((run(cost, text, graph) as QueryResult).rows, true), context).toEqual(want);
        }
        // Queries that find nothing would compare empty answers only.
        expect(withRows).toBeGreaterThan(JOINED.length);
        for (const text of JOINED) expect(find(always.explain(text, graph), 'ValueHashJoin'), text).toBeDefined();
        for (const text of PER_ROW) expect(find(always.explain(text, graph), 'ValueHashJoin'), text).toBeUndefined();
      });
    }
  });

  it('is chosen by the estimates for many input rows, and an index seek per row is kept when cheaper', async () => {
    await withDb(async (db) => {
      await db.query('UNWIND range(1, 300) AS i CREATE (:P {uid: i, city: i % 7, age: i % 50})');
      const oldest = 'MATCH (p:P) WITH p.city AS city, max(p.age) AS oldest MATCH (q:P) WHERE q.city = city AND q.age = oldest RETURN city, count(*) AS n, min(q.uid) AS first ORDER BY city';
      const join = find(db.explain(oldest), 'ValueHashJoin');
      expect(join?.details['keys']).toBe('city = q.city, oldest = q.age');
      const answer = (await db.query(oldest)).rows;
      expect(answer).toEqual([0n, 1n, 2n, 3n, 4n, 5n, 6n].map((c) => [c, expect.any(BigInt), expect.any(BigInt)]));
      expect(answer.map((row) => row[1])).toEqual([1n, 1n, 1n, 1n, 1n, 1n, 1n]);
      // Ten looked-up uids: without an index a table of the label beats ten label scans...
      const lookup = 'UNWIND $uids AS u MATCH (q:P) WHERE q.uid = u RETURN q.age';
      expect(find(db.explain(lookup), 'ValueHashJoin')).toBeDefined();
      const uids = [3n, 4n, 5n, 6n, 7n, 8n, 9n, 10n, 11n, 12n];
      expect((await db.query(lookup, { uids })).rows).toEqual(uids.map((u) => [u % 50n]));
      // ... and with one, ten seeks beat reading the label.
      await db.query('CREATE INDEX p_uid FOR (n:P) ON (n.uid)');
      const seek = 'UNWIND $uids AS u MATCH (q:P) WHERE q.uid = u RETURN q.age, u';
      expect(find(db.explain(seek), 'ValueHashJoin')).toBeUndefined();
      expect(find(db.explain(seek), 'NodeIndexSeek')).toBeDefined();
      expect((await db.query(seek, { uids })).rows).toEqual(uids.map((u) => [u % 50n, u]));
      // The plan cached for the first text was made while the index was absent: it is made again.
      expect(find(db.explain(lookup), 'ValueHashJoin')).toBeUndefined();
      expect((await db.query(lookup, { uids })).rows).toEqual(uids.map((u) => [u % 50n]));
      // In a write the table is filled once through the write set, before the barrier ahead of the CREATE:
      // 18 persons of uid 1..20 in a city of 43, two (uid 7 and 14) in city 0, of 42.
      const write = 'MATCH (a:P) WHERE a.uid <= 20 MATCH (b:P) WHERE b.city = a.city CREATE (:P {uid: 1000 + a.uid, city: a.city}) RETURN count(*)';
      expect(find(db.explain(write), 'ValueHashJoin')).toBeDefined();
      expect((await db.query(write)).rows).toEqual([[18n * 43n + 2n * 42n]]);
      expect((await db.query('MATCH (p:P) WHERE p.uid > 1000 RETURN count(*)')).rows).toEqual([[18n * 43n + 2n * 42n]]);
    });
  });
});
