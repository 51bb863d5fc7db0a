import { describe, expect, it } from 'vitest';
import type { Value } from '../../../src/common/values/value.js';
import { foldedRuns } from '../../../src/query/execute/batch/end-filters.js';
import { perValueTables } from '../../../src/query/execute/batch/per-value.js';
import { QueryEngine } from '../../../src/query/engine.js';
import { prng, testSeed } from '../../support/prng.js';
import { outcome, withDb } from '../engine/support.js';

/**
 * String predicates over a dictionary-coded column, decided once per distinct string (per-value tables) in a
 * scan and on either end of an expand (folded into it on the far end), answer as the row evaluator does on every
 * row: empty strings, case, composed and decomposed accents, characters past the Basic Multilingual Plane,
 * nodes without the property, and parameters that are null, empty, or of another kind.
 */
const CITIES = ['', 'abc', 'ABC', 'Abc7', 'é7', 'e\u03017', 'Ünïcødé', '😀city', 'city😀', 'a.c', 'zz7', 'x'];

const PREDICATES = [
  "c.city STARTS WITH ''",
  "c.city STARTS WITH 'a'",
  'c.city STARTS WITH $p',
  "c.city ENDS WITH '7'",
  "c.city ENDS WITH ''",
  'c.city ENDS WITH $p',
  "c.city CONTAINS 'b'",
  "c.city CONTAINS '😀'",
  "c.city CONTAINS 'é'",
  'c.city CONTAINS $p',
  "c.city =~ '(?i)abc.*'",
  "c.city =~ 'a.c'",
  "c.city =~ ''",
  "c.city IN ['abc', '', null]",
  'c.city IN $list',
  "NOT c.city STARTS WITH 'a'",
  "c.city STARTS WITH 'a' OR c.city ENDS WITH '7'",
];

const PARAMS: readonly (readonly [string, Value])[] = [
  ['p', 'a'],
  ['p', ''],
  ['p', null],
  ['p', 7n],
  ['p', '😀'],
];

describe('string predicates decided once per distinct string', () => {
  it('answer as the row path in a scan and on either end of an expand', async () => {
    const seed = testSeed('string-predicates');
    const r = prng(seed);
    await withDb(async (db) => {
      const people: Value[] = Array.from({ length: 400 }, (_, i) => {
        const p = new Map<string, Value>([['id', BigInt(i)], ['age', BigInt(Math.floor(r() * 5))]]);
        if (r() < 0.85) p.set('city', CITIES[Math.floor(r() * CITIES.length)] as string);
        return p;
      });
      await db.query('UNWIND $ps AS p CREATE (x:P) SET x = p', { ps: people });
      const edges: Value[] = Array.from({ length: 3000 }, () => [BigInt(Math.floor(r() * 400)), BigInt(Math.floor(r() * 400))]);
      await db.query('UNWIND $e AS e MATCH (a:P {id: e[0]}), (b:P {id: e[1]}) CREATE (a)-[:K]->(b)', { e: edges });
      const shapes = (predicate: string): string[] => [
        `MATCH (c:P) WHERE ${predicate} RETURN c.age AS age, count(*) AS n`,
        `MATCH (a:P)-[:K]->(c:P) WHERE ${predicate} RETURN a.age AS age, count(*) AS n`,
        `MATCH (c:P)-[:K]->(b:P) WHERE ${predicate} RETURN b.age AS age, count(*) AS n`,
      ];
      const texts = PREDICATES.flatMap(shapes);
      const paramSets = PARAMS.map(([k, v]) => new Map<string, Value>([[k, v], ['list', ['abc', null, 'ABC']]]));
      // Repeated runs build the forms a batched run reads.
      for (let k = 0; k < 6; k++) for (const t of texts) await db.query(t, { p: 'a', list: ['abc'] }).catch(() => undefined);
      const batched = new QueryEngine();
      const rows = new QueryEngine({ batched: false });
      const graph = db.database.latestCommitted();
      const tables = perValueTables.one;
      const folded = foldedRuns.count;
      for (const text of texts) {
        for (const params of paramSets) {
          const want = outcome(rows, text, graph, params);
          expect(outcome(batched, text, graph, params), `seed ${seed}: ${text} with ${String([...params.values()][0])}`).toEqual(want);
        }
      }
      // The per-value path was taken, and the far end's predicates were folded into the expand.
      expect(perValueTables.one).toBeGreaterThan(tables);
      expect(foldedRuns.count - folded).toBeGreaterThanOrEqual(PREDICATES.length);
    });
  });
});
