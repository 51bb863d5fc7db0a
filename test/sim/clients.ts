import type { NodeId } from '../../src/log/raft/index.js';
import type { Operation } from './linearizability.js';
import type { Prng } from './prng.js';

/** An operation a client has issued and is waiting on. */
export interface ClientOp {
  readonly id: number;
  readonly client: number;
  readonly kind: 'put' | 'get';
  readonly key: string;
  /** put: the value to write (unique in the run). */
  readonly value: string;
  readonly call: number;
  /** The client gives up at this tick and the outcome stays unknown. */
  readonly deadline_tick: number;
}

export interface ClientSettings {
  readonly clients: number;
  readonly keys: number;
  /** Chance per tick that an idle client issues an operation. */
  readonly op_p: number;
  readonly get_p: number;
  readonly timeout_ticks: number;
}

/**
 * Clients issue one operation at a time and record the history the linearizability checker reads.
 * Times are logical: each call and each return takes the next number, so order is exact.
 */
export class ClientPool {
  readonly history: Operation[] = [];
  /** Outstanding operation of each client, by client. */
  private readonly active = new Map<number, ClientOp>();
  /** Where each client last heard the leader is. */
  readonly leader_hint = new Map<number, NodeId>();
  private clock = 0;
  private next_op = 1;
  completed = 0;
  unknown = 0;
  failed = 0;

  constructor(
    readonly settings: ClientSettings,
    private readonly prng: Prng,
  ) {}

  /** Idle clients that decide to act this tick, with a fresh operation each. */
  issue(now: number): ClientOp[] {
    const out: ClientOp[] = [];
    for (let c = 0; c < this.settings.clients; c++) {
      if (this.active.has(c) || !this.prng.chance(this.settings.op_p)) continue;
      const id = this.next_op++;
      const kind = this.prng.chance(this.settings.get_p) ? 'get' : 'put';
      const op: ClientOp = {
        id,
        client: c,
        kind,
        key: `k${this.prng.int(this.settings.keys)}`,
        value: `v${id}`,
        call: this.clock++,
        deadline_tick: now + this.settings.timeout_ticks,
      };
      this.active.set(c, op);
      out.push(op);
    }
    return out;
  }

  isActive(op: number): boolean {
    for (const a of this.active.values()) if (a.id === op) return true;
    return false;
  }

  private take(op: number): ClientOp | undefined {
    for (const [c, a] of this.active) {
      if (a.id === op) {
        this.active.delete(c);
        return a;
      }
    }
    return undefined;
  }

  /** The operation took effect (a put committed; a get observed `observed`). */
  complete(op: number, observed: string | null): void {
    const a = this.take(op);
    if (!a) return;
    this.completed++;
    const value = a.kind === 'put' ? a.value : observed;
    this.history.push({ client: a.client, kind: a.kind, key: a.key, value, call: a.call, ret: this.clock++ });
  }

  /** The operation certainly had no effect (refused, or its log slot went to another entry). */
  fail(op: number, lead?: NodeId): void {
    const a = this.take(op);
    if (!a) return;
    this.failed++;
    if (lead !== undefined && lead !== 0) this.leader_hint.set(a.client, lead);
  }

  /** Clients past their deadline give up; a put's outcome then stays unknown. */
  expire(now: number): void {
    for (const [c, a] of [...this.active]) {
      if (a.deadline_tick > now) continue;
      this.active.delete(c);
      this.leader_hint.delete(c);
      if (a.kind === 'put') {
        this.unknown++;
        this.history.push({ client: a.client, kind: 'put', key: a.key, value: a.value, call: a.call, ret: Infinity });
      }
    }
  }

  /** Gives up on everything still outstanding (end of run). */
  expireAll(): void {
    this.expire(Number.POSITIVE_INFINITY);
  }

  /**
   * The history to check. A put of unknown outcome whose value nobody read is dropped: omitting it
   * is always allowed (it may not have happened) and it can explain no read, so the verdict is
   * unchanged while the search shrinks.
   */
  checkedHistory(): Operation[] {
    const read = new Set<string>();
    for (const op of this.history) if (op.kind === 'get' && op.value !== null) read.add(op.value);
    return this.history.filter((op) => op.kind === 'get' || op.ret !== Infinity || (op.value !== null && read.has(op.value)));
  }
}
