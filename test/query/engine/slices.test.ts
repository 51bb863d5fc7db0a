import { describe, expect, it } from 'vitest';
import { WeftError } from '../../../src/common/errors.js';
import type { Value } from '../../../src/common/values/value.js';
import type { GraphReader } from '../../../src/projections/graph/view.js';
import { QueryEngine, type ExecuteContext, type QueryResult } from '../../../src/query/engine.js';
import { prng, testSeed } from '../../support/prng.js';
import { canonical, withDb } from './support.js';

/**
 * Time slices: a read run by `executeSliced` pauses for the event loop and resumes where it stopped.
 * Pausing at every row (a clock read per row and slices of 0 ms) must change nothing about the
 * answer: the same rows in the same order, or the same error, as the statement run in one go.
 */
const NODES = 40;
const RELATIONSHIPS = 120;
const ROUNDS = 4;

const QUERIES = [
  'MATCH (a) RETURN a.uid AS u',
  'MATCH (a:A) RETURN a.uid AS u, a.p AS p',
  'MATCH (a)-[:R]->(b) RETURN a.uid AS a, b.uid AS b',
  'MATCH (a)-[r]-(b) RETURN a.uid, type(r), b.uid',
  'MATCH (a:A)-[:R|S*1..3]->(b) RETURN a.uid, b.uid',
  'MATCH (a)-[*0..2]-(b:B) WHERE a.p = $p RETURN a.uid, b.uid',
  'MATCH (a:A), (b:B) WHERE a.p = b.p RETURN a.uid, b.uid',
  'MATCH (a:A) MATCH (b:B) WHERE b.p = a.p AND b.q = a.q RETURN a.uid, b.uid',
  'MATCH (a)-[:R]->(m)<-[:S]-(b) RETURN a.uid, m.uid, b.uid',
  'MATCH (a) OPTIONAL MATCH (a)-[:S]->(b) RETURN a.uid, b.uid',
  'MATCH (a)-->(b) RETURN a.p AS p, count(*) AS c, collect(b.uid) AS bs',
  'MATCH (a)-->(b) RETURN DISTINCT b.p AS p',
  'MATCH (a)-->(b) RETURN a.uid AS a, b.uid AS b ORDER BY b DESC, a SKIP 3 LIMIT 20',
  'MATCH (a)-->(b) WITH a, count(b) AS d WHERE d > 1 RETURN a.uid, d ORDER BY d DESC, a.uid',
  'MATCH (a)-->(b) RETURN a.uid LIMIT 7',
  'UNWIND range(1, 30) AS x UNWIND range(1, x) AS y RETURN x, y',
  'UNWIND range(1, 40) AS x MATCH (a {p: x % 4}) RETURN x, a.uid',
  'MATCH (a:A) RETURN a.uid AS u UNION MATCH (b:B) RETURN b.uid AS u',
  'MATCH (a:A) RETURN a.uid AS u UNION ALL MATCH (a)-->(b:C) RETURN b.uid AS u',
  'MATCH (a) WHERE exists { (a)-[:R]->(:B) } RETURN a.uid',
  'MATCH (a) RETURN a.uid, [(a)-->(b) | b.uid] AS out',
  'MATCH (a), (b) WHERE id(a) = $x AND id(b) = $y MATCH p = shortestPath((a)-[*..6]-(b)) RETURN length(p)',
  'MATCH (a), (b) WHERE a.uid < 5 AND b.uid < 5 MATCH p = allShortestPaths((a)-[*..6]->(b)) RETURN a.uid, b.uid, length(p)',
  'MATCH (a) WHERE id(a) IN [$x, $y, $x] MATCH (a)-->(b) RETURN a.uid, b.uid',
  'MATCH (a)-->(b) WITH a, b ORDER BY b.uid LIMIT 30 MATCH (b)-->(c) RETURN a.uid, b.uid, c.uid',
  'MATCH (a:A) RETURN a.p AS p, avg(a.q) AS q ORDER BY p',
  'MATCH (a:B) RETURN a.uid ORDER BY a.q DESC, a.uid LIMIT 5',
  'MATCH (a:C) WHERE a.q > 3 RETURN count(*)',
  'MATCH (a)-->(b) RETURN a.uid, b.q / (b.p - 1) AS boom',
  'CALL db.labels() YIELD label RETURN label',
];

const context = (params: ReadonlyMap<string, Value>, sliced: boolean): ExecuteContext => ({
  params,
  memory_limit_bytes: 256 * 1024 * 1024,
  now_us: 0,
  ...(sliced ? { slice_ms: 0, clock_check_rows: 1 } : {}),
});

const shape = (x: QueryResult | string): unknown => (typeof x === 'string' ? x : canonical(x.rows, true));

