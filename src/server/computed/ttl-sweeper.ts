import type { ConcernWait } from '../../log/driver/log-driver.js';
import type { ComputedPropertySpec, TtlExpired } from '../../log/events.js';
import { expiryOps, findExpired } from '../../projections/computed/ttl-expiry.js';
import type { Database } from '../database.js';
import type { ReadClock } from './read-views.js';

/**
 * The leader's TTL sweeper: finds nodes whose TTL expired by its clock and proposes one
 * `ttl_expired` entry for them, so every member and every replay removes the same data. Reads hide
 * expired data at once (computed-reads.ts); the entry makes the removal durable and frees the space.
 */
export interface TtlSweeperOptions {
  /** Most expirations one entry carries; the next sweep takes the rest. */
  readonly expire_batch_max: number;
  readonly concern: () => ConcernWait;
  readonly clock: ReadClock;
}

export interface SweepOutcome {
  readonly expired: number;
  /** Longest time between an expiry instant and this sweep, seconds; 0 when nothing expired. */
  readonly lag_secs: number;
}

export class TtlSweeper {
  /** Expirations committed by this sweeper, by scope. */
  readonly expired_total = new Map<ComputedPropertySpec['scope'], number>();
  /** Lag of the last sweep that expired something, seconds. */
  lag_secs = 0;
  private running = false;

  constructor(
    private readonly db: Database,
    private readonly o: TtlSweeperOptions,
  ) {}

  /** One sweep at the clock's time. A sweep under way makes a second call a no-op. */
  async sweep(): Promise<SweepOutcome> {
    // Expiry enters the log through the leader; every other member learns it from the log (reads
    // hide expired data on every member meanwhile).
    if (this.running || !this.db.log.acceptsWrites) return { expired: 0, lag_secs: 0 };
    this.running = true;
    try {
      const as_of_us = this.o.clock();
      const { catalog } = this.db.sm.schema;
      const graph = this.db.sm.graph;
      // Each node alone must pass the write checks; one that cannot (say a FIELD TTL on a required
      // anchor) stays hidden by reads and is not proposed again and again as a refused entry.
      const found = findExpired(catalog, graph, as_of_us, this.o.expire_batch_max).filter((f) => {
        const ops = expiryOps({ kind: 'ttl_expired', as_of_us, expired: [f] }, catalog, graph);
        return (graph.checkOps(ops) ?? this.db.sm.schema.checkGraphWrite(ops)) === undefined;
      });
      if (found.length === 0) return { expired: 0, lag_secs: 0 };
      const event: TtlExpired = {
        kind: 'ttl_expired',
        as_of_us,
        expired: found.map(({ node_id, label, property }) => ({ node_id, label, property })),
      };
      await this.db.submit(event, this.o.concern());
      const lag_secs = Math.max(...found.map((f) => (as_of_us - f.expiry_us) / 1_000_000));
      for (const f of found) this.expired_total.set(f.scope, (this.expired_total.get(f.scope) ?? 0) + 1);
      this.lag_secs = lag_secs;
      return { expired: found.length, lag_secs };
    } finally {
      this.running = false;
    }
  }
}
