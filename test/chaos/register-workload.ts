import type { Operation } from '../sim/linearizability.js';

/**
 * The chaos workload: clients read, write and compare-and-set integer registers, one node property
 * each (`(:Reg {k})`.v), through Cypher over the public REST API, with write concern MAJORITY +
 * JOURNAL and read concern LINEARIZABLE. Every invocation and completion is recorded in a history
 * the linearizability checker reads. A write whose answer never came (a timeout, a reset connection,
 * an error) has an unknown outcome: it may or may not have happened, and the history says so.
 */
export const request_timeout_ms = 3_000;
/** A client whose member refused it waits this long before its next try, so a dead member is not hammered. */
const retry_pause_ms = 200;

const write_concern = { journal: 'JOURNAL_JOURNAL', mode: 'WRITE_CONCERN_MODE_MAJORITY' } as const;
const read_concern = { level: 'READ_CONCERN_LEVEL_LINEARIZABLE' } as const;

export interface WorkloadCounts {
  ok: number;
  unknown: number;
  failed_reads: number;
  /** Writes refused before they were sent (nothing listened): they did not happen and are not recorded. */
  refused: number;
  cas_refused: number;
}

/**
 * `refused`: the member could not have run the statement (nothing listened, so no request was sent).
 * `error`: anything else that went wrong; a write may or may not have happened.
 */
type Answer =
  | { readonly kind: 'rows'; readonly values: (string | null)[] }
  | { readonly kind: 'refused'; readonly why: string }
  | { readonly kind: 'error'; readonly why: string };

/** Bounds on sending a register's creation again while the new group has no leader (setup). */
const setup_tries_max = 30;
const setup_retry_ms = 1000;

async function cypher(rest: string, query: string, params: Record<string, unknown>, write: boolean): Promise<Answer> {
  try {
    const res = await fetch(`http://${rest}/v1/query/cypher`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query, parameters: params, ...(write ? { writeConcern: write_concern } : { readConcern: read_concern }) }),
      signal: AbortSignal.timeout(request_timeout_ms),
    });
    const body = (await res.json()) as { rows?: { values?: { intValue?: string }[] }[]; code?: string; message?: string };
    if (!res.ok) return { kind: 'error', why: `${body.code ?? res.status}: ${body.message ?? ''}` };
    return { kind: 'rows', values: (body.rows ?? []).map((r) => r.values?.[0]?.intValue ?? null) };
  } catch (e) {
    const code = e instanceof Error && typeof e.cause === 'object' && e.cause !== null ? (e.cause as { code?: unknown }).code : undefined;
    if (code === 'ECONNREFUSED') return { kind: 'refused', why: 'connection refused' };
    return { kind: 'error', why: e instanceof Error ? e.message : String(e) };
  }
}

const str = (value: string): { stringValue: string } => ({ stringValue: value });
const int = (value: number): { intValue: string } => ({ intValue: String(value) });

export class RegisterWorkload {
  readonly history: Operation[] = [];
  readonly counts: WorkloadCounts = { ok: 0, unknown: 0, failed_reads: 0, refused: 0, cas_refused: 0 };
  /** Logical time: every call and return gets the next number, in the order the event loop saw them. */
  private clock = 0;
  private next_value = 1;
  private running = false;
  private clients: Promise<void>[] = [];

  constructor(
    private readonly keys: readonly string[],
    private readonly random: () => number,
    /** The REST address a client sends its next operation to (any member: followers forward). */
    private readonly pickMember: () => string,
    /** Whether clients also compare-and-set (a write whose outcome depends on the state it reads). */
    private readonly with_cas: boolean,
  ) {}

