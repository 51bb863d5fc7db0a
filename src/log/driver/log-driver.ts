import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { assert } from '../../common/assert.js';
import { deadlineExceeded, invalidArgument } from '../../common/errors.js';
import { decodePayload, encodePayload } from '../codec.js';
import type { Entry, Event } from '../events.js';
import type { HybridClock } from '../hlc.js';
import { writeFileAtomic } from '../storage/atomic-file.js';
import { SegmentLog, type SegmentLogOptions, defaultSegmentLogOptions } from '../storage/segment-log.js';
import { SingleMemberCore, type CoreReady } from './single-member-core.js';

/**
 * Runs a consensus core against real storage: it carries out each Ready (persist entries, apply the
 * committed ones) and calls `advance`, and it answers write concerns from the storage watermarks.
 * Today the core is the group of one; the Raft core takes its place behind the same calls.
 */
export type JournalLevel = 'memory' | 'cache' | 'journal';

/** What a caller waits for before it is answered (SPEC WriteConcern, resolved to numbers). */
export interface ConcernWait {
  /** Members, leader included, that must hold the entry at `level`; 0 answers at once. */
  readonly acks: number;
  readonly level: JournalLevel;
  /** Give up waiting after this long; 0 waits without limit. The write is not undone. */
  readonly timeout_ms: number;
}

export type ApplyHandler = (entries: readonly Entry[]) => void;

export interface LogDriverOptions {
  readonly node_id: number;
  readonly clock: HybridClock;
  readonly segment: SegmentLogOptions;
}

interface HardStateFile {
  readonly term: number;
  readonly vote: number;
}

export class LogDriver {
  private readonly core: SingleMemberCore;
  private applyHandler: ApplyHandler | undefined;
  private appliedIndex: number;
  private readonly applyWaiters = new Map<number, (() => void)[]>();
  readonly term: number;

  private constructor(
    private readonly storage: SegmentLog,
    private readonly options: LogDriverOptions,
    term: number,
    applied: number,
  ) {
    this.term = term;
    this.appliedIndex = applied;
    this.core = new SingleMemberCore(options.node_id, term, storage.lastIndex, applied);
    storage.onDurable(({ journal }) => {
      this.core.persistedTo(journal);
      this.pump();
    });
  }

  /**
   * Opens the log under `dir`. Every entry found in the file is made durable first: on a member of one,
   * what the log holds after a crash is what committed. A new term starts at each open.
   */
  static async open(dir: string, options: Partial<LogDriverOptions> & Pick<LogDriverOptions, 'clock'>): Promise<LogDriver> {
    const storage = SegmentLog.open(join(dir, 'log'), options.segment ?? defaultSegmentLogOptions);
    const statePath = join(dir, 'raft-state');
    const previous: HardStateFile = existsSync(statePath)
      ? (JSON.parse(readFileSync(statePath, 'utf8')) as HardStateFile)
      : { term: 0, vote: 0 };
    const node_id = options.node_id ?? 1;
    const term = previous.term + 1;
    writeFileAtomic(statePath, Buffer.from(JSON.stringify({ term, vote: node_id } satisfies HardStateFile)));
    if (storage.lastIndex >= storage.firstIndex) {
      const last = decodePayload(storage.read(storage.lastIndex, storage.lastIndex)[0]!.data);
      options.clock.observe(last.commit_ts);
    }
    return new LogDriver(storage, { node_id, clock: options.clock, segment: options.segment ?? defaultSegmentLogOptions }, term, storage.firstIndex - 1);
  }

  get firstIndex(): number {
    return this.storage.firstIndex;
  }

  get lastIndex(): number {
    return this.storage.lastIndex;
  }

  get committedIndex(): number {
    return this.core.committed;
  }

  get applied(): number {
    return this.appliedIndex;
  }

  get isLeader(): boolean {
    return true;
  }

  get storageStats(): SegmentLog['stats'] {
    return this.storage.stats;
  }

  /**
   * Replays committed entries from `from` (after a checkpoint) through `visit`, then starts delivering
   * new commits to `handler`. Entries at or below `from - 1` are taken as applied.
   */
  replayAndFollow(from: number, visit: (entry: Entry) => void, handler: ApplyHandler): void {
    assert(this.applyHandler === undefined, 'replay runs once');
    const start = Math.max(from, this.storage.firstIndex);
    this.storage.scan(start, (stored) => {
      visit(toEntry(stored.index, stored.term, stored.data));
    });
    this.appliedIndex = Math.max(this.appliedIndex, this.storage.lastIndex);
    this.core.persistedTo(this.storage.lastIndex);
    this.core.appliedTo(this.appliedIndex);
    assert(!this.core.hasReady(), 'nothing is ready before following starts');
    this.applyHandler = handler;
  }

  /**
   * Stamps `event` with the next commit_ts and appends it. The returned entry is the proposer's to
   * apply speculatively at once (DESIGN 3.2); it reaches the apply handler again when it commits.
   */
  propose(event: Event): Entry {
    const commit_ts = this.options.clock.next();
    const data = encodePayload({ commit_ts, event });
    const core = this.core.propose(data);
    this.pump();
    return { index: core.index, term: core.term, commit_ts, event };
  }

  private pump(): void {
    while (this.core.hasReady()) {
      const ready: CoreReady = this.core.ready();
      if (ready.entries.length > 0) this.storage.append(ready.entries);
      if (ready.committed_entries.length > 0) {
        const entries = ready.committed_entries.map((e) => toEntry(e.index, e.term, e.data));
        this.appliedIndex = entries[entries.length - 1]!.index;
        this.applyHandler?.(entries);
        this.wakeApplied();
      }
      this.core.advance(ready);
    }
  }

  /** Resolves when the concern holds for entry `index`; rejects DEADLINE_EXCEEDED on timeout. */
  async awaitConcern(index: number, concern: ConcernWait): Promise<void> {
    if (concern.acks === 0 || concern.level === 'memory') return;
    if (concern.acks > 1) throw invalidArgument(`write concern acks ${concern.acks} exceeds the group's 1 member`);
    const durable = this.storage.whenDurable(index, concern.level);
    if (concern.timeout_ms <= 0) return durable;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(deadlineExceeded(`write concern not met within ${concern.timeout_ms} ms; the write may still commit`)),
        concern.timeout_ms,
      );
    });
    try {
      await Promise.race([durable, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Resolves once this member has applied entry `index`. */
  awaitApplied(index: number): Promise<void> {
    if (this.appliedIndex >= index) return Promise.resolve();
    return new Promise((resolve) => {
      const list = this.applyWaiters.get(index) ?? [];
      list.push(resolve);
      this.applyWaiters.set(index, list);
    });
  }

  private wakeApplied(): void {
    for (const [index, list] of this.applyWaiters) {
      if (index > this.appliedIndex) continue;
      this.applyWaiters.delete(index);
      for (const resolve of list) resolve();
    }
  }

  /** Reads committed entries [from, to], e.g. for the change feed. */
  read(from: number, to: number): Entry[] {
    return this.storage.read(from, to).map((s) => toEntry(s.index, s.term, s.data));
  }

  /** Entries at or below `index` are in a checkpoint; whole segments below it may go. */
  compactTo(index: number): void {
    this.storage.compactTo(index);
  }

  async close(): Promise<void> {
    await this.storage.close();
  }
}

function toEntry(index: number, term: number, data: Uint8Array): Entry {
  const payload = decodePayload(data);
  return { index, term, commit_ts: payload.commit_ts, event: payload.event };
}
