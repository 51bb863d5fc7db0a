import { describe, expect, it } from 'vitest';
import type { Value } from '../../../src/common/values/value.js';
import type { Db } from '../../../src/index.js';
import type { GraphReader } from '../../../src/projections/graph/view.js';
import { SnapshotView } from '../../../src/projections/graph/view.js';
import { adjacencyColumnsBuilt } from '../../../src/query/execute/batch/adjacency-columns.js';
import { batchedRuns } from '../../../src/query/execute/batch/batch-aggregate.js';
import { QueryEngine, type ExecuteContext } from '../../../src/query/engine.js';
import { prng, testSeed } from '../../support/prng.js';
import { canonical, withDb } from '../engine/support.js';

/**
 * Relationship properties read in adjacency order (adjacency-columns.ts) and aggregates kept in typed arrays
 * per group (typed-aggregates.ts), against the row operators. Generated queries read relationship properties
 * in filters, grouping keys, aggregates, ORDER BY and comparisons with node properties, over every direction,
 * two hops and OPTIONAL MATCH, on a graph whose relationship properties are integers, floats, strings, huge
 * integers (sums overflow), integers exact as doubles whose sums pass 2^52, and mixed types, some absent, with self-loops and parallel relationships. Each
 * query must answer the same rows in the same order (or fail with the same kind of error) through an engine
 * with batching and one without: on the loaded graph, then after writes that change, remove and retype
 * relationship properties and delete and create relationships (the columns built before must not be read),
 * and at the snapshot before those writes, which must still answer what it answered then.
 */
const QUERIES = 160;
const RELATIONSHIP_KEYS = ['w', 'f', 's', 'm', 'big', 'huge'] as const;

function generator(r: () => number) {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  return (): string => {
    const two = r() < 0.3;
    const arrow = (rel: string): string => pick([`-[${rel}:R]->`, `<-[${rel}:R]-`, `-[${rel}:R]-`, `-[${rel}:S]->`]);
    const label = (): string => pick(['', ':A', ':B']);
    const pattern = `(a${pick([':A', ':B'])})${arrow('r1')}(b${label()})${two ? `${arrow('r2')}(c${label()})` : ''}`;
    const rel = (): string => (two ? pick(['r1', 'r2']) : 'r1');
    const relProp = (): string => `${rel()}.${pick(RELATIONSHIP_KEYS)}`;
    const relNum = (): string => `${rel()}.${pick(['w', 'f', 'big', 'huge'])}`;
    const node = (): string => pick(two ? ['a', 'b', 'c'] : ['a', 'b']);
    const atom = (): string =>
      pick([
        () => `${relProp()} ${pick(['=', '<>', '<', '>='])} ${pick(['1', '2.5', "'x'", 'null', '$p'])}`,
        () => `${relNum()} ${pick(['>', '<=', '='])} ${node()}.i`,
        () => `${relNum()} - ${node()}.i > ${pick(['0', '-2'])}`,
        () => `${relProp()} IS ${pick(['', 'NOT '])}NULL`,
        () => (two ? `r2.w ${pick(['>', '=', '<>'])} r1.w` : `r1.w > a.i`),
        () => `${rel()}.s ${pick(['=', '<>'])} ${node()}.s`,
        () => `${rel()}.w * 2 + ${node()}.i >= 3`,
      ])();
    const where = r() < 0.75 ? ` WHERE ${r() < 0.3 ? `${atom()} ${pick(['AND', 'OR'])} ${atom()}` : atom()}` : '';
    if (r() < 0.15) {
      // ORDER BY relationship properties straight over the pipeline, with LIMIT (a top-k) or not.
      const order = `${relProp()}${pick(['', ' DESC'])}, ${node()}.i, ${relProp()}`;
      return `MATCH ${pattern}${where} RETURN ${node()}.i AS x, ${relProp()} AS y ORDER BY ${order}${pick(['', ' LIMIT 5', ' SKIP 2 LIMIT 11'])}`;
    }
    if (r() < 0.12) {
      // OPTIONAL MATCH of one hop whose WHERE and aggregates read the relationship.
      return `MATCH (a${pick([':A', ':B'])}) OPTIONAL MATCH (a)${arrow('r1')}(b)${where.replace(/r2/g, 'r1').replace(/\bc\./g, 'a.')} RETURN a.s AS k, count(r1.w) AS n, sum(r1.w) AS s, max(r1.s) AS m`;
    }
    const keys = Array.from({ length: Math.floor(r() * 3) }, (_, k) => `${pick([`${node()}.s`, `${node()}.i`, `${rel()}.w`, `${rel()}.s`, `${rel()}.m`, `${node()}.i % 3`])} AS k${k}`);
    const aggs = Array.from(
      { length: 1 + Math.floor(r() * 4) },
      (_, k) =>
        `${pick([
          'count(*)',
          `count(${relProp()})`,
          `sum(${relNum()})`,
          `avg(${relNum()})`,
          `min(${relProp()})`,
          `max(${relProp()})`,
          `sum(${rel()}.w - ${node()}.i)`,
          `avg(${rel()}.w * ${rel()}.f)`,
          `count(DISTINCT ${rel()}.w)`,
          `collect(${rel()}.s)`,
          `sum(${node()}.i)`,
          `min(${node()}.s)`,
        ])} AS v${k}`,
    );
    return `MATCH ${pattern}${where} RETURN ${[...keys, ...aggs].join(', ')}`;
  };
}

