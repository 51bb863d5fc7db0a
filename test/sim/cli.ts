/**
 * The simulator from the command line.
 *   npm run sim -- --seed 42            replay one seed (add --trace to print its events)
 *   npm run sim -- --seeds 10000        run seeds 1..10000 (or --from N)
 *   npm run sim -- --seeds 300 --bug double_vote   run with a deliberate bug (expects violations)
 *   npm run sim -- --seeds 1000 --profile harsh    five members, more crashes and partitions, lossier network
 */
import { runSimulation } from './cluster.js';
import { defaultOptions, harshOptions } from './options.js';

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const bug = flag('bug');
const profile = flag('profile') === 'harsh' ? harshOptions : defaultOptions;
const unsafe_bugs = bug === undefined ? {} : { [bug]: true };
const one = flag('seed');
if (one !== undefined) {
  const result = runSimulation(profile(Number(one), { unsafe_bugs }), process.argv.includes('--trace'));
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
    const result = runSimulation(profile(seed, { unsafe_bugs }));
    liveness.push(result.liveness_ticks ?? Infinity);
    if (result.violations.length > 0) {
      failures++;
      console.log(`seed ${seed}: ${result.violations[0]} (replay: npm run sim -- --seed ${seed}${bug ? ` --bug ${bug}` : ''})`);
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
