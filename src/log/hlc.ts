/**
 * Hybrid logical clock in microseconds since the epoch. The leader stamps every entry it proposes
 * with `next()`; the value is strictly increasing along the log, across leader changes too, because a
 * new leader first `observe`s the last stamp in its log.
 *
 * Values stay below 2^53 until the year 2255, so they are plain numbers inside the process and uint64
 * on the wire.
 */
export type PhysicalClock = () => number;

export const systemClockMicros: PhysicalClock = () => {
  // Date.now() is milliseconds; performance.timeOrigin + performance.now() gives sub-millisecond steps.
  return Math.floor((performance.timeOrigin + performance.now()) * 1000);
};

export class HybridClock {
  /** Invariant: every value handed out is greater than every value handed out or observed before. */
  private last = 0;

  constructor(private readonly physical: PhysicalClock) {}

  next(): number {
    const now = this.physical();
    this.last = now > this.last ? now : this.last + 1;
    return this.last;
  }

  /** Moves the clock past a stamp seen in the log, so later stamps are greater. */
  observe(ts: number): void {
    if (ts > this.last) this.last = ts;
  }

  peek(): number {
    return this.last;
  }
}
