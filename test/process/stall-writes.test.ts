import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGrpcClient, type GrpcClient } from '../../src/api/grpc-client.js';
import { QueryService } from '../../src/gen/weft/v1/query_pb.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';

/**
 * Runaway auto-committed WRITE statements against a real `weft serve`, over REST and gRPC: each ends
 * with its deadline's error or, when its write set outgrows the call's memory limit, with
 * RESOURCE_EXHAUSTED / EXCEEDS_MEMORY_BUDGET; nothing of it is applied, and /health and a point write
 * sent meanwhile are answered. Auto-committed writes run in one go (docs/query-engine.md), so the
 * probes wait for the statement's end: their latencies are printed, not asserted.
 */
let server: ServerProcess;
let grpc: GrpcClient<typeof QueryService>;
let dir: string;
/** The server's statement timeout: the bound on any statement these scenarios start. */
const statement_timeout_ms = 20_000;
/** The deadline the runaway statements are sent with. */
const runaway_deadline_ms = 1_500;
/** Memory limit of the statements that must run out of time rather than memory (the largest a call may ask). */
const large_memory_mb = 4_096;
/** Memory limit of the statements that must run out of memory. */
const small_memory_mb = 16;
const big_nodes = 2_000;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'weft-stall-writes-'));
  server = await startServerProcess(dir, ['--statement-timeout-ms', String(statement_timeout_ms)]);
  grpc = createGrpcClient(QueryService, server.grpc);
  const seeded = await cypher(`UNWIND range(1, ${big_nodes}) AS i CREATE (:Big {i: i})`);
  expect(seeded.status, JSON.stringify(seeded.json)).toBe(200);
});
afterAll(async () => {
  grpc?.close();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

interface Answer {
  readonly status: number;
  readonly json: Record<string, unknown>;
}

async function cypher(query: string, options: { timeout?: string; memory_mb?: number } = {}): Promise<Answer> {
  const res = await fetch(`${server.rest}/v1/query/cypher`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(options.timeout !== undefined ? { 'grpc-timeout': options.timeout } : {}) },
    body: JSON.stringify({ query, ...(options.memory_mb !== undefined ? { queryMemoryLimitMb: options.memory_mb } : {}) }),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

async function grpcFailure(call: () => Promise<unknown>): Promise<{ code: string; reason: string }> {
  try {
    await call();
  } catch (e) {
    return e as { code: string; reason: string };
  }
  throw new Error('the call succeeded');
}

/** The single integer a `RETURN count(...)` statement answers. */
async function countOf(query: string): Promise<string> {
  const answer = await cypher(query);
  expect(answer.status, JSON.stringify(answer.json)).toBe(200);
  const m = /"intValue":"(\d+)"/.exec(JSON.stringify(answer.json['rows']));
  if (m === null) throw new Error(`no count in ${JSON.stringify(answer.json)}`);
  return m[1] as string;
}

/** /health and a point write sent while `runaway` runs, timed; both must be answered. */
async function probesDuring(runaway: Promise<unknown>, label: string): Promise<void> {
  // Let the runaway statement reach the server first.
  await new Promise((resolve) => setTimeout(resolve, 200));
  const t0 = performance.now();
  const health = await fetch(`${server.ops}/health`);
  const health_ms = performance.now() - t0;
  expect(health.status).toBe(200);
  const t1 = performance.now();
  const write = await cypher('CREATE (:Probe) RETURN 1');
  const write_ms = performance.now() - t1;
  expect(write.status, JSON.stringify(write.json)).toBe(200);
  await runaway;
  console.log(`during ${label}: /health ${health_ms.toFixed(1)} ms, point write ${write_ms.toFixed(1)} ms`);
}

/** A hundred million rows (range() builds at most ten million elements, so two of them). */
const RUNAWAY_CREATE = 'UNWIND range(1, 10000) AS a UNWIND range(1, 10000) AS b CREATE (:X {v: b})';
const RUNAWAY_CROSS_SET = 'MATCH (a:Big), (b:Big) SET a.k = b.i';
const RUNAWAY_MERGE = 'UNWIND range(1, 10000) AS a UNWIND range(1, 10000) AS b MERGE (m:M {k: b % 1000}) SET m.v = a';

describe('a runaway write statement never stalls the server for good', () => {
  it('over REST, a huge CREATE ends with DEADLINE_EXCEEDED, applies nothing, and the probes are answered', async () => {
    const runaway = cypher(RUNAWAY_CREATE, { timeout: `${runaway_deadline_ms}m`, memory_mb: large_memory_mb });
    await probesDuring(runaway, 'a runaway CREATE');
    const answer = await runaway;
    expect(answer.status, JSON.stringify(answer.json)).toBe(504);
    expect(answer.json['code']).toBe('DEADLINE_EXCEEDED');
    expect(await countOf('MATCH (x:X) RETURN count(x)')).toBe('0');
  });

  it('over REST, a MERGE loop ends with DEADLINE_EXCEEDED and applies nothing', async () => {
    const answer = await cypher(RUNAWAY_MERGE, { timeout: `${runaway_deadline_ms}m`, memory_mb: large_memory_mb });
    expect(answer.status, JSON.stringify(answer.json)).toBe(504);
    expect(answer.json['code']).toBe('DEADLINE_EXCEEDED');
    expect(await countOf('MATCH (m:M) RETURN count(m)')).toBe('0');
  });

  it('over REST, a huge CREATE outgrows its memory limit: RESOURCE_EXHAUSTED / EXCEEDS_MEMORY_BUDGET, nothing applied', async () => {
    const answer = await cypher(RUNAWAY_CREATE, { timeout: '60S', memory_mb: small_memory_mb });
    expect(answer.status, JSON.stringify(answer.json)).toBe(429);
    expect(answer.json['code']).toBe('RESOURCE_EXHAUSTED');
    expect(answer.json['reason']).toBe('EXCEEDS_MEMORY_BUDGET');
    expect(await countOf('MATCH (x:X) RETURN count(x)')).toBe('0');
  });

  it('over REST, a cross-product SET outgrows its memory limit, applies nothing, and the probes are answered', async () => {
    const runaway = cypher(RUNAWAY_CROSS_SET, { timeout: '60S', memory_mb: small_memory_mb });
    await probesDuring(runaway, 'a runaway SET');
    const answer = await runaway;
    expect(answer.status, JSON.stringify(answer.json)).toBe(429);
    expect(answer.json['code']).toBe('RESOURCE_EXHAUSTED');
    expect(answer.json['reason']).toBe('EXCEEDS_MEMORY_BUDGET');
    expect(await countOf('MATCH (b:Big) WHERE b.k IS NOT NULL RETURN count(b)')).toBe('0');
  });

  it('over gRPC, the same statements end with the same errors and apply nothing', async () => {
    const late = await grpcFailure(() => grpc.executeCypher({ query: RUNAWAY_CREATE, queryMemoryLimitMb: large_memory_mb }, { timeout_ms: runaway_deadline_ms }));
    expect(late.code).toBe('DEADLINE_EXCEEDED');
    const big = await grpcFailure(() => grpc.executeCypher({ query: RUNAWAY_CROSS_SET, queryMemoryLimitMb: small_memory_mb }, { timeout_ms: 60_000 }));
    expect(big.code).toBe('RESOURCE_EXHAUSTED');
    expect(big.reason).toBe('EXCEEDS_MEMORY_BUDGET');
    expect(await countOf('MATCH (b:Big) WHERE b.k IS NOT NULL RETURN count(b)')).toBe('0');
    expect(await countOf('MATCH (x:X) RETURN count(x)')).toBe('0');
    // The server is whole: the probes of the earlier scenarios were applied, and writes go on.
    expect(await countOf('MATCH (p:Probe) RETURN count(p)')).toBe('2');
  });
});
