/**
 * Asynchronous tasks with at most `in_flight_max` running at once. `submit` holds its caller back
 * until a slot is free (the caller's memory per task is what that bounds); `enqueue` never waits and
 * queues instead (for tasks that hold no memory of their own, such as an fsync of a written file).
 * The first failure is kept: later queued tasks are dropped and `drain` throws it.
 */
export class TaskLane {
  /** Invariant: size <= in_flight_max. */
  private readonly running = new Set<Promise<void>>();
  /** Invariant: empty while a slot is free or after a failure. */
  private readonly waiting: (() => Promise<void>)[] = [];
  private failure: { readonly error: unknown } | undefined;

  constructor(private readonly in_flight_max: number) {
    if (!(in_flight_max >= 1)) throw new RangeError(`in_flight_max must be at least 1, got ${in_flight_max}`);
  }

  /** The first failure of a task, if any. */
  get failed(): { readonly error: unknown } | undefined {
    return this.failure;
  }

  /** Starts the task once a slot is free, waiting for one. */
  async submit(task: () => Promise<void>): Promise<void> {
    while (this.running.size >= this.in_flight_max) await Promise.race(this.running);
    this.start(task);
  }

  /** Starts the task if a slot is free, else queues it; never waits. */
  enqueue(task: () => Promise<void>): void {
    if (this.failure !== undefined) return;
    if (this.running.size < this.in_flight_max) this.start(task);
    else this.waiting.push(task);
  }

  /** Waits until every task started or queued has ended; throws the first failure. */
  async drain(): Promise<void> {
    while (this.running.size > 0) await Promise.race(this.running);
    if (this.failure !== undefined) throw this.failure.error;
  }

  /** Waits until no task is running, whatever they ended with (for cleanup after a failure). */
  async settle(): Promise<void> {
    this.waiting.length = 0;
    while (this.running.size > 0) await Promise.race(this.running);
  }

  private start(task: () => Promise<void>): void {
    const run: Promise<void> = task()
      .catch((e: unknown) => {
        this.failure ??= { error: e };
        this.waiting.length = 0;
      })
      .finally(() => {
        this.running.delete(run);
        const next = this.waiting.shift();
        if (next !== undefined) this.start(next);
      });
    this.running.add(run);
  }
}
