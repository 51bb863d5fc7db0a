import { WeftError } from '../../common/errors.js';
import type { Deadline } from './budget.js';

/**
 * Time slices. Operators push rows synchronously (see context.ts), so a statement can only give the
 * event loop back where every frame on the stack can be suspended. A sink therefore answers a Flow:
 * `true` (go on) or `false` (stop) when the row was dealt with at once, which is the fast path and
 * costs one comparison; or a generator when the row's work paused midway (its slice ran out, or
 * something further down paused). A loop that receives a generator hands the rest of its own work to
 * a generator too (`loop`), so the pause travels up to the driver (`drive`), which yields to the
 * event loop and resumes the same chain. Rows run in exactly the order they would without pauses.
 *
 * No generator is made unless a pause happens: a statement that finishes within its first slice, or
 * any statement run without a driver (writes, transaction statements, EXPLAIN), never leaves the
 * boolean path.
 */
export type Slices = Generator<undefined, boolean, undefined>;
export type Flow = boolean | Slices;

/** Runs a flow to its end without giving the event loop back: for callers that must finish synchronously. */
export function finish(flow: Flow): boolean {
  if (flow === true || flow === false) return flow;
  for (;;) {
    const r = flow.next();
    if (r.done === true) return r.value;
  }
}

/**
 * A loop over `step`, which does one item's work and answers the sink's flow for it, or null when
 * there are no items left. Items the step skips answer true.
 */
export function loop(step: () => Flow | null, deadline: Deadline): Flow {
  for (;;) {
    const r = step();
    if (r === true) {
      if (deadline.due) return resumeLoop(step, deadline, undefined);
      continue;
    }
    if (r === null) return true;
    if (r === false) return false;
    return resumeLoop(step, deadline, r);
  }
}

function* resumeLoop(step: () => Flow | null, deadline: Deadline, pending: Slices | undefined): Slices {
  if (pending === undefined) yield;
  else if (!(yield* pending)) return false;
  for (;;) {
    const r = step();
    if (r === true) {
      if (deadline.due) yield;
      continue;
    }
    if (r === null) return true;
    if (r === false) return false;
    if (!(yield* r)) return false;
  }
}

/** A loop over an array's items. */
export function loopArray<T>(items: readonly T[], visit: (item: T) => Flow, deadline: Deadline): Flow {
  let i = 0;
  const n = items.length;
  return loop(() => (i < n ? visit(items[i++] as T) : null), deadline);
}

/** A loop over an iterable's items. */
export function loopIterable<T>(items: Iterable<T>, visit: (item: T) => Flow, deadline: Deadline): Flow {
  const it = items[Symbol.iterator]();
  return loop(() => {
    const n = it.next();
    return n.done === true ? null : visit(n.value);
  }, deadline);
}

/**
 * A loop through one of the store's callback walks, which are cheaper than its iterators. Made once
 * per operator, not per row: `callback` goes to the walk, and the row's state lives in the operator
 * (`visit` reads it), so a walk that never pauses allocates nothing. When an item pauses, the walk
 * stops and `resume` takes an iterator over the same items less the `seen` first ones.
 */
export class Walk<T> {
  /** Items the current walk has visited. */
  seen = 0;
  /** Whether the current walk stopped for a pause (rather than ending or being stopped by a sink). */
  paused = false;
  private pending: Slices | undefined;
  readonly callback: (item: T) => boolean;

  constructor(
    private readonly visit: (item: T) => Flow,
    private readonly deadline: Deadline,
  ) {
    this.callback = (item) => {
      this.seen++;
      const r = this.visit(item);
      if (r === true) {
        if (!this.deadline.due) return true;
        this.paused = true;
        return false;
      }
      if (r === false) return false;
      this.pending = r;
      this.paused = true;
      return false;
    };
  }

  /** Readies for the next walk. */
  begin(): void {
    this.seen = 0;
    this.paused = false;
    this.pending = undefined;
  }

