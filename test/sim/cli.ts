/**
 * The simulator from the command line.
 *   npm run sim -- --seed 42            replay one seed (add --trace to print its events)
 *   npm run sim -- --seeds 10000        run seeds 1..10000 (or --from N)
 *   npm run sim -- --seeds 300 --bug double_vote   run with a deliberate bug (expects violations);
 *     bugs: double_vote, commit_old_term_by_count, conf_change_while_pending (core), skips_sync,
 *     skips_vote_sync, snapshot_lost_reported_delivered (driver and transport)
 *   npm run sim -- --seeds 1000 --profile harsh    three members, long runs, more crashes and partitions
 *   npm run sim -- --seeds 1000 --profile churn    membership changes back to back
 */
import { runSimulation } from './cluster.js';
import { bugOptions, churnOptions, defaultOptions, harshOptions } from './options.js';

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const bug = flag('bug');
const profiles = { default: defaultOptions, harsh: harshOptions, churn: churnOptions } as const;
const profile_name = flag('profile') ?? 'default';
if (!(profile_name in profiles)) throw new Error(`unknown profile ${profile_name}; one of ${Object.keys(profiles).join(', ')}`);
const profile = profiles[profile_name as keyof typeof profiles];
const bug_overrides = bug === undefined ? {} : bugOptions(bug);
const replay = `${profile_name === 'default' ? '' : ` --profile ${profile_name}`}${bug ? ` --bug ${bug}` : ''}`;
const one = flag('seed');
if (one !== undefined) {
  const result = runSimulation(profile(Number(one), bug_overrides), process.argv.includes('--trace'));
  for (const line of result.trace) console.log(line);
  console.log(JSON.stringify({ seed: result.seed, liveness_ticks: result.liveness_ticks, stats: result.stats }));
  for (const v of result.violations) console.log(`VIOLATION ${v}`);
  process.exitCode = result.violations.length > 0 ? 1 : 0;
} else {
  const count = Number(flag('seeds') ?? '1000');
  const from = Number(flag('from') ?? '1');
  const started = Date.now();
  let failures = 0;
  const liveness: number[] = [];
  for (let seed = from; seed < from + count; seed++) {
    const result = runSimulation(profile(seed, bug_overrides));
    liveness.push(result.liveness_ticks ?? Infinity);
    if (result.violations.length > 0) {
      failures++;
      console.log(`seed ${seed}: ${result.violations[0]} (replay: npm run sim -- --seed ${seed}${replay})`);
    }
    if ((seed - from + 1) % 500 === 0) console.log(`... ${seed - from + 1} seeds, ${failures} failing, ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  liveness.sort((a, b) => a - b);
  const pct = (q: number): number => liveness[Math.min(liveness.length - 1, Math.floor(q * liveness.length))]!;
  console.log(
    `${count} seeds from ${from}: ${failures} failing; ticks to leader and commit after faults: p50 ${pct(0.5)}, p99 ${pct(0.99)}, max ${pct(1)}; ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  process.exitCode = failures > 0 ? 1 : 0;
}
