/**
 * The online index build soak against a real server (kept out of the default test run; the quick
 * slice is test/schema/online-build.test.ts): `--nodes` stored nodes with `--duplicates` planted
 * pairs, `--writers` clients writing the same label all along, a UNIQUE constraint with
 * on_duplicate_rename built meanwhile, and with `--kill` a kill -9 in the middle of the build and a
 * restart. It checks what the acceptance asks and exits non-zero when a check fails:
 *
 * - writes are never refused except real duplicates (and every real duplicate is refused);
 * - write p99 during the build is within 3x of the p99 with no build;
 * - `indexed` advances;
 * - the outcome (PUBLISHED, one repair per planted duplicate, unique new values) is the same with a kill.
 *
 *   npx tsx bench/index-online-build.ts [--nodes 1000000] [--writers 8] [--duplicates 100] [--kill] [--seed N]
 *
 * Writes bench/results/index-online-build.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { runOnlineBuild } from '../test/schema/online-build.js';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const nodes = arg('nodes', 1_000_000);
const writers = arg('writers', 8);
const duplicates = arg('duplicates', 100);
const kill = process.argv.includes('--kill');
const seed = arg('seed', Math.floor(Math.random() * 2 ** 31));
const p99_ratio_max = 3;

console.log(`index online build: ${nodes} nodes, ${writers} writers, ${duplicates} duplicates${kill ? ', kill -9 mid-build' : ''}, seed ${seed}`);
const r = await runOnlineBuild({
  nodes,
  writers,
  duplicates,
  rename: true,
  kill,
  seed,
  baseline_writes: 200,
  duplicate_every: 50,
  log: (line) => console.log(`  ${line}`),
});

const distinct = new Set(r.indexed_samples.map(String)).size;
const checks: [string, boolean][] = [
  [`no write refused except real duplicates (${r.wrong.length} wrong: ${r.wrong.slice(0, 3).join('; ')})`, r.wrong.length === 0],
  [`real duplicates refused: ${r.refused_duplicates}`, r.refused_duplicates > 0],
  [`outcome PUBLISHED (${r.outcome} ${r.failure})`, r.outcome === 'PUBLISHED'],
  [`repairs: ${r.repairs.length} of ${duplicates}, new values unique`, r.repairs.length === duplicates && new Set(r.repairs.map((x) => x.newValue)).size === duplicates],
  [`indexed advanced through ${distinct} distinct values`, distinct >= 2],
  [`write p99 ${r.build_p99_ms.toFixed(1)} ms during the build vs ${r.baseline_p99_ms.toFixed(1)} ms without (max ${p99_ratio_max}x)`, r.build_p99_ms <= p99_ratio_max * r.baseline_p99_ms],
];
if (kill) checks.push([`killed mid-build: ${r.killed_mid_build}`, r.killed_mid_build]);
console.log(`  build took ${(r.build_ms / 1000).toFixed(1)} s with ${r.writes_during_build} writes meanwhile (${((nodes / r.build_ms) * 1000).toFixed(0)} nodes/s)`);
for (const [what, ok] of checks) console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${what}`);
mkdirSync('bench/results', { recursive: true });
writeFileSync(
  'bench/results/index-online-build.json',
  JSON.stringify(
    {
      nodes,
      writers,
      duplicates,
      kill,
      seed,
      outcome: r.outcome,
      build_ms: Math.round(r.build_ms),
      baseline_p99_ms: r.baseline_p99_ms,
      build_p99_ms: r.build_p99_ms,
      writes_during_build: r.writes_during_build,
      refused_duplicates: r.refused_duplicates,
      repairs: r.repairs.length,
      indexed_samples: r.indexed_samples.map(String),
      checks: checks.map(([what, ok]) => ({ what, ok })),
      at: new Date().toISOString(),
    },
    null,
    2,
  ),
);
process.exitCode = checks.every(([, ok]) => ok) ? 0 : 1;
