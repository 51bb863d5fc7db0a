/**
 * Waiters for an operation's outcome (a build or a check). Each commit batch wakes them to look again;
 * a waiter that gives up leaves the operation running (SPEC 4.3 rule 8: waiting cancels nothing).
 */
export class OutcomeWatch {
  private readonly waiters = new Set<() => void>();
  private closed = false;

  notify(): void {
    for (const w of [...this.waiters]) w();
  }

  close(): void {
    this.closed = true;
    this.notify();
  }

  /** Resolves once `done()` holds, `wait_ms` has passed, or `signal` aborts; says whether it holds. */
  async until(done: () => boolean, wait_ms: number, signal?: AbortSignal): Promise<boolean> {
    if (done() || wait_ms <= 0 || this.closed) return done();
    return new Promise<boolean>((resolve) => {
      const finish = (): void => {
        clearTimeout(timer);
        this.waiters.delete(check);
        signal?.removeEventListener('abort', finish);
        resolve(done());
      };
      const check = (): void => {
        if (done() || this.closed) finish();
      };
      const timer = setTimeout(finish, wait_ms);
      timer.unref();
      signal?.addEventListener('abort', finish);
      this.waiters.add(check);
    });
  }
}
