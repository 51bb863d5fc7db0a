/**
 * Interactive transaction commits per second at concurrency 1 and 32 (each transaction reads two
 * nodes and writes two), change-feed delivery rate, and beside them the plain auto-commit write rate,
 * all over gRPC against one member in the same run.
 *
 *   npx tsx bench/transactions.ts [--seconds 5]
 *
 * Prints a table and writes bench/results/transactions.json.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGrpcClient } from '../src/api/grpc-client.js';
import { QueryService } from '../src/gen/weft/v1/query_pb.js';
import { startServerProcess } from '../test/support/server-process.js';

const seconds = Number(process.argv[process.argv.indexOf('--seconds') + 1] || 5);
const nodes = 10_000;
const int = (v: number) => ({ kind: { case: 'intValue' as const, value: BigInt(v) } });

interface Row {
  readonly case: string;
  readonly per_s: number;
  readonly p50_ms: number;
  readonly p99_ms: number;
  readonly note: string;
}

const pct = (s: number[], p: number) => (s.length === 0 ? 0 : s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!);

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'weft-bench-tx-'));
  const server = await startServerProcess(join(dir, 'data'));
  const q = createGrpcClient(QueryService, server.grpc);
  const rows: Row[] = [];
  try {
    await q.executeCypher({ query: 'UNWIND range(1, $n) AS i CREATE (:Item {v: 0})', parameters: { n: int(nodes) } });
    let seq = 0;
    const pick = () => 1 + ((seq++ * 7919) % nodes);

    const run = async (name: string, concurrency: number, op: () => Promise<boolean>): Promise<void> => {
      const lat: number[] = [];
      let refused = 0;
      const end = performance.now() + seconds * 1000;
      const t0 = performance.now();
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (performance.now() < end) {
            const t = performance.now();
            if (await op()) lat.push(performance.now() - t);
            else refused++;
          }
        }),
      );
      const elapsed = (performance.now() - t0) / 1000;
      lat.sort((a, b) => a - b);
      rows.push({ case: name, per_s: lat.length / elapsed, p50_ms: pct(lat, 50), p99_ms: pct(lat, 99), note: refused > 0 ? `${refused} refused as conflicts` : '' });
    };

    const transaction = async (): Promise<boolean> => {
      const a = pick();
      const b = pick();
      const { transactionId } = await q.beginTransaction({});
      await q.executeCypher({ query: 'MATCH (x), (y) WHERE id(x) = $a AND id(y) = $b RETURN x.v, y.v', parameters: { a: int(a), b: int(b) }, transactionId });
      await q.executeCypher({ query: 'MATCH (x), (y) WHERE id(x) = $a AND id(y) = $b SET x.v = x.v + 1, y.v = y.v - 1', parameters: { a: int(a), b: int(b) }, transactionId });
      try {
        await q.commitTransaction({ transactionId });
        return true;
      } catch {
        return false;
      }
    };
    const autoCommit = async (): Promise<boolean> => {
      await q.executeCypher({ query: 'MATCH (x) WHERE id(x) = $a SET x.v = x.v + 1', parameters: { a: int(pick()) } });
      return true;
    };
    await run('warm-up', 4, transaction);
    rows.length = 0;
    await run('auto-commit write, concurrency 1', 1, autoCommit);
    await run('auto-commit write, concurrency 32', 32, autoCommit);
    await run('transaction (read 2, write 2), concurrency 1', 1, transaction);
    await run('transaction (read 2, write 2), concurrency 32', 32, transaction);

    // Change feed: read everything written so far from the start, as fast as the stream goes.
    const controller = new AbortController();
    let changes = 0;
    const t0 = performance.now();
    const target = 20_000;
    for await (const _ of q.watchChanges({ fromCommitTs: 0n }, { signal: controller.signal })) {
      if (++changes >= target) break;
    }
    controller.abort();
    const elapsed = (performance.now() - t0) / 1000;
    rows.push({ case: 'change feed delivery (catch-up from the start)', per_s: changes / elapsed, p50_ms: 0, p99_ms: 0, note: `${changes} changes` });
  } finally {
    q.close();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(`\nWeft single member, gRPC, ${seconds} s per case, ${nodes} nodes`);
  console.log('| case | per s | p50 ms | p99 ms | note |');
  console.log('|---|---:|---:|---:|---|');
  for (const r of rows) console.log(`| ${r.case} | ${r.per_s.toFixed(0)} | ${r.p50_ms.toFixed(2)} | ${r.p99_ms.toFixed(2)} | ${r.note} |`);
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/transactions.json', JSON.stringify({ seconds, nodes, rows, at: new Date().toISOString() }, null, 2));
}

await main();
