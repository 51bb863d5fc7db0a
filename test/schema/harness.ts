import { mkdtempSync, rmSync } from 'node:fs';
import type { DescMessage, MessageInitShape, MessageShape } from '@bufbuild/protobuf';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGrpcClient, type GrpcClient } from '../../src/api/grpc-client.js';
import { restCall } from '../../src/api/rest-client.js';
import { GraphService } from '../../src/gen/weft/v1/graph_pb.js';
import { SchemaService } from '../../src/gen/weft/v2/schema_pb.js';
import { QueryService } from '../../src/gen/weft/v1/query_pb.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';
import { graphService, type GraphBackend } from '../../src/api/graph-service.js';
import { schemaService } from '../../src/api/schema-service.js';
import { startGrpcServer } from '../../src/api/grpc-server.js';
import { startRestServer } from '../../src/api/rest-server.js';
import { resolveWriteConcern } from '../../src/log/write-concern.js';
import { Database } from '../../src/server/database.js';
import { startSchemaRuntime, type SchemaRuntime } from '../../src/server/index-builds/schema-runtime.js';

/**
 * A real `weft serve` with Schema and Graph clients on both transports. `call(transport, method, req)`
 * lets one scenario run once over gRPC and once over REST.
 */
export type Transport = 'grpc' | 'rest';
export const transports: readonly Transport[] = ['grpc', 'rest'];

type SchemaMethods = typeof SchemaService.method;
type In<M> = M extends { input: infer I extends DescMessage } ? MessageInitShape<I> : never;
type Out<M> = M extends { output: infer O extends DescMessage } ? MessageShape<O> : never;
type GraphMethods = typeof GraphService.method;
type QueryMethods = typeof QueryService.method;

export interface SchemaHarness {
  readonly server: ServerProcess;
  readonly dir: string;
  schema<K extends keyof SchemaMethods>(t: Transport, method: K, req: In<SchemaMethods[K]>): Promise<Out<SchemaMethods[K]>>;
  graph<K extends keyof GraphMethods>(t: Transport, method: K, req: In<GraphMethods[K]>): Promise<Out<GraphMethods[K]>>;
  /** Runs Cypher through the QueryService (the real server only). */
  cypher(t: Transport, query: string): Promise<Out<QueryMethods['executeCypher']>>;
  restart(kill: boolean): Promise<void>;
  close(): Promise<void>;
}

