/**
 * The simulator from the command line.
 *   npm run sim -- --seed 42            replay one seed (add --trace to print its events)
 *   npm run sim -- --seeds 10000        run seeds 1..10000 (or --from N)
 *   npm run sim -- --seeds 300 --bug double_vote   run with a deliberate bug (expects violations)
 */
import { runSimulation } from './cluster.js';
import { defaultOptions } from './options.js';

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const bug = flag('bug');
const unsafe_bugs = bug === undefined ? {} : { [bug]: true };
const one = flag('seed');
if (one !== undefined) {
  const result = runSimulation(defaultOptions(Number(one), { unsafe_bugs }), process.argv.includes('--trace'));
  for (const line of result.trace) console.log(line);
  console.log(JSON.stringify({ seed: result.seed, liveness_ticks: result.liveness_ticks, stats: result.stats }));
  for (const v of result.violations) console.log(`VIOLATION ${v}`);
  process.exitCode = result.violations.length > 0 ? 1 : 0;
} else {
  const count = Number(flag('seeds') ?? '1000');
  const from = Number(flag('from') ?? '1');
  const started = Date.now();
  let failures = 0;
  let liveness_max = 0;
  for (let seed = from; seed < from + count; seed++) {
    const result = runSimulation(defaultOptions(seed, { unsafe_bugs }));
    liveness_max = Math.max(liveness_max, result.liveness_ticks ?? Infinity);
    if (result.violations.length > 0) {
      failures++;
      console.log(`seed ${seed}: ${result.violations[0]} (replay: npm run sim -- --seed ${seed}${bug ? ` --bug ${bug}` : ''})`);
    }
    if ((seed - from + 1) % 500 === 0) console.log(`... ${seed - from + 1} seeds, ${failures} failing, ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  console.log(`${count} seeds from ${from}: ${failures} failing; slowest liveness ${liveness_max} ticks; ${((Date.now() - started) / 1000).toFixed(1)} s`);
  process.exitCode = failures > 0 ? 1 : 0;
}
