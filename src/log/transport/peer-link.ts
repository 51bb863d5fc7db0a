import { assertNever } from '../../common/assert.js';
import type { Message, NodeId } from '../raft/types.js';
import type { PeerCall, PeerCallEnd } from './peer-call.js';
import type { PeerChannel } from './peer-channel.js';
import { encodeFrame, peer_paths, type RaftBatch, type SenderHeader } from './peer-wire.js';
import type { PeerTransportLimits } from './transport-limits.js';

/**
 * The Raft stream to one peer: a bounded queue drained into one long-lived client stream in batches.
 *
 *   idle --send--> streaming --stream ends or fails--> backoff --timer--> idle
 *
 * While in backoff the peer is treated as unreachable: what is sent is dropped and reported, because
 * Raft resends on its own schedule and a queue filling for a dead peer would only replay stale
 * messages later. The backoff doubles on each failure and resets once the peer admits a frame.
 *
 * The queue is written out once per turn of the event loop (setImmediate), not at each send: a
 * leader under load proposes from many client calls that arrive in one poll of the loop, and each
 * would otherwise leave as a frame of its own, with its own encode, HTTP/2 frame, TLS record and
 * socket write here and its own decode and Ready at the receiver. The wait is the rest of the
 * current turn, a few microseconds when the member is idle.
 *
 * A quiet commit notice (an append without entries that only moves the follower's commit index,
 * and that the follower does not answer) is the one message that may wait longer: while nothing
 * else is queued for the peer, the queue is written out after commit_notice_hold_ms instead, and a
 * message queued meanwhile (the next write's append, a heartbeat) takes the notice along in its
 * frame. At one write at a time this halves a leader's frames per write: the notice of write k
 * rides with the append of write k+1. Delaying or merging a message is something the network may
 * do to Raft anyway; what the core sends and in which order is unchanged, and the next append
 * carries the commit index again. What it costs: a follower learns of a commit up to the hold later
 * when no write follows.
 */
type LinkState =
  | { readonly kind: 'idle' }
  | { readonly kind: 'streaming'; readonly call: PeerCall; writable: boolean }
  | { readonly kind: 'backoff'; readonly timer: NodeJS.Timeout }
  | { readonly kind: 'closed' };

/** A message's cost toward batch_bytes_max besides its entries' payloads. */
const message_overhead_bytes = 64;

export interface PeerLinkEvents {
  unreachable(to: NodeId): void;
  /** A frame of Raft messages was written to the stream (for counters). */
  frameSent(to: NodeId): void;
  /** A stream ended with an error: for logs and counters. */
  streamFailed(to: NodeId, error: Extract<PeerCallEnd, { ok: false }>): void;
}

export class PeerLink {
  private state: LinkState = { kind: 'idle' };
  /** Invariant: queue.length <= limits.queue_messages_max. */
  private queue: Message[] = [];
  private failures = 0;
  /** The write-out scheduled for the end of this turn; undefined when none is. */
  private flushTimer: NodeJS.Immediate | undefined;
  /** The write-out of a queue holding only commit notices (see above); undefined when none is. */
  private holdTimer: NodeJS.Timeout | undefined;
  /** Messages dropped because the queue was full or the peer unreachable (for metrics). */
  dropped = 0;

  constructor(
    private readonly to: NodeId,
    private readonly channel: PeerChannel,
    /** Read at every frame: the deployment a member belongs to is learned after it starts. */
    private readonly header: () => SenderHeader,
    /** The largest answer the stream takes (its answer is empty). */
    private readonly message_bytes_max: number,
    private readonly limits: PeerTransportLimits,
    private readonly events: PeerLinkEvents,
  ) {}

