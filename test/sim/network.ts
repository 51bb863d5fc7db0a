import type { Message, NodeId } from '../../src/log/raft/index.js';
import type { Prng } from './prng.js';

/** How unreliable the simulated network is. Probabilities per message; delays in ticks. */
export interface NetworkFaults {
  readonly drop_p: number;
  readonly duplicate_p: number;
  /** Each copy is delivered after a uniform delay in [delay_ticks_min, delay_ticks_max]; unequal delays reorder. */
  readonly delay_ticks_min: number;
  readonly delay_ticks_max: number;
}

export const RELIABLE: NetworkFaults = { drop_p: 0, duplicate_p: 0, delay_ticks_min: 1, delay_ticks_max: 1 };

interface InFlight {
  readonly at_tick: number;
  /** Send order, so equal delivery ticks still deliver deterministically (then shuffled by the PRNG). */
  readonly seq: number;
  readonly msg: Message;
}

/** Bound on messages in flight: a run that floods the network is a bug, not a slow test. */
const IN_FLIGHT_MAX = 200_000;

/**
 * A network of directed links. A cut link drops everything sent over it (asymmetric partitions cut
 * one direction only); cuts are checked at delivery, so a partition also catches messages in flight.
 */
export class SimNetwork {
  faults: NetworkFaults;
  private flight: InFlight[] = [];
  private seq = 0;
  private readonly cut = new Set<string>();
  sent = 0;
  dropped = 0;

  constructor(
    private readonly prng: Prng,
    faults: NetworkFaults,
  ) {
    this.faults = faults;
  }

  /** Returns false if the message was dropped on the way (the sender may treat a snapshot as failed). */
  send(msg: Message, now: number): boolean {
    this.sent++;
    const f = this.faults;
    if (this.prng.chance(f.drop_p)) {
      this.dropped++;
      return false;
    }
    const copies = this.prng.chance(f.duplicate_p) ? 2 : 1;
    for (let k = 0; k < copies; k++) {
      const delay = f.delay_ticks_min + this.prng.int(f.delay_ticks_max - f.delay_ticks_min + 1);
      this.flight.push({ at_tick: now + delay, seq: this.seq++, msg });
    }
    if (this.flight.length > IN_FLIGHT_MAX) throw new Error(`network: more than ${IN_FLIGHT_MAX} messages in flight`);
    return true;
  }

  /** Messages due by `now` whose link is up, in a PRNG-shuffled order. */
  due(now: number): Message[] {
    const ready: InFlight[] = [];
    const later: InFlight[] = [];
    for (const f of this.flight) (f.at_tick <= now ? ready : later).push(f);
    this.flight = later;
    const out: Message[] = [];
    for (const f of ready) {
      if (this.cut.has(link(f.msg.from, f.msg.to))) this.dropped++;
      else out.push(f.msg);
    }
    return this.prng.shuffle(out);
  }

  cutLink(from: NodeId, to: NodeId): void {
    this.cut.add(link(from, to));
  }

  isCut(from: NodeId, to: NodeId): boolean {
    return this.cut.has(link(from, to));
  }

  heal(): void {
    this.cut.clear();
  }

  cutCount(): number {
    return this.cut.size;
  }
}

function link(from: NodeId, to: NodeId): string {
  return `${from}->${to}`;
}
