import { failedPrecondition, resourceExhausted } from '../common/errors.js';
import type { Entry, GraphOp, GraphWritePart } from '../log/events.js';
import type { EdgeState, NodeState } from './graph/records.js';
import type { StateMachine } from './state-machine.js';

/**
 * The change feed (DESIGN 5): the committed log read from a commit_ts, as node and edge changes with
 * their state before and after. Every change of one entry shares its commit_ts, and an entry's
 * changes are delivered together, so a consumer that resumes from `commit_ts + 1` of the last change
 * it processed sees no gap and no duplicate. Before and after states come from the MVCC store, so
 * the feed reaches back as far as the retention window (docs/change-feed.md).
 */
export type ChangeOperation = 'node_created' | 'node_updated' | 'node_deleted' | 'edge_created' | 'edge_updated' | 'edge_deleted';

export interface Change {
  readonly commit_ts: number;
  readonly index: number;
  /** Position of the change within its entry, from 0. */
  readonly ordinal: number;
  readonly operation: ChangeOperation;
  readonly node_before?: NodeState;
  readonly node_after?: NodeState;
  readonly edge_before?: EdgeState;
  readonly edge_after?: EdgeState;
}

/** Entries a live consumer may fall behind by before its stream is ended (it resumes from its last commit_ts + 1). */
export const change_feed_lag_entries_max = 10_000;

/** What the feed reads: the projections, the committed log, and news of commits. */
export interface FeedSource {
  readonly sm: StateMachine;
  readonly committedIndex: number;
  /** The first entry still in the log. */
  readonly logFirstIndex: number;
  readEntry(index: number): Entry;
  /** Calls `listener` with each batch of committed entries after they apply; returns the unsubscribe. */
  onCommit(listener: (entries: readonly Entry[]) => void): () => void;
}

export class ChangeFeed {
  constructor(private readonly db: FeedSource) {}

  /** The smallest `from_commit_ts` the feed can start at without a gap. */
  oldestStart(): number {
    // The first entry whose changes can still be read: its versions and those before it are
    // retained (above the MVCC horizon), and the entry itself is still in the log.
    const first = Math.max(this.db.sm.graph.horizonIndex + 1, this.db.logFirstIndex, this.db.sm.clock.firstIndex);
    if (first <= 1) return 0;
    const previous = this.db.sm.clock.tsOf(first - 1);
    return previous !== undefined ? previous + 1 : (this.db.sm.clock.tsOf(first) ?? 0);
  }

  /**
   * Changes from `from_ts` on, entry by entry, first those already committed, then live ones as they
   * commit, until `signal` aborts. Starting before the oldest retained entry fails FAILED_PRECONDITION.
   */
  async *watch(from_ts: number, signal: AbortSignal): AsyncIterable<readonly Change[]> {
    const oldest = this.oldestStart();
    if (from_ts < oldest) {
      throw failedPrecondition(
        `the change feed starts at commit_ts ${oldest} (the MVCC retention window); ${from_ts} is older. Read the current state and resume from its commit_ts + 1.`,
        'CHANGE_FEED_EXPIRED',
        { oldest_commit_ts: String(oldest) },
      );
    }
    // Listen before catching up, so nothing committed in between is missed.
    const live: Entry[] = [];
    let overflow = false;
    let wake: (() => void) | undefined;
    const listener = (entries: readonly Entry[]): void => {
      live.push(...entries);
      if (live.length > change_feed_lag_entries_max) overflow = true;
      wake?.();
    };
    const unsubscribe = this.db.onCommit(listener);
    const aborted = new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
    try {
      const start = this.db.sm.clock.indexAt(from_ts - 1, this.db.committedIndex) + 1;
      let next = Math.max(start, 1);
      const caughtUpTo = this.db.committedIndex;
      for (; next <= caughtUpTo && !signal.aborted; next++) {
        const changes = this.changesAt(next);
        if (changes.length > 0) yield changes;
      }
      while (!signal.aborted) {
        if (overflow) {
          throw resourceExhausted(
            `the consumer fell more than ${change_feed_lag_entries_max} entries behind; resume from the last commit_ts + 1`,
            'CHANGE_FEED_TOO_SLOW',
          );
        }
        const entry = live.shift();
        if (entry === undefined) {
          await Promise.race([new Promise<void>((resolve) => (wake = resolve)), aborted]);
          wake = undefined;
          continue;
        }
        if (entry.index < next) continue;
        next = entry.index + 1;
        const changes = this.changesAt(entry.index);
        if (changes.length > 0) yield changes;
      }
    } finally {
      unsubscribe();
    }
  }

  /** Every op of the write in parts that `commit` ends, read back from the log in order. */
  private partOps(commit: GraphWritePart): readonly GraphOp[] {
    if (commit.part === 0) return commit.ops;
    const out: GraphOp[] = [];
    for (let i = commit.first, found = 0; found < commit.part; i++) {
      const e = this.db.readEntry(i).event;
      if (e.kind !== 'graph_write_part' || (i !== commit.first && e.first !== commit.first)) continue;
      for (const op of e.ops) out.push(op);
      found++;
    }
    for (const op of commit.ops) out.push(op);
    return out;
  }

  /** The changes entry `index` made, read from the versions it wrote. */
  changesAt(index: number): Change[] {
    const commit_ts = this.db.sm.clock.tsOf(index);
    if (commit_ts === undefined) return [];
    const before = this.db.sm.viewAt(index - 1);
    const after = this.db.sm.viewAt(index);
    const entry = this.db.readEntry(index);
    const ops = entry.event.kind === 'graph_write' ? entry.event.ops : entry.event.kind === 'graph_write_part' && entry.event.end === 'commit' ? this.partOps(entry.event) : undefined;
    if (ops === undefined) return [];
    const out: Change[] = [];
    const push = (change: Omit<Change, 'commit_ts' | 'index' | 'ordinal'>): void => {
      out.push({ commit_ts, index, ordinal: out.length, ...change });
    };
    for (const op of ops) {
      switch (op.op) {
        case 'create_node':
        case 'update_node':
        case 'delete_node': {
          const b = before.node(op.id);
          const a = after.node(op.id);
          // A refused entry wrote no versions; it changed nothing.
          if (a !== undefined ? a.ts !== commit_ts : b === undefined) continue;
          const operation = op.op === 'create_node' ? 'node_created' : op.op === 'update_node' ? 'node_updated' : 'node_deleted';
          push({ operation, ...(b ? { node_before: b } : {}), ...(a ? { node_after: a } : {}) });
          break;
        }
        case 'create_edge':
        case 'update_edge':
        case 'delete_edge': {
          const b = before.edge(op.id);
          const a = after.edge(op.id);
          if (a !== undefined ? a.ts !== commit_ts : b === undefined) continue;
          const operation = op.op === 'create_edge' ? 'edge_created' : op.op === 'update_edge' ? 'edge_updated' : 'edge_deleted';
          push({ operation, ...(b ? { edge_before: b } : {}), ...(a ? { edge_after: a } : {}) });
          break;
        }
      }
    }
    return out;
  }
}
