import { unavailable } from '../../common/errors.js';
import type { ConcernWait } from './log-driver.js';

/**
 * Callers waiting for a write concern on the leader. Each is settled by the watermarks the driver
 * reports: the leader's own fsync and cache watermarks, its followers' match indexes (fsynced
 * there), and what it applied; all of them fail when the leadership they wrote under ends.
 */
export interface ConcernWatermarks {
  /** Set when the log failed: every waiter fails with it. */
  readonly failure: Error | undefined;
  /** The term this member leads in, or undefined when it does not lead. */
  readonly leading_term: number | undefined;
  /** Entries written to this member's log file (CACHE). */
  readonly cache_index: number;
  /** Entries this member applied (committed, and fsynced here). */
  readonly applied_index: number;
  /**
   * The fsynced log end of every member this leader counts (itself included), highest first: the
   * k-th of them is the highest index held by at least k members. Read once per check, so settling
   * many waiters costs one pass over the members, not one per waiter.
   */
  readonly durable_desc: readonly number[];
}

/** Why a waiting caller's write was cut loose when this member stopped leading. */
const LEADERSHIP_LOST =
  'leadership lost before the write concern held; the write may or may not have committed (read it back, or retry with an OperationRef)';

interface Waiter {
  readonly index: number;
  readonly concern: ConcernWait;
  /** Concerns of a majority or more also wait until the entry committed and applied here. */
  readonly needs_apply: boolean;
  readonly term: number;
  resolve(): void;
  reject(e: Error): void;
}

export class ConcernWaiters {
  private waiters: Waiter[] = [];

  constructor(private readonly marks: () => ConcernWatermarks) {}

  /**
   * Waits for `concern` on entry `index`, written in `term`. Only the new waiter is checked: the
   * others were checked against the watermarks when those last moved (the driver checks after every
   * change), so checking them all again at each of 64 concurrent writes would be quadratic.
   */
  add(index: number, concern: ConcernWait, needs_apply: boolean, term: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const w: Waiter = { index, concern, needs_apply, term, resolve, reject };
      if (!settle(w, this.marks())) this.waiters.push(w);
    });
  }

  /** Settles every waiter whose concern now holds, or can no longer hold. */
  check(): void {
    if (this.waiters.length === 0) return;
    const m = this.marks();
    const still: Waiter[] = [];
    for (const w of this.waiters) if (!settle(w, m)) still.push(w);
    this.waiters = still;
  }

  rejectAll(e: Error): void {
    for (const w of this.waiters.splice(0)) w.reject(e);
  }
}

/** Resolves or rejects `w` when its outcome is known; false while it must still wait. */
function settle(w: Waiter, m: ConcernWatermarks): boolean {
  if (m.failure !== undefined) w.reject(m.failure);
  else if (m.leading_term !== w.term) w.reject(unavailable(LEADERSHIP_LOST, 'LEADERSHIP_LOST'));
  else if (held(w, m)) w.resolve();
  else return false;
  return true;
}

function held(w: Waiter, m: ConcernWatermarks): boolean {
  if (w.concern.level === 'cache') return m.cache_index >= w.index;
  const acked = w.concern.acks <= 0 || (m.durable_desc[w.concern.acks - 1] ?? 0) >= w.index;
  return acked && (!w.needs_apply || m.applied_index >= w.index);
}
