import { isWeftError } from '../../common/errors.js';
import type { NodeId } from '../raft/types.js';

/**
 * How a member that was down (or cut off) while it was removed learns it. The leader that removed it
 * could not tell it, and no leader replicates to it any more, so it would campaign or wait forever.
 * Instead, whenever it hears no leader for an election timeout (and once at start), it asks its
 * peers; a peer that knows its identity departed refuses it MEMBER_REMOVED (the peer transport
 * answers every frame from a departed identity so), and the member enters the removed state it
 * enters when told at removal. A peer that still counts it answers nothing, and the member goes on.
 *
 * Asks are bounded: one round at a time, at most one round per `interval_ticks`, each call bounded
 * by `timeout_ms`.
 */
export interface RemovalCheckOptions {
  /** Ticks between rounds while leaderless (an election timeout). */
  readonly interval_ticks: () => number;
  readonly timeout_ms: () => number;
  /** True while this member hears no leader (it campaigns, or a learner's leader went quiet). */
  readonly leaderless: () => boolean;
  /** The peers to ask: the members this member believes in, itself excluded. */
  readonly peers: () => readonly NodeId[];
  /** One ask; rejects with the peer's refusal. */
  readonly ask: (to: NodeId, timeout_ms: number) => Promise<void>;
  /** A peer said this member was removed. */
  readonly removed: () => void;
}

export class RemovalCheck {
  private ticks_since_round = 0;
  private asking = false;

  constructor(private readonly o: RemovalCheckOptions) {}

  tick(): void {
    this.ticks_since_round++;
    if (this.asking || this.ticks_since_round < this.o.interval_ticks() || !this.o.leaderless()) return;
    this.askNow();
  }

  askNow(): void {
    const peers = this.o.peers();
    if (this.asking || peers.length === 0) return;
    this.asking = true;
    this.ticks_since_round = 0;
    const timeout_ms = this.o.timeout_ms();
    const asks = peers.map((id) =>
      this.o.ask(id, timeout_ms).catch((e: unknown) => {
        // Any other failure (a peer down, a timeout) says nothing about membership.
        if (isWeftError(e) && e.reason === 'MEMBER_REMOVED') this.o.removed();
      }),
    );
    void Promise.all(asks).finally(() => {
      this.asking = false;
    });
  }
}
