import { assert } from '../../common/assert.js';
import { failedPrecondition, isWeftError, type StatusCode } from '../../common/errors.js';
import type { Value } from '../../common/values/value.js';
import { in_transactions_retry_seconds_default, in_transactions_rows_default, retrySeconds } from '../bind/bound-clause.js';
import { CypherError } from '../errors.js';
import type { LogicalOp, SubqueryBatch } from '../plan/logical.js';
import type { BatchCommits, ExecContext, PhysicalOp, Row, UpdateStats } from './context.js';
import { rowBytes, type OpEnv } from './read-ops.js';
import { after, type Flow, type Slices } from './slices.js';
import { WRITE_ENTRY_BYTES } from './write-ops.js';

type SubqueryOp = Extract<LogicalOp, { op: 'subquery' }>;

/**
 * Inner transactions of one batch tried again after a conflict with a write that came between the
 * batch's pauses, before the conflict counts as the batch's error.
 */
const batch_conflict_attempts_max = 3;

/**
 * Batches in flight at once for `IN CONCURRENT TRANSACTIONS` without a number; the manual leaves it to
 * the implementation (Neo4j: the processors). Here batches run on one thread and overlap only in
 * waiting for their commits, so a few suffice to keep the log busy.
 */
const in_transactions_concurrency_default = 4;
/** The most batches in flight, whatever n asks: each holds its rows until it commits. */
const in_transactions_concurrency_max = 64;

/** ON ERROR RETRY's first pause after a transient failure; each later pause doubles it, up to the max. */
const retry_backoff_ms_first = 5;
const retry_backoff_ms_max = 1000;

/**
 * Failures that end one inner transaction and that ON ERROR CONTINUE or BREAK may pass over: the
 * statement's own errors (a Cypher runtime error, a refusal at commit). A deadline, a cancellation,
 * a resource limit or a lost leadership end the whole statement whatever ON ERROR says.
 */
const batch_error_codes: ReadonlySet<StatusCode> = new Set(['INVALID_ARGUMENT', 'FAILED_PRECONDITION', 'ALREADY_EXISTS', 'ABORTED', 'NOT_FOUND', 'OUT_OF_RANGE']);

/** Inner transactions of read-only statements begun in this process, for their names. */
let read_only_transactions = 0;

/**
 * The batches of a statement that writes nothing (`CALL { MATCH ... RETURN ... } IN TRANSACTIONS`):
 * there is nothing to commit, so it runs as any read does, on its snapshot, wherever reads are served.
 */
export function readOnlyBatches(): BatchCommits {
  return {
    propose: () => Promise.resolve({ index: 0, committed: Promise.resolve(0) }),
    rollback: () => Promise.resolve(),
    transactionId: () => `weft-read-transaction-${++read_only_transactions}`,
    // A read is never overtaken, so it never retries: nothing waits on these.
    sleep: () => Promise.resolve(),
    now: () => 0,
  };
}

/** What `CALL { } IN TRANSACTIONS` needs and an explicit transaction cannot give (the manual: implicit transactions only). */
export function implicitTransactionRequired(): Error {
  return failedPrecondition(
    "A query with 'CALL { ... } IN TRANSACTIONS' can only be executed in an implicit transaction, but tried to execute in an explicit transaction.",
    'IMPLICIT_TRANSACTION_REQUIRED',
    { neo4j_code: 'Neo.DatabaseError.Transaction.TransactionStartFailed', gql_status: '25N17' },
  );
}

/**
 * `CALL { } IN TRANSACTIONS` (Neo4j 5 Cypher manual, "CALL subqueries in transactions"): the input
 * rows are taken in batches of `OF n ROWS` (1000 by default); the body runs once per row of a batch,
 * as a CALL subquery does, and then the batch's writes are committed as one log entry of their own
 * (BatchCommits), so a later batch reads what an earlier one wrote. The rows of a batch pass on only
 * once it has committed. A batch that fails is rolled back alone; then ON ERROR FAIL ends the
 * statement (earlier batches stay committed), CONTINUE passes the batch's rows on with the returned
 * columns null and goes on, BREAK does the same and runs no later batch (their rows pass with the
 * columns null too). ON ERROR RETRY first runs a batch that failed with a transient error (a conflict)
 * again, pausing with back-off, until its duration has passed since the first retry; then its THEN
 * mode applies as above. `REPORT STATUS AS s` gives each passing row its batch's status. With
 * CONCURRENT, a batch is proposed and the next one runs while it commits, up to n in flight; the rows
 * still pass on in the order of the batches.
 */
