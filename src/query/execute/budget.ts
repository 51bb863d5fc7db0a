import { deadlineExceeded, resourceExhausted } from '../../common/errors.js';

/**
 * The statement's memory limit. Operators that hold rows or values (sort, aggregation, DISTINCT,
 * collect, a join's build side, eager buffers, the result) reserve an estimate of what they hold;
 * going over the limit fails the statement with RESOURCE_EXHAUSTED / EXCEEDS_MEMORY_BUDGET, and no
 * partial result is returned.
 */
export class MemoryBudget {
  private used = 0;
  private peak = 0;
  constructor(readonly limit_bytes: number) {}

  reserve(bytes: number): void {
    this.used += bytes;
    if (this.used > this.peak) {
      this.peak = this.used;
      if (this.used > this.limit_bytes) {
        throw resourceExhausted(
          `the statement needs more than its memory limit of ${this.limit_bytes} bytes`,
          'EXCEEDS_MEMORY_BUDGET',
          { limit_bytes: String(this.limit_bytes) },
        );
      }
    }
  }

  /**
   * A value that is built up step by step but not held by an operator (reduce's accumulator) must
   * still fit the budget, or a doubling loop would exhaust the process before anything is reserved.
   */
  checkTransient(bytes: number): void {
    if (this.used + bytes > this.limit_bytes) {
      throw resourceExhausted(
        `a value built by the statement needs more than its memory limit of ${this.limit_bytes} bytes`,
        'EXCEEDS_MEMORY_BUDGET',
        { limit_bytes: String(this.limit_bytes) },
      );
    }
  }

  release(bytes: number): void {
    this.used -= bytes;
  }

  get peak_bytes(): number {
    return this.peak;
  }
}

/** Rows between two clock reads: cheap enough to ignore, frequent enough to stop within milliseconds. */
export const DEADLINE_CHECK_ROWS = 1024;

/**
 * Longest a sliced statement runs before it gives the event loop back (checked every
 * DEADLINE_CHECK_ROWS rows, so a slice can run over by that many rows' work). Short enough that a
 * health check or a point write queued behind four runaway statements waits a few slices at most.
 */
export const slice_ms_max = 2;

/**
 * A cooperative deadline, and the clock of time slices: long loops call `tick()` per row and the
 * clock is read every DEADLINE_CHECK_ROWS ticks; past the deadline the statement fails with
 * DEADLINE_EXCEEDED; past the end of the current slice `due` turns true, and loops that can pause do
 * (see slices.ts).
 */
export class Deadline {
  /** Ticks until the next clock read. Invariant: 1 <= ticks_left <= check_rows between ticks. */
  private ticks_left: number;
  /**
   * True once the current slice has run out, until the driver starts the next one. Sticky, so every
   * loop on the way up pauses instead of starting another row. Never true without a driver.
   */
  due = false;
  /**
   * Something the statement waits for before its next slice (a batch of `CALL { } IN TRANSACTIONS`
   * committing): set by the operator that then pauses, awaited and cleared by the driver. Never rejects.
   */
  waiting: Promise<void> | undefined = undefined;
  /** End of the current slice (ms, as `now` counts); Infinity when the statement is not sliced. */
  private slice_end_ms = Infinity;
  constructor(
    /** Absolute time in ms since the epoch (Date.now()); Infinity for none. */
    readonly at_ms: number,
    private readonly now: () => number = Date.now,
    /** Rows between two clock reads; tests set 1 so that a sliced statement pauses at every row. */
    private readonly check_rows: number = DEADLINE_CHECK_ROWS,
  ) {
    this.ticks_left = check_rows;
  }

  /** Answers whether the slice has run out (always false for a statement that is not sliced). */
  tick(): boolean {
    // A countdown rather than a modulo: `check_rows` is not a constant the compiler can fold.
    if (--this.ticks_left === 0) {
      this.ticks_left = this.check_rows;
      this.check();
    }
    return this.due;
  }

  check(): void {
    if (this.at_ms === Infinity && this.slice_end_ms === Infinity) return;
    const now = this.now();
    if (now > this.at_ms) {
      throw deadlineExceeded('the statement did not finish before its deadline', 'DEADLINE_EXCEEDED');
    }
    if (now >= this.slice_end_ms) this.due = true;
  }

  /** Starts a slice of `slice_ms` from now: called by the driver before the statement runs and at each resume. */
  beginSlice(slice_ms: number): void {
    this.due = false;
    this.slice_end_ms = this.now() + slice_ms;
  }
}
