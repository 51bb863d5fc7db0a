import { describe, expect, it } from 'vitest';
import type { Value } from '../../../src/common/values/value.js';
import type { Db } from '../../../src/index.js';
import type { GraphReader } from '../../../src/projections/graph/view.js';
import { SnapshotView } from '../../../src/projections/graph/view.js';
import { batchedRuns } from '../../../src/query/execute/batch/batch-aggregate.js';
import { QueryEngine, type ExecuteContext } from '../../../src/query/engine.js';
import { prng, testSeed } from '../../support/prng.js';
import { canonical, withDb } from '../engine/support.js';

/**
 * Batched pipelines against the row operators: generated queries of the shapes the batch compiler
 * takes (label scan, one or two expands of any type and direction, end labels, cycles closed by an
 * expand into a bound node, OPTIONAL MATCH of one hop with its WHERE, filters over both ends, grouping
 * keys including bare nodes, every aggregate, count(DISTINCT) of nodes and relationships too, and
 * RETURN DISTINCT and ORDER BY with and without LIMIT and SKIP) and some it only partly covers (functions, division,
 * relationship properties), over a graph with mixed-type, absent and huge integer properties,
 * several labels and types, self loops and parallel relationships. Each query runs on one snapshot
 * through an engine with batching and one without; rows must agree in order, and a query that
 * fails on one path must fail on the other with the same kind of error. Then the same inside a
 * write that changed the graph first (the batched path declines a write set and must still agree).
 */
const QUERIES = 260;
const KEYS = ['i', 'f', 's', 'm', 'big', 'wide'] as const;

