/**
 * Where a V8 CPU profile's time went: self time per function, heaviest first, optionally only
 * between two instants of the profile's clock (microseconds, the clock of `process.hrtime`, which
 * `bench/blob.ts` records for each of its cases in bench/results/blob.json).
 *
 *   npx tsx bench/cpu-profile-top.ts <file.cpuprofile> [--from <us>] [--to <us>] [--top 30]
 *   npx tsx bench/cpu-profile-top.ts <file.cpuprofile> --case <text> [--results bench/results/blob.json]
 *
 * `--case` takes the window of the first row of the results whose case contains the text.
 *
 * Prints a table: milliseconds of self time, share of the non-idle time, function and place.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
}

interface Profile {
  readonly nodes: readonly ProfileNode[];
  readonly startTime: number;
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};

const file = process.argv[2];
if (file === undefined || file.startsWith('--')) {
  console.error('usage: npx tsx bench/cpu-profile-top.ts <file.cpuprofile> [--from <us>] [--to <us>] [--top 30]');
  process.exit(2);
}
interface ResultRow {
  readonly case: string;
  readonly window_us?: readonly [number, number];
}

/** The window of a case of a bench's results, or the whole profile. */
function windowOf(case_text: string | undefined): readonly [number, number] {
  if (case_text === undefined) return [Number(arg('from') ?? -Infinity), Number(arg('to') ?? Infinity)];
  const results = JSON.parse(readFileSync(arg('results') ?? 'bench/results/blob.json', 'utf8')) as { readonly rows: readonly ResultRow[] };
  const row = results.rows.find((r) => r.case.includes(case_text) && r.window_us !== undefined);
  if (row?.window_us === undefined) throw new Error(`no case with a window contains "${case_text}"`);
  console.log(`case: ${row.case}`);
  return row.window_us;
}

const [from_us, to_us] = windowOf(arg('case'));
const top = Number(arg('top') ?? 30);

const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const names = new Map<number, string>();
for (const n of profile.nodes) {
  const { functionName, url, lineNumber } = n.callFrame;
  const place = url === '' ? '' : ` ${url.replace(/^.*\/(node_modules|src)\//, '$1/')}:${lineNumber + 1}`;
  names.set(n.id, `${functionName === '' ? '(anonymous)' : functionName}${place}`);
}

/** Self time per function name, in microseconds; a sample's time is the delta to the next one. */
const self_us = new Map<string, number>();
let at = profile.startTime;
let idle_us = 0;
let busy_us = 0;
for (let i = 0; i < profile.samples.length; i++) {
  at += profile.timeDeltas[i] ?? 0;
  const next = profile.timeDeltas[i + 1] ?? 0;
  if (at < from_us || at > to_us) continue;
  const name = names.get(profile.samples[i]!) ?? '?';
  if (name === '(idle)') {
    idle_us += next;
    continue;
  }
  busy_us += next;
  self_us.set(name, (self_us.get(name) ?? 0) + next);
}

console.log(`busy ${(busy_us / 1000).toFixed(0)} ms, idle ${(idle_us / 1000).toFixed(0)} ms`);
console.log('| self ms | share | function |');
console.log('|---:|---:|---|');
for (const [name, us] of [...self_us].sort((a, b) => b[1] - a[1]).slice(0, top)) {
  console.log(`| ${(us / 1000).toFixed(0)} | ${((100 * us) / busy_us).toFixed(1)}% | ${name} |`);
}
