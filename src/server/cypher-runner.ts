import { failedPrecondition, isWeftError, unimplemented } from '../common/errors.js';
import type { Value } from '../common/values/value.js';
import type { CypherCall, CypherOutcome, PlanNode } from '../api/query-service.js';
import { SnapshotView, type GraphReader } from '../projections/graph/view.js';
import { WriteSet } from '../projections/graph/write-set.js';
import { QueryEngine, type ExecuteContext, type Prepared, type QueryResult } from '../query/engine.js';
import type { IndexCatalog } from '../query/plan/explain.js';
import type { LookupKind } from '../projections/indexes/index-lookup.js';
import { searchCatalogOf } from './search-catalog.js';
import { applySessionSet, awaitVectorBuilds, resolveConsistency, type VectorSession } from './vector-reads.js';
import type { VectorConsistency } from '../query/bind/bound-statement.js';
import { zeroStats } from '../query/execute/context.js';
import { readOnlyBatches } from '../query/execute/in-transactions-op.js';
import type { RefResolver } from '../api/value-codec.js';
import { defaultConfig } from './config.js';
import type { NodeState } from '../projections/graph/records.js';
import type { Database } from './database.js';
import type { StatementGate } from './statement-gate.js';
import { SnapshotPins } from './snapshot-pins.js';
import { RunningTransactions, type StatementHandle } from './running-transactions.js';
import { abortReason } from '../query/execute/slices.js';
import { computedLens, computedRefs, readWithComputed, validTimeReader, wallClockMicros, type ReadClock } from './computed/read-views.js';
import { seek_fraction_max, seek_nodes_min } from '../query/plan/cardinality.js';
import type { CsvSources } from '../query/execute/csv/csv-source.js';

/**
 * Runs Cypher statements for the member: reads on a snapshot, auto-committed writes through the write
 * path (one log entry per statement), statements of a transaction in its write set. Schema statements
 * go to the catalog's admission, which the schema service shares.
 */
export type SchemaStatementHandler = (prepared: Prepared, call: CypherCall) => Promise<QueryResult>;

/** How long statements may run, and how many at once. */
export interface StatementLimits {
  /** Deadline of a statement whose call has none, in ms from its start; 0 for none. */
  readonly statement_timeout_ms: number;
  /** The cap on statements running at once; none when absent. */
  readonly gate?: StatementGate;
  /** What a statement's write set may hold, in MiB (EXCEEDS_WRITE_SET_LIMIT); none when absent. */
  readonly write_set_limit_mb?: number;
}

export const no_statement_limits: StatementLimits = { statement_timeout_ms: 0 };

/** Sliced runs of an auto-committed write refused for a conflict before it runs in one go. */
const sliced_write_attempts_max = 3;

export class CypherRunner {
  private schemaHandler: SchemaStatementHandler | undefined;
  /** Snapshots that sliced reads still read, held from collection (see SnapshotPins). */
  private readonly pins = new SnapshotPins();
  /** The server's `vector_build_wait_ms`: how long a statement waits for a vector index being built. */
  vector_build_wait_ms = defaultConfig.vector_build_wait_ms;
  private readonly indexes: IndexCatalog;
  /** The read time of computed properties in current reads. */
  private clock: ReadClock = wallClockMicros;
  /** Running statements and open transactions, for SHOW and TERMINATE TRANSACTIONS. */
  readonly transactions = new RunningTransactions();
  /** Where LOAD CSV reads; every LOAD CSV is refused when absent. */
  csv: CsvSources | undefined;

  constructor(
    private readonly db: Database,
    readonly engine: QueryEngine = new QueryEngine({ indexes: indexCatalogOf(db) }),
    private readonly limits: StatementLimits = no_statement_limits,
  ) {
    this.indexes = indexCatalogOf(db);
    db.pinSource(() => this.pins.oldest());
  }

  /** Where CREATE/DROP CONSTRAINT and CREATE/DROP INDEX go. */
  handleSchemaWith(handler: SchemaStatementHandler): void {
    this.schemaHandler = handler;
  }

  /** Where current reads take their read time (tests inject one). */
  useClock(clock: ReadClock): void {
    this.clock = clock;
  }

