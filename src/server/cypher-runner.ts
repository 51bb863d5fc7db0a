import { failedPrecondition, unimplemented } from '../common/errors.js';
import type { Value } from '../common/values/value.js';
import type { CypherCall, CypherOutcome, PlanNode } from '../api/query-service.js';
import { SnapshotView, type GraphReader } from '../projections/graph/view.js';
import { WriteSet } from '../projections/graph/write-set.js';
import { QueryEngine, type ExecuteContext, type Prepared, type QueryResult } from '../query/engine.js';
import type { IndexCatalog } from '../query/plan/explain.js';
import type { LookupKind } from '../projections/indexes/index-lookup.js';
import type { NodeState } from '../projections/graph/records.js';
import type { Database } from './database.js';
import { readWithComputed, wallClockMicros, type ReadClock } from './computed/read-views.js';

/**
 * Runs Cypher statements for the member: reads on a snapshot, auto-committed writes through the write
 * path (one log entry per statement), statements of a transaction in its write set. Schema statements
 * go to the catalog's admission, which the schema service shares.
 */
export type SchemaStatementHandler = (prepared: Prepared, call: CypherCall) => Promise<QueryResult>;

export class CypherRunner {
  private schemaHandler: SchemaStatementHandler | undefined;
  /** The read time of computed properties in current reads. */
  private clock: ReadClock = wallClockMicros;

  constructor(
    private readonly db: Database,
    readonly engine: QueryEngine = new QueryEngine({ indexes: indexCatalogOf(db) }),
  ) {}

  /** Where CREATE/DROP CONSTRAINT and CREATE/DROP INDEX go. */
  handleSchemaWith(handler: SchemaStatementHandler): void {
    this.schemaHandler = handler;
  }

  /** Where current reads take their read time (tests inject one). */
  useClock(clock: ReadClock): void {
    this.clock = clock;
  }

  async autoCommit(call: CypherCall, view: GraphReader): Promise<CypherOutcome> {
    const prepared = this.engine.prepare(call.text);
    const ctx = this.context(call);
    switch (prepared.kind) {
      case 'read': {
        // A read-only statement sees computed properties; a time-travel read at its own timestamp.
        const read = view instanceof SnapshotView ? readWithComputed(this.db, view, call.at_timestamp > 0 ? call.at_timestamp : this.clock()) : view;
        const result = this.engine.execute(prepared, read, ctx);
        return this.outcome(result, read, 0);
      }
      case 'write': {
        if (prepared.explain) return this.outcome(this.engine.execute(prepared, view, ctx), view, 0);
        if (call.at_timestamp > 0) throw failedPrecondition('a statement that writes cannot read at a past timestamp');
        const { value, receipt } = await this.db.write((ws) => this.engine.execute(prepared, ws, ctx), { concern: call.concern });
        // Values the statement returns are resolved against the state it wrote, pending or not.
        return this.outcome(value, this.db.sm.latestView(), receipt.commit_ts);
      }
      case 'schema': {
        if (this.schemaHandler === undefined) throw unimplemented('schema statements are not available on this server');
        return this.outcome(await this.schemaHandler(prepared, call), this.db.latestCommitted(), 0);
      }
      case 'session':
        throw unimplemented('SET vector_consistency has no effect until vector search is available');
    }
  }

  inTransaction(call: CypherCall, ws: WriteSet): Omit<CypherOutcome, 'applied_index' | 'commit_ts' | 'served_by_leader'> {
    const prepared = this.engine.prepare(call.text);
    if (prepared.kind === 'schema') throw failedPrecondition('schema statements run on their own, not inside a transaction');
    if (prepared.kind === 'session') throw unimplemented('SET vector_consistency has no effect until vector search is available');
    if (call.at_timestamp > 0) throw failedPrecondition('a statement inside a transaction reads the transaction snapshot; at_timestamp does not apply');
    const result = this.engine.execute(prepared, ws, this.context(call));
    return { columns: result.columns, rows: result.rows, stats: result.stats, refs: ws };
  }

  explain(text: string, params: ReadonlyMap<string, Value>): PlanNode {
    void params;
    return this.engine.explain(text, this.db.latestCommitted());
  }

  private context(call: CypherCall): ExecuteContext {
    return {
      params: call.params,
      memory_limit_bytes: call.memory_limit_bytes,
      ...(call.deadline_ms !== undefined ? { deadline_ms: call.deadline_ms } : {}),
      now_us: Date.now() * 1000,
      viewAt: (ts: number) => readWithComputed(this.db, this.db.viewAtTimestamp(ts), ts),
    };
  }

  private outcome(result: QueryResult, refs: GraphReader, commit_ts: number): CypherOutcome {
    return {
      columns: result.columns,
      rows: result.rows,
      stats: result.stats,
      refs,
      applied_index: this.db.committedIndex,
      commit_ts,
      served_by_leader: true,
    };
  }
}

/**
 * The planner's view of the member's B-tree indexes: which exist (for EXPLAIN's advice) and equality
 * seeks, over a snapshot or over a write set (the base snapshot's index, then the write set's own
 * nodes, which are in no index).
 */
export function indexCatalogOf(db: Database): IndexCatalog {
  return {
    hasIndex: (label, properties) => db.sm.schema.lookup(db.latestCommitted()).find(label, properties) !== undefined,
    seek: (reader, label, property, value) => seekIndex(db, reader, label, property, { kind: 'equal', value }),
    seekWhere: (reader, label, property, test) => seekIndex(db, reader, label, property, test),
  };
}

/**
 * A seek returns at most this fraction of its label's nodes, or `seek_nodes_min` if that is more;
 * past it a scan is cheaper. Walking an index costs about fifteen times what a scan costs per node
 * (a node read and a visibility check per entry, against a pass over a kept list), so the break-even
 * is near 6%.
 */
export const seek_fraction_max = 0.05;
export const seek_nodes_min = 1000;

/**
 * The nodes of `label` an index of `property` finds for `lookup` as `reader` sees them: the base
 * snapshot's index under a write set, whose own nodes (in no index) it adds. Undefined when no ready
 * index of the property exists, or when the entries the lookup walks name more nodes than a seek
 * should return (counted without reading a node).
 */
function seekIndex(db: Database, reader: GraphReader, label: string, property: string, lookup: LookupKind): Iterable<NodeState> | undefined {
  const snapshot = reader instanceof WriteSet ? reader.baseReader : reader;
  if (!(snapshot instanceof SnapshotView)) return undefined;
  const indexes = db.sm.schema.lookup(snapshot);
  const index = indexes.find(label, [property]);
  if (index === undefined) return undefined;
  const limit = Math.max(seek_nodes_min, seek_fraction_max * (snapshot.stats().label_counts.get(label) ?? 0));
  const count = indexes.countAtMost(index.index_id, lookup, limit);
  if (count !== undefined && count > limit) return undefined;
  const hits = indexes.lookup(index.index_id, lookup);
  return reader instanceof WriteSet ? reader.throughOverlay(hits, label) : hits;
}