function generator(r: () => number) {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  const literal = (): string => pick(['0', '2', '-3', '1.5', '-0.0', "'x'", "'y'", 'true', 'null', '$pi', '$ps', '4611686018427387904']);
  return (): string => {
    const hops = r() < 0.35 ? 2 : 1;
    const vars = ['a', 'b', 'c'].slice(0, hops + 1);
    const arrow = (t: string, rel: string): string => pick([`-[${rel}:${t}]->`, `<-[${rel}:${t}]-`, `-[${rel}:${t}]-`]);
    const label = (): string => pick(['', ':A', ':B', ':C']);
    const inline = pick(['', '', '', " {s: 'x'}", ' {i: $pi}', ' {m: 1}']);
    let pattern = `(a${pick([':A', ':B', ':C'])}${inline})${arrow(pick(['R', 'S']), 'r1')}(b${label()})`;
    if (hops === 2) pattern += `${arrow(pick(['R', 'S']), 'r2')}(c${label()})`;
    // A cycle: the last hop closes back on the first node (an expand into a bound node).
    if (hops === 2 && r() < 0.3) pattern += `${arrow(pick(['R', 'S']), pick(['', 'r3']))}(a)`;
    const prop = (): string => `${pick(vars)}.${pick(KEYS)}`;
    const num = (): string => `${pick(vars)}.${pick(['i', 'f', 'big', 'wide'])}`;
    const atom = (): string =>
      pick([
        () => `${prop()} ${pick(['=', '<>', '<', '<=', '>', '>='])} ${literal()}`,
        () => `${prop()} ${pick(['=', '<>', '<', '>='])} ${prop()}`,
        () => `${prop()} IS ${pick(['', 'NOT '])}NULL`,
        () => `${num()} ${pick(['+', '-', '*'])} ${pick([num(), literal()])} ${pick(['<', '>', '='])} ${pick([num(), literal()])}`,
        () => `a.s = ${pick(['b', 'c'].slice(0, hops))}.s`,
        () => `${num()} / ${pick(['2', '0', num()])} > 0`,
        () => `size(${pick(vars)}.s) > 0`,
        () => `r1.w > 1`,
        () => `${prop()}`,
        () => `CASE WHEN ${prop()} > 0 THEN ${num()} ${pick(['', `ELSE ${num()}`, 'ELSE 1.5'])} END > 1`,
        // Functions and operators of one column, which run once per value of the column.
        () => `toUpper(${pick(vars)}.s) ${pick(['STARTS WITH', 'ENDS WITH', 'CONTAINS', '='])} ${pick(["'X'", "''", "'y'", 'null'])}`,
        () => `${pick(vars)}.i ${pick(['%', '/'])} ${pick(['3', '-2', '0'])} ${pick(['=', '>', '<>'])} ${pick(['1', '0', '0.5'])}`,
        () => `${pick(vars)}.${pick(['s', 'i', 'm'])} IN ${pick(["['x', 'z']", '[1, 2, null]', "[null, 'y']", '$list'])}`,
        () => `${pick([`10 / ${pick(vars)}.i`, `abs(${pick(vars)}.${pick(['i', 'f'])})`, `toString(${pick(vars)}.${pick(['i', 's', 'f'])})`])} ${pick(['=', '<>'])} ${literal()}`,
        () => `size(substring(${pick(vars)}.s + 'ab', 1)) = ${pick(['1', '2'])}`,
        () => `r1.w ${pick(['*', '%', '-'])} 2 ${pick(['>=', '=', '<'])} ${pick(['2', '0', '1.5'])}`,
      ])();
    const predicate = (depth: number): string => {
      if (depth === 0 || r() < 0.4) return atom();
      return pick([
        () => `NOT (${predicate(depth - 1)})`,
        () => `(${predicate(depth - 1)}) AND (${predicate(depth - 1)})`,
        () => `(${predicate(depth - 1)}) OR (${predicate(depth - 1)})`,
        () => `(${predicate(depth - 1)}) XOR (${predicate(depth - 1)})`,
      ])();
    };
    const where = r() < 0.7 ? ` WHERE ${predicate(2)}` : '';
    const caseKey = (): string =>
      pick([
        `CASE WHEN ${prop()} > 1 THEN 'hi' WHEN ${prop()} IS NULL THEN 'none' ${pick(['', "ELSE 'lo'", 'ELSE null'])} END`,
        `CASE ${pick(vars)}.s WHEN 'x' THEN ${num()} WHEN 'y' THEN 2 ${pick(['', 'ELSE 0', 'ELSE 1.5', 'ELSE null'])} END`,
      ]);
    const keys = Array.from(
      { length: Math.floor(r() * 3) },
      (_, k) => `${pick([prop(), `${num()} * 2`, `${pick(vars)}.s`, pick(vars), caseKey(), `toLower(${pick(vars)}.s)`, `${pick(vars)}.i / 3`, 'r1.w', `${pick(vars)}.i % 2 + r1.w`])} AS k${k}`,
    );
    const aggs = Array.from({ length: 1 + Math.floor(r() * 3) }, (_, k) =>
      `${pick(['count(*)', `count(${prop()})`, `count(DISTINCT ${prop()})`, `count(DISTINCT ${pick(vars)})`, `count(DISTINCT r1)`, `count(${pick(vars)})`, `count(r1)`, `sum(r1.w)`, `min(r1.w)`, `max(${pick(vars)}.i / 2)`, `sum(${pick(vars)}.i)`, `sum(${num()})`, `avg(${num()})`, `min(${prop()})`, `max(${prop()})`, `collect(${prop()})`, `percentileDisc(${num()}, ${pick(['0.5', '0', '1.0', '0.3'])})`, `percentileCont(${pick(vars)}.i, ${pick(['0.5', '0.25', '$pi'])})`])} AS v${k}`,
    );
    if (r() < 0.15) {
      // A degree: the last expand is only counted.
      return `MATCH (a${pick([':A', ':B'])})${arrow(pick(['R', 'S']), '')}(${label()}) RETURN a.${pick(KEYS)} AS k, count(*) AS n`;
    }
    if (r() < 0.12) {
      // ORDER BY, with LIMIT (a top-k) and SKIP or without, straight over the pipeline.
      // Mostly typed keys (the batched sort takes only those); mixed-type ones run the row operator.
      const typedKey = (): string => `${pick(vars)}.${pick(['i', 'f', 's', 'wide'])}`;
      const order = Array.from({ length: 1 + Math.floor(r() * 3) }, () => `${pick([typedKey(), typedKey(), typedKey(), `${typedKey()} * 2`, prop()])} ${pick(['', 'DESC'])}`);
      const columns = [...new Set([pick(vars), prop(), prop()])].join(', ');
      // Without LIMIT the sort sits over the projection (batched by the items' expressions, each kept row projected); with it, a top-k straight over the pipeline.
      const page = pick(['', ' LIMIT 5', ' LIMIT 1', ` SKIP 3 LIMIT ${pick(['0', '4', '30'])}`, ' LIMIT 40', ' LIMIT 7', ' LIMIT 12', ' SKIP 1 LIMIT 9']);
      return `MATCH ${pattern}${where} RETURN ${columns} ORDER BY ${order.join(', ')}${page}`;
    }
    if (r() < 0.12) {
      // DISTINCT straight over the pipeline: a grouping without aggregates, rows in first-seen order.
      const columns = Array.from({ length: 1 + Math.floor(r() * 2) }, (_, k) => `${pick([prop(), `${num()} * 2`, pick(vars)])} AS d${k}`);
      return `MATCH ${pattern}${where} RETURN DISTINCT ${columns.join(', ')}`;
    }
    if (r() < 0.2) {
      // OPTIONAL MATCH of the last hop (a left outer expand), its WHERE on both sides; sometimes a MATCH from its end after it.
      const first = `(a${pick([':A', ':B', ':C'])}${inline})`;
      const optional =
        hops === 1
          ? `MATCH ${first} OPTIONAL MATCH (a)${arrow(pick(['R', 'S']), 'r1')}(b${label()})${where}`
          : `MATCH ${first}${arrow(pick(['R', 'S']), 'r1')}(b${label()}) OPTIONAL MATCH (b)${arrow(pick(['R', 'S']), 'r2')}(c${label()})${where}`;
      const then = hops === 1 && r() < 0.25 ? ` MATCH (b)${arrow(pick(['R', 'S']), 'r2')}(c)` : '';
      return `${optional}${then} RETURN ${[...keys, ...aggs].join(', ')}`;
    }
    return `MATCH ${pattern}${where} RETURN ${[...keys, ...aggs].join(', ')}`;
  };
}

