/**
 * Learner catch-up through a snapshot: member 1 alone takes N 256-byte CreateNode writes (one log
 * entry each) with small log segments and a checkpoint every N/4 entries, so the start of its log is
 * deleted; member 2 is then joined and must be sent the newest checkpoint, catch up from the log
 * after it and be promoted (test/support/learner-catchup.ts). Prints the fill rate, the catch-up
 * time (JoinNode to voter) and each process's peak memory.
 *
 *   npx tsx bench/learner-catchup.ts [--entries 1000000] [--concurrency 64]
 *
 * Writes bench/results/learner-catchup.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { learnerCatchUp } from '../test/support/learner-catchup.js';

function flag(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const v = at >= 0 ? Number(process.argv[at + 1]) : fallback;
  if (!(Number.isSafeInteger(v) && v > 0)) throw new Error(`--${name} wants a positive integer, got ${process.argv[at + 1]}`);
  return v;
}

const entries = flag('entries', 1_000_000);
const concurrency = flag('concurrency', 64);
/** A million entries take minutes to ship and replay on a loaded machine. */
const catchup_wait_ms = 30 * 60 * 1000;

const r = await learnerCatchUp({ entries, concurrency, catchup_wait_ms });
console.log('| entries | fill s | fill writes/s | catch-up ms (join to voter) | learner log starts at | learner nodes | leader peak RSS MB | learner peak RSS MB |');
console.log('|---:|---:|---:|---:|---:|---:|---:|---:|');
console.log(
  `| ${r.entries} | ${r.fill_s.toFixed(1)} | ${r.fill_writes_per_s.toFixed(0)} | ${r.catchup_ms.toFixed(0)} | ${r.learner_log_first_index} | ${r.learner_nodes} | ${r.leader_rss_peak_mb.toFixed(0)} | ${r.learner_rss_peak_mb.toFixed(0)} |`,
);
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/learner-catchup.json', JSON.stringify({ ...r, concurrency, at: new Date().toISOString() }, null, 2));
