import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createGrpcClient } from '../../src/api/grpc-client.js';
import { QueryService } from '../../src/gen/weft/v1/query_pb.js';
import type { PropertyValue } from '../../src/gen/weft/v1/values_pb.js';
import { prng, testSeed } from '../support/prng.js';
import { startServerProcess } from '../support/server-process.js';

/**
 * 16 clients move money between 100 accounts in interactive transactions until enough transfers
 * committed (or a bounded time passed). Conflicting commits are refused and retried. Every snapshot
 * sees the same total, and the final balances equal the opening ones plus exactly the committed
 * transfers: no update was lost. The run ends on counts, not on a time, so a slow machine takes
 * longer rather than failing.
 */
const accounts = 100;
const clients = 16;
const opening = 1000n;
/** What the run must see before it stops: committed transfers, audited snapshots, refused conflicts. */
const transfers_min = Number(process.env['WEFT_TRANSFERS'] ?? 100);
const snapshots_min = 6;
/** The run stops here whatever it saw; the assertions below then say what was missing. */
const run_secs_max = 90;

const int = (v: bigint) => ({ kind: { case: 'intValue' as const, value: v } });
const asInt = (v: PropertyValue | undefined): bigint => {
  if (v?.kind.case !== 'intValue') throw new Error(`not an integer: ${JSON.stringify(v?.kind)}`);
  return v.kind.value;
};

describe('interactive transactions under contention', () => {
  it(`transfers: ${clients} clients, ${accounts} accounts, ${transfers_min} committed transfers: the total never changes and no update is lost`, async () => {
    const random = prng(testSeed('transfers'));
    const dir = mkdtempSync(join(tmpdir(), 'weft-transfers-'));
    const server = await startServerProcess(dir);
    const q = createGrpcClient(QueryService, server.grpc);
    try {
      await q.executeCypher({ query: 'UNWIND range(1, $n) AS i CREATE (:Account {id: i, balance: $b})', parameters: { n: int(BigInt(accounts)), b: int(opening) } });
      const total = opening * BigInt(accounts);
      const committed: { from: bigint; to: bigint; amount: bigint }[] = [];
      let conflicts = 0;
      let snapshots = 0;
      const end = Date.now() + run_secs_max * 1000;
      const enough = (): boolean => committed.length >= transfers_min && snapshots >= snapshots_min && conflicts > 0;
      await Promise.all(
        Array.from({ length: clients }, async (_, c) => {
          while (!enough() && Date.now() < end) {
            const { transactionId } = await q.beginTransaction({});
            if (c === 0) {
              // An auditor: a snapshot read of the total inside a transaction.
              const res = await q.executeCypher({ query: 'MATCH (a:Account) RETURN sum(a.balance) AS total, count(a) AS n', transactionId });
              expect(asInt(res.rows[0]!.values[0])).toBe(total);
              snapshots++;
              await q.commitTransaction({ transactionId });
              continue;
            }
            const from = BigInt(1 + Math.floor(random() * accounts));
            let to = BigInt(1 + Math.floor(random() * accounts));
            if (to === from) to = (to % BigInt(accounts)) + 1n;
            const amount = BigInt(1 + Math.floor(random() * 50));
            const read = await q.executeCypher({
              query: 'MATCH (a:Account {id: $from}), (b:Account {id: $to}) RETURN a.balance, b.balance',
              parameters: { from: int(from), to: int(to) },
              transactionId,
            });
            const balance = asInt(read.rows[0]!.values[0]);
            if (balance < amount) {
              await q.rollbackTransaction({ transactionId });
              continue;
            }
            await q.executeCypher({ query: 'MATCH (a:Account {id: $id}) SET a.balance = a.balance - $x', parameters: { id: int(from), x: int(amount) }, transactionId });
            await q.executeCypher({ query: 'MATCH (a:Account {id: $id}) SET a.balance = a.balance + $x', parameters: { id: int(to), x: int(amount) }, transactionId });
            try {
              await q.commitTransaction({ transactionId });
              committed.push({ from, to, amount });
            } catch (e) {
              expect((e as { code: string }).code).toBe('ABORTED');
              conflicts++;
            }
          }
        }),
      );
      const expected = new Map<bigint, bigint>();
      for (let i = 1n; i <= BigInt(accounts); i++) expected.set(i, opening);
      for (const t of committed) {
        expected.set(t.from, expected.get(t.from)! - t.amount);
        expected.set(t.to, expected.get(t.to)! + t.amount);
      }
      const final = await q.executeCypher({ query: 'MATCH (a:Account) RETURN a.id, a.balance ORDER BY a.id' });
      for (const row of final.rows) expect(asInt(row.values[1]), `account ${asInt(row.values[0])}`).toBe(expected.get(asInt(row.values[0])));
      const sum = final.rows.reduce((s, r) => s + asInt(r.values[1]), 0n);
      expect(sum).toBe(total);
      console.log(`transfers: ${committed.length} committed, ${conflicts} refused as conflicts, ${snapshots} audited snapshots`);
      expect(committed.length).toBeGreaterThanOrEqual(transfers_min);
      expect(conflicts).toBeGreaterThan(0);
      expect(snapshots).toBeGreaterThanOrEqual(snapshots_min);
    } finally {
      q.close();
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
