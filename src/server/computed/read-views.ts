import { ComputedReads } from '../../projections/computed/computed-reads.js';
import { chainLenses, type ReadLens } from '../../projections/graph/read-lens.js';
import { failedPrecondition } from '../../common/errors.js';
import { SnapshotView, type GraphReader, type ReadTimes } from '../../projections/graph/view.js';
import { ValidTimeReads } from '../../projections/temporal/valid-time-reads.js';
import type { Database } from '../database.js';
import type { RefResolver } from '../../api/value-codec.js';
import type { NodeState } from '../../projections/graph/records.js';

/**
 * The read time of computed properties (docs/computed-properties.md): a current read evaluates at
 * the server's clock, so a value decays while nothing is written; a time-travel read evaluates at
 * the commit_ts it names, so it answers the same every time it is asked. Temporal records are read
 * at the same instant unless the statement names a valid time (docs/temporal.md).
 */
export type ReadClock = () => number;

/** Epoch microseconds from the wall clock. */
export const wallClockMicros: ReadClock = () => Date.now() * 1000;

export function readWithComputed(db: Database, view: SnapshotView, read_ts_us: number): SnapshotView {
  return readAt(db, view, { read_ts_us, valid_us: read_ts_us });
}

/** The same snapshot at another valid time, its computed properties still evaluated at its read time. */
export function readAtValidTime(db: Database, view: SnapshotView, valid_us: number, clock: ReadClock): SnapshotView {
  return readAt(db, view, { read_ts_us: view.times?.read_ts_us ?? clock(), valid_us });
}

/**
 * The `validAt` of a statement's execute context: a snapshot read again at the valid time its
 * `valid_at` hint names. A transaction's write set reads the stored versions and refuses it.
 */
export function validTimeReader(db: Database, clock: ReadClock): (graph: GraphReader, valid_us: number) => GraphReader {
  return (graph, valid_us) => {
    if (!(graph instanceof SnapshotView)) {
      throw failedPrecondition('valid_at reads a snapshot; a statement inside a transaction reads the stored versions', 'VALID_AT_IN_TRANSACTION');
    }
    return readAtValidTime(db, graph, valid_us, clock);
  };
}

function readAt(db: Database, view: SnapshotView, times: ReadTimes): SnapshotView {
  const catalog = db.sm.schema.catalog;
  // The valid version is chosen first: a DECAY reads the anchor of the version it belongs to.
  return view.withLens(chainLenses(ValidTimeReads.of(catalog, times.valid_us), ComputedReads.of(catalog, times.read_ts_us)), times);
}

/**
 * How a write reads the nodes it wrote and returns: computed properties evaluated at `read_ts_us`,
 * every stored property as written (ExecuteContext.write_lens). Undefined when no label declares one.
 */
export function computedLens(db: Database, read_ts_us: number): ReadLens | undefined {
  return ComputedReads.of(db.sm.schema.catalog, read_ts_us);
}

/**
 * A node a write returns (GraphService's created nodes) through `computedLens`. A node the read time
 * hides (created with an anchor already past its TTL) is returned as stored: the write did happen,
 * and the sweep removes it through the log.
 */
export function computedNode<N extends NodeState>(db: Database, node: N, read_ts_us: number): N {
  return computedLens(db, read_ts_us)?.node(node) ?? node;
}

/** `refs` with every node seen as `computedNode` sees it: the values a writing statement returns. */
export function computedRefs(db: Database, refs: RefResolver, read_ts_us: number): RefResolver {
  const lens = computedLens(db, read_ts_us);
  if (lens === undefined) return refs;
  return {
    node: (id) => {
      const node = refs.node(id);
      return node === undefined ? undefined : (lens.node(node) ?? node);
    },
    edge: (id) => refs.edge(id),
  };
}
