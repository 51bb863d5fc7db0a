import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Database } from '../../src/server/database.js';

const journaled = { acks: 1, level: 'journal', timeout_ms: 0 } as const;

describe('time travel', () => {
  it('1,000 versions of a node each read back at their commit_ts, also after a restart; past the retention window reads fail UNAVAILABLE', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-tt-'));
    let now = 1_800_000_000_000_000; // microseconds; a clock the test moves
    const options = {
      data_dir: dir,
      node_id: 1,
      mvcc_retention_secs: 60,
      checkpoint_interval_entries: 400,
      log_segment_bytes_max: 1 << 20,
      clock: () => now,
    };
    try {
      let db = await Database.open(options);
      const { value: node } = await db.write((ws) => ws.createNode(['V'], new Map([['v', 0n]])), { concern: journaled });
      const stamps: number[] = [];
      for (let i = 1; i <= 1000; i++) {
        now += 1000;
        const { receipt } = await db.write((ws) => ws.setNodeProperties(node.id, new Map([['v', BigInt(i)]]), false), { concern: journaled });
        stamps.push(receipt.commit_ts);
      }
      const check = (d: Database): void =>
        stamps.forEach((ts, i) => {
          const seen = d.viewAtTimestamp(ts).node(node.id);
          expect(seen?.props.get('v')).toBe(BigInt(i + 1));
          expect(seen?.ts).toBe(ts);
          // Between two commits, the earlier one is what a read sees.
          expect(d.viewAtTimestamp(ts + 1).node(node.id)?.props.get('v')).toBe(BigInt(i + 1));
        });
      check(db);
      await db.close();
      db = await Database.open(options);
      check(db);

      // Two minutes later the first thousand versions are behind the 60 s window.
      now += 120_000_000;
      await db.write((ws) => ws.setNodeProperties(node.id, new Map([['v', -1n]]), false), { concern: journaled });
      now += 1000;
      await db.write((ws) => ws.setNodeProperties(node.id, new Map([['v', -2n]]), false), { concern: journaled });
      expect(() => db.viewAtTimestamp(stamps[0]!)).toThrow(expect.objectContaining({ code: 'UNAVAILABLE', reason: 'SNAPSHOT_TOO_OLD' }));
      expect(() => db.viewAtTimestamp(stamps[999]!)).toThrow(expect.objectContaining({ code: 'UNAVAILABLE' }));
      expect(db.latestCommitted().node(node.id)?.props.get('v')).toBe(-2n);
      // The old versions were collected: the chain holds only what the window needs.
      let versions = 0;
      for (let v = db.sm.graph.nodeRecord(node.id)?.head; v !== undefined; v = v.prev) versions++;
      expect(versions).toBeLessThanOrEqual(3);

      // A deleted node stays readable at its old timestamps while the window holds it, then goes.
      const { value: gone, receipt: made } = await db.write((ws) => ws.createNode(['V'], new Map()), { concern: journaled });
      now += 1000;
      await db.write((ws) => ws.deleteNode(gone.id, false), { concern: journaled });
      now += 1000;
      await db.write((ws) => ws.createNode(['W'], new Map()), { concern: journaled });
      expect(db.viewAtTimestamp(made.commit_ts).node(gone.id)).toBeDefined();
      expect(db.sm.graph.nodeRecord(gone.id)).toBeDefined();
      now += 120_000_000;
      await db.write((ws) => ws.createNode(['W'], new Map()), { concern: journaled });
      expect(db.sm.graph.nodeRecord(gone.id)).toBeUndefined();
      expect([...db.sm.graph.recordsWithLabel('V')].map((r) => r.id)).toEqual([node.id]);
      await db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
