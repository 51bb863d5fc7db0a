/**
 * What a quantified path pattern costs beside the forms it can be written as, embedded, on a random
 * graph of `--nodes` nodes with `--degree` outgoing R relationships each (and one S in three):
 *
 * - one hop, 1 to 3 iterations: the variable-length relationship, the quantified relationship, and
 *   a quantified path pattern with group variables (the repeat operator);
 * - two hops (R then S), 1 to 2 iterations: the repeat operator and the UNION of its unrolled forms;
 * - SHORTEST 1 between two nodes: over a quantified relationship (the bidirectional search), over a
 *   quantified path pattern searched by length, and over the same pattern with a pre-filter on the
 *   path; over a fixed relationship then a quantified path pattern (searched over (node, part) states)
 *   beside every trail of it found and the shortest kept; SHORTEST 2 GROUPS over an unbounded two-hop
 *   pattern.
 *
 * Each query is anchored on `--starts` seeded start nodes; the median of `--runs` rounds is reported.
 *
 *   npx tsx bench/quantified-paths.ts [--nodes 2000] [--degree 3] [--starts 20] [--runs 5] [--seed 7]
 *
 * Prints a table and writes bench/results/quantified-paths.json.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open } from '../src/index.js';
import { prng } from '../test/support/prng.js';
import { percentile } from './stats.js';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const nodes = arg('nodes', 2000);
const degree = arg('degree', 3);
const starts = arg('starts', 20);
const runs = arg('runs', 5);
const seed = arg('seed', 7);

interface Row {
  readonly case: string;
  readonly rows: string;
  readonly ms_p50: number;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'weft-bench-qpp-'));
  const db = await open(dir);
  const out: Row[] = [];
  const random = prng(seed);
  try {
    await db.query('UNWIND range(0, $n - 1) AS i CREATE (:V {i: i})', { n: BigInt(nodes) });
    await db.query('CREATE INDEX v_i FOR (n:V) ON (n.i)');
    const pairs: bigint[][] = [];
    for (let a = 0; a < nodes; a++) {
      for (let d = 0; d < degree; d++) pairs.push([BigInt(a), BigInt(Math.floor(random() * nodes)), d === 0 && a % 3 === 0 ? 1n : 0n]);
    }
    await db.query('UNWIND $pairs AS p MATCH (a:V {i: p[0]}), (b:V {i: p[1]}) CREATE (a)-[:R]->(b) WITH a, b, p WHERE p[2] = 1 CREATE (b)-[:S]->(a)', { pairs });
    const anchors = Array.from({ length: starts }, () => [BigInt(Math.floor(random() * nodes)), BigInt(Math.floor(random() * nodes))] as const);
    const measure = async (name: string, text: string): Promise<void> => {
      const times: number[] = [];
      let total = 0n;
      for (let r = 0; r <= runs; r++) {
        const t0 = performance.now();
        let sum = 0n;
        for (const [s, t] of anchors) sum += (await db.query(text, { s, t })).rows[0]![0] as bigint;
        // The first round warms up and is not counted.
        if (r > 0) times.push(performance.now() - t0);
        total = sum;
      }
      times.sort((a, b) => a - b);
      out.push({ case: name, rows: String(total), ms_p50: percentile(times, 50) });
    };
    await measure('1 hop {1,3}: variable-length -[:R*1..3]->', 'MATCH (a:V {i: $s})-[:R*1..3]->(b) RETURN count(*)');
    await measure('1 hop {1,3}: quantified relationship -[:R]->{1,3}', 'MATCH (a:V {i: $s})-[:R]->{1,3}(b) RETURN count(*)');
    await measure('1 hop {1,3}: repeat ((x)-[:R]->(y)){1,3}', 'MATCH (a:V {i: $s}) ((x)-[:R]->(y)){1,3} (b) RETURN count(*)');
    await measure('2 hops {1,2}: repeat ((x)-[:R]->(m)-[:S]->(y)){1,2}', 'MATCH (a:V {i: $s}) ((x)-[:R]->(m)-[:S]->(y)){1,2} (b) RETURN count(*)');
    await measure(
      '2 hops {1,2}: UNION of the unrolled paths',
      `CALL { MATCH (a:V {i: $s})-[:R]->()-[:S]->(b) RETURN b
              UNION ALL
              MATCH (a:V {i: $s})-[:R]->()-[:S]->()-[:R]->()-[:S]->(b) RETURN b }
       RETURN count(*)`,
    );
    await measure('SHORTEST 1 {1,6}: quantified relationship (search)', 'MATCH p = SHORTEST 1 (a:V {i: $s})-[:R]->{1,6}(b:V {i: $t}) RETURN count(*)');
    await measure('SHORTEST 1 {1,6}: repeat, searched by length', 'MATCH p = SHORTEST 1 (a:V {i: $s}) ((x)-[:R]->(y)){1,6} (b:V {i: $t}) RETURN count(*)');
    // A pre-filter that reads the path is tested on each whole path the search reads back.
    await measure(
      'SHORTEST 1 {1,6}: searched by length, a pre-filter on the path',
      'MATCH SHORTEST 1 (p = (a:V {i: $s}) ((x)-[:R]->(y)){1,6} (b:V {i: $t}) WHERE length(p) > 0) RETURN count(*)',
    );
    // A fixed relationship beside the quantified part, searched over (node, part) states; its peer finds every trail and keeps the shortest.
    await measure('SHORTEST 1 -[:R]-> then {1,5}: searched by length', 'MATCH p = SHORTEST 1 (a:V {i: $s})-[:R]->(m) ((x)-[:R]->(y)){1,5} (b:V {i: $t}) RETURN count(*)');
    await measure(
      '-[:R]-> then {1,5}: every trail, then the shortest',
      'MATCH p = (a:V {i: $s})-[:R]->(m) ((x)-[:R]->(y)){1,5} (b:V {i: $t}) WITH p ORDER BY length(p) LIMIT 1 RETURN count(*)',
    );
    await measure('SHORTEST 2 GROUPS {1,}: two hops, searched by length', 'MATCH p = SHORTEST 2 GROUPS (a:V {i: $s}) ((x)-[:R]->(m)-[:R]->(y)){1,} (b:V {i: $t}) RETURN count(*)');
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(`quantified paths bench: ${nodes} nodes, ${degree} R per node, ${starts} anchored queries per round, median of ${runs} rounds, seed ${seed}`);
  console.log('\n| case | rows | ms p50 (all anchors) |\n|---|---|---|');
  for (const r of out) console.log(`| ${r.case} | ${r.rows} | ${r.ms_p50.toFixed(2)} |`);
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/quantified-paths.json', JSON.stringify({ nodes, degree, starts, runs, seed, rows: out, at: new Date().toISOString() }, null, 2));
}

await main();