  /**
   * An auto-committed statement, its own implicit transaction: listed by SHOW TRANSACTIONS while it
   * runs, and stopped by TERMINATE TRANSACTIONS through its signal, as a cancelled call is.
   */
  async autoCommit(call: CypherCall, view: GraphReader): Promise<CypherOutcome> {
    const gate = this.limits.gate;
    const leave = gate?.enter();
    const handle = this.transactions.begin(call.text, call.params, call.signal);
    try {
      return await this.runAutoCommit({ ...call, signal: handle.signal }, view, handle);
    } finally {
      handle.end();
      leave?.();
    }
  }

  private async runAutoCommit(call: CypherCall, view: GraphReader, handle: StatementHandle): Promise<CypherOutcome> {
    const prepared = this.engine.prepare(call.text);
    const consistency = resolveConsistency(call.vector_consistency, undefined, call.level);
    const ctx = this.context(call, consistency);
    if (prepared.kind === 'read' || prepared.kind === 'write') {
      await awaitVectorBuilds(this.db, this.engine, this.indexes, prepared, consistency, { request: call.vector_build_wait_ms, server: this.vector_build_wait_ms }, call.signal);
    }
    const batched = prepared.statement.kind === 'query' && prepared.statement.in_transactions === true && !prepared.explain;
    if (batched && prepared.kind === 'write') return this.batchedStatement(prepared, call, ctx);
    switch (prepared.kind) {
      case 'read': {
        // In time slices on its snapshot: other calls are served between them, and a cancelled
        // call stops it at the next one. A read-only statement sees computed properties; a
        // time-travel read at its own timestamp.
        const unpin = view instanceof SnapshotView ? this.pins.pin(view.read_index) : undefined;
        try {
          const read = view instanceof SnapshotView ? readWithComputed(this.db, view, call.at_timestamp > 0 ? call.at_timestamp : this.clock()) : view;
          // A read-only CALL { } IN TRANSACTIONS has nothing to commit between its batches.
          const result = await this.engine.executeSliced(prepared, read, batched ? { ...ctx, batches: readOnlyBatches() } : ctx, call.signal);
          // A CURRENT search may return nodes written after the snapshot: they resolve in their current state.
          return this.outcome(result, withCurrentNodes(read, this.db), 0);
        } finally {
          unpin?.();
        }
      }
      case 'write': {
        if (prepared.explain) return this.outcome(this.engine.execute(prepared, view, ctx), view, 0);
        if (call.at_timestamp > 0) throw failedPrecondition('a statement that writes cannot read at a past timestamp');
        // Its reads see computed properties as a read-only statement does, at the same clock. It runs
        // in time slices on its own write set (nothing else reads or writes it), so a cancelled call
        // or a deadline stops it at its next slice with nothing proposed. A write that paused and was
        // overtaken by another on what it read is refused whole (nothing applied) and run again: an
        // auto-committed statement has no transaction for its caller to retry. After
        // `sliced_write_attempts_max` such refusals it runs once in one go, which nothing can overtake.
        for (let attempt = 1; attempt <= sliced_write_attempts_max; attempt++) {
          try {
            return await this.writeStatement(prepared, call, ctx, true, handle);
          } catch (e) {
            if (!isWeftError(e) || e.reason !== 'TRANSACTION_CONFLICT') throw e;
          }
        }
        // Run in one go it cannot be stopped part way: a termination that came meanwhile ends it here.
        if (call.signal.aborted) throw abortReason(call.signal);
        return await this.writeStatement(prepared, call, ctx, false, handle);
      }
      case 'schema': {
        if (this.schemaHandler === undefined) throw unimplemented('schema statements are not available on this server');
        // Admitted through the catalog, it is not stopped: TERMINATE answers that it is closing.
        handle.closing();
        return this.outcome(await this.schemaHandler(prepared, call), this.db.latestCommitted(), 0);
      }
      case 'session':
        throw failedPrecondition(
          'SET vector_consistency lasts for a session: run it inside a transaction, or give vector_consistency in the request or as a hint',
          'SESSION_REQUIRED',
        );
    }
  }

