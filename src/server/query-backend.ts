import { deadlineExceeded } from '../common/errors.js';
import type { Value } from '../common/values/value.js';
import type { CypherCall, CypherOutcome, PlanNode, QueryBackend, ReadLevel } from '../api/query-service.js';
import type { ConcernDefaults } from '../log/write-concern.js';
import { ChangeFeed } from '../projections/change-feed.js';
import type { GraphReader } from '../projections/graph/view.js';
import type { Database } from './database.js';
import type { Transactions } from './transactions.js';
import { CypherRunner, type SchemaStatementHandler } from './cypher-runner.js';
import type { ReadClock } from './computed/read-views.js';

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
  /** The read time of computed properties; the wall clock when absent. */
  readonly read_clock?: ReadClock;
}

export function memberQueryBackend(db: Database, txs: Transactions, options: QueryBackendOptions): QueryBackend {
  const feed = new ChangeFeed(db);
  const runner = new CypherRunner(db);
  if (options.schema !== undefined) runner.handleSchemaWith(options.schema);
  if (options.read_clock !== undefined) runner.useClock(options.read_clock);
  return {
    members: 1,
    defaults: { read_concern: options.read_concern, concern: options.concern, query_memory_limit_mb: options.query_memory_limit_mb, vector_build_wait_ms: options.vector_build_wait_ms },

    async runCypher(call: CypherCall): Promise<CypherOutcome> {
      if (call.after_index > 0) await awaitApplied(db, call.after_index, call.signal);
      if (call.transaction_id !== 0n) {
        const tx = txs.get(call.transaction_id);
        const out = txs.run(tx, (ws) => runner.inTransaction(call, ws));
        return { ...out, applied_index: db.committedIndex, commit_ts: 0, served_by_leader: true };
      }
      const view: GraphReader = call.at_timestamp > 0 ? db.viewAtTimestamp(call.at_timestamp) : db.latestCommitted();
      return runner.autoCommit(call, view);
    },

    explainCypher(text: string, params: ReadonlyMap<string, Value>): PlanNode {
      return runner.explain(text, params);
    },

    begin() {
      const tx = txs.begin();
      return { id: tx.id, snapshot_ts: tx.snapshot_ts };
    },
    commit: (id, expect, concern) => txs.commit(id, expect, concern),
    rollback: (id) => txs.rollback(id),
    watch: (from_ts, signal) => feed.watch(from_ts, signal),
  };
}

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
