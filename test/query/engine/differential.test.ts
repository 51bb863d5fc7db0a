import { describe, expect, it } from 'vitest';
import { QueryEngine, type QueryResult } from '../../../src/query/engine.js';
import { rewrite_passes } from '../../../src/query/optimize/index.js';
import type { GraphReader } from '../../../src/projections/graph/view.js';
import { prng, testSeed } from '../../support/prng.js';
import { canonical, withDb } from './support.js';

/**
 * Differential test of the rewrite passes: random queries over a random graph, run with every pass
 * and with each pass left out in turn, and with hash joins wherever paths meet, against a plan with
 * no pass and no join; the results must be the same multiset of rows (or the same error). A failure prints the seed; `WEFT_SEED=<seed> npx vitest run test/query/engine/differential.test.ts`
 * replays it.
 */
const QUERIES = 250;
const NODES = 40;
const RELATIONSHIPS = 90;

type Random = () => number;
const pick = <T>(r: Random, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
const chance = (r: Random, p: number): boolean => r() < p;

function node(r: Random, name: string): string {
  const label = chance(r, 0.5) ? `:${pick(r, ['A', 'B', 'C'])}` : '';
  const props = chance(r, 0.25) ? ` {p: ${Math.floor(r() * 4)}}` : '';
  return `(${name}${label}${props})`;
}

function rel(r: Random): string {
  const type = chance(r, 0.6) ? `:${pick(r, ['R', 'S'])}` : '';
  const range = chance(r, 0.15) ? '*1..2' : '';
  const body = `[${type}${range}]`;
  return pick(r, [`-${body}->`, `<-${body}-`, `-${body}-`]);
}

function predicate(r: Random, vars: readonly string[], maxId: number): string {
  const v = pick(r, vars);
  switch (Math.floor(r() * 7)) {
    case 0:
      return `${v}.p = ${Math.floor(r() * 4)}`;
    case 1:
      return `${v}.q > ${Math.floor(r() * 10)}`;
    case 2:
      return `id(${v}) = ${Math.floor(r() * maxId)}`;
    case 3:
      return `id(${v}) IN [${Math.floor(r() * maxId)}, ${Math.floor(r() * maxId)}]`;
    case 4:
      return `${v}:${pick(r, ['A', 'B', 'C'])}`;
    case 5:
      return `(${v})-->()`;
    default:
      return `${v}.q <> ${pick(r, vars)}.p`;
  }
}

function query(r: Random, maxId: number): string {
  const vars: string[] = [];
  const paths: string[] = [];
  for (let p = 0; p < (chance(r, 0.3) ? 2 : 1); p++) {
    const length = Math.floor(r() * 3);
    // The second path shares its first node with the first path half of the time.
    let text = p > 0 && chance(r, 0.5) ? `(${vars[0]})` : node(r, `n${vars.length}`);
    if (!text.startsWith(`(${vars[0]})`) || p === 0) vars.push(`n${vars.length}`);
    for (let i = 0; i < length; i++) {
      const name = `n${vars.length}`;
      vars.push(name);
      text += rel(r) + node(r, name);
    }
    paths.push(text);
  }
  const conditions = Array.from({ length: Math.floor(r() * 4) }, () => predicate(r, vars, maxId));
  let q = `MATCH ${paths.join(', ')}${conditions.length > 0 ? ` WHERE ${conditions.join(' AND ')}` : ''}`;
  if (chance(r, 0.25)) {
    const v = pick(r, vars);
    q += ` OPTIONAL MATCH (${v})${rel(r)}(o${node(r, '').slice(1)}`;
    q = q.replace('(o()', '(o)');
    vars.push('o');
  }
  const a = pick(r, vars);
  const b = pick(r, vars);
  switch (Math.floor(r() * 6)) {
    case 5:
      // A top-k over a projection (the late-projection pass moves the projection above it).
      // A CASE over tests that cannot fail moves too; one whose WHEN is a bare property stays below the top.
      return `${q} RETURN ${a}.uid AS a, ${b}.p AS p${pick(r, ['', '', `, CASE WHEN ${b}.p > 1 AND ${a}.uid IS NOT NULL THEN 'x' WHEN ${a}.p = ${b}.p THEN 'y' END AS c`, `, CASE WHEN ${a}.p THEN 1 ELSE 2 END AS c`])} ORDER BY p DESC, a LIMIT ${1 + Math.floor(r() * 5)}`;
    case 4:
      // A nested plan whose rows an expression outside it reads.
      return `${q} RETURN ${a}.uid AS a, [(${a})${rel(r)}(y) | y.uid] AS ys`;
    case 0:
      return `${q} RETURN count(*) AS c`;
    case 1:
      return `${q} RETURN ${a}.uid AS a, ${b}.uid AS b`;
    case 2:
      return `${q} RETURN ${a}.uid AS a, count(*) AS c`;
    default:
      return `${q} RETURN DISTINCT ${a}.uid AS a ORDER BY a LIMIT ${1 + Math.floor(r() * 5)}`;
  }
}

function run(engine: QueryEngine, text: string, graph: GraphReader): QueryResult | string {
  try {
    return engine.execute(engine.prepare(text), graph, { params: new Map(), memory_limit_bytes: 256 * 1024 * 1024, now_us: 0 });
  } catch (e) {
    return `error: ${(e as Error).message}`;
  }
}

describe('rewrite passes preserve results', () => {
  it(`${QUERIES} random queries give the same rows with and without each pass`, async () => {
    const seed = testSeed('differential');
    const r = prng(seed);
    await withDb(async (db) => {
      const ids: bigint[] = [];
      for (let i = 0; i < NODES; i++) {
        const labels = ['A', 'B', 'C'].filter(() => chance(r, 0.4)).map((l) => `:${l}`).join('');
        const res = await db.query(`CREATE (n${labels} {uid: $uid, p: $p, q: $q}) RETURN id(n)`, {
          uid: BigInt(i),
          p: BigInt(Math.floor(r() * 4)),
          q: BigInt(Math.floor(r() * 10)),
        });
        ids.push(res.rows[0]![0] as bigint);
      }
      for (let i = 0; i < RELATIONSHIPS; i++) {
        await db.query(`MATCH (a), (b) WHERE id(a) = $a AND id(b) = $b CREATE (a)-[:${pick(r, ['R', 'S'])}]->(b)`, {
          a: pick(r, ids),
          b: pick(r, ids),
        });
      }
      const graph = db.database.latestCommitted();
      const maxId = Number(ids[ids.length - 1]) + 2;
      const full = new QueryEngine();
      const without = rewrite_passes.map((p) => ({ name: p.name, engine: new QueryEngine({ skip_passes: new Set([p.name]) }) }));
      const none = new QueryEngine({ skip_passes: new Set(rewrite_passes.map((p) => p.name)), join_policy: 'never' });
      // Joins are the planner's choice, not a pass: compare plans that join wherever paths meet.
      without.push({ name: 'expansion (joins always)', engine: new QueryEngine({ join_policy: 'always' }) });
      let compared = 0;
      let nonEmpty = 0;
      for (let i = 0; i < QUERIES; i++) {
        const text = query(r, maxId);
        const expected = run(none, text, graph);
        const shape = (x: QueryResult | string): unknown => (typeof x === 'string' ? x : canonical(x.rows, text.includes('ORDER BY')));
        expect(shape(run(full, text, graph)), `all passes vs none: ${text} (seed ${seed})`).toEqual(shape(expected));
        for (const w of without) {
          expect(shape(run(w.engine, text, graph)), `without ${w.name}: ${text} (seed ${seed})`).toEqual(shape(expected));
        }
        if (typeof expected !== 'string') {
          compared++;
          const counted = expected.rows.length === 1 && expected.rows[0]![0] === 0n;
          if (expected.rows.length > 0 && !counted) nonEmpty++;
        }
      }
      // Most generated queries must run; a generator that only makes errors would test nothing.
      expect(compared).toBeGreaterThan(QUERIES * 0.8);
      // ... and a graph where nothing matches would compare empty results only.
      console.log(`differential: ${compared} compared, ${nonEmpty} with rows`);
      expect(nonEmpty).toBeGreaterThan(QUERIES * 0.3);
    });
  });
});
