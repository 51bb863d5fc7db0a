import { describe, expect, it } from 'vitest';
import { learnerCatchUp } from '../support/learner-catchup.js';

/** The default run's slice; `npm run bench:learner-catchup` runs a million entries. */
const entries = 2000;

describe('a learner joins a group whose log was compacted behind a checkpoint', () => {
  it(`${entries} entries, the early segments deleted: the learner is sent the checkpoint, catches up from the log after it, is promoted, and serves every node`, async () => {
    const r = await learnerCatchUp({ entries, concurrency: 64, catchup_wait_ms: 60_000 });
    console.log(`learner catch-up: ${r.entries} entries filled in ${r.fill_s.toFixed(1)} s, caught up and promoted in ${r.catchup_ms.toFixed(0)} ms`);
    expect(r.learner_log_first_index).toBeGreaterThan(1);
    expect(r.learner_nodes).toBe(entries);
    expect(r.learner_digest).toEqual(r.leader_digest);
  });

  it(`${entries} entries written into member 1's data directory before it serves: the same catch-up, the learner's state equal to the leader's`, async () => {
    const r = await learnerCatchUp({ entries, concurrency: 64, catchup_wait_ms: 60_000, fill: 'embedded' });
    console.log(`learner catch-up (embedded fill): ${r.entries} entries filled in ${r.fill_s.toFixed(1)} s, caught up and promoted in ${r.catchup_ms.toFixed(0)} ms`);
    expect(r.learner_log_first_index).toBeGreaterThan(1);
    expect(r.learner_digest).toEqual(r.leader_digest);
    expect(r.leader_digest).toMatchObject({ count: entries, seq_min: '0', seq_max: String(entries - 1) });
  });
});
