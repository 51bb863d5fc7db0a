import type { Value } from '../common/values/value.js';
import { transactionTerminated, type RunningQuery, type TerminateOutcome, type TransactionAdmin, type TransactionInfo } from '../query/execute/transaction-admin.js';

/**
 * The member's registry of transactions for SHOW and TERMINATE TRANSACTIONS: auto-committed statements,
 * each its own implicit transaction, kept here while they run; and the open interactive transactions of
 * a `TransactionSource` (transactions.ts). Terminating one aborts the signal its statement runs under,
 * the signal a cancelled call aborts: the statement stops at its next time slice with nothing of it
 * proposed, as a deadline stops it.
 */
export interface TransactionSource {
  list(): Iterable<TransactionInfo>;
  /** Undefined when `id` is none of its transactions. */
  terminate(id: string): TerminateOutcome | undefined;
}

/** An auto-committed statement while it runs. */
export interface StatementHandle {
  readonly transaction_id: string;
  /** Aborted when the call is cancelled or the statement is terminated. */
  readonly signal: AbortSignal;
  /** Its work is done and its commit under way: no longer terminated (TERMINATE answers "closing"). */
  closing(): void;
  /** Leaves the registry. */
  end(): void;
}

interface ImplicitEntry {
  info: TransactionInfo;
  readonly abort: AbortController;
}

/** Formats the manual's `<databaseName>-transaction-<id>`. */
export const transactionName = (n: number | bigint): string => `weft-transaction-${n}`;

export class RunningTransactions implements TransactionAdmin {
  private readonly implicit = new Map<string, ImplicitEntry>();
  private readonly sources: TransactionSource[] = [];
  private statements = 0;
  private queries = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /** Lists and terminates `source`'s transactions too (the interactive transactions of a server). */
  attach(source: TransactionSource): void {
    this.sources.push(source);
  }

  /** Whether `id` names a running auto-committed statement (interactive transactions avoid its ids). */
  has(id: string): boolean {
    return this.implicit.has(id);
  }

  /** A statement starting now, with the next query id. */
  query(text: string, parameters: ReadonlyMap<string, Value>): RunningQuery {
    return { query_id: `query-${++this.queries}`, text, parameters, start_ms: this.now() };
  }

  /** Registers an auto-committed statement; `outer` is the call's own signal (its cancellation and deadline). */
  begin(text: string, parameters: ReadonlyMap<string, Value>, outer?: AbortSignal): StatementHandle {
    let id: string;
    do id = transactionName(++this.statements);
    while (this.implicit.has(id) || this.namedBySource(id));
    const abort = new AbortController();
    const query = this.query(text, parameters);
    const entry: ImplicitEntry = { info: { transaction_id: id, kind: 'implicit', start_ms: query.start_ms, last_used_ms: query.start_ms, state: 'running', query }, abort };
    this.implicit.set(id, entry);
    const signal = outer === undefined ? abort.signal : AbortSignal.any([outer, abort.signal]);
    return {
      transaction_id: id,
      signal,
      closing: () => {
        if (entry.info.state === 'running') entry.info = { ...entry.info, state: 'closing' };
      },
      end: () => {
        this.implicit.delete(id);
      },
    };
  }

  list(): readonly TransactionInfo[] {
    const all = [...[...this.implicit.values()].map((e) => e.info), ...this.sources.flatMap((s) => [...s.list()])];
    return all.sort((a, b) => a.start_ms - b.start_ms);
  }

  terminate(id: string): TerminateOutcome {
    const entry = this.implicit.get(id);
    if (entry !== undefined) {
      if (entry.info.state === 'closing') return 'closing';
      if (entry.info.state === 'running') {
        entry.info = { ...entry.info, state: 'terminated' };
        entry.abort.abort(transactionTerminated(id));
      }
      return 'terminated';
    }
    for (const source of this.sources) {
      const outcome = source.terminate(id);
      if (outcome !== undefined) return outcome;
    }
    return 'not_found';
  }

  private namedBySource(id: string): boolean {
    return this.sources.some((s) => [...s.list()].some((t) => t.transaction_id === id));
  }
}