async function load(db: Db, r: () => number): Promise<void> {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  for (const set of ['A', 'B', 'A:B']) {
    const nodes = Array.from({ length: 50 }, () => new Map<string, Value>([['i', BigInt(Math.floor(r() * 7) - 2)], ['s', pick(['x', 'y', 'z'])]]));
    await db.query(`UNWIND $n AS p CREATE (x:${set}) SET x = p`, { n: nodes });
  }
  const ids = (await db.query('MATCH (n) RETURN id(n)')).rows.map((row) => row[0] as bigint);
  for (const t of ['R', 'S']) {
    const edges: Value[] = [];
    for (let k = 0; k < 500; k++) {
      const a = pick(ids);
      const props = new Map<string, Value>();
      if (r() < 0.9) props.set('w', BigInt(Math.floor(r() * 6) - 1));
      if (r() < 0.6) props.set('f', pick([0.5, -1.25, 3.0, 0.0]));
      if (r() < 0.8) props.set('s', pick(['x', 'y', 'w']));
      // Integers only at first: a later write makes some strings, so the column turns mixed.
      if (r() < 0.7) props.set('m', BigInt(Math.floor(r() * 3)));
      if (r() < 0.05) props.set('big', pick([4611686018427387904n, -4611686018427387904n, 9007199254740993n]));
      // Exact as doubles, but sums of a few pass 2^52: a group's sum moves out of its double.
      if (r() < 0.4) props.set('huge', pick([9007199254740991n, 4503599627370497n, 4503599627370495n, 4503599627370493n, -2000000000000000n, 5n]));
      const edge = new Map<string, Value>([['a', a], ['b', r() < 0.05 ? a : pick(ids)], ['p', props]]);
      edges.push(edge);
      if (r() < 0.05) edges.push(edge); // a parallel relationship
    }
    await db.query(`UNWIND $e AS e MATCH (a), (b) WHERE id(a) = e.a AND id(b) = e.b CREATE (a)-[k:${t}]->(b) SET k = e.p`, { e: edges });
  }
}

type Outcome = { readonly rows: string[] } | { readonly error: string };

const params = new Map<string, Value>([['p', 2n]]);

function outcome(engine: QueryEngine, text: string, graph: GraphReader): Outcome {
  const ctx: ExecuteContext = { params, memory_limit_bytes: 1 << 28, now_us: 0 };
  try {
    return { rows: canonical(engine.execute(engine.prepare(text), graph, ctx).rows, true) };
  } catch (e) {
    return { error: (e as { code?: string }).code ?? (e as Error).name };
  }
}

