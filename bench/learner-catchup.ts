/**
 * Learner catch-up through a snapshot: member 1 alone takes N 256-byte CreateNode writes (one log
 * entry each) with small log segments and a checkpoint every N/4 entries, so the start of its log is
 * deleted; member 2 is then joined and must be sent the newest checkpoint, catch up from the log
 * after it and be promoted (test/support/learner-catchup.ts). Prints the fill rate, the catch-up
 * time (JoinNode to voter), the snapshot's size, each process's resident memory (the leader's just
 * before the join and at its highest during the catch-up, the learner's highest during it) and
 * whether the learner's state equals the leader's.
 *
 * The fill is 'embedded' by default: member 1's data directory is filled in this process before it
 * serves (test/support/embedded-fill.ts), the same write path one entry per write; 'replicated'
 * writes over gRPC to the serving member instead.
 *
 *   npx tsx bench/learner-catchup.ts [--entries 1000000] [--concurrency 64] [--fill embedded|replicated]
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
const fill_at = process.argv.indexOf('--fill');
const fill = fill_at >= 0 ? process.argv[fill_at + 1] : 'embedded';
if (fill !== 'embedded' && fill !== 'replicated') throw new Error(`--fill wants embedded or replicated, got ${fill}`);
/** A million entries take minutes to ship and replay on a loaded machine. */
const catchup_wait_ms = 30 * 60 * 1000;

const r = await learnerCatchUp({ entries, concurrency, catchup_wait_ms, fill });
const same = JSON.stringify(r.leader_digest) === JSON.stringify(r.learner_digest);
console.log('| entries | fill | fill s | fill writes/s | snapshot MiB | catch-up ms (join to voter) | learner log starts at | leader RSS MiB before join | leader RSS MiB peak in catch-up | learner RSS MiB peak in catch-up | learner state = leader state |');
console.log('|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|');
console.log(
  `| ${r.entries} | ${fill} | ${r.fill_s.toFixed(1)} | ${r.fill_writes_per_s.toFixed(0)} | ${r.snapshot_mb.toFixed(0)} | ${r.catchup_ms.toFixed(0)} | ${r.learner_log_first_index} | ${r.leader_rss_before_join_mb.toFixed(0)} | ${r.leader_rss_catchup_peak_mb.toFixed(0)} | ${r.learner_rss_catchup_peak_mb.toFixed(0)} | ${same ? 'yes' : 'NO'} (${r.learner_digest.count} nodes, seq sum ${r.learner_digest.seq_sum}) |`,
);
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/learner-catchup.json', JSON.stringify({ ...r, fill, concurrency, learner_state_equal: same, at: new Date().toISOString() }, null, 2));
if (!same) process.exitCode = 1;
