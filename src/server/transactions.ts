import { randomInt } from 'node:crypto';
import type { VectorSession } from './vector-reads.js';
import { failedPrecondition, invalidArgument, notFound, resourceExhausted } from '../common/errors.js';
import type { ConcernWait } from '../log/driver/log-driver.js';
import type { ExpectedVersion } from '../log/events.js';
import { WriteSet } from '../projections/graph/write-set.js';
import { withComputedValues } from '../projections/computed/computed-view.js';
import { ComputedReads } from '../projections/computed/computed-reads.js';
import type { ReadLens } from '../projections/graph/read-lens.js';
import type { Database, Receipt } from './database.js';
import { transactionTerminated, type RunningQuery, type TerminateOutcome, type TransactionInfo } from '../query/execute/transaction-admin.js';
import { transactionName, type TransactionSource } from './running-transactions.js';

/** The transaction id in a name `transactionName` made; 0 (no transaction) for any other text. */
function idOfName(name: string): bigint {
  const m = /^weft-transaction-([1-9][0-9]{0,18})$/.exec(name);
  return m === null ? 0n : BigInt(m[1]!);
}

/**
 * Interactive transactions (SPEC 3.4). A transaction pins the latest committed snapshot; its
 * statements read that snapshot plus their own buffered writes and write into the buffer. Commit
 * proposes the buffer as one entry carrying the `expect` list and the read set; apply refuses it
 * whole if an expectation fails or anything it read was written after its snapshot. See
 * docs/transactions.md for the isolation this gives.
 */
export interface TransactionLimits {
  readonly idle_timeout_ms: number;
  readonly open_max: number;
}

export interface Transaction {
  readonly id: bigint;
  /** The pinned snapshot: its read index and commit_ts. */
  readonly read_index: number;
  readonly snapshot_ts: number;
  /**
   * Epoch microseconds every statement of the transaction evaluates computed properties at: the
   * member's clock at BeginTransaction, so its reads repeat like the rest of its snapshot
   * (docs/computed-properties.md). Undefined: its statements read stored values only.
   */
  readonly read_ts_us: number | undefined;
  readonly ws: WriteSet;
  last_used_ms: number;
  /** Set while a statement runs; statements of one transaction run one at a time. */
  busy: boolean;
  /** `SET vector_consistency` and `vector_build_wait` for the transaction's later statements. */
  readonly session: VectorSession;
  /**
   * Computed properties at `read_ts_us`, as the snapshot is read through: each statement also sees
   * the transaction's own earlier writes through it (an expired TTL hides them as it hides
   * committed data). Undefined when no label declares a computed property or `read_ts_us` is.
   */
  readonly lens: ReadLens | undefined;
  /** Epoch ms of BeginTransaction (SHOW TRANSACTIONS' startTime). */
  readonly start_ms: number;
  /** The statement running now and how to stop it (TERMINATE TRANSACTIONS); undefined between statements. */
  running: { readonly query: RunningQuery; readonly abort: AbortController } | undefined;
  /** Set while its commit is under way: past the point where it can be terminated. */
  committing: boolean;
}

/** Terminated transactions remembered so their client is told so (not NOT_FOUND); the oldest is forgotten first. */
const terminated_remembered_max = 1024;

