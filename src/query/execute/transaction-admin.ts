import type { Value } from '../../common/values/value.js';
import { aborted, type WeftError } from '../../common/errors.js';

/**
 * What `SHOW TRANSACTIONS` and `TERMINATE TRANSACTIONS` read and act on: the member's running
 * statements and open interactive transactions. The query engine only asks; the server keeps the
 * registry (src/server/running-transactions.ts) and hands it to each statement it runs.
 */
export interface TransactionAdmin {
  /** Every transaction known now, in the order they began. */
  list(): readonly TransactionInfo[];
  /** Ends the transaction `id` (its `transaction_id`) through the cancellation path of a deadline. */
  terminate(id: string): TerminateOutcome;
}

/** The outcomes TERMINATE TRANSACTIONS reports, one per id, in the manual's words. */
export type TerminateOutcome = 'terminated' | 'not_found' | 'closing';

export interface TransactionInfo {
  /** `weft-transaction-<n>`: the manual's `<databaseName>-transaction-<id>`. */
  readonly transaction_id: string;
  /** An auto-committed statement is its own (implicit) transaction; BeginTransaction opens an explicit one. */
  readonly kind: 'implicit' | 'explicit';
  /** Epoch milliseconds the transaction began. */
  readonly start_ms: number;
  /** Epoch milliseconds it was last used (an explicit transaction between statements is idle since then). */
  readonly last_used_ms: number;
  /** Running: a statement runs or the transaction waits for its next one; closing: its commit is under way. */
  readonly state: 'running' | 'closing' | 'terminated';
  /** The statement running in it, if any. */
  readonly query: RunningQuery | undefined;
}

export interface RunningQuery {
  /** `query-<n>`, unique on the member. */
  readonly query_id: string;
  readonly text: string;
  readonly parameters: ReadonlyMap<string, Value>;
  readonly start_ms: number;
}

/**
 * What the client of a terminated transaction gets, on the statement that was running and on any later
 * use of the transaction: the manual's "Transaction terminated" error, a transient one (ABORTED): the
 * same work may be sent again in a new transaction.
 */
export function transactionTerminated(transaction_id: string): WeftError {
  return aborted(
    `The transaction has been terminated. Retry your operation in a new transaction, and you should see a successful result. Explicitly terminated by the user. (${transaction_id})`,
    'TRANSACTION_TERMINATED',
    { neo4j_code: 'Neo.TransientError.Transaction.Terminated', transaction_id },
  );
}
