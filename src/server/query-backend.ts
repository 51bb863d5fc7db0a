import { deadlineExceeded } from '../common/errors.js';
import type { CsvSources } from '../query/execute/csv/csv-source.js';
import type { Value } from '../common/values/value.js';
import type { CypherCall, CypherOutcome, PlanNode, QueryBackend, ReadLevel } from '../api/query-service.js';
import type { ConcernDefaults } from '../log/write-concern.js';
import { ChangeFeed } from '../projections/change-feed.js';
import type { GraphReader } from '../projections/graph/view.js';
import type { Database } from './database.js';
import type { Transactions } from './transactions.js';
import { CypherRunner, indexCatalogOf, no_statement_limits, type SchemaStatementHandler, type StatementLimits } from './cypher-runner.js';
import { QueryEngine } from '../query/engine.js';
import { computedRefs, wallClockMicros, type ReadClock } from './computed/read-views.js';

/**
 * The member's side of QueryService: which snapshot a statement reads (read concern, causal fence,
 * time travel, transaction), and how its writes reach the log.
 */
export interface QueryBackendOptions {
  readonly read_concern: ReadLevel;
  readonly concern: ConcernDefaults;
  readonly query_memory_limit_mb: number;
  readonly vector_build_wait_ms: number;
  /** Where Cypher schema statements go (the catalog's admission). */
  readonly schema?: SchemaStatementHandler;
  /** The member's engine (its plan cache is reported in /metrics); a new one when absent. */
  readonly engine?: QueryEngine;
  /** Statement timeout and the cap on statements running at once. */
  readonly limits?: StatementLimits;
  /** The read time of computed properties; the wall clock when absent. */
  readonly read_clock?: ReadClock;
  /** Where LOAD CSV reads; every LOAD CSV is refused when absent. */
  readonly csv?: CsvSources;
}

export function memberQueryBackend(db: Database, txs: Transactions, options: QueryBackendOptions): QueryBackend {
  const feed = new ChangeFeed(db);
  const read_clock = options.read_clock ?? wallClockMicros;
  const runner = new CypherRunner(db, options.engine ?? new QueryEngine({ indexes: indexCatalogOf(db) }), options.limits ?? no_statement_limits);
  runner.vector_build_wait_ms = options.vector_build_wait_ms;
  runner.csv = options.csv;
  if (options.schema !== undefined) runner.handleSchemaWith(options.schema);
  if (options.read_clock !== undefined) runner.useClock(options.read_clock);
  // SHOW and TERMINATE TRANSACTIONS see the interactive transactions beside the running statements.
  runner.transactions.attach(txs);
  txs.avoidNames((name) => runner.transactions.has(name));
  return {
    // Voters decide what a majority is and bound acks.
    get members() {
      return db.log.voterCount;
    },
    defaults: { read_concern: options.read_concern, concern: options.concern, query_memory_limit_mb: options.query_memory_limit_mb, vector_build_wait_ms: options.vector_build_wait_ms },

    async runCypher(call: CypherCall): Promise<CypherOutcome> {
      if (call.after_index > 0) await awaitApplied(db, call.after_index, call.signal);
      if (call.level === 'LINEARIZABLE' && call.transaction_id === 0n) {
        // ReadIndex: the leader confirms with a heartbeat round that it still leads, then the read
        // waits until this member applied the commit index it named. A follower fails NOT_LEADER
        // here and the call is forwarded to the leader (src/server/cluster/forwarding.ts).
        const timeout_ms = call.deadline_ms !== undefined ? Math.max(1, call.deadline_ms - Date.now()) : read_index_timeout_ms;
        const index = await db.log.readIndex(timeout_ms);
        await awaitApplied(db, index, call.signal);
      }
      if (call.transaction_id !== 0n) {
        const tx = txs.get(call.transaction_id);
        const query = runner.transactions.query(call.text, call.params);
        const out = await txs.runSliced(tx, query, call.signal, (ws, signal) => runner.inTransactionSliced({ ...call, signal }, ws, tx.session, tx.read_ts_us));
        // Nodes it returns, its own writes included, carry computed properties at the transaction's read time.
        const refs = tx.read_ts_us === undefined ? out.refs : computedRefs(db, out.refs, tx.read_ts_us);
        return { ...out, refs, applied_index: db.committedIndex, commit_ts: 0, served_by_leader: db.log.isLeader };
      }
      const view: GraphReader = call.at_timestamp > 0 ? db.viewAtTimestamp(call.at_timestamp) : db.latestCommitted();
      return runner.autoCommit(call, view);
    },

    explainCypher(text: string, params: ReadonlyMap<string, Value>): PlanNode {
      return runner.explain(text, params);
    },

    begin() {
      const tx = txs.begin(read_clock());
      return { id: tx.id, snapshot_ts: tx.snapshot_ts };
    },
    commit: (id, expect, concern) => txs.commit(id, expect, concern),
    rollback: (id) => txs.rollback(id),
    watch: (from_ts, signal) => feed.watch(from_ts, signal),
  };
}

/** How long a linearizable read waits for the leader to confirm its leadership when the call has no deadline. */
const read_index_timeout_ms = 5000;

/** Waits until this member applied `index` (a causal read), or until the call is cancelled. */
async function awaitApplied(db: Database, index: number, signal: AbortSignal): Promise<void> {
  if (db.log.applied >= index) return;
  await Promise.race([
    db.log.awaitApplied(index),
    new Promise<never>((_, reject) => {
      const fail = (): void => reject(deadlineExceeded(`log index ${index} was not applied here before the deadline`));
      if (signal.aborted) fail();
      signal.addEventListener('abort', fail, { once: true });
    }),
  ]);
}