  /** One run of an auto-committed writing statement: in time slices on a pinned snapshot, or in one go. */
  private async writeStatement(prepared: Prepared, call: CypherCall, ctx: ExecuteContext, sliced: boolean, handle: StatementHandle): Promise<CypherOutcome> {
    const computed_at_us = this.clock();
    const lens = computedLens(this.db, computed_at_us);
    const writing: ExecuteContext = lens === undefined ? ctx : { ...ctx, write_lens: lens };
    const options = { concern: call.concern, computed_at_us };
    // Once its rows are built its entry is proposed: from then on it commits, whatever TERMINATE asks.
    const built = <T>(value: T): T => {
      handle.closing();
      return value;
    };
    const { value, receipt } = sliced
      ? await this.db.writeSliced(async (ws) => built(await this.engine.executeSliced(prepared, ws, { ...writing, writes_private: true }, call.signal)), options)
      : await this.db.write((ws) => built(this.engine.execute(prepared, ws, writing)), options);
    // Values the statement returns are resolved against the state it wrote, pending or not,
    // with their computed properties at the clock its reads saw.
    return this.outcome(value, computedRefs(this.db, this.db.sm.latestView(), computed_at_us), receipt.commit_ts);
  }

  /**
   * A statement holding `CALL { } IN TRANSACTIONS`: in time slices on its own write set, each batch
   * committed as an entry of its own when it ends (Database.writeInBatches). It is never run again
   * whole, as a plain write is after a conflict: its committed batches would be written twice; a
   * batch that conflicts is tried again by itself (in-transactions-op.ts).
   */
  private async batchedStatement(prepared: Prepared, call: CypherCall, ctx: ExecuteContext): Promise<CypherOutcome> {
    if (call.at_timestamp > 0) throw failedPrecondition('a statement that writes cannot read at a past timestamp');
    const computed_at_us = this.clock();
    const lens = computedLens(this.db, computed_at_us);
    const writing: ExecuteContext = lens === undefined ? ctx : { ...ctx, write_lens: lens };
    const { value, receipt } = await this.db.writeInBatches(
      (ws, batches) => this.engine.executeSliced(prepared, ws, { ...writing, writes_private: true, batches }, call.signal),
      { concern: call.concern, computed_at_us },
    );
    return this.outcome(value, computedRefs(this.db, this.db.sm.latestView(), computed_at_us), receipt.commit_ts);
  }

  /**
   * A statement of a transaction, run in one go on its write set. A SET of the session applies to its
   * later statements. A vector index still being built is not waited for here (a statement of a
   * transaction runs at once): its searches scan the label exactly.
   */
  inTransaction(call: CypherCall, ws: WriteSet, session: VectorSession = {}): Omit<CypherOutcome, 'applied_index' | 'commit_ts' | 'served_by_leader'> {
    const prepared = this.transactionStatement(call);
    if (prepared.kind === 'session') return this.sessionSet(prepared, session, ws);
    const leave = this.limits.gate?.enter();
    try {
      const result = this.engine.execute(prepared, ws, this.context(call, resolveConsistency(call.vector_consistency, session, 'TRANSACTION')));
      return { columns: result.columns, rows: result.rows, stats: result.stats, refs: ws };
    } finally {
      leave?.();
    }
  }

  /**
   * A statement of a transaction in time slices, writes included: the write set is the transaction's
   * own (its statements run one at a time) and reads its pinned snapshot, so nothing else reads or
   * writes it during a pause. A cancelled call stops it at its next slice, like a read.
   */
  async inTransactionSliced(
    call: CypherCall,
    ws: WriteSet,
    session: VectorSession = {},
    /** The transaction's read time of computed properties (Transaction.read_ts_us); stored values when absent. */
    read_ts_us?: number,
  ): Promise<Omit<CypherOutcome, 'applied_index' | 'commit_ts' | 'served_by_leader'>> {
    const prepared = this.transactionStatement(call);
    if (prepared.kind === 'session') return this.sessionSet(prepared, session, ws);
    const lens = read_ts_us === undefined ? undefined : computedLens(this.db, read_ts_us);
    const ctx: ExecuteContext = {
      ...this.context(call, resolveConsistency(call.vector_consistency, session, 'TRANSACTION')),
      writes_private: true,
      ...(lens !== undefined ? { write_lens: lens } : {}),
      // The member's clock at BeginTransaction: `datetime.transaction()` reads it in every statement.
      ...(read_ts_us !== undefined ? { transaction_now_us: read_ts_us } : {}),
    };
    const run = async (): Promise<QueryResult> => this.engine.executeSliced(prepared, ws, ctx, call.signal);
    const result = this.limits.gate === undefined ? await run() : await this.limits.gate.hold(run);
    return { columns: result.columns, rows: result.rows, stats: result.stats, refs: ws };
  }