export function subqueryInTransactions(op: SubqueryOp, batch: SubqueryBatch, input: PhysicalOp, inner: PhysicalOp, env: OpEnv): PhysicalOp {
  const cx = env.cx;
  const rowsOf = batch.rows === undefined ? undefined : env.exprs.compile(batch.rows);
  const retryOf = batch.retry?.duration === undefined ? undefined : env.exprs.compile(batch.retry.duration);
  const retrying = batch.retry !== undefined;
  const concurrency = batch.concurrency === undefined ? undefined : env.exprs.compile(batch.concurrency);
  const columns = op.columns;
  const report = batch.report;
  return (arg, sink) => {
    if (cx.batches === undefined) throw implicitTransactionRequired();
    const commits = cx.batches;
    const size = batchSize(rowsOf === undefined ? in_transactions_rows_default : rowsOf(arg));
    const retry_ms = retryOf === undefined ? in_transactions_retry_seconds_default * 1000 : retryMillis(retryOf(arg));
    // Without CONCURRENT one batch at a time: each passes its rows on once committed, before the next runs.
    const in_flight_max = batch.concurrent ? concurrencyOf(concurrency === undefined ? undefined : concurrency(arg)) : 1;
    let pending: Row[] = [];
    let pendingBytes = 0;
    let broken = false;

    /** Passes `rows` on one by one; `status` is written into the report slot of each. */
    function* emit(rows: readonly Row[], status: Value): Slices {
      for (const row of rows) {
        if (report !== undefined) row[report] = status;
        const r = sink(row);
        if (r === false) return false;
        if (r !== true && !(yield* r)) return false;
      }
      return true;
    }

    /**
     * Batches proposed whose write concern is still awaited, oldest first, with the rows they pass on
     * once committed. Invariant: length < in_flight_max between batches.
     */
    const in_flight: { readonly out: Row[]; readonly held_bytes: number; readonly id: string; readonly committed: Promise<number> }[] = [];

    /** Waits for the oldest batch in flight to commit and passes its rows on. */
    function* settleOldest(): Slices {
      const head = in_flight.shift();
      assert(head !== undefined, 'settleOldest with no batch in flight');
      const committed = yield* waitFor(cx, head.committed);
      // Refusals came at the proposal: a wait that fails (leadership lost, a timeout) ends the statement.
      if (!committed.ok) throw committed.error;
      cx.memory.release(head.held_bytes);
      return yield* emit(head.out, status(true, true, head.id, null));
    }

    /** Passes on every batch in flight, in order, so that later rows follow them. */
    function* settleAll(): Slices {
      while (in_flight.length > 0) if (!(yield* settleOldest())) return false;
      return true;
    }

    /** One batch, from running the body on its rows to proposing it (and, past the concurrency, passing older ones on). */
    function* runBatch(rows: Row[]): Slices {
      if (broken) {
        for (const row of rows) for (const s of columns) row[s] = null;
        return yield* emit(rows, status(false, false, null, null));
      }
      const id = commits.transactionId();
      const stats: UpdateStats = { ...cx.stats };
      let failure: unknown;
      /** When the first retry was scheduled: ON ERROR RETRY's duration counts from there. */
      let retry_from_ms: number | undefined;
      for (let attempt = 1; ; attempt++) {
        const out: Row[] = [];
        const held = { bytes: 0 };
        failure = undefined;
        try {
          yield* runBody(rows, out, held);
        } catch (e) {
          if (!batchError(e)) throw e;
          failure = e;
        }
        // Whether proposed or dropped, what the write set held leaves it (WriteSet.restart).
        const entries = cx.writes?.entries ?? 0;
        const proposed = failure === undefined ? yield* waitFor(cx, commits.propose()) : undefined;
        const dropped = failure === undefined ? undefined : yield* waitFor(cx, commits.rollback());
        cx.memory.release(entries * WRITE_ENTRY_BYTES);
        const settled = proposed ?? dropped!;
        if (!settled.ok) {
          if (!batchError(settled.error)) throw settled.error;
          failure ??= settled.error;
        }
        if (failure === undefined && proposed?.ok === true) {
          in_flight.push({ out, held_bytes: held.bytes, id, committed: proposed.value.committed });
          while (in_flight.length >= in_flight_max) if (!(yield* settleOldest())) return false;
          return true;
        }
        cx.memory.release(held.bytes);
        Object.assign(cx.stats, stats);
        if (!transient(failure)) break;
        if (!retrying) {
          if (attempt >= batch_conflict_attempts_max) break;
          continue;
        }
        // The manual: at least one retry, then more until the duration has passed since the first.
        const now = commits.now();
        retry_from_ms ??= now;
        const left_ms = retry_from_ms + retry_ms - now;
        if (attempt > 1 && left_ms <= 0) break;
        const pause_ms = Math.min(retry_backoff_ms_first * 2 ** Math.min(attempt - 1, 30), retry_backoff_ms_max, Math.max(left_ms, 0));
        const slept = yield* waitFor(cx, commits.sleep(pause_ms));
        if (!slept.ok) throw slept.error;
      }
      // The batches before this one pass on first, whatever happens to it.
      if (!(yield* settleAll())) return false;
      if (batch.on_error === 'fail') throw failure;
      if (batch.on_error === 'break') broken = true;
      for (const row of rows) for (const s of columns) row[s] = null;
      return yield* emit(rows, status(true, false, id, failure instanceof Error ? failure.message : String(failure)));
    }

    /** The body on each row of the batch; the rows it passes on are kept in `out` until the commit. */
    function* runBody(rows: readonly Row[], out: Row[], held: { bytes: number }): Generator<undefined, void, undefined> {
      for (const row of rows) {
        let matched = false;
        const keep = (r: Row): boolean => {
          matched = true;
          const o = row.slice();
          if (r !== row) for (const s of columns) o[s] = r[s] ?? null;
          const bytes = rowBytes(o);
          cx.memory.reserve(bytes);
          held.bytes += bytes;
          out.push(o);
          return true;
        };
        const f: Flow = op.mode === 'unit' ? inner(row, () => true) : inner(row, keep);
        if (f !== true && f !== false) yield* f;
        if (op.mode === 'unit') {
          out.push(row);
        } else if (!matched && op.optional) {
          const o = row.slice();
          for (const s of columns) o[s] = null;
          out.push(o);
        }
      }
    }

    const flush = (): Flow => {
      const rows = pending;
      cx.memory.release(pendingBytes);
      pending = [];
      pendingBytes = 0;
      return runBatch(rows);
    };
    const flow = input(arg, (row) => {
      const copy = row.slice();
      const bytes = rowBytes(copy);
      cx.memory.reserve(bytes);
      pendingBytes += bytes;
      pending.push(copy);
      return pending.length >= size ? flush() : true;
    });
    const last = (): Flow => after(flush(), (ok) => (ok ? settleAll() : ok));
    return after(flow, (ok) => (!ok ? ok : pending.length > 0 ? last() : settleAll()));
  };
}