export async function startHarness(extra: readonly string[] = []): Promise<SchemaHarness> {
  const dir = mkdtempSync(join(tmpdir(), 'weft-schema-'));
  let server = await startServerProcess(dir, extra);
  let sg = createGrpcClient(SchemaService, server.grpc);
  let gg = createGrpcClient(GraphService, server.grpc);
  let qg = createGrpcClient(QueryService, server.grpc);
  const h: SchemaHarness = {
    get server() {
      return server;
    },
    dir,
    schema(t, method, req) {
      if (t === 'grpc') return (sg[method] as (r: unknown) => Promise<never>)(req);
      return restCall(server.rest, SchemaService.method[method], req as never) as Promise<never>;
    },
    graph(t, method, req) {
      if (t === 'grpc') return (gg[method] as (r: unknown) => Promise<never>)(req);
      return restCall(server.rest, GraphService.method[method], req as never) as Promise<never>;
    },
    cypher(t, query) {
      if (t === 'grpc') return qg.executeCypher({ query });
      return restCall(server.rest, QueryService.method.executeCypher, { query }) as Promise<never>;
    },
    async restart(kill) {
      sg.close();
      gg.close();
      qg.close();
      if (kill) await server.kill();
      else await server.stop();
      server = await startServerProcess(dir, extra);
      sg = createGrpcClient(SchemaService, server.grpc);
      gg = createGrpcClient(GraphService, server.grpc);
      qg = createGrpcClient(QueryService, server.grpc);
    },
    async close() {
      sg.close();
      gg.close();
      qg.close();
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return h;
}

/** The code and reason a call failed with; fails the test when the call succeeds. */
export async function failureOf(p: Promise<unknown>): Promise<{ code: string; reason: string; message: string; metadata: Record<string, string> }> {
  try {
    await p;
  } catch (e) {
    const err = e as { code: string; reason: string; message: string; metadata: Record<string, string> };
    return { code: err.code, reason: err.reason, message: err.message, metadata: err.metadata };
  }
  throw new Error('the call succeeded');
}

export const str = (value: string) => ({ kind: { case: 'stringValue' as const, value } });
export const int = (value: number | bigint) => ({ kind: { case: 'intValue' as const, value: BigInt(value) } });
export const float = (value: number) => ({ kind: { case: 'floatValue' as const, value } });
export const bool = (value: boolean) => ({ kind: { case: 'boolValue' as const, value } });
export const scalar = (value: number) => ({ kind: { case: 'scalar' as const, value } });
export const seconds = (s: number) => ({ seconds: BigInt(Math.floor(s)), nanos: Math.round((s % 1) * 1e9) });

/**
 * The same services composed in this process, for scenarios that need to reach inside: pause the
 * build executor, damage an index on purpose, or read the projection directly.
 */
export interface InProcess extends SchemaHarness {
  readonly db: Database;
  readonly runtime: SchemaRuntime;
  readonly grpcAddress: string;
  readonly restBase: string;
}

export async function startInProcess(
  options: {
    max_running?: number;
    slice_nodes?: number;
    wait_secs?: number;
    rebuild_mismatches_min?: number;
    /** Stands in for the transactions' oldest open read index. */
    oldestOpenReadIndex?: () => number | undefined;
  } = {},
): Promise<InProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'weft-schema-inproc-'));
  const db = await Database.open({ data_dir: dir, node_id: 1, mvcc_retention_secs: 300, checkpoint_interval_entries: 100_000, log_segment_bytes_max: 8 << 20 });
  const concern = () => resolveWriteConcern(undefined, { acks: 0, journal: 'JOURNAL', timeout_ms: 0 }, 1);
  const graphBackend: GraphBackend = {
    deployment: db.deployment,
    writeHeld: (build, o) => db.writeHeld(build, o),
    enrollIssuer: (issuer, c) => db.enrollIssuer(issuer, c),
    latestCommitted: () => db.latestCommitted(),
    asWritten: (node) => node,
    viewAtIndex: (index) => db.viewAtIndex(index),
    defaultConcern: concern,
  };
  const runtime = startSchemaRuntime(db, {
    index_build_max_running: options.max_running ?? 2,
    index_build_statement_wait_secs: options.wait_secs ?? 10,
    concern,
    ...(options.slice_nodes !== undefined ? { slice_nodes: options.slice_nodes } : {}),
    ...(options.rebuild_mismatches_min !== undefined ? { check_rebuild_mismatches_min: options.rebuild_mismatches_min } : {}),
    ...(options.oldestOpenReadIndex !== undefined ? { oldestOpenReadIndex: options.oldestOpenReadIndex } : {}),
  });
  const services = [graphService(graphBackend), schemaService(runtime.backend)];
  const grpc = await startGrpcServer({ host: '127.0.0.1', port: 0, services });
  const rest = await startRestServer({ host: '127.0.0.1', port: 0, services });
  const grpcAddress = `127.0.0.1:${grpc.port}`;
  const restBase = `http://127.0.0.1:${rest.port}`;
  const sg = createGrpcClient(SchemaService, grpcAddress);
  const gg = createGrpcClient(GraphService, grpcAddress);
  return {
    db,
    runtime,
    grpcAddress,
    restBase,
    dir,
    get server(): ServerProcess {
      throw new Error('an in-process harness has no server process');
    },
    schema(t, method, req) {
      if (t === 'grpc') return (sg[method] as (r: unknown) => Promise<never>)(req);
      return restCall(restBase, SchemaService.method[method], req as never) as Promise<never>;
    },
    graph(t, method, req) {
      if (t === 'grpc') return (gg[method] as (r: unknown) => Promise<never>)(req);
      return restCall(restBase, GraphService.method[method], req as never) as Promise<never>;
    },
    cypher() {
      throw new Error('an in-process harness serves no QueryService; use a CypherRunner');
    },
    async restart() {
      throw new Error('restart a process harness instead');
    },
    async close() {
      sg.close();
      gg.close();
      await Promise.all([grpc.stop(1000), rest.stop(1000)]);
      runtime.stop();
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