  /** `SET vector_consistency = '...'` applies to the session's later statements. */
  private sessionSet(prepared: Prepared, session: VectorSession, ws: WriteSet): Omit<CypherOutcome, 'applied_index' | 'commit_ts' | 'served_by_leader'> {
    applySessionSet(prepared, session);
    return { columns: [], rows: [], stats: zeroStats(), refs: ws };
  }

  private transactionStatement(call: CypherCall): Prepared {
    const prepared = this.engine.prepare(call.text);
    if (prepared.kind === 'schema') throw failedPrecondition('schema statements run on their own, not inside a transaction');
    if (prepared.kind !== 'session' && call.at_timestamp > 0) {
      throw failedPrecondition('a statement inside a transaction reads the transaction snapshot; at_timestamp does not apply');
    }
    return prepared;
  }

  explain(text: string, params: ReadonlyMap<string, Value>): PlanNode {
    void params;
    return this.engine.explain(text, this.db.latestCommitted());
  }

  private context(call: CypherCall, vector_consistency: VectorConsistency): ExecuteContext {
    const timeout_ms = this.limits.statement_timeout_ms;
    const deadline_ms = call.deadline_ms ?? (timeout_ms > 0 ? Date.now() + timeout_ms : undefined);
    return {
      vector_consistency,
      params: call.params,
      memory_limit_bytes: call.memory_limit_bytes,
      ...(this.limits.write_set_limit_mb !== undefined ? { write_set_limit_bytes: this.limits.write_set_limit_mb * 1024 * 1024 } : {}),
      ...(deadline_ms !== undefined ? { deadline_ms } : {}),
      now_us: Date.now() * 1000,
      viewAt: (ts: number) => readWithComputed(this.db, this.db.viewAtTimestamp(ts), ts),
      validAt: validTimeReader(this.db, this.clock),
      transactions: this.transactions,
      ...(this.csv !== undefined && { csv: this.csv }),
    };
  }

  private outcome(result: QueryResult, refs: RefResolver, commit_ts: number): CypherOutcome {
    return {
      columns: result.columns,
      rows: result.rows,
      stats: result.stats,
      refs,
      applied_index: this.db.committedIndex,
      commit_ts,
      served_by_leader: this.db.log.isLeader,
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
    schemaObjects: () => ({ indexes: [...db.sm.schema.catalog.indexes.values()], constraints: [...db.sm.schema.catalog.constraints.values()] }),
    ...searchCatalogOf(db),
  };
}

// The planner weighs seeks by the same bounds (plan/cardinality.ts holds them and why).
export { seek_fraction_max, seek_nodes_min };

/**
 * The nodes of `label` an index of `property` finds for `lookup` as `reader` sees them: the base
 * snapshot's index under a write set, whose own nodes (in no index) it adds. Undefined when no ready
 * index of the property exists, or when the entries the lookup walks name more nodes than a seek
 * should return (counted without reading a node).
 */
function seekIndex(db: Database, reader: GraphReader, label: string, property: string, lookup: LookupKind): Iterable<NodeState> | undefined {
  const snapshot = reader instanceof WriteSet ? reader.baseReader : reader;
  if (!(snapshot instanceof SnapshotView)) return undefined;
  // An index holds a temporal node's newest version; a read at a valid time may need another one.
  if (snapshot.lens !== undefined && db.sm.schema.catalog.labels.get(label)?.temporal === true) return undefined;
  const indexes = db.sm.schema.lookup(snapshot);
  const index = indexes.find(label, [property]);
  if (index === undefined) return undefined;
  const limit = Math.max(seek_nodes_min, seek_fraction_max * (snapshot.stats().label_counts.get(label) ?? 0));
  const count = indexes.countAtMost(index.index_id, lookup, limit);
  if (count !== undefined && count > limit) return undefined;
  const hits = indexes.lookup(index.index_id, lookup);
  return reader instanceof WriteSet ? reader.throughOverlay(hits, label) : hits;
}

/** Node values of a read: as the snapshot has them, else (a CURRENT vector search's newer node) as committed now. */
function withCurrentNodes(view: GraphReader, db: Database): RefResolver {
  return {
    node: (id) => view.node(id) ?? db.latestCommitted().node(id),
    edge: (id) => view.edge(id),
  };
}
