import { ComputedReads } from '../../projections/computed/computed-reads.js';
import type { SnapshotView } from '../../projections/graph/view.js';
import type { Database } from '../database.js';

/**
 * The read time of computed properties (docs/computed-properties.md): a current read evaluates at
 * the server's clock, so a value decays while nothing is written; a time-travel read evaluates at
 * the commit_ts it names, so it answers the same every time it is asked.
 */
export type ReadClock = () => number;

/** Epoch microseconds from the wall clock. */
export const wallClockMicros: ReadClock = () => Date.now() * 1000;

export function readWithComputed(db: Database, view: SnapshotView, read_ts_us: number): SnapshotView {
  return view.withComputed(ComputedReads.of(db.sm.schema.catalog, read_ts_us));
}
