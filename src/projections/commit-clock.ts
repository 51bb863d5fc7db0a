import { assert } from '../common/assert.js';

/**
 * The commit_ts of every retained log index, so a read pinned to a timestamp (SNAPSHOT `at_timestamp`,
 * `AS OF TIMESTAMP`) becomes a read index: the last entry committed at or before it. Timestamps rise
 * strictly with the index, so a binary search finds it.
 */
export class CommitClock {
  /** stamps[i] is the commit_ts of index base + i. */
  private stamps = new Float64Array(1024);
  private base = 1;
  private count = 0;

  record(index: number, commit_ts: number): void {
    if (this.count === 0) this.base = index;
    assert(index === this.base + this.count, `commit clock gap at ${index}`);
    assert(this.count === 0 || commit_ts > this.stamps[this.count - 1]!, 'commit_ts rises with the index');
    if (this.count === this.stamps.length) {
      const grown = new Float64Array(this.stamps.length * 2);
      grown.set(this.stamps);
      this.stamps = grown;
    }
    this.stamps[this.count++] = commit_ts;
  }

  truncateAfter(index: number): void {
    this.count = Math.max(0, Math.min(this.count, index - this.base + 1));
  }

  /** The first index still known; reads before it cannot be answered. */
  get firstIndex(): number {
    return this.base;
  }

  get lastTs(): number {
    return this.count === 0 ? 0 : this.stamps[this.count - 1]!;
  }

  tsOf(index: number): number | undefined {
    const i = index - this.base;
    return i >= 0 && i < this.count ? this.stamps[i] : undefined;
  }

  /** The highest index at or below `maxIndex` whose commit_ts <= ts; base - 1 when none is. */
  indexAt(ts: number, maxIndex: number): number {
    let lo = 0;
    let hi = Math.min(this.count, maxIndex - this.base + 1) - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (this.stamps[mid]! <= ts) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return this.base + found;
  }

  /** Forgets stamps before `index` (they are behind the retention horizon). */
  forgetBefore(index: number): void {
    const drop = Math.min(this.count, index - this.base);
    if (drop <= 0) return;
    this.stamps.copyWithin(0, drop, this.count);
    this.count -= drop;
    this.base += drop;
  }

  snapshot(): { base: number; stamps: number[] } {
    return { base: this.base, stamps: Array.from(this.stamps.subarray(0, this.count)) };
  }

  restore(data: { base: number; stamps: number[] }): void {
    this.base = data.base;
    this.count = 0;
    this.stamps = new Float64Array(Math.max(1024, data.stamps.length * 2));
    this.stamps.set(data.stamps);
    this.count = data.stamps.length;
  }
}