export class Transactions implements TransactionSource {
  private readonly open = new Map<bigint, Transaction>();
  /** Ids of transactions TERMINATE TRANSACTIONS ended, oldest first. Invariant: size <= terminated_remembered_max. */
  private readonly terminated = new Set<bigint>();
  /** Ids taken by others (the running auto-committed statements), which a new transaction's name must avoid. */
  private taken: (name: string) => boolean = () => false;
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly db: Database,
    private readonly limits: TransactionLimits,
    private readonly now: () => number = Date.now,
  ) {
    this.sweeper = setInterval(() => this.sweep(), Math.max(100, Math.min(1000, limits.idle_timeout_ms / 4)));
    this.sweeper.unref();
    db.pinSource(() => this.oldestPinnedIndex());
  }

  get count(): number {
    return this.open.size;
  }

  /**
   * Opens a transaction on the latest committed snapshot. With `read_ts_us`, its write set reads
   * through computed properties evaluated then, as a statement that writes does: a decayed value,
   * an expired TTL hidden, the stored versions of temporal records; its writes are diffed against
   * that view, so a computed property is never stored.
   */
  begin(read_ts_us?: number): Transaction {
    if (this.open.size >= this.limits.open_max) {
      throw resourceExhausted(`${this.open.size} transactions are open, the most this member allows; commit or roll back some`, 'TOO_MANY_TRANSACTIONS', {
        limit: String(this.limits.open_max),
      });
    }
    const read_index = this.db.committedIndex;
    const view = this.db.sm.viewAt(read_index);
    let id = 0n;
    while (id === 0n || this.open.has(id) || this.terminated.has(id) || this.taken(transactionName(id))) id = BigInt(randomInt(1, 2 ** 48 - 1));
    const tx: Transaction = {
      id,
      read_index,
      snapshot_ts: this.db.lastCommittedTs,
      read_ts_us,
      ws: new WriteSet(read_ts_us === undefined ? view : withComputedValues(view, this.db.sm.schema.catalog, read_ts_us), this.db.ids, true),
      last_used_ms: this.now(),
      busy: false,
      session: {},
      lens: read_ts_us === undefined ? undefined : ComputedReads.of(this.db.sm.schema.catalog, read_ts_us),
      start_ms: this.now(),
      running: undefined,
      committing: false,
    };
    this.open.set(id, tx);
    return tx;
  }

  /** The open transaction `id`, or NOT_FOUND (unknown, committed, rolled back, or expired). */
  get(id: bigint): Transaction {
    const tx = this.open.get(id);
    if (tx === undefined) {
      if (this.terminated.has(id)) throw transactionTerminated(transactionName(id));
      throw notFound(`transaction ${id} is not open: unknown, already ended, or expired after ${this.limits.idle_timeout_ms} ms idle`, 'TRANSACTION_NOT_FOUND', {
        transaction_id: String(id),
      });
    }
    tx.last_used_ms = this.now();
    return tx;
  }

  /** Runs one statement of `tx` synchronously; a second concurrent statement is refused. */
  run<T>(tx: Transaction, statement: (ws: WriteSet) => T): T {
    if (tx.busy) throw failedPrecondition(`a statement is already running in transaction ${tx.id}`, 'TRANSACTION_BUSY');
    tx.busy = true;
    tx.ws.beginStatement(tx.lens);
    try {
      return statement(tx.ws);
    } finally {
      tx.busy = false;
      tx.last_used_ms = this.now();
    }
  }

  /**
   * `run` for a statement that pauses between time slices: the transaction stays busy until it ends.
   * The statement runs under `signal` (the call's) joined with the transaction's own, which
   * TERMINATE TRANSACTIONS aborts.
   */
  async runSliced<T>(tx: Transaction, query: RunningQuery, signal: AbortSignal, statement: (ws: WriteSet, signal: AbortSignal) => Promise<T>): Promise<T> {
    if (tx.busy) throw failedPrecondition(`a statement is already running in transaction ${tx.id}`, 'TRANSACTION_BUSY');
    tx.busy = true;
    tx.ws.beginStatement(tx.lens);
    const abort = new AbortController();
    tx.running = { query, abort };
    try {
      return await statement(tx.ws, AbortSignal.any([signal, abort.signal]));
    } finally {
      tx.running = undefined;
      tx.busy = false;
      tx.last_used_ms = this.now();
    }
  }

  /** Names taken elsewhere on the member (RunningTransactions.has), which new transactions avoid. */
  avoidNames(taken: (name: string) => boolean): void {
    this.taken = taken;
  }

  list(): Iterable<TransactionInfo> {
    return [...this.open.values()].map((tx) => ({
      transaction_id: transactionName(tx.id),
      kind: 'explicit' as const,
      start_ms: tx.start_ms,
      last_used_ms: tx.last_used_ms,
      state: tx.committing ? ('closing' as const) : ('running' as const),
      query: tx.running?.query,
    }));
  }

  /**
   * TERMINATE TRANSACTIONS: the statement running in it stops at its next time slice with the
   * Terminated error, its write set is dropped (nothing of it is proposed), and its client gets the
   * same error on any later use. A transaction whose commit is under way cannot be terminated.
   */
  terminate(name: string): TerminateOutcome | undefined {
    const id = idOfName(name);
    const tx = this.open.get(id);
    if (tx === undefined) return this.terminated.has(id) ? 'terminated' : undefined;
    if (tx.committing) return 'closing';
    tx.running?.abort.abort(transactionTerminated(name));
    this.open.delete(tx.id);
    this.terminated.add(tx.id);
    if (this.terminated.size > terminated_remembered_max) this.terminated.delete(this.terminated.values().next().value!);
    return 'terminated';
  }

  /**
   * Commits: the buffered writes as one entry, checked at apply against `expect` and the read set.
   * A transaction that wrote nothing and expects nothing commits at its pinned timestamp. The
   * transaction ends either way.
   */
  async commit(id: bigint, expect: readonly ExpectedVersion[], concern: ConcernWait): Promise<Receipt> {
    const tx = this.get(id);
    if (tx.busy) throw failedPrecondition(`a statement is still running in transaction ${id}`, 'TRANSACTION_BUSY');
    for (const e of expect) {
      if (e.version === 0) {
        this.open.delete(id);
        throw invalidArgument(`expected version of node ${e.node_id} is 0, which is never a version; omit it to require absence`);
      }
    }
    // Busy and still open while its ops are built in steps: its snapshot stays pinned (turning the
    // write set into ops reads the snapshot's versions) and no statement or second commit enters.
    // It ends once they are built, as it did when they were built in one go.
    tx.busy = true;
    tx.committing = true;
    const read_check = { read_ts: tx.snapshot_ts, node_ids: [...tx.ws.readNodes], edge_ids: [...tx.ws.readEdges] };
    const receipt = await this.db.commitWriteSet(tx.ws, read_check, expect, concern, () => this.open.delete(id));
    return receipt ?? { index: tx.read_index, commit_ts: tx.snapshot_ts };
  }

  /** A terminated transaction is already rolled back: rolling it back again answers nothing and forgets it. */
  rollback(id: bigint): void {
    if (this.terminated.delete(id)) return;
    this.get(id);
    this.open.delete(id);
  }

  /** The lowest read index an open transaction still reads at; the MVCC horizon stays below it. */
  oldestPinnedIndex(): number | undefined {
    let oldest: number | undefined;
    for (const tx of this.open.values()) if (oldest === undefined || tx.read_index < oldest) oldest = tx.read_index;
    return oldest;
  }

  private sweep(): void {
    const cutoff = this.now() - this.limits.idle_timeout_ms;
    for (const [id, tx] of this.open) if (!tx.busy && tx.last_used_ms < cutoff) this.open.delete(id);
  }

  close(): void {
    clearInterval(this.sweeper);
    this.open.clear();
  }
}
