import { describe, expect, it } from 'vitest';
import type { Value } from '../../../src/common/values/value.js';
import { prng, testSeed } from '../../support/prng.js';
import { canonical, find, withDb } from './support.js';

/**
 * A label scan under a comparison, STARTS WITH or IN of one property seeks a B-tree index of that
 * property when there is one; the filter above still checks every row. Each query must answer the
 * same with the index as without it, over values of every type, in reads and in writes (where the
 * statement's own changes are in no index), and EXPLAIN must name the seek.
 */
const CASES: readonly { readonly query: string; readonly params?: Record<string, Value>; readonly operator: string }[] = [
  { query: 'MATCH (n:P) WHERE n.v > 3 RETURN n.id', operator: 'NodeIndexSeekByRange' },
  { query: 'MATCH (n:P) WHERE n.v >= 3 AND n.v < 7.5 RETURN n.id', operator: 'NodeIndexSeekByRange' },
  { query: 'MATCH (n:P) WHERE 2 < n.v AND 6 >= n.v RETURN n.id', operator: 'NodeIndexSeekByRange' },
  { query: 'MATCH (n:P) WHERE n.v <= $hi RETURN n.id', params: { hi: 4n }, operator: 'NodeIndexSeekByRange' },
  { query: 'MATCH (n:P) WHERE n.v > $lo RETURN n.id', params: { lo: null }, operator: 'NodeIndexSeekByRange' },
  { query: "MATCH (n:P) WHERE n.v >= 'b' RETURN n.id", operator: 'NodeIndexSeekByRange' },
  { query: 'MATCH (n:P) WHERE n.v < 0.0 / 0.0 RETURN n.id', operator: 'NodeIndexSeekByRange' },
  { query: "MATCH (n:P) WHERE n.v STARTS WITH 'a' RETURN n.id", operator: 'NodeIndexSeekByPrefix' },
  { query: 'MATCH (n:P) WHERE n.v STARTS WITH $p RETURN n.id', params: { p: '' }, operator: 'NodeIndexSeekByPrefix' },
  { query: 'MATCH (n:P) WHERE n.v STARTS WITH 1 RETURN n.id', operator: 'NodeIndexSeekByPrefix' },
  { query: "MATCH (n:P) WHERE n.v IN [1, 2.0, 'ab', null, 1] RETURN n.id", operator: 'NodeIndexSeekByList' },
  { query: 'MATCH (n:P) WHERE n.v IN $xs RETURN n.id', params: { xs: [3n, true, [1n, 2n]] }, operator: 'NodeIndexSeekByList' },
  { query: 'MATCH (n:P) WHERE n.v IN null RETURN n.id', operator: 'NodeIndexSeekByList' },
  { query: 'MATCH (n:P) WHERE n.v > 2 AND n.w = 1 RETURN n.id', operator: 'NodeIndexSeekByRange' },
  { query: 'MATCH (n:P) WHERE n.v > 2 RETURN count(*), sum(n.id)', operator: 'NodeIndexSeekByRange' },
  { query: 'MATCH (n:P) WHERE n.v > 1 RETURN n.id ORDER BY n.v DESC, n.id LIMIT 4', operator: 'NodeIndexSeekByRange' },
  { query: 'MATCH (n:P {w: 1}) RETURN n.id', operator: 'NodeByLabelScan' },
  { query: 'MATCH (n:P {v: 3}) WHERE n.v > 1 RETURN n.id', operator: 'NodeIndexSeek' },
];

function randomValue(r: () => number): Value | undefined {
  const x = r();
  if (x < 0.1) return undefined;
  if (x < 0.45) return BigInt(Math.floor(r() * 10));
  if (x < 0.65) return Math.floor(r() * 90) / 10;
  if (x < 0.85) return ['', 'a', 'ab', 'abc', 'b', 'ba'][Math.floor(r() * 6)] as string;
  if (x < 0.92) return r() < 0.5;
  return [BigInt(Math.floor(r() * 3)), 2n];
}

async function answers(run: (q: string, p: Record<string, Value>) => Promise<readonly (readonly Value[])[]>): Promise<string[][]> {
  const out: string[][] = [];
  for (const c of CASES) out.push(canonical(await run(c.query, c.params ?? {}), c.query.includes('ORDER BY')));
  return out;
}

