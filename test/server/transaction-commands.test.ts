import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toJson, type JsonObject } from '@bufbuild/protobuf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGrpcClient, type GrpcClient } from '../../src/api/grpc-client.js';
import { restCall } from '../../src/api/rest-client.js';
import { QueryService } from '../../src/gen/weft/v1/query_pb.js';
import { PropertyValueSchema, type PropertyValue } from '../../src/gen/weft/v1/values_pb.js';
import { open, QueryEngine } from '../../src/index.js';
import { RunningTransactions } from '../../src/server/running-transactions.js';
import { defaultConfig } from '../../src/server/config.js';
import { startServer, type RunningServer } from '../../src/server/server.js';
import { failure } from '../support/failure.js';

/**
 * SHOW TRANSACTIONS and TERMINATE TRANSACTIONS (Neo4j 5 Cypher manual, "Transaction commands") with real
 * statements running beside them: a long UNWIND through the embedded API, and an interactive transaction
 * over REST and gRPC. Terminating goes through the path a cancelled call takes: the statement stops at its
 * next time slice with TRANSACTION_TERMINATED and nothing of it is applied.
 */

/** A read that runs for seconds: 10^8 rows, none returned. */
const long_read = 'UNWIND range(1, 10000) AS a UNWIND range(1, 10000) AS b WITH b WHERE b < 0 RETURN count(*) AS n';
/** Polls of SHOW TRANSACTIONS before a statement started beside it must have shown up. */
const polls_max = 200;
const poll_ms = 10;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the registry of running transactions', () => {
  it('terminate: running -> aborted with TRANSACTION_TERMINATED; closing -> refused; ended -> not found; a statement terminated before it starts runs nothing', async () => {
    const registry = new RunningTransactions(() => 1_000);
    const first = registry.begin('RETURN 1', new Map());
    const second = registry.begin('CREATE (:Never)', new Map());
    expect(registry.list().map((t) => [t.transaction_id, t.query?.query_id, t.state])).toEqual([
      ['weft-transaction-1', 'query-1', 'running'],
      ['weft-transaction-2', 'query-2', 'running'],
    ]);
    second.closing();
    expect(registry.terminate(second.transaction_id)).toBe('closing');
    expect(second.signal.aborted).toBe(false);
    expect(registry.terminate(first.transaction_id)).toBe('terminated');
    expect(first.signal.reason).toMatchObject({ code: 'ABORTED', reason: 'TRANSACTION_TERMINATED' });
    expect(registry.list().map((t) => t.state)).toEqual(['terminated', 'closing']);
    // The engine looks at the signal before the first slice: a terminated statement runs nothing.
    const dir = mkdtempSync(join(tmpdir(), 'weft-txcmd-'));
    const db = await open(dir);
    try {
      const engine = new QueryEngine();
      const run = engine.executeSliced(engine.prepare('RETURN 1 AS one'), db.database.latestCommitted(), { params: new Map(), memory_limit_bytes: 1 << 20, now_us: 0 }, first.signal);
      expect(await failure(run)).toMatchObject({ reason: 'TRANSACTION_TERMINATED' });
    } finally {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    }
    first.end();
    second.end();
    expect(registry.terminate(first.transaction_id)).toBe('not_found');
    expect(registry.list()).toEqual([]);
  });
});

