import type { Catalog } from '../catalog/catalog.js';
import type { SnapshotView } from '../graph/view.js';
import { ComputedReads } from './computed-reads.js';

/**
 * The view a statement that writes reads through: computed properties evaluated at `read_ts_us`
 * (a decayed value, an expired TTL hidden), and every other record as stored. Temporal records are
 * not chosen by valid time here: a write edits the stored versions (docs/temporal.md).
 */
export function withComputedValues(view: SnapshotView, catalog: Catalog, read_ts_us: number): SnapshotView {
  return view.withLens(ComputedReads.of(catalog, read_ts_us), { read_ts_us, valid_us: read_ts_us });
}
