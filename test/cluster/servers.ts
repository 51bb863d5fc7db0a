import { join } from 'node:path';
import { defaultConfig, type ServerConfig } from '../../src/server/config.js';
import { startServer, type RunningServer } from '../../src/server/server.js';
import type { MemoryHub } from '../support/memory-transport.js';

/** Whole servers in this process, their peers over the in-memory transport, their APIs on loopback ports the OS chose. */
export const identity = (id: number): string => `spiffe://weft.test/member/${id}`;

export async function startMember(hub: MemoryHub, root: string, id: number, join_wait: boolean): Promise<RunningServer> {
  const config: ServerConfig = {
    ...defaultConfig,
    data_dir: join(root, `member-${id}`),
    node_id: id,
    grpc_port: 0,
    rest_port: 0,
    ops_port: 0,
    peer_port: 0,
    tick_ms: 10,
    join_wait,
    shutdown_drain_ms: 1000,
  };
  return startServer(config, () => undefined, { peer: { transport: hub.transport(`mem:${id}`), identity: identity(id) } });
}

export async function rest(s: RunningServer, method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`http://127.0.0.1:${s.ports.rest}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    signal: AbortSignal.timeout(10_000),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}