  /** Queues one message for the peer (one call per message: no array is made per send). */
  send(message: Message): void {
    switch (this.state.kind) {
      case 'closed':
        this.dropped++;
        return;
      case 'backoff':
        this.dropped++;
        this.events.unreachable(this.to);
        return;
      case 'idle':
      case 'streaming':
        break;
      default:
        assertNever(this.state, 'link state');
    }
    this.queue.push(message);
    if (this.queue.length > this.limits.queue_messages_max) {
      this.queue.shift();
      this.dropped++;
    }
    if (this.state.kind === 'idle') this.open();
    if (this.flushTimer !== undefined) return;
    if (isCommitNotice(message) && this.limits.commit_notice_hold_ms > 0) {
      this.holdTimer ??= setTimeout(this.flushHeld, this.limits.commit_notice_hold_ms);
      return;
    }
    this.clearHold();
    this.flushTimer = setImmediate(this.flushNow);
  }

  private readonly flushNow = (): void => {
    this.flushTimer = undefined;
    this.flush();
  };

  private readonly flushHeld = (): void => {
    this.holdTimer = undefined;
    this.flush();
  };

  private clearHold(): void {
    if (this.holdTimer === undefined) return;
    clearTimeout(this.holdTimer);
    this.holdTimer = undefined;
  }

  close(): void {
    const state = this.state;
    this.state = { kind: 'closed' };
    this.queue = [];
    if (this.flushTimer !== undefined) clearImmediate(this.flushTimer);
    this.flushTimer = undefined;
    this.clearHold();
    if (state.kind === 'streaming') state.call.close();
    if (state.kind === 'backoff') clearTimeout(state.timer);
  }

  private open(): void {
    // Its events arrive on later turns (never inside start), so `call` is assigned by the time they do.
    const call: PeerCall = this.channel.start(peer_paths.raft, { message_bytes_max: this.message_bytes_max }, {
      // The receiver sends its headers once it admitted our first frame: the peer is really there.
      headers: () => {
        if (this.current() === call) this.failures = 0;
      },
      drain: () => {
        if (this.state.kind === 'streaming' && this.state.call === call) {
          this.state.writable = true;
          this.flush();
        }
      },
      done: (end) => this.ended(call, end),
    });
    this.state = { kind: 'streaming', call, writable: true };
  }

  private current(): PeerCall | undefined {
    return this.state.kind === 'streaming' ? this.state.call : undefined;
  }

  private flush(): void {
    const state = this.state;
    if (state.kind !== 'streaming') return;
    while (state.writable && this.queue.length > 0) {
      let count = 0;
      let bytes = 0;
      while (count < this.queue.length && count < this.limits.batch_messages_max) {
        const cost = messageBytes(this.queue[count]!);
        if (count > 0 && bytes + cost > this.limits.batch_bytes_max) break;
        bytes += cost;
        count++;
      }
      // The common case (everything queued fits one frame) hands the queue over instead of copying it.
      const messages = count === this.queue.length ? this.queue : this.queue.slice(0, count);
      if (messages === this.queue) this.queue = [];
      else this.queue.splice(0, count);
      state.writable = state.call.write(encodeFrame({ ...this.header(), messages } satisfies RaftBatch));
      this.events.frameSent(this.to);
    }
  }

  private ended(call: PeerCall, end: PeerCallEnd): void {
    if (this.current() !== call) return;
    if (!end.ok) this.events.streamFailed(this.to, end);
    this.dropped += this.queue.length;
    this.queue = [];
    this.clearHold();
    this.events.unreachable(this.to);
    const wait = Math.min(this.limits.reconnect_backoff_ms_max, this.limits.reconnect_backoff_ms_min * 2 ** this.failures);
    this.failures = Math.min(this.failures + 1, 30);
    const timer = setTimeout(() => {
      if (this.state.kind === 'backoff') this.state = { kind: 'idle' };
    }, wait);
    this.state = { kind: 'backoff', timer };
  }
}

/** An append that only moves the follower's commit index and is not answered (raft.ts, maybeSendAppend). */
function isCommitNotice(m: Message): boolean {
  return m.type === 'app' && m.quiet === true && m.entries.length === 0;
}

function messageBytes(m: Message): number {
  return m.type === 'app' ? m.entries.reduce((sum, e) => sum + e.data.length + message_overhead_bytes, message_overhead_bytes) : message_overhead_bytes;
}