/** Builds the forms a batched run reads at the latest commit, as repeated whole-graph queries would. */
async function buildForms(db: Db): Promise<SnapshotView> {
  for (const l of ['A', 'B']) for (let k = 0; k < 2; k++) await db.query(`MATCH (n:${l}) RETURN count(*)`);
  const view = db.database.latestCommitted() as SnapshotView;
  expect(view).toBeInstanceOf(SnapshotView);
  for (const t of ['R', 'S']) expect(view.adjacency(t, 1e9)).toBeDefined();
  for (const k of ['i', 's']) expect(view.nodeColumn(k, 1e9)).toBeDefined();
  for (const l of ['A', 'B']) expect(view.labelBitmap(l, 1e9)).toBeDefined();
  return view;
}

/** Every query through both engines at `graph`: same rows in the same order, or the same kind of error. */
function compare(texts: readonly string[], graph: GraphReader, seed: number, when: string): Outcome[] {
  const batched = new QueryEngine();
  const rows = new QueryEngine({ batched: false });
  return texts.map((text) => {
    const want = outcome(rows, text, graph);
    expect(outcome(batched, text, graph), `seed ${seed}, ${when}: ${text}`).toEqual(want);
    return want;
  });
}

describe('relationship properties in adjacency order', () => {
  it('answer as the row operators do, after writes to the relationships, and at the snapshot before them', async () => {
    const seed = testSeed('relationship-columns');
    const r = prng(seed);
    await withDb(async (db) => {
      await load(db, r);
      const texts = Array.from({ length: QUERIES }, generator(r));
      const loaded = await buildForms(db);
      const runs = batchedRuns.count;
      const built = adjacencyColumnsBuilt.count;
      const before = compare(texts, loaded, seed, 'loaded');
      // Most queries took the batched path and read relationship columns in adjacency order, some failed on both paths (sums overflow).
      expect(batchedRuns.count - runs).toBeGreaterThan(QUERIES * 0.6);
      expect(adjacencyColumnsBuilt.count - built).toBeGreaterThan(0);
      expect(before.filter((o) => 'error' in o).length).toBeGreaterThan(0);

      // Writes after the columns were built: values changed, a property removed, an INTEGER property made a
      // string on some relationships, relationships deleted and created.
      await db.query("MATCH (:A)-[k:R]->(:B) WHERE k.w = 1 SET k.w = 40, k.m = 'now a string', k.s = 'v'");
      await db.query('MATCH (:B)-[k:R]->() WHERE k.f IS NOT NULL AND k.w = 2 REMOVE k.f');
      await db.query('MATCH (:A)-[k:R]-() WHERE k.s = \'y\' WITH k LIMIT 40 DELETE k');
      await db.query('MATCH (a:A), (b:B) WHERE a.i = b.i + 3 CREATE (a)-[:R {w: 7, f: 2.5, s: \'n\', m: 1}]->(b)');
      await db.query("MATCH ()-[k:S]->() WHERE k.w = 0 SET k.w = 'zero'");
      const changed = await buildForms(db);
      const afterRuns = batchedRuns.count;
      const after = compare(texts, changed, seed, 'after writes');
      expect(batchedRuns.count - afterRuns).toBeGreaterThan(QUERIES * 0.4);
      // The writes changed what some queries answer: the columns read after them are not those built before.
      expect(after.filter((o, i) => JSON.stringify(o) !== JSON.stringify(before[i])).length).toBeGreaterThan(QUERIES / 4);

      // The snapshot of the load, read after the writes, answers what it answered then (through the records).
      const old = compare(texts, loaded, seed, 'at the older snapshot');
      expect(old).toEqual(before);
    });
  });

  it('keep the values of an undirected expand on both sides, and of two hops on each relationship', async () => {
    await withDb(async (db) => {
      await db.query('UNWIND range(0, 29) AS i CREATE (:P {i: i})');
      await db.query('MATCH (a:P), (b:P) WHERE b.i = (a.i * 7 + 3) % 30 CREATE (a)-[:K {y: 2000 + a.i, tag: toString(b.i % 4)}]->(b)');
      await db.query('MATCH (a:P {i: 5}) CREATE (a)-[:K {y: 1990, tag: "self"}]->(a)');
      const queries = [
        'MATCH (a:P)-[k:K]-(b:P) RETURN a.i % 3 AS g, count(*) AS n, sum(k.y) AS s, min(k.tag) AS lo, max(k.y) AS hi ORDER BY g',
        'MATCH (a:P)<-[k:K]-(b:P) WHERE k.y > 2010 RETURN a.i AS i, k.y AS y ORDER BY y DESC, i LIMIT 4',
        'MATCH (a:P)-[k:K]->(b:P)-[l:K]->(c:P) WHERE l.y > k.y RETURN count(*) AS n, avg(l.y - k.y) AS gap, max(l.tag) AS t',
      ];
      const rows = new QueryEngine({ batched: false });
      const graph = await (async (): Promise<SnapshotView> => {
        for (let k = 0; k < 2; k++) await db.query('MATCH (n:P) RETURN count(*)');
        const view = db.database.latestCommitted() as SnapshotView;
        expect(view.adjacency('K', 1e9)).toBeDefined();
        expect(view.labelBitmap('P', 1e9)).toBeDefined();
        expect(view.nodeColumn('i', 1e9)).toBeDefined();
        return view;
      })();
      const batched = new QueryEngine();
      const built = adjacencyColumnsBuilt.count;
      // The first run of a shape reads by edge id and counts its rows; later ones read in adjacency order.
      for (let run = 0; run < 3; run++) {
        for (const text of queries) {
          const at = batchedRuns.count;
          const want = outcome(rows, text, graph);
          expect('rows' in want && want.rows.length > 0, text).toBe(true);
          expect(outcome(batched, text, graph), `run ${run}: ${text}`).toEqual(want);
          expect(batchedRuns.count - at, text).toBe(1);
        }
      }
      // One column per direction walked, for each property read (y and tag; both sides of the undirected expand).
      expect(adjacencyColumnsBuilt.count - built).toBe(5);
    });
  });

  it('are made only once whole-graph reads add up to a share of the type, not for anchored reads', async () => {
    await withDb(async (db) => {
      await db.query('UNWIND range(0, 199) AS i CREATE (:P {i: i})');
      await db.query('MATCH (a:P), (b:P) WHERE b.i = (a.i * 7 + 3) % 200 OR b.i = (a.i + 1) % 200 CREATE (a)-[:K {y: a.i}]->(b)');
      for (let k = 0; k < 2; k++) await db.query('MATCH (n:P) RETURN count(*)');
      const graph = db.database.latestCommitted() as SnapshotView;
      expect(graph.adjacency('K', 1e9)).toBeDefined();
      expect(graph.labelBitmap('P', 1e9)).toBeDefined();
      expect(graph.nodeColumn('i', 1e9)).toBeDefined();
      const batched = new QueryEngine();
      const rows = new QueryEngine({ batched: false });
      const anchored = 'MATCH (a:P)-[k:K]->(b:P) WHERE a.i = 17 RETURN b.i AS b, sum(k.y) AS s';
      const built = adjacencyColumnsBuilt.count;
      // Two rows a run against 400 positions: many runs never add up to a quarter of them.
      for (let run = 0; run < 20; run++) expect(outcome(batched, anchored, graph)).toEqual(outcome(rows, anchored, graph));
      expect(adjacencyColumnsBuilt.count - built).toBe(0);
      // Two hops that bind k only to keep l from following it again read none of its properties: they record no
      // positions, so however many rows they make, the next whole-graph read of k.y still starts by edge id.
      const unique = 'MATCH (a:P)-[k:K]->(b:P)-[l:K]->(c:P) RETURN c.i % 3 AS g, count(*) AS n';
      for (let run = 0; run < 3; run++) expect(outcome(batched, unique, graph)).toEqual(outcome(rows, unique, graph));
      const whole = 'MATCH (a:P)-[k:K]->(b:P) RETURN a.i % 5 AS g, sum(k.y) AS s, max(k.y) AS m';
      expect(outcome(batched, whole, graph)).toEqual(outcome(rows, whole, graph));
      expect(adjacencyColumnsBuilt.count - built).toBe(0);
      expect(outcome(batched, whole, graph)).toEqual(outcome(rows, whole, graph));
      expect(adjacencyColumnsBuilt.count - built).toBe(1);
    });
  });
});
