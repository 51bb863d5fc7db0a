import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';

/**
 * A statement never stalls the server: against a real `weft serve`, runaway reads run in time slices
 * while health checks and point writes are answered, end with their deadline's error (the call's, or
 * the server's statement timeout), stop when their client goes away, and beyond the cap on statements
 * running at once the next one is refused. Latencies are printed, not asserted.
 */
let server: ServerProcess;
let dir: string;
const statement_timeout_ms = 2_000;
const statement_running_max = 6;
/** Bound on every wait for the server to reach a state (statements started, statements gone). */
const settle_wait_ms = 20_000;

const RUNAWAY = 'UNWIND range(1, 3000) AS a UNWIND range(1, 3000) AS b UNWIND range(1, 3000) AS c RETURN count(*)';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'weft-stall-'));
  server = await startServerProcess(dir, ['--statement-timeout-ms', String(statement_timeout_ms), '--statement-running-max', String(statement_running_max)]);
});
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

interface Answer {
  readonly status: number;
  readonly json: Record<string, unknown>;
}

async function cypher(query: string, options: { timeout?: string; signal?: AbortSignal; parameters?: object } = {}): Promise<Answer> {
  const res = await fetch(`${server.rest}/v1/query/cypher`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(options.timeout !== undefined ? { 'grpc-timeout': options.timeout } : {}) },
    body: JSON.stringify({ query, ...(options.parameters !== undefined ? { parameters: options.parameters } : {}) }),
    ...(options.signal !== undefined ? { signal: options.signal } : {}),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

async function metric(name: string): Promise<number> {
  const text = await (await fetch(`${server.ops}/metrics`)).text();
  const m = new RegExp(`^${name} (\\d+)`, 'm').exec(text);
  if (m === null) throw new Error(`no metric ${name} in /metrics`);
  return Number(m[1]);
}

/** Waits (bounded) until the running-statements gauge reads `n`. */
async function runningReaches(n: number): Promise<void> {
  const until = Date.now() + settle_wait_ms;
  for (;;) {
    const running = await metric('graphdb_statements_running');
    if (running === n) return;
    if (Date.now() > until) throw new Error(`graphdb_statements_running stayed at ${running}, not ${n}, for ${settle_wait_ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function timed<T>(body: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const t0 = performance.now();
  const value = await body();
  return { value, ms: performance.now() - t0 };
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

const summary = (xs: readonly number[]): string => {
  const s = [...xs].sort((a, b) => a - b);
  return `p50 ${percentile(s, 50).toFixed(1)} ms, p99 ${percentile(s, 99).toFixed(1)} ms, max ${(s[s.length - 1] as number).toFixed(1)} ms over ${s.length}`;
};

describe('a statement never stalls the server', () => {
  it('while four runaway reads run, /health answers and point writes complete; the reads end with their deadline error', async () => {
    const runaways = Array.from({ length: 4 }, () => cypher(RUNAWAY, { timeout: '6S' }));
    await runningReaches(4);
    const health: number[] = [];
    const writes: number[] = [];
    for (let i = 0; i < 20; i++) {
      const h = await timed(() => fetch(`${server.ops}/health`));
      expect(h.value.status).toBe(200);
      health.push(h.ms);
      const w = await timed(() => cypher('CREATE (p:Probe {i: $i}) RETURN p.i', { parameters: { i: { intValue: String(i) } } }));
      expect(w.value.status, JSON.stringify(w.value.json)).toBe(200);
      writes.push(w.ms);
    }
    // The four were still running the whole time: the probes did not wait for them to end.
    expect(await metric('graphdb_statements_running')).toBe(4);
    console.log(`with 4 runaway reads: /health ${summary(health)}; point write ${summary(writes)}`);
    for (const answer of await Promise.all(runaways)) {
      expect(answer.status).toBe(504);
      expect(answer.json['code']).toBe('DEADLINE_EXCEEDED');
    }
    await runningReaches(0);
    const count = await cypher('MATCH (p:Probe) RETURN count(p)');
    expect(JSON.stringify(count.json)).toContain('"20"');
  });

  it('a statement whose call sets no deadline ends at the server statement timeout', async () => {
    const answer = await cypher(RUNAWAY);
    expect(answer.status).toBe(504);
    expect(answer.json['code']).toBe('DEADLINE_EXCEEDED');
    await runningReaches(0);
  });

  it('a client that disconnects stops its statement: it leaves the running gauge long before its deadline', async () => {
    const client = new AbortController();
    const gone = cypher(RUNAWAY, { timeout: '600S', signal: client.signal }).catch((e: unknown) => e);
    await runningReaches(1);
    const t0 = performance.now();
    client.abort();
    expect(await gone).toBeInstanceOf(Error);
    await runningReaches(0);
    console.log(`disconnect: the statement left the running gauge ${(performance.now() - t0).toFixed(1)} ms after the client went away`);
  });

  it(`beyond ${statement_running_max} statements running at once the next is refused with RESOURCE_EXHAUSTED`, async () => {
    const clients = Array.from({ length: statement_running_max }, () => new AbortController());
    const running = clients.map((c) => cypher(RUNAWAY, { timeout: '600S', signal: c.signal }).catch((e: unknown) => e));
    await runningReaches(statement_running_max);
    const refusedBefore = await metric('graphdb_statements_refused');
    const refused = await cypher('RETURN 1');
    expect(refused.status).toBe(429);
    expect(refused.json['code']).toBe('RESOURCE_EXHAUSTED');
    expect(refused.json['reason']).toBe('TOO_MANY_RUNNING_STATEMENTS');
    expect((refused.json['metadata'] as Record<string, string>)['limit']).toBe(String(statement_running_max));
    expect(await metric('graphdb_statements_refused')).toBe(refusedBefore + 1);
    for (const c of clients) c.abort();
    await Promise.all(running);
    await runningReaches(0);
    // With the places free again, statements run.
    expect((await cypher('RETURN 1')).status).toBe(200);
  });

  it('the prepared-plan cache counts hits and misses in /metrics', async () => {
    const misses = await metric('graphdb_query_plan_cache_misses');
    const hits = await metric('graphdb_query_plan_cache_hits');
    // A parameter the planner does not weigh: one plan serves every value (a weighed range parameter plans
    // once per band of its value, test/query/engine/parameter-bounds.test.ts).
    const text = 'MATCH (p:Probe) WHERE p.i <> $i RETURN count(*)';
    for (let i = 0; i < 3; i++) expect((await cypher(text, { parameters: { i: { intValue: String(i) } } })).status).toBe(200);
    expect(await metric('graphdb_query_plan_cache_misses')).toBe(misses + 1);
    expect(await metric('graphdb_query_plan_cache_hits')).toBe(hits + 2);
  });
});