async function load(db: Db, r: () => number): Promise<void> {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  const mixed = (): Value => pick<Value>([1n, 2.5, 'x', true, [1n, 2n], null, -4n]);
  const nodes = Array.from({ length: 240 }, () => {
    const props = new Map<string, Value>();
    if (r() < 0.8) props.set('i', BigInt(Math.floor(r() * 11) - 5));
    if (r() < 0.7) props.set('f', pick([1.5, -2.25, 0.0, -0.0, 3.0, 10.5]));
    if (r() < 0.8) props.set('s', pick(['x', 'y', 'z', '']));
    if (r() < 0.7) props.set('m', mixed());
    // Exact integers beyond a direct grouping table's range.
    if (r() < 0.6) props.set('wide', pick([3_000_000_000n, -3_000_000_000n, 5n, 2_000_001n]));
    if (r() < 0.15) props.set('big', pick([4611686018427387904n, -4611686018427387904n, 9007199254740993n, 7n]));
    return new Map<string, Value>([
      ['props', props],
      ['labels', ['A', 'B', 'C'].filter(() => r() < 0.5)],
    ]);
  });
  // One statement per label set: labels cannot be parameters.
  for (const set of new Set(nodes.map((n) => (n.get('labels') as string[]).join(':')))) {
    const props = nodes.filter((n) => (n.get('labels') as string[]).join(':') === set).map((n) => n.get('props') as Value);
    await db.query(`UNWIND $n AS p CREATE (x${set === '' ? '' : `:${set}`}) SET x = p`, { n: props });
  }
  const ids = (await db.query('MATCH (n) RETURN id(n)')).rows.map((row) => row[0] as bigint);
  const edges: Value[] = [];
  for (let k = 0; k < 1100; k++) {
    const a = pick(ids);
    const b = r() < 0.06 ? a : pick(ids);
    const edge = new Map<string, Value>([['a', a], ['b', b], ['t', pick(['R', 'S'])], ['w', BigInt(Math.floor(r() * 4))]]);
    edges.push(edge);
    if (r() < 0.08) edges.push(edge); // a parallel relationship
  }
  for (const t of ['R', 'S']) {
    const of = edges.filter((e) => (e as Map<string, Value>).get('t') === t);
    await db.query(`UNWIND $e AS e MATCH (a), (b) WHERE id(a) = e.a AND id(b) = e.b CREATE (a)-[:${t} {w: e.w}]->(b)`, { e: of });
  }
}

type Outcome = { readonly rows: string[] } | { readonly error: string };

function outcome(engine: QueryEngine, text: string, graph: GraphReader): Outcome {
  const ctx: ExecuteContext = { params: new Map<string, Value>([['pi', 2n], ['ps', 'y'], ['list', ['x', 1n, null]]]), memory_limit_bytes: 1 << 28, now_us: 0 };
  try {
    return { rows: canonical(engine.execute(engine.prepare(text), graph, ctx).rows, true) };
  } catch (e) {
    // The kind of failure; which row fails first may differ when two expressions could fail.
    return { error: (e as { code?: string }).code ?? (e as Error).name };
  }
}

