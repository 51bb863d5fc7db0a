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
 * A cooperative deadline: long loops call `tick()` per row and the clock is read every
 * DEADLINE_CHECK_ROWS ticks; past the deadline the statement fails with DEADLINE_EXCEEDED.
 */
export class Deadline {
  private ticks = 0;
  constructor(
    /** Absolute time in ms since the epoch (Date.now()); Infinity for none. */
    readonly at_ms: number,
    private readonly now: () => number = Date.now,
  ) {}

  tick(): void {
    if (++this.ticks % DEADLINE_CHECK_ROWS === 0) this.check();
  }

  check(): void {
    if (this.at_ms !== Infinity && this.now() > this.at_ms) {
      throw deadlineExceeded('the statement did not finish before its deadline', 'DEADLINE_EXCEEDED');
    }
  }
}
