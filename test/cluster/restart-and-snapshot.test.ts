import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Database } from '../../src/server/database.js';
import { FAST_TIMING, TestGroup, majority, until } from './support.js';

const alone = { acks: 1, level: 'journal', timeout_ms: 0 } as const;

let group: TestGroup | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await group?.close();
  group = undefined;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function people(db: Database): number {
  return [...db.latestCommitted().nodesWithLabel('Person')].length;
}

describe('restart and catch-up of a replicated member', () => {
  it('a member restarted from a checkpoint taken before a join comes back with the voters the join made', async () => {
    group = new TestGroup();
    const founder = await group.open(1, false);
    for (let i = 0; i < 5; i++) await founder.db.write((ws) => ws.createNode(['Person'], new Map()), { concern: alone });
    founder.db.checkpoint();
    const checkpointed = founder.db.committedIndex;
    await group.open(2, true);
    await group.join(2);
    for (let i = 0; i < 5; i++) await founder.db.write((ws) => ws.createNode(['Person'], new Map()), { concern: majority });
    expect(founder.db.log.membership.conf_state.voters).toEqual([1, 2]);
    // A copy of the live directory is what a crash (kill -9) would leave: no closing checkpoint.
    const image = mkdtempSync(join(tmpdir(), 'weft-crash-image-'));
    dirs.push(image);
    cpSync(founder.dir, image, { recursive: true });
    await group.close();
    group = undefined;

    const again = await Database.open({
      data_dir: image,
      node_id: 1,
      mvcc_retention_secs: 300,
      checkpoint_interval_entries: 100_000,
      log_segment_bytes_max: 1 << 20,
      raft: FAST_TIMING,
    });
    try {
      // The checkpoint predates the join; the join was replayed from the log after it.
      expect(again.log.firstIndex).toBeLessThanOrEqual(checkpointed + 1);
      expect(again.log.membership.conf_state).toEqual({ voters: [1, 2], learners: [] });
      expect(again.log.membership.members.map((m) => m.address)).toEqual(['mem:1', 'mem:2']);
      expect(people(again)).toBe(10);
      // With two voters and its peer gone it must not lead alone.
      expect(again.log.isLeader).toBe(false);
    } finally {
      await again.close(0);
    }
  });

  it('a member joining behind the leader\'s compacted log is sent the newest checkpoint, installs it, and continues from the log', async () => {
    group = new TestGroup();
    const founder = await group.open(1, false, { checkpoint_interval_entries: 20, log_segment_bytes_max: 2048 });
    for (let i = 0; i < 120; i++) {
      await founder.db.write((ws) => ws.createNode(['Person'], new Map([['n', BigInt(i)]])), { concern: alone });
    }
    expect(founder.db.log.firstIndex).toBeGreaterThan(1);
    await group.open(2, true);
    await group.join(2);
    const joined = group.members.get(2)!;
    expect(founder.transport.sent.get('snap') ?? 0).toBeGreaterThan(0);
    await founder.db.write((ws) => ws.createNode(['Person'], new Map([['n', 120n]])), { concern: majority });
    await until(() => joined.db.committedIndex >= founder.db.committedIndex, 'the new member applied the newest write');
    expect(people(joined.db)).toBe(121);
    expect(Buffer.from(joined.db.deployment).equals(Buffer.from(founder.db.deployment))).toBe(true);
    // The snapshot arrived as a file and was installed by renaming it among the checkpoints: nothing is left where it was received.
    expect(readdirSync(join(joined.dir, 'snapshot-incoming'))).toEqual([]);
    expect(readdirSync(join(joined.dir, 'checkpoints')).some((f) => f.endsWith('.ckpt'))).toBe(true);
  });
});