describe('batched pipelines', () => {
  it('answer generated whole-graph queries exactly as the row operators do, outside and inside a write', async () => {
    const seed = testSeed('batched-differential');
    const r = prng(seed);
    await withDb(async (db) => {
      await load(db, r);
      const next = generator(r);
      const texts = Array.from({ length: QUERIES }, next);
      const batched = new QueryEngine();
      const rows = new QueryEngine({ batched: false });
      const graph = db.database.latestCommitted();
      expect(graph).toBeInstanceOf(SnapshotView);
      // The forms a batched run reads, built up front as repeated whole-graph queries would build them.
      for (const l of ['A', 'B', 'C']) for (let k = 0; k < 2; k++) await db.query(`MATCH (n:${l}) RETURN count(*)`);
      const view = graph as SnapshotView;
      for (const t of ['R', 'S']) expect(view.adjacency(t, 1e9)).toBeDefined();
      for (const k of KEYS) expect(view.nodeColumn(k, 1e9)).toBeDefined();
      for (const l of ['A', 'B', 'C']) expect(view.labelBitmap(l, 1e9)).toBeDefined();

      const before = batchedRuns.count;
      let failures = 0;
      for (const text of texts) {
        const want = outcome(rows, text, graph);
        if ('error' in want) failures++;
        expect(outcome(batched, text, graph), `seed ${seed}: ${text}`).toEqual(want);
      }
      // Most generated queries took the batched path, and some failed on both (overflow, types).
      expect(batchedRuns.count - before).toBeGreaterThan(QUERIES * 0.8);
      expect(failures).toBeGreaterThan(0);
      expect(failures).toBeLessThan(QUERIES / 2);
      // The shapes added beside aggregation over scans and expands take the batched path too.
      for (const marker of [/RETURN DISTINCT/, /OPTIONAL MATCH/, /-\(a\)( WHERE| RETURN)/]) {
        const some = texts.filter((t) => marker.test(t));
        const at = batchedRuns.count;
        for (const text of some) outcome(batched, text, graph);
        expect(some.length, String(marker)).toBeGreaterThan(3);
        expect(batchedRuns.count - at, String(marker)).toBeGreaterThan(some.length / 2);
      }
      // A top-k straight over the pipeline (property columns only, so the projection moves above it), ties included;
      // then degrees counted from offsets under relationship uniqueness.
      for (const text of [
        'MATCH (a:A)-[r1:R]->(b) RETURN a.i AS ai, b.f AS bf ORDER BY bf DESC, ai LIMIT 7',
        'MATCH (a:B)-[r1:S]-(b:C) WHERE a.i > -3 RETURN b.s AS s, a.wide AS w ORDER BY s, w DESC SKIP 4 LIMIT 9',
        'MATCH (a:A)-[r1:R]->(b)-[r2:S]->(c) RETURN a.s AS s, c.i AS ci, b.i AS bi ORDER BY ci, s DESC, bi LIMIT 40',
        'MATCH (a:C) OPTIONAL MATCH (a)-[r1:R]->(b:A) RETURN a.i AS ai, b.i AS bi ORDER BY bi DESC, ai LIMIT 25',
        // A counted last expand that must not follow a relationship bound earlier (self-loops and both directions too).
        'MATCH (a:A)-[r1:R]->(b)-[:R]->() RETURN count(*)',
        'MATCH (a:B)-[r1:S]-(b)-[:S]-() RETURN a.s AS s, count(*) AS n',
        'MATCH (a:A)<-[r1:R]-(b)<-[:R]-(:B) RETURN count(*)',
        'MATCH (a:C)-[r1:R]-(b)-[r2:R]->(c)-[:R]-() RETURN a.i AS i, count(*) AS n',
        // Two hops from a middle node, counted as products of the two slices' counts (less shared relationships).
        'MATCH (a)-[r1:R]->(b:B)-[:R]->(c) WHERE b.i > 0 RETURN count(*)',
        'MATCH (a:A)-[:R]->(b:B)<-[:R]-(c:A) RETURN b.s AS s, count(*) AS n',
        'MATCH (a)-[:S]-(b:C)-[:S]-(c) RETURN b.i AS i, count(*) AS n',
        'MATCH (a)<-[:S]-(b:A)-[:S]-(c:C) WHERE b.f > 1 RETURN count(*)',
        'MATCH (a)-[:R]->(b:B)-[:S]->(c:A) RETURN count(*)',
        'MATCH (x:C)-[r0:R]-(a)-[:R]->(b:B)<-[:R]-(c) RETURN x.i AS i, count(*) AS n',
        'MATCH (b:A) MATCH (b)-[:R]->(c) MATCH (b)<-[:R]-(a) RETURN count(*)',
        // Percentiles of an INTEGER column go in as doubles.
        'MATCH (a:A)-[r1:R]->(b) RETURN a.s AS s, percentileDisc(b.i, 0.5) AS d, percentileCont(b.i, 0.25) AS c, percentileDisc(b.wide, 0.9) AS w',
        // CASE as a grouping key (codes of its string results) and in a filter (numbers).
        "MATCH (a:A)-[r1:R]->(b) RETURN CASE WHEN b.i < 2 THEN 'low' WHEN b.i < 4 THEN 'mid' ELSE 'high' END AS band, count(*) AS n, avg(a.f) AS f",
        "MATCH (a:B)-[r1:S]-(b) WHERE CASE a.s WHEN 'x' THEN b.i WHEN 'y' THEN 1 END > 1 RETURN b.s AS s, count(*) AS n",
      ]) {
        const at = batchedRuns.count;
        expect(outcome(batched, text, graph), `seed ${seed}: ${text}`).toEqual(outcome(rows, text, graph));
        expect(batchedRuns.count - at, text).toBe(1);
      }

      // Aggregations over a label alone run batched when every filter, key and argument is typed and one needs
      // a per-value table, and as the fused scan otherwise (plain operators, nodes themselves, values that fail).
      for (const [text, took] of [
        ["MATCH (a:A) WHERE toUpper(a.s) <> 'X' RETURN a.s AS s, count(*) AS n, min(a.i) AS lo, max(a.f) AS hi", 1],
        ['MATCH (a:B) WHERE a.i % 2 = 0 RETURN a.i / 2 AS h, toLower(a.s) AS l, count(a.f) AS c, sum(a.i) AS s', 1],
        ["MATCH (a:C {s: 'x'}) RETURN a.i IN [1, 2] AS k, avg(a.i) AS m, count(DISTINCT a.wide) AS w", 1],
        ["MATCH (a:B) WHERE a.wide > 0 AND a.s STARTS WITH 'x' RETURN collect(a.s) AS ss, min(a.wide) AS w", 1],
        ['MATCH (a:B) WHERE a.wide > 0 RETURN collect(a.s) AS ss, min(a.wide) AS w', 0],
        ['MATCH (a:A) RETURN a.m AS m, count(*) AS n', 0],
        ['MATCH (a:A) RETURN a AS a, count(*) AS n', 0],
        ['MATCH (a:C) WHERE 10 / a.i > 1 RETURN count(*) AS n', 0],
      ] as const) {
        const at = batchedRuns.count;
        expect(outcome(batched, text, graph), `seed ${seed}: ${text}`).toEqual(outcome(rows, text, graph));
        expect(batchedRuns.count - at, text).toBe(took);
      }

      // In time slices that end at every clock read: the batched scan pauses between its chunks.
      const sliced: ExecuteContext = { params: new Map<string, Value>([['pi', 2n], ['ps', 'y'], ['list', ['x', 1n, null]]]), memory_limit_bytes: 1 << 28, now_us: 0, slice_ms: 0, clock_check_rows: 1 };
      for (const text of texts.slice(0, 40)) {
        const want = outcome(rows, text, graph);
        if ('error' in want) continue;
        const got = await batched.executeSliced(batched.prepare(text), graph, sliced);
        expect(canonical(got.rows, true), `seed ${seed}, sliced: ${text}`).toEqual(want.rows);
      }

      // Inside a write that changed nodes and relationships first: never batched, still the same.
      const aborted = new Error('aborted');
      await expect(
        db.database.write(
          (ws) => {
            const ctx: ExecuteContext = { params: new Map(), memory_limit_bytes: 1 << 28, now_us: 0 };
            batched.execute(batched.prepare('MATCH (a:A) WHERE a.i > 0 SET a.i = a.i + 100, a.s = "w" CREATE (a)-[:R {w: 9}]->(a)'), ws, ctx);
            batched.execute(batched.prepare('MATCH (:B)-[s:S]->() WITH s LIMIT 50 DELETE s'), ws, ctx);
            const inside = batchedRuns.count;
            for (const text of texts.slice(0, QUERIES / 4)) expect(outcome(batched, text, ws), `seed ${seed}, in a write: ${text}`).toEqual(outcome(rows, text, ws));
            expect(batchedRuns.count).toBe(inside);
            throw aborted;
          },
          { concern: { acks: 1, level: 'journal', timeout_ms: 10_000 } },
        ),
      ).rejects.toBe(aborted);
    });
  });
});
