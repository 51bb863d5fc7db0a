import type { MemberProcess } from '../../src/cli/member-process.js';

/**
 * A steady write load on a group, as a client would run it: one node per write, each with its own
 * key, sent to the member that took the last write. A refusal that names the leader (NOT_LEADER,
 * MEMBER_READ_ONLY) sends the next write there; any other failure tries the next member. Every
 * attempt is recorded, so a test can check that no acknowledged write was lost and count the write
 * pauses: a pause is a run of failed writes between two acknowledged ones.
 */
export interface Attempt {
  readonly key: string;
  readonly member: number;
  readonly started_ms: number;
  readonly ended_ms: number;
  /** 'ok', or the refusal's reason (or the transport failure). */
  readonly outcome: string;
}

export interface Pause {
  readonly from_ms: number;
  readonly to_ms: number;
  readonly failed: number;
}

const write_timeout_ms = 3000;
const write_gap_ms = 20;

export class WriteLoad {
  readonly attempts: Attempt[] = [];
  private stopped = false;
  private done: Promise<void> = Promise.resolve();
  private target = 0;

  constructor(
    private readonly members: () => MemberProcess[],
    private readonly label: string,
  ) {}

  start(): void {
    this.done = this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.done;
  }

  get acked(): string[] {
    return this.attempts.filter((a) => a.outcome === 'ok').map((a) => a.key);
  }

  /** Runs of failed writes between two acknowledged ones. */
  pauses(): Pause[] {
    const out: Pause[] = [];
    let first_failed: Attempt | undefined;
    let failed = 0;
    let seen_ok = false;
    for (const a of this.attempts) {
      if (a.outcome === 'ok') {
        if (first_failed !== undefined && seen_ok) out.push({ from_ms: first_failed.started_ms, to_ms: a.ended_ms, failed });
        first_failed = undefined;
        failed = 0;
        seen_ok = true;
      } else {
        first_failed ??= a;
        failed++;
      }
    }
    return out;
  }

  private async run(): Promise<void> {
    for (let i = 0; !this.stopped; i++) {
      const running = this.members();
      const m = running.find((p) => p.node_id === this.target) ?? running[0];
      if (m === undefined) {
        await sleep(write_gap_ms);
        continue;
      }
      const key = `${this.label}-${i}`;
      const started_ms = Date.now();
      const outcome = await this.write(m, key);
      this.attempts.push({ key, member: m.node_id, started_ms, ended_ms: Date.now(), outcome: outcome.outcome });
      if (outcome.outcome === 'ok') this.target = m.node_id;
      else if (outcome.leader !== undefined && outcome.leader !== m.node_id) this.target = outcome.leader;
      else {
        const ids = running.map((p) => p.node_id);
        this.target = ids[(ids.indexOf(m.node_id) + 1) % ids.length]!;
      }
      await sleep(write_gap_ms);
    }
  }

  private async write(m: MemberProcess, key: string): Promise<{ outcome: string; leader?: number }> {
    try {
      const res = await fetch(`http://${m.rest}/v1/graph/nodes`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ labels: [this.label], properties: { k: { stringValue: key } } }),
        signal: AbortSignal.timeout(write_timeout_ms),
      });
      const body = (await res.json()) as { reason?: string; metadata?: Record<string, string> };
      if (res.status === 200) return { outcome: 'ok' };
      const leader = Number(body.metadata?.['leader_id'] ?? '0');
      return { outcome: body.reason || `HTTP ${res.status}`, ...(leader > 0 ? { leader } : {}) };
    } catch (e) {
      return { outcome: e instanceof Error ? e.name : 'failed' };
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