/** `OF n ROWS`, evaluated once per run: a positive INTEGER. */
function batchSize(v: Value): number {
  if (typeof v !== 'bigint' || v <= 0n) {
    throw new CypherError('ArgumentError', 'runtime', 'InvalidArgumentValue', `IN TRANSACTIONS OF n ROWS needs a positive INTEGER, not ${String(v)}`);
  }
  return v > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(v);
}

/**
 * `IN n CONCURRENT TRANSACTIONS`: how many batches may be in flight (proposed, their commit awaited)
 * while the next runs. Without n, `in_transactions_concurrency_default`; as the manual has it, a negative
 * n (a parameter) is that default less |n|, at least 1.
 */
function concurrencyOf(v: Value | undefined): number {
  if (v === undefined) return in_transactions_concurrency_default;
  if (typeof v !== 'bigint' || v === 0n) {
    throw new CypherError('ArgumentError', 'runtime', 'InvalidArgumentValue', `IN n CONCURRENT TRANSACTIONS needs a non-zero INTEGER, not ${String(v)}`);
  }
  if (v < 0n) return Math.max(1, in_transactions_concurrency_default + Number(v < -1000n ? -1000n : v));
  return v > BigInt(in_transactions_concurrency_max) ? in_transactions_concurrency_max : Number(v);
}

/** ON ERROR RETRY's duration, evaluated once per run: an INTEGER or FLOAT of seconds, at least 0. */
function retryMillis(v: Value): number {
  if (!retrySeconds(v)) {
    throw new CypherError('ArgumentError', 'runtime', 'InvalidArgumentValue', `ON ERROR RETRY FOR d SECONDS needs an INTEGER or FLOAT of at least 0, not ${String(v)}`);
  }
  return Number(v) * 1000;
}

/** A failure that running the batch again may not meet: it was overtaken by another write (a conflict). */
function transient(e: unknown): boolean {
  return isWeftError(e) && e.reason === 'TRANSACTION_CONFLICT';
}

function batchError(e: unknown): boolean {
  return isWeftError(e) && batch_error_codes.has(e.code);
}

/** REPORT STATUS's map: the manual's four keys. */
function status(started: boolean, committed: boolean, transactionId: string | null, errorMessage: string | null): Value {
  return new Map<string, Value>([
    ['started', started],
    ['committed', committed],
    ['transactionId', transactionId],
    ['errorMessage', errorMessage],
  ]);
}

type Settled<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: unknown };

/** Pauses the statement until `work` settles: the driver awaits Deadline.waiting before the next slice. */
function* waitFor<T>(cx: ExecContext, work: Promise<T>): Generator<undefined, Settled<T>, undefined> {
  let settled: Settled<T> | undefined;
  cx.deadline.waiting = work.then(
    (value) => void (settled = { ok: true, value }),
    (error: unknown) => void (settled = { ok: false, error }),
  );
  yield;
  assert(settled !== undefined, 'a batch of IN TRANSACTIONS resumed before its commit settled: the statement must run under a driver');
  return settled;
}
