/**
 * The write pause as one member sees it (SPEC 9.5, 9.9): the time during which no member it knows of
 * could take writes at the group's version. It opens when the member loses sight of a writing leader
 * and closes when it sees one again; a member that never saw one since it started counts from its
 * start, since it cannot tell the group wrote meanwhile.
 */
export class WritePause {
  /** When the current pause began; undefined while the group writes. */
  private started_ms: number | undefined;
  /** Pauses that ended since start, and the length of the last one. */
  ended = 0;
  last_ms = 0;

  constructor(private readonly now: () => number) {
    this.started_ms = now();
  }

  observe(writing: boolean): void {
    if (writing && this.started_ms !== undefined) {
      this.last_ms = this.now() - this.started_ms;
      this.ended++;
      this.started_ms = undefined;
    } else if (!writing && this.started_ms === undefined) {
      this.started_ms = this.now();
    }
  }

  /** Length of the current pause in ms; undefined while the group writes. */
  get current_ms(): number | undefined {
    return this.started_ms === undefined ? undefined : this.now() - this.started_ms;
  }
}
