import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';

/**
 * Crash safety of a large write in parts (docs/query-engine.md, Time slices): a `weft serve` child is
 * killed with SIGKILL while the parts of a large CREATE are being appended (its log's bytes-written counter grows), then
 * started again on the same data directory. The write is there whole or not at all (not at all unless
 * its commit part made it to the log), and the member takes writes again.
 */
const nodes = 150_000;
/** Log bytes the parts must have added before the kill: a few parts of the write's 8 MB or so. */
const grown_bytes_min = 1 << 20;
/** Bound on waiting for the parts to reach the log. */
const grow_wait_ms = 60_000;

async function cypher(server: ServerProcess, query: string): Promise<{ status: number; text: string }> {
  const res = await fetch(`${server.rest}/v1/query/cypher`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'grpc-timeout': '300S' },
    body: JSON.stringify({ query, queryMemoryLimitMb: 1024 }),
  });
  return { status: res.status, text: await res.text() };
}

async function count(server: ServerProcess, label: string): Promise<number> {
  const answer = await cypher(server, `MATCH (x:${label}) RETURN count(x)`);
  expect(answer.status, answer.text).toBe(200);
  const m = /"intValue":"(\d+)"/.exec(answer.text);
  if (m === null) throw new Error(`no count in ${answer.text}`);
  return Number(m[1]);
}

/**
 * Bytes the member has written to its log, from its own counter: segments are preallocated, so their
 * files do not grow as records are written into them.
 */
async function logBytes(server: ServerProcess): Promise<number> {
  const text = await (await fetch(`${server.ops}/metrics`)).text();
  const m = /^graphdb_log_bytes_written (\d+)/m.exec(text);
  if (m === null) throw new Error('no graphdb_log_bytes_written on /metrics');
  return Number(m[1]);
}

describe('crash safety of a write in parts', () => {
  it('recovery: kill -9 while the parts of a large CREATE are appended: after a restart the write is there whole or not at all, and the member takes writes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-parts-crash-'));
    try {
      let server = await startServerProcess(dir);
      let running = true;
      try {
        expect((await cypher(server, 'CREATE (:Before)')).status).toBe(200);
        const before = await logBytes(server);
        let answered = 0;
        const big = cypher(server, `UNWIND range(1, ${nodes}) AS i CREATE (:Big {i: i})`).then(
          (a) => (answered = a.status),
          () => undefined,
        );
        const end = Date.now() + grow_wait_ms;
        let written = 0;
        while ((written = (await logBytes(server)) - before) < grown_bytes_min) {
          if (Date.now() > end) throw new Error(`the log did not grow by ${grown_bytes_min} bytes within ${grow_wait_ms} ms`);
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        await server.kill();
        running = false;
        await big;
        server = await startServerProcess(dir);
        running = true;
        const found = await count(server, 'Big');
        console.log(`killed with ${written} log bytes written; the write had ${answered === 200 ? '' : 'not '}answered; after the restart: ${found} nodes`);
        if (answered === 200) expect(found).toBe(nodes);
        else expect([0, nodes]).toContain(found);
        expect(await count(server, 'Before')).toBe(1);
        expect((await cypher(server, 'CREATE (:After)')).status).toBe(200);
        expect(await count(server, 'After')).toBe(1);
      } finally {
        if (running) await server.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
