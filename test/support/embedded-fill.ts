import { Database } from '../../src/server/database.js';

/**
 * Fills a member's log before it serves: the data directory is opened in this process as a group of
 * one (the member it will be, with the peer address and identity it will have), and `entries`
 * ordinary CreateNode writes go through the same write path a server's go (one log entry each,
 * answered once journaled), `concurrency` at a time so many share an fsync. The directory is then
 * closed and started as the group's leader. Each node carries its write's sequence number `seq`, so
 * a member's state can be summed and compared with another's.
 */
export interface EmbeddedFill {
  readonly data_dir: string;
  readonly entries: number;
  readonly concurrency: number;
  readonly payload: string;
  readonly log_segment_bytes_max: number;
  readonly checkpoint_interval_entries: number;
  /** The peer address and identity the member will serve under (recorded in the founding membership entry). */
  readonly self: { readonly address: string; readonly identity: string };
}

const journaled = { acks: 1, level: 'journal', timeout_ms: 0 } as const;

export async function fillEmbedded(o: EmbeddedFill): Promise<{ readonly fill_s: number; readonly last_index: number }> {
  const db = await Database.open({
    data_dir: o.data_dir,
    node_id: 1,
    mvcc_retention_secs: 300,
    checkpoint_interval_entries: o.checkpoint_interval_entries,
    log_segment_bytes_max: o.log_segment_bytes_max,
    self: o.self,
  });
  try {
    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: o.concurrency }, async () => {
        while (next < o.entries) {
          const seq = BigInt(next++);
          await db.write((ws) => ws.createNode(['Fill'], new Map<string, string | bigint>([['payload', o.payload], ['seq', seq]])), { concern: journaled });
        }
      }),
    );
    return { fill_s: (performance.now() - started) / 1000, last_index: db.committedIndex };
  } finally {
    await db.close();
  }
}