describe('index seeks for comparisons, STARTS WITH and IN', () => {
  it('answer every query as the label scan does, on reads and inside writes', async () => {
    const seed = testSeed('index-seeks');
    const r = prng(seed);
    await withDb(async (db) => {
      const rows: Value[] = [];
      for (let i = 0; i < 300; i++) {
        const m = new Map<string, Value>([['id', BigInt(i)], ['w', BigInt(i % 3)]]);
        const v = randomValue(r);
        if (v !== undefined) m.set('v', v);
        rows.push(m);
      }
      await db.query('UNWIND $rows AS row CREATE (n:P) SET n = row', { rows });
      await db.query('UNWIND range(1, 20) AS i CREATE (:Q {v: i})');
      const read = (q: string, p: Record<string, Value>) => db.query(q, p).then((x) => x.rows);
      // In a write statement, after changes of its own: a node created, one moved into range, one out.
      const before = (await db.query('MATCH (n:P) WHERE n.id IN [1, 2] RETURN n.v ORDER BY n.id')).rows.map((row) => row[0] as Value);
      // The query after changes of its own statement: a node created, one moved into range, one out of it;
      // then the changes are undone, so every statement starts from the same state.
      const write = async (q: string, p: Record<string, Value>): Promise<readonly (readonly Value[])[]> => {
        const out = await db.query(`MATCH (a:P {id: 1}) SET a.v = 5 WITH count(*) AS c1 MATCH (b:P {id: 2}) REMOVE b.v WITH count(*) AS c2 CREATE (:P {id: 1000, v: 4, w: 1}) WITH 1 AS one ${q}`, p);
        await db.query('MATCH (n:P {id: 1000}) DELETE n');
        await db.query('MATCH (a:P {id: 1}), (b:P {id: 2}) SET a.v = $a, b.v = $b', { a: before[0] ?? null, b: before[1] ?? null });
        return out.rows;
      };
      const scanned = await answers(read);
      const scannedInWrite: string[][] = [];
      for (const c of CASES) scannedInWrite.push(canonical(await write(c.query, c.params ?? {}), c.query.includes('ORDER BY')));
      expect(await answers(read)).toEqual(scanned);
      for (const c of CASES) expect(find(db.explain(c.query), 'NodeIndexSeekByRange'), c.query).toBeUndefined();

      await db.query('CREATE INDEX p_v FOR (n:P) ON (n.v)');
      for (const c of CASES) {
        const plan = db.explain(c.query);
        expect(find(plan, c.operator), `${c.query}\n${plan.details['explain']}`).toBeDefined();
      }
      const sought = await answers(read);
      CASES.forEach((c, i) => expect(sought[i], `seed ${seed}: ${c.query}`).toEqual(scanned[i]));
      for (let i = 0; i < CASES.length; i++) {
        const c = CASES[i]!;
        expect(canonical(await write(c.query, c.params ?? {}), c.query.includes('ORDER BY')), `seed ${seed}, in a write: ${c.query}`).toEqual(scannedInWrite[i]);
      }
    });
  });

  it('without an index of the property, the filter judges every node, raising what it raises', async () => {
    await withDb(async (db) => {
      await db.query('UNWIND range(1, 5) AS i CREATE (:P {v: i})');
      // The null bound keeps no row, but the filter still meets the IN over an INTEGER on each node.
      await expect(db.query('MATCH (n:P) WHERE n.v > $lo AND n.v IN $xs RETURN n', { lo: null, xs: 5n })).rejects.toMatchObject({ type: 'TypeError', detail: 'InvalidArgumentType' });
    });
  });

  it('IN over something that is not a list fails as it does without the index', async () => {
    await withDb(async (db) => {
      await db.query('UNWIND range(1, 5) AS i CREATE (:P {v: i})');
      const without = await db.query('MATCH (n:P) WHERE n.v IN 3 RETURN n').catch((e: unknown) => e);
      await db.query('CREATE INDEX p_v FOR (n:P) ON (n.v)');
      const with_ = await db.query('MATCH (n:P) WHERE n.v IN 3 RETURN n').catch((e: unknown) => e);
      expect(without).toBeInstanceOf(Error);
      expect(with_).toEqual(without);
    });
  });

  it('a scoped UNIQUE index answers no predicate on its property alone: it holds only what its scope admits', async () => {
    await withDb(async (db) => {
      await db.query("UNWIND range(1, 12) AS i CREATE (:Acct {handle: 'h' + toString(i), status: CASE WHEN i % 2 = 0 THEN 'active' ELSE 'closed' END})");
      await db.query("CREATE (:Acct {handle: 'h2', status: 'closed'})");
      await db.query("CREATE UNIQUE INDEX active_handle ON Acct(handle) WHERE status = 'active'");
      for (const [query, count] of [
        ["MATCH (a:Acct {handle: 'h2'}) RETURN count(*)", 2n],
        ["MATCH (a:Acct) WHERE a.handle >= 'h2' RETURN count(*)", 9n],
        ["MATCH (a:Acct) WHERE a.handle IN ['h1', 'h2'] RETURN count(*)", 3n],
      ] as const) {
        expect((await db.query(query)).rows, query).toEqual([[count]]);
        expect(find(db.explain(query), 'NodeByLabelScan'), query).toBeDefined();
      }
    });
  });
});
