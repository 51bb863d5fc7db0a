import { reasonError } from '../api/error-catalog.js';

/**
 * The cap on Cypher statements running at once on this member (`statement_running_max`). A statement
 * holds its place from the moment the member starts it until its answer is ready, pauses between time
 * slices included; one more is refused at once with RESOURCE_EXHAUSTED / TOO_MANY_RUNNING_STATEMENTS
 * rather than queued, so a client under load learns it straight away and can back off.
 */
export class StatementGate {
  /** Invariant: 0 <= running <= running_max. */
  private running_now = 0;
  private refused_count = 0;

  constructor(readonly running_max: number) {}

  /** Takes a place, or throws when every place is taken; the answer gives the place back (once). */
  enter(): () => void {
    if (this.running_now >= this.running_max) {
      this.refused_count++;
      throw reasonError('TOO_MANY_RUNNING_STATEMENTS', `${this.running_max} statements are already running on this member; retry later`, {
        limit: String(this.running_max),
      });
    }
    this.running_now++;
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.running_now--;
    };
  }

  /** Runs `body` holding a place. */
  async hold<T>(body: () => Promise<T>): Promise<T> {
    const leave = this.enter();
    try {
      return await body();
    } finally {
      leave();
    }
  }

  get running(): number {
    return this.running_now;
  }

  /** Statements refused since start. */
  get refused(): number {
    return this.refused_count;
  }
}