async function answer(engine: QueryEngine, text: string, graph: GraphReader, params: ReadonlyMap<string, Value>, sliced: boolean): Promise<QueryResult | string> {
  try {
    const prepared = engine.prepare(text);
    return sliced ? await engine.executeSliced(prepared, graph, context(params, true)) : engine.execute(prepared, graph, context(params, false));
  } catch (e) {
    return `error: ${(e as Error).message}`;
  }
}

/** A generator-free way to tell whether a statement gave the event loop back: count the turns that ran meanwhile. */
function turnCounter(): { readonly turns: () => number; stop(): void } {
  let turns = 0;
  let stopped = false;
  const again = (): void => {
    if (stopped) return;
    turns++;
    setImmediate(again);
  };
  setImmediate(again);
  return { turns: () => turns, stop: () => void (stopped = true) };
}

describe('time slices', () => {
  it('queries paused at every row answer the same rows in the same order as when run in one go', async () => {
    const seed = testSeed('slices');
    const r = prng(seed);
    await withDb(async (db) => {
      const ids: bigint[] = [];
      for (let i = 0; i < NODES; i++) {
        const labels = ['A', 'B', 'C'].filter(() => r() < 0.4).map((l) => `:${l}`).join('');
        const res = await db.query(`CREATE (n${labels} {uid: $uid, p: $p, q: $q}) RETURN id(n)`, {
          uid: BigInt(i),
          p: BigInt(Math.floor(r() * 4)),
          q: BigInt(Math.floor(r() * 10)),
        });
        ids.push(res.rows[0]![0] as bigint);
      }
      for (let i = 0; i < RELATIONSHIPS; i++) {
        const type = r() < 0.6 ? 'R' : 'S';
        await db.query(`MATCH (a), (b) WHERE id(a) = $a AND id(b) = $b CREATE (a)-[:${type}]->(b)`, {
          a: ids[Math.floor(r() * ids.length)]!,
          b: ids[Math.floor(r() * ids.length)]!,
        });
      }
      const graph = db.database.latestCommitted();
      // Plans with hash joins wherever paths meet go through the join's pause points too.
      const engines = [new QueryEngine(), new QueryEngine({ join_policy: 'always' })];
      let withRows = 0;
      let pauses = 0;
      for (let round = 0; round < ROUNDS; round++) {
        const params = new Map<string, Value>([
          ['p', BigInt(Math.floor(r() * 4))],
          ['x', ids[Math.floor(r() * ids.length)]!],
          ['y', ids[Math.floor(r() * ids.length)]!],
        ]);
        for (const engine of engines) {
          for (const text of QUERIES) {
            const whole = await answer(engine, text, graph, params, false);
            const counter = turnCounter();
            const sliced = await answer(engine, text, graph, params, true);
            counter.stop();
            pauses += counter.turns();
            expect(shape(sliced), `${text} (seed ${seed})`).toEqual(shape(whole));
            if (typeof whole !== 'string' && whole.rows.length > 1) withRows++;
          }
        }
      }
      // A graph where nothing matched would compare empty answers only, and runs that never
      // paused would compare nothing of the resumption.
      console.log(`slices: ${withRows} answers with rows, ${pauses} event-loop turns while paused`);
      expect(withRows).toBeGreaterThan(QUERIES.length * ROUNDS);
      expect(pauses).toBeGreaterThan(QUERIES.length * ROUNDS * 10);
    });
  });

  it('a runaway read gives the event loop back between slices and ends with its deadline error', async () => {
    await withDb(async (db) => {
      const engine = new QueryEngine();
      const prepared = engine.prepare('UNWIND range(1, 3000) AS a UNWIND range(1, 3000) AS b UNWIND range(1, 3000) AS c RETURN count(*)');
      const counter = turnCounter();
      const run = engine.executeSliced(prepared, db.database.latestCommitted(), { params: new Map(), memory_limit_bytes: 1 << 26, now_us: 0, deadline_ms: Date.now() + 300 });
      const error = await run.then(
        () => undefined,
        (e: unknown) => e,
      );
      counter.stop();
      expect(error).toBeInstanceOf(WeftError);
      expect((error as WeftError).code).toBe('DEADLINE_EXCEEDED');
      // Other callbacks ran while the statement was under way.
      console.log(`runaway read: ${counter.turns()} event-loop turns served before its deadline`);
      expect(counter.turns()).toBeGreaterThan(1);
    });
  });

  it('an aborted call stops a paused read with the abort reason', async () => {
    await withDb(async (db) => {
      const engine = new QueryEngine();
      const prepared = engine.prepare('UNWIND range(1, 100000) AS a UNWIND range(1, 100000) AS b RETURN a, b ORDER BY a DESC LIMIT 1');
      const controller = new AbortController();
      const run = engine.executeSliced(prepared, db.database.latestCommitted(), { params: new Map(), memory_limit_bytes: 1 << 26, now_us: 0 }, controller.signal);
      setImmediate(() => controller.abort(new WeftError('CANCELLED', 'the client cancelled the call')));
      await expect(run).rejects.toMatchObject({ code: 'CANCELLED' });
    });
  });
});