  /** The rest of a paused walk: the paused item's work, then the items of `rest`. */
  resume(rest: Iterator<T>): Slices {
    const visit = this.visit;
    const step = (): Flow | null => {
      const n = rest.next();
      return n.done === true ? null : visit(n.value);
    };
    return resumeLoop(step, this.deadline, this.pending);
  }
}

/** An iterator over `items` less the first `count`. */
export function skipped<T>(items: Iterable<T>, count: number): Iterator<T> {
  const it = items[Symbol.iterator]();
  for (let i = 0; i < count; i++) if (it.next().done === true) break;
  return it;
}

/** `rest` once `flow` has ended: at once when it already has, otherwise inside the generator. */
export function after(flow: Flow, rest: (ok: boolean) => Flow): Flow {
  if (flow === true || flow === false) return rest(flow);
  return afterSlices(flow, rest);
}

function* afterSlices(flow: Slices, rest: (ok: boolean) => Flow): Slices {
  const ok = yield* flow;
  const r = rest(ok);
  return r === true || r === false ? r : yield* r;
}

/**
 * Runs `body` and calls `release` when its flow ends: by returning, by throwing, or by being
 * abandoned (the driver returns a cancelled statement's generator, which runs this finally).
 */
export function holding(body: () => Flow, release: () => void): Flow {
  let r: Flow;
  try {
    r = body();
  } catch (e) {
    release();
    throw e;
  }
  if (r === true || r === false) {
    release();
    return r;
  }
  return held(r, release);
}

function* held(flow: Slices, release: () => void): Slices {
  try {
    return yield* flow;
  } finally {
    release();
  }
}

/**
 * Takes paused statements in turn, one slice per turn of the event loop however many are paused, so
 * sockets and timers wait at most about one slice whether one statement runs or forty: the statements
 * share what is left of the CPU rather than each taking a slice per turn.
 */
export class SliceScheduler {
  /** Statements waiting for their next slice, first come first served. */
  private readonly waiting: (() => void)[] = [];
  /** Invariant: true exactly while a setImmediate for `next` is pending. */
  private armed = false;

  /** Resolves when it is the caller's turn to run a slice. */
  turn(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.waiting.push(resolve);
      this.arm();
    });
  }

  private arm(): void {
    if (this.armed || this.waiting.length === 0) return;
    this.armed = true;
    setImmediate(this.next);
  }

  private readonly next = (): void => {
    this.armed = false;
    // The statement's slice runs in the microtask right after this callback; the next one's
    // setImmediate, armed now, falls in the next turn of the loop, after its I/O.
    this.waiting.shift()?.();
    this.arm();
  };
}

/**
 * Runs a statement's flow in slices of `slice_ms`, giving the event loop back between them (through
 * `scheduler`, so sockets and timers are served first). Before each slice it looks at `signal`: a
 * cancelled call, or one past its deadline, stops the statement there with the signal's reason, and
 * the paused operators' finally blocks release what they reserved.
 */
export async function drive(flow: Flow, deadline: Deadline, signal: AbortSignal | undefined, slice_ms: number, scheduler: SliceScheduler): Promise<boolean> {
  if (flow === true || flow === false) return flow;
  let ended = false;
  try {
    for (;;) {
      // A pause may have been for a commit the statement waits on (Deadline.waiting).
      const waiting = deadline.waiting;
      if (waiting !== undefined) {
        deadline.waiting = undefined;
        await waiting;
      }
      await scheduler.turn();
      if (signal?.aborted === true) throw abortReason(signal);
      deadline.beginSlice(slice_ms);
      deadline.check();
      const r = flow.next();
      if (r.done === true) {
        ended = true;
        return r.value;
      }
    }
  } finally {
    if (!ended) flow.return(false);
  }
}

/** Why `signal` was aborted: its reason when that is a WeftError (a deadline, a termination), else CANCELLED. */
export function abortReason(signal: AbortSignal): WeftError {
  const reason: unknown = signal.reason;
  return reason instanceof WeftError ? reason : new WeftError('CANCELLED', 'the statement was cancelled');
}