describe('transaction commands through the embedded API', () => {
  it('a long UNWIND is listed with its text while it runs; TERMINATE stops it with TRANSACTION_TERMINATED', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-txcmd-'));
    const db = await open(dir);
    try {
      const running = db.query(long_read);
      const outcome = failure(running);
      let id: string | undefined;
      for (let i = 0; i < polls_max && id === undefined; i++) {
        await pause(poll_ms);
        const shown = await db.query('SHOW TRANSACTIONS YIELD transactionId, currentQuery, status WHERE currentQuery = $q RETURN transactionId, status', { q: long_read });
        if (shown.rows.length > 0) {
          expect(shown.rows[0]![1]).toBe('Running');
          id = shown.rows[0]![0] as string;
        }
      }
      expect(id).toMatch(/^weft-transaction-\d+$/);
      const answer = await db.query('TERMINATE TRANSACTION $id', { id: id! });
      expect(answer.columns).toEqual(['transactionId', 'username', 'message']);
      expect(answer.rows).toEqual([[id, '', 'Transaction terminated.']]);
      const error = await outcome;
      expect(error).toMatchObject({ code: 'ABORTED', reason: 'TRANSACTION_TERMINATED', metadata: { neo4j_code: 'Neo.TransientError.Transaction.Terminated', transaction_id: id } });
      // It has left the registry: not listed, and a second TERMINATE does not find it.
      expect((await db.query('SHOW TRANSACTIONS $id', { id: id! })).rows).toEqual([]);
      expect((await db.query('TERMINATE TRANSACTIONS $id YIELD message RETURN message', { id: id! })).rows).toEqual([['Transaction not found.']]);
    } finally {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("the manual's chained form finds the long UNWIND by its text and terminates it in one statement", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-txcmd-'));
    const db = await open(dir);
    try {
      const outcome = failure(db.query(long_read));
      let answered: unknown[][] = [];
      for (let i = 0; i < polls_max && answered.length === 0; i++) {
        await pause(poll_ms);
        answered = (
          await db.query(
            'SHOW TRANSACTIONS YIELD transactionId AS txId, currentQuery WHERE currentQuery = $q TERMINATE TRANSACTIONS txId YIELD message RETURN txId, message',
            { q: long_read },
          )
        ).rows as unknown[][];
      }
      expect(answered).toEqual([[expect.stringMatching(/^weft-transaction-\d+$/), 'Transaction terminated.']]);
      expect((await outcome).reason).toBe('TRANSACTION_TERMINATED');
    } finally {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a write terminated while it runs applies nothing, and the next write commits', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-txcmd-'));
    const db = await open(dir);
    try {
      const write = 'UNWIND range(1, 5000) AS a UNWIND range(1, 1000) AS b CREATE (:X {a: a, b: b})';
      const outcome = failure(db.query(write));
      let terminated = false;
      for (let i = 0; i < polls_max && !terminated; i++) {
        await pause(poll_ms);
        const shown = await db.query('SHOW TRANSACTIONS YIELD transactionId AS id, currentQuery WHERE currentQuery = $q RETURN collect(id) AS ids', { q: write });
        const ids = shown.rows[0]![0] as string[];
        if (ids.length > 0) {
          const answer = await db.query('TERMINATE TRANSACTIONS $ids YIELD message RETURN message', { ids });
          expect(answer.rows).toEqual([['Transaction terminated.']]);
          terminated = true;
        }
      }
      expect(terminated).toBe(true);
      expect((await outcome).reason).toBe('TRANSACTION_TERMINATED');
      expect((await db.query('MATCH (x:X) RETURN count(x)')).rows).toEqual([[0n]]);
      await db.query('CREATE (:Y)');
      expect((await db.query('MATCH (y:Y) RETURN count(y)')).rows).toEqual([[1n]]);
    } finally {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

function plain(v: PropertyValue | undefined): unknown {
  if (v === undefined) return undefined;
  const [k, x] = Object.entries(toJson(PropertyValueSchema, v) as JsonObject)[0] ?? [];
  return k === undefined ? null : x;
}

const text = (s: string) => ({ kind: { case: 'stringValue' as const, value: s } });

describe('transaction commands over REST and gRPC', () => {
  let dir: string;
  let server: RunningServer;
  let grpc: GrpcClient<typeof QueryService>;
  let rest: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'weft-txcmd-server-'));
    server = await startServer({ ...defaultConfig, data_dir: dir, grpc_port: 0, rest_port: 0, ops_port: 0 }, () => {});
    grpc = createGrpcClient(QueryService, `127.0.0.1:${server.ports.grpc}`);
    rest = `http://127.0.0.1:${server.ports.rest}`;
  });
  afterAll(async () => {
    grpc.close();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const restCypher = async (query: string, parameters: Record<string, object> = {}, transactionId?: bigint) =>
    (await restCall(rest, QueryService.method.executeCypher, { query, parameters, ...(transactionId !== undefined && { transactionId }) } as never)) as Awaited<
      ReturnType<typeof grpc.executeCypher>
    >;
  const rows = (res: Awaited<ReturnType<typeof grpc.executeCypher>>): unknown[][] => res.rows.map((r) => r.values.map(plain));

  it('an open interactive transaction is listed, idle and then running; TERMINATE ends its statement and the transaction; nothing of it is applied', async () => {
    const tx = (await restCall(rest, QueryService.method.beginTransaction, {} as never)) as Awaited<ReturnType<typeof grpc.beginTransaction>>;
    const txId = tx.transactionId;
    const name = `weft-transaction-${txId}`;
    await restCypher('CREATE (:Pending {k: 1})', {}, txId);
    // Between statements it is open and idle: listed with no current query.
    const idle = rows(await grpc.executeCypher({ query: 'SHOW TRANSACTIONS $id YIELD transactionId, currentQuery, currentQueryId, status, idleTime RETURN transactionId, currentQuery, currentQueryId, status', parameters: { id: text(name) } }));
    expect(idle).toEqual([[name, '', '', 'Running']]);

    // A long statement in it, sent over REST, shows up running; gRPC terminates it.
    const running = failure(restCypher(long_read, {}, txId));
    let seen: unknown[] | undefined;
    for (let i = 0; i < polls_max && seen === undefined; i++) {
      await pause(poll_ms);
      const shown = rows(await grpc.executeCypher({ query: 'SHOW TRANSACTIONS $id YIELD currentQuery, currentQueryId, status RETURN currentQuery, currentQueryId STARTS WITH "query-", status', parameters: { id: text(name) } }));
      if (shown[0]?.[0] === long_read) seen = shown[0];
    }
    expect(seen).toEqual([long_read, true, 'Running']);
    const terminated = rows(await grpc.executeCypher({ query: 'TERMINATE TRANSACTIONS $id', parameters: { id: text(name) } }));
    expect(terminated).toEqual([[name, '', 'Transaction terminated.']]);

    // The REST client of the running statement gets the manual's error class, as 409 ABORTED.
    const error = await running;
    expect(error).toMatchObject({ code: 'ABORTED', reason: 'TRANSACTION_TERMINATED', metadata: { neo4j_code: 'Neo.TransientError.Transaction.Terminated' } });
    // Any later use of the transaction says so too; a rollback answers, as the transaction is already rolled back.
    expect(await failure(restCypher('RETURN 1', {}, txId))).toMatchObject({ reason: 'TRANSACTION_TERMINATED' });
    expect(await failure(grpc.commitTransaction({ transactionId: txId }))).toMatchObject({ code: 'ABORTED', reason: 'TRANSACTION_TERMINATED' });
    await restCall(rest, QueryService.method.rollbackTransaction, { transactionId: txId } as never);
    expect(rows(await grpc.executeCypher({ query: 'SHOW TRANSACTIONS $id', parameters: { id: text(name) } }))).toEqual([]);
    // Its write, buffered before the termination, was never applied.
    expect(rows(await restCypher('MATCH (p:Pending) RETURN count(p)'))).toEqual([['0']]);
  });

  it('an auto-committed statement over gRPC is listed beside the transaction that lists it, and a REST TERMINATE stops it', async () => {
    const tx = await grpc.beginTransaction({});
    const name = `weft-transaction-${tx.transactionId}`;
    const running = failure(grpc.executeCypher({ query: long_read }));
    let id: unknown;
    for (let i = 0; i < polls_max && id === undefined; i++) {
      await pause(poll_ms);
      // SHOW TRANSACTIONS inside the explicit transaction lists it too.
      const shown = rows(await grpc.executeCypher({ query: 'SHOW TRANSACTIONS YIELD transactionId, currentQuery RETURN transactionId, currentQuery ORDER BY transactionId', transactionId: tx.transactionId }));
      expect(shown.map((r) => r[0])).toContain(name);
      id = shown.find((r) => r[1] === long_read)?.[0];
    }
    expect(id).toMatch(/^weft-transaction-\d+$/);
    expect(rows(await restCypher('TERMINATE TRANSACTION $id YIELD message RETURN message', { id: text(id as string) }))).toEqual([['Transaction terminated.']]);
    expect(await running).toMatchObject({ code: 'ABORTED', reason: 'TRANSACTION_TERMINATED' });
    // The transaction that looked on is untouched.
    await grpc.commitTransaction({ transactionId: tx.transactionId });
  });
});
