import { describe, expect, it } from 'vitest';
import type { Value } from '../../../src/common/values/value.js';
import type { Db } from '../../../src/index.js';
import type { GraphReader } from '../../../src/projections/graph/view.js';
import { boundPicks } from '../../../src/query/execute/batch/scan-bounds.js';
import { QueryEngine, type ExecuteContext } from '../../../src/query/engine.js';
import { prng, testSeed } from '../../support/prng.js';
import { canonical, withDb } from '../engine/support.js';

/**
 * A batched scan picks its members by the bounds its filters put on the scanned node's properties (strings,
 * exact integers, floats, values of mixed kinds, absent values), beside conjuncts of other kinds, and gives the
 * rows, in order, that the row operators give; it does not pick when another conjunct could fail, so an error
 * the row path raises on a member a bound would drop is raised by both.
 */
async function load(db: Db, r: () => number): Promise<void> {
  const nodes: Value[] = [];
  for (let k = 0; k < 800; k++) {
    const p = new Map<string, Value>();
    if (r() < 0.9) p.set('name', `n${Math.floor(r() * 1000)}`);
    if (r() < 0.9) p.set('age', BigInt(Math.floor(r() * 80)));
    if (r() < 0.9) p.set('id', BigInt(k));
    if (r() < 0.9) p.set('x', r() < 0.5 ? (r() - 0.5) * 100 : r() < 0.5 ? BigInt(Math.floor(r() * 50)) : `s${Math.floor(r() * 9)}`);
    // 0 only where age < 10: `10 / z` fails on members `age >= 10` would drop.
    p.set('z', BigInt((p.get('age') as bigint | undefined) ?? 1n) < 10n && r() < 0.5 ? 0n : BigInt(1 + Math.floor(r() * 5)));
    nodes.push(p);
  }
  await db.query('UNWIND $n AS p CREATE (x:V) SET x = p', { n: nodes });
  await db.query('MATCH (a:V), (b:V) WHERE id(b) = (id(a) * 13 + 5) % 800 OR id(b) = (id(a) * 7 + 1) % 800 CREATE (a)-[:E]->(b)');
}

type Outcome = { readonly rows: string[] } | { readonly error: string };

function outcome(engine: QueryEngine, text: string, graph: GraphReader): Outcome {
  const ctx: ExecuteContext = { params: new Map<string, Value>([['lo', 'n3'], ['hi', 'n5'], ['min', 30n], ['none', null]]), memory_limit_bytes: 1 << 28, now_us: 0 };
  try {
    return { rows: canonical(engine.execute(engine.prepare(text), graph, ctx).rows, true) };
  } catch (e) {
    return { error: (e as { code?: string }).code ?? (e as Error).name };
  }
}

const PICKED = [
  "n.name >= 'n5' AND n.name < 'n6' AND n.age > 30",
  "n.name >= $lo AND n.name < $hi AND n.id % 10 = 3",
  'n.age > $min AND n.id < 400 AND n.x > 0',
  "n.x >= 'r' AND abs(n.age - 40) < 10",
  'n.x < 10 AND n.x > -10.5 AND n.id / 7 > 20',
  'n.age >= 25 AND n.age <= 27 AND toInteger(n.id / 3) % 2 = 0',
];

const NOT_PICKED = ['n.age >= 10 AND 10 / n.z > 1', "n.name < 'n2' AND toString(n.x) STARTS WITH 's'"];

describe('batched scans picked by bounds', () => {
  it('give the row operators\' rows, and raise what they raise', async () => {
    const seed = testSeed('scan-bounds');
    await withDb(async (db) => {
      await load(db, prng(seed));
      for (let k = 0; k < 3; k++) await db.query('MATCH (n:V)-[:E]->(m) RETURN count(*)');
      const graph = db.database.latestCommitted();
      const batched = new QueryEngine();
      const rows = new QueryEngine({ batched: false });
      const check = (where: string): void => {
        for (const text of [
          `MATCH (n:V)-[:E]->(m) WHERE ${where} RETURN n.id AS id, count(*) AS c ORDER BY id`,
          `MATCH (n:V)-[:E]->(m:V) WHERE ${where} AND m.age < 50 RETURN m.age AS a, count(*) AS c ORDER BY a`,
          `MATCH (n:V)-[:E]->(m) WHERE ${where} OR $none IS NULL AND false RETURN count(*) AS c`,
          // An inline equality on a column of mixed kinds, which no typed column answers: still checked per member.
          `MATCH (n:V {x: 's3'})-[:E]->(m) WHERE ${where} RETURN n.id AS id, count(*) AS c ORDER BY id`,
        ]) {
          expect(outcome(batched, text, graph), `seed ${seed}: ${text}`).toEqual(outcome(rows, text, graph));
        }
      };
      for (const where of PICKED) {
        const before = boundPicks.scans;
        check(where);
        expect(boundPicks.scans - before, where).toBeGreaterThanOrEqual(3);
      }
      for (const where of NOT_PICKED) {
        const before = boundPicks.scans;
        check(where);
        expect(boundPicks.scans - before, where).toBe(0);
      }
      const fails = `MATCH (n:V)-[:E]->(m) WHERE ${NOT_PICKED[0] as string} RETURN count(*) AS c`;
      // The comparison above held because both paths raised: the row path reaches a member with z = 0.
      expect('error' in outcome(rows, fails, graph)).toBe(true);
    });
  });
});