  /** Creates every register with value 0, before any client runs; recorded as completed writes. */
  async setup(): Promise<void> {
    for (const k of this.keys) {
      const call = this.clock++;
      let answer = await cypher(this.pickMember(), 'CREATE (:Reg {k: $k, v: 0})', { k: str(k) }, true);
      // A group just joined may be between leaders for an election timeout (a loaded machine); a
      // write refused for want of a leader was never proposed, so it is sent again, for a while.
      for (let tries = 1; answer.kind === 'error' && answer.why.includes('no leader is known') && tries < setup_tries_max; tries++) {
        await new Promise((r) => setTimeout(r, setup_retry_ms));
        answer = await cypher(this.pickMember(), 'CREATE (:Reg {k: $k, v: 0})', { k: str(k) }, true);
      }
      if (answer.kind === 'error') throw new Error(`could not create register ${k}: ${answer.why}`);
      this.history.push({ client: -1, kind: 'put', key: k, value: '0', call, ret: this.clock++ });
    }
  }

  start(clients: number): void {
    this.running = true;
    this.clients = Array.from({ length: clients }, (_, c) => this.client(c));
  }

  /** Stops the clients and waits for the operations in flight (each bounded by request_timeout_ms). */
  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.clients);
  }

  /** One linearizable read of every register, recorded like any other (catches a lost write nobody read since). */
  async finalReads(): Promise<void> {
    for (const k of this.keys) await this.read(-2, k);
  }

  private async client(c: number): Promise<void> {
    while (this.running) {
      const key = this.keys[Math.floor(this.random() * this.keys.length)]!;
      const dice = this.random();
      const answered = dice < 0.4 ? await this.read(c, key) : dice < 0.7 || !this.with_cas ? await this.write(c, key) : await this.cas(c, key);
      if (!answered) await new Promise((r) => setTimeout(r, retry_pause_ms));
    }
  }

  /** A write no member received: it did not happen, so it is not in the history. */
  private refused(): false {
    this.counts.refused++;
    return false;
  }

  private async read(client: number, key: string): Promise<boolean> {
    const call = this.clock++;
    const answer = await cypher(this.pickMember(), 'MATCH (r:Reg {k: $k}) RETURN r.v', { k: str(key) }, false);
    if (answer.kind !== 'rows') {
      // A failed read changed nothing: it leaves no trace in the history.
      this.counts.failed_reads++;
      return false;
    }
    this.history.push({ client, kind: 'get', key, value: answer.values[0] ?? null, call, ret: this.clock++ });
    this.counts.ok++;
    return true;
  }

  private async write(client: number, key: string): Promise<boolean> {
    const value = this.next_value++;
    const call = this.clock++;
    const answer = await cypher(this.pickMember(), 'MATCH (r:Reg {k: $k}) SET r.v = $v RETURN r.v', { k: str(key), v: int(value) }, true);
    if (answer.kind === 'refused') return this.refused();
    const known = answer.kind === 'rows' && answer.values.length === 1;
    this.history.push({ client, kind: 'put', key, value: String(value), call, ret: known ? this.clock++ : Infinity });
    if (known) this.counts.ok++;
    else this.counts.unknown++;
    return known;
  }

  private async cas(client: number, key: string): Promise<boolean> {
    // Expect a value this register recently held (or 0), so a fair share of them succeed.
    const seen = this.history.filter((op) => op.key === key && op.value !== null).slice(-4);
    const expect = seen.length > 0 ? seen[Math.floor(this.random() * seen.length)]!.value! : '0';
    const value = this.next_value++;
    const call = this.clock++;
    const answer = await cypher(
      this.pickMember(),
      'MATCH (r:Reg {k: $k}) WHERE r.v = $old SET r.v = $new RETURN r.v',
      { k: str(key), old: int(Number(expect)), new: int(value) },
      true,
    );
    if (answer.kind === 'refused') return this.refused();
    if (answer.kind === 'error') {
      this.history.push({ client, kind: 'cas', key, value: String(value), expect, call, ret: Infinity });
      this.counts.unknown++;
      return false;
    }
    const outcome = answer.values.length === 1 ? 'wrote' : 'refused';
    this.history.push({ client, kind: 'cas', key, value: String(value), expect, cas_outcome: outcome, call, ret: this.clock++ });
    this.counts.ok++;
    if (outcome === 'refused') this.counts.cas_refused++;
    return true;
  }
}
