import type { NodeId, ReadState } from './types.js';

interface PendingRead {
  /** The leader's commit index when the read arrived: the read may be served once that is applied. */
  readonly index: number;
  readonly acks: Set<NodeId>;
}

/**
 * ReadIndex (Raft thesis §6.4): a read is linearizable at the commit index the leader had when it
 * arrived, once a heartbeat round proves a majority still follows this leader. Requests are
 * confirmed in arrival order; confirming one confirms every older one.
 */
export class ReadOnly {
  private readonly pending = new Map<string, PendingRead>();
  /** Request ids in arrival order. Invariant: exactly the keys of `pending`. */
  private queue: string[] = [];

  add(index: number, request_ctx: string): void {
    if (this.pending.has(request_ctx)) return;
    this.pending.set(request_ctx, { index, acks: new Set() });
    this.queue.push(request_ctx);
  }

  /** Records that `from` answered a heartbeat carrying request_ctx; returns who has, or undefined if unknown. */
  ack(from: NodeId, request_ctx: string): ReadonlySet<NodeId> | undefined {
    const rs = this.pending.get(request_ctx);
    if (!rs) return undefined;
    rs.acks.add(from);
    return rs.acks;
  }

  /** Releases request_ctx and every request older than it. */
  advance(request_ctx: string): ReadState[] {
    const at = this.queue.indexOf(request_ctx);
    if (at < 0) return [];
    const done = this.queue.slice(0, at + 1);
    this.queue = this.queue.slice(at + 1);
    return done.map((ctx) => {
      const rs = this.pending.get(ctx)!;
      this.pending.delete(ctx);
      return { index: rs.index, request_ctx: ctx };
    });
  }

  /** The newest request, which heartbeats carry. */
  lastPending(): string {
    return this.queue[this.queue.length - 1] ?? '';
  }

  count(): number {
    return this.queue.length;
  }

  reset(): void {
    this.pending.clear();
    this.queue = [];
  }
}
