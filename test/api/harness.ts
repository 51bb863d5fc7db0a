// Starts the gRPC and REST servers over the same handlers on free ports; `stop` closes both.
import { startGrpcServer, type GrpcServerHandle, type GrpcServerOptions } from '../../src/api/grpc-server.js';
import type { CallRecord, RegisteredService } from '../../src/api/handlers.js';
import { startRestServer, type RestServerHandle, type RestServerOptions } from '../../src/api/rest-server.js';

export interface Servers {
  readonly grpc: GrpcServerHandle;
  readonly rest: RestServerHandle;
  readonly grpc_address: string;
  readonly rest_url: string;
  /** Internal faults the servers logged, by error id. */
  readonly faults: Map<string, unknown>;
  /** Every finished call, as the servers' observers saw it. */
  readonly calls: CallRecord[];
  stop(): Promise<void>;
}

export async function startServers(
  services: readonly RegisteredService[],
  options: { grpc?: Partial<GrpcServerOptions>; rest?: Partial<RestServerOptions> } = {},
): Promise<Servers> {
  const faults = new Map<string, unknown>();
  const calls: CallRecord[] = [];
  const log = (id: string, fault: unknown): void => void faults.set(id, fault);
  const observe = (c: CallRecord): void => void calls.push(c);
  const grpc = await startGrpcServer({ port: 0, services, log, observe, shutdown_grace_ms: 100, ...options.grpc });
  const rest = await startRestServer({ port: 0, services, log, observe, ...options.rest });
  return {
    grpc,
    rest,
    grpc_address: `127.0.0.1:${grpc.port}`,
    rest_url: `http://127.0.0.1:${rest.port}`,
    faults,
    calls,
    async stop() {
      await Promise.all([grpc.stop(), rest.stop()]);
    },
  };
}
