import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGrpcClient, type GrpcClient } from '../../src/api/grpc-client.js';
import { restCall } from '../../src/api/rest-client.js';
import { GraphService } from '../../src/gen/weft/v1/graph_pb.js';
import { SchemaService } from '../../src/gen/weft/v2/schema_pb.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';

/**
 * A real `weft serve` with Schema and Graph clients on both transports. `call(transport, method, req)`
 * lets one scenario run once over gRPC and once over REST.
 */
export type Transport = 'grpc' | 'rest';
export const transports: readonly Transport[] = ['grpc', 'rest'];

type SchemaMethods = typeof SchemaService.method;
type GraphMethods = typeof GraphService.method;

export interface SchemaHarness {
  readonly server: ServerProcess;
  readonly dir: string;
  schema<K extends keyof SchemaMethods>(t: Transport, method: K, req: unknown): Promise<any>;
  graph<K extends keyof GraphMethods>(t: Transport, method: K, req: unknown): Promise<any>;
  restart(kill: boolean): Promise<void>;
  close(): Promise<void>;
}

export async function startHarness(extra: readonly string[] = []): Promise<SchemaHarness> {
  const dir = mkdtempSync(join(tmpdir(), 'weft-schema-'));
  let server = await startServerProcess(dir, extra);
  let sg = createGrpcClient(SchemaService, server.grpc);
  let gg = createGrpcClient(GraphService, server.grpc);
  const h: SchemaHarness = {
    get server() {
      return server;
    },
    dir,
    schema(t, method, req) {
      if (t === 'grpc') return (sg[method] as (r: unknown) => Promise<unknown>)(req);
      return restCall(server.rest, SchemaService.method[method], req as never);
    },
    graph(t, method, req) {
      if (t === 'grpc') return (gg[method] as (r: unknown) => Promise<unknown>)(req);
      return restCall(server.rest, GraphService.method[method], req as never);
    },
    async restart(kill) {
      sg.close();
      gg.close();
      if (kill) await server.kill();
      else await server.stop();
      server = await startServerProcess(dir, extra);
      sg = createGrpcClient(SchemaService, server.grpc);
      gg = createGrpcClient(GraphService, server.grpc);
    },
    async close() {
      sg.close();
      gg.close();
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
