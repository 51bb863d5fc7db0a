import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGrpcClient, type GrpcClient } from '../../src/api/grpc-client.js';
import { restCall } from '../../src/api/rest-client.js';
import type { MessageShape } from '@bufbuild/protobuf';
import { QueryService } from '../../src/gen/weft/v1/query_pb.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';

/** SPEC 4.1 request rules and SPEC 3.4 transaction states, over gRPC and REST alike. */
let server: ServerProcess;
let grpc: GrpcClient<typeof QueryService>;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'weft-rules-'));
  server = await startServerProcess(dir);
  grpc = createGrpcClient(QueryService, server.grpc);
});
afterAll(async () => {
  grpc?.close();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

type Method = keyof typeof QueryService.method;
/** A REST call typed by the method's output message. */
const rest = async <K extends Method>(method: K, req: unknown): Promise<MessageShape<(typeof QueryService.method)[K]['output']>> =>
  (await restCall(server.rest, QueryService.method[method], req)) as unknown as MessageShape<(typeof QueryService.method)[K]['output']>;
const both = (method: Method, req: unknown): [string, () => Promise<unknown>][] => [
  ['grpc', () => (grpc[method] as (r: unknown) => Promise<unknown>)(req)],
  ['rest', () => restCall(server.rest, QueryService.method[method], req)],
];

async function failure(call: () => Promise<unknown>): Promise<{ code: string; reason: string; metadata: Record<string, string> }> {
  try {
    await call();
  } catch (e) {
    return e as { code: string; reason: string; metadata: Record<string, string> };
  }
  throw new Error('the call succeeded');
}

describe('ExecuteCypher request rules', () => {
  const q = 'RETURN 1';
  const cases: [string, unknown, string][] = [
    ['after_index with LOCAL', { query: q, readConcern: { level: 1, afterIndex: 1n } }, 'FAILED_PRECONDITION'],
    ['after_index with LINEARIZABLE', { query: q, readConcern: { level: 3, afterIndex: 1n } }, 'FAILED_PRECONDITION'],
    ['at_timestamp with MAJORITY', { query: q, readConcern: { level: 2, atTimestamp: 5n } }, 'FAILED_PRECONDITION'],
    ['at_timestamp with the default level', { query: q, readConcern: { atTimestamp: 5n } }, 'FAILED_PRECONDITION'],
    ['unknown read concern level', { query: q, readConcern: { level: 9 } }, 'INVALID_ARGUMENT'],
    ['unknown read preference', { query: q, readPreference: 42 }, 'INVALID_ARGUMENT'],
    ['query_memory_limit_mb zero', { query: q, queryMemoryLimitMb: 0 }, 'INVALID_ARGUMENT'],
    ['query_memory_limit_mb above 4096', { query: q, queryMemoryLimitMb: 4097 }, 'INVALID_ARGUMENT'],
    ['acks above the member count', { query: q, writeConcern: { acks: 2 } }, 'INVALID_ARGUMENT'],
    ['volatile journal with MAJORITY', { query: q, writeConcern: { journal: 3, mode: 1 } }, 'INVALID_ARGUMENT'],
    ['volatile journal with the count unset (MAJORITY)', { query: q, writeConcern: { journal: 2 } }, 'INVALID_ARGUMENT'],
    ['causal session with acks 0', { query: q, readConcern: { level: 2, afterIndex: 1n }, writeConcern: { acks: 0 } }, 'INVALID_ARGUMENT'],
    ['empty query', { query: '  ' }, 'INVALID_ARGUMENT'],
  ];
  for (const [name, req, code] of cases) {
    it(`${name}: ${code} on both transports`, async () => {
      for (const [transport, call] of both('executeCypher', req)) {
        expect((await failure(call)).code, transport).toBe(code);
      }
    });
  }
  it('a SNAPSHOT read older than the retention window fails UNAVAILABLE', async () => {
    for (const [transport, call] of both('executeCypher', { query: q, readConcern: { level: 4, atTimestamp: 1n } })) {
      expect((await failure(call)).code, transport).toBe('UNAVAILABLE');
    }
  });
});

describe('transactions (SPEC 3.4)', () => {
  it('(none) -> open -> committed: a read-only transaction commits at its pinned timestamp', async () => {
    for (const [transport] of both('beginTransaction', {})) {
      const begin = transport === 'grpc' ? await grpc.beginTransaction({}) : await rest('beginTransaction', {});
      expect(begin.transactionId).not.toBe(0n);
      const commit =
        transport === 'grpc'
          ? await grpc.commitTransaction({ transactionId: begin.transactionId })
          : await rest('commitTransaction', { transactionId: begin.transactionId });
      expect(commit.commitTs).toBe(begin.snapshotTs);
      const again = await failure(() => grpc.commitTransaction({ transactionId: begin.transactionId }));
      expect([again.code, again.reason]).toEqual(['NOT_FOUND', 'TRANSACTION_NOT_FOUND']);
    }
  });

  it('open -> discarded by rollback; unknown ids and zero versions are refused', async () => {
    const tx = await grpc.beginTransaction({});
    await grpc.rollbackTransaction({ transactionId: tx.transactionId });
    for (const [transport, call] of both('rollbackTransaction', { transactionId: tx.transactionId })) {
      expect((await failure(call)).code, transport).toBe('NOT_FOUND');
    }
    for (const [transport, call] of both('commitTransaction', { transactionId: 12345n })) {
      expect((await failure(call)).code, transport).toBe('NOT_FOUND');
    }
    const open = await grpc.beginTransaction({});
    for (const [transport, call] of both('commitTransaction', { transactionId: open.transactionId, expect: [{ nodeId: 1n, version: 0n }] })) {
      expect((await failure(call)).code, transport).toBe('INVALID_ARGUMENT');
    }
  });

  it('open -> aborted: an expect entry that does not match refuses the commit with REVISION_MISMATCH', async () => {
    const tx = await grpc.beginTransaction({});
    const err = await failure(() => grpc.commitTransaction({ transactionId: tx.transactionId, expect: [{ nodeId: 987_654n, version: 42n }] }));
    expect([err.code, err.reason]).toEqual(['ABORTED', 'REVISION_MISMATCH']);
    expect(err.metadata['expected_version']).toBe('42');
    expect(err.metadata['current_version']).toBe('absent');
  });
});

describe('Cypher over both transports', () => {
  it('the same statements give the same columns, rows and errors over gRPC and REST', async () => {
    await grpc.executeCypher({ query: "CREATE (:Parity {name: 'a', n: 1}), (:Parity {name: 'b', n: 2.5})" });
    const statements = [
      'MATCH (p:Parity) RETURN p.name AS name, p.n AS n ORDER BY name',
      'MATCH (p:Parity) RETURN count(*) AS c, collect(p.name) AS names',
      "RETURN date('2015-07-21') AS d, duration('P1DT2H') AS dur, [1, 'x', null] AS l, {k: 1} AS m",
    ];
    for (const query of statements) {
      const viaGrpc = await grpc.executeCypher({ query });
      const viaRest = await rest('executeCypher', { query });
      expect(viaRest.columns).toEqual(viaGrpc.columns);
      expect(viaRest.rows).toEqual(viaGrpc.rows);
    }
    for (const query of ['MATCH (p:Parity RETURN p', 'RETURN 1 / 0', 'RETURN nosuchfunction(1)']) {
      const a = await failure(() => grpc.executeCypher({ query }));
      const b = await failure(() => restCall(server.rest, QueryService.method.executeCypher, { query }));
      expect([b.code, b.reason, b.metadata['detail']], query).toEqual([a.code, a.reason, a.metadata['detail']]);
    }
  });

  it('a transaction over REST: statements buffer, commit lands them at one commit_ts, AS OF TIMESTAMP reads it back', async () => {
    const begin = await rest('beginTransaction', {});
    await restCall(server.rest, QueryService.method.executeCypher, { query: 'CREATE (:Tx {n: 1})', transactionId: begin.transactionId });
    await restCall(server.rest, QueryService.method.executeCypher, { query: 'CREATE (:Tx {n: 2})', transactionId: begin.transactionId });
    const outside = await grpc.executeCypher({ query: 'MATCH (t:Tx) RETURN count(t)' });
    expect(outside.rows[0]!.values[0]!.kind.value).toBe(0n);
    const commit = await rest('commitTransaction', { transactionId: begin.transactionId });
    const later = await grpc.executeCypher({ query: 'CREATE (:Tx {n: 3})' });
    expect(later.stats!.commitTs).toBeGreaterThan(commit.commitTs);
    const asOf = await grpc.executeCypher({ query: `MATCH (t:Tx) RETURN count(t) AS c AS OF TIMESTAMP ${commit.commitTs}` }).catch(() =>
      grpc.executeCypher({ query: `AS OF TIMESTAMP ${commit.commitTs} MATCH (t:Tx) RETURN count(t) AS c` }),
    );
    expect(asOf.rows[0]!.values[0]!.kind.value).toBe(2n);
    const pinned = await grpc.executeCypher({ query: 'MATCH (t:Tx) RETURN count(t) AS c', readConcern: { level: 4, atTimestamp: commit.commitTs } });
    expect(pinned.rows[0]!.values[0]!.kind.value).toBe(2n);
  });

  it('the change feed streams over REST as newline-delimited JSON', async () => {
    const res = await fetch(`${server.rest}/v1/changes?fromCommitTs=0`);
    expect(res.headers.get('content-type')).toMatch(/ndjson/);
    const reader = res.body!.getReader();
    let text = '';
    while (text.split('\n').length < 4) {
      const { value, done } = await reader.read();
      if (done) break;
      text += Buffer.from(value).toString();
    }
    await reader.cancel();
    const first = JSON.parse(text.split('\n')[0]!) as { operation: string; commitTs: string };
    expect(first.operation).toBe('CHANGE_OPERATION_NODE_CREATED');
    expect(BigInt(first.commitTs)).toBeGreaterThan(0n);
  });
});
