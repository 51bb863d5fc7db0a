/**
 * TLS on the gRPC client port, end to end: a member serving its client port over TLS (both server
 * engines), the SDK and the test client dialing it on both client engines, the server's certificate
 * verified against the CA the client was given, client certificates when the port asks for them, and
 * the settings that cannot work refused at start.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../../src/client/index.js';
import { createGrpcClient } from '../../src/api/grpc-client.js';
import { isWeftError } from '../../src/common/errors.js';
import { client_http2_engines } from '../../src/common/grpc/client-stream.js';
import { targetOf } from '../../src/common/grpc/client-tls.js';
import { GraphService } from '../../src/gen/weft/v1/graph_pb.js';
import { defaultConfig, type ServerConfig } from '../../src/server/config.js';
import { startServer, type RunningServer } from '../../src/server/server.js';
import { testAuthority, type TestAuthority } from '../support/certs.js';

const dirs: string[] = [];
function fresh(what: string): string {
  const d = mkdtempSync(join(tmpdir(), `weft-client-tls-${what}-`));
  dirs.push(d);
  return d;
}

/** Writes `material` as PEM files and returns the settings naming them. */
function tlsSettings(dir: string, material: { cert: Buffer; key: Buffer; ca?: Buffer }): Partial<ServerConfig> {
  writeFileSync(join(dir, 'grpc.crt'), material.cert);
  writeFileSync(join(dir, 'grpc.key'), material.key);
  if (material.ca !== undefined) writeFileSync(join(dir, 'clients-ca.crt'), material.ca);
  return {
    grpc_tls_cert_file: join(dir, 'grpc.crt'),
    grpc_tls_key_file: join(dir, 'grpc.key'),
    ...(material.ca !== undefined ? { grpc_tls_ca_file: join(dir, 'clients-ca.crt') } : {}),
  };
}

async function serve(settings: Partial<ServerConfig>): Promise<RunningServer> {
  const dir = fresh('data');
  return startServer({ ...defaultConfig, data_dir: join(dir, 'data'), grpc_port: 0, rest_port: 0, ops_port: 0, ...settings }, () => {});
}

/** The error a promise rejects with (it must reject). */
async function failure(p: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await p;
  } catch (e) {
    if (isWeftError(e)) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error('the call succeeded; a failure was expected');
}

let ca: TestAuthority;
let stranger: TestAuthority;
let material: { ca: Buffer; cert: Buffer; key: Buffer };

beforeAll(async () => {
  ca = await testAuthority('clients.test');
  stranger = await testAuthority('stranger.test');
  // A member certificate names localhost and 127.0.0.1 besides its SPIFFE ID: a server name to check.
  material = await ca.member(1);
});

afterAll(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('gRPC addresses', () => {
  it('https:// asks for TLS, http:// for plain text, and a bare host:port leaves it to the options', () => {
    expect(targetOf('https://db.example:7080')).toEqual({ authority: 'db.example:7080', tls: true });
    expect(targetOf('http://127.0.0.1:7080/')).toEqual({ authority: '127.0.0.1:7080', tls: false });
    expect(targetOf('dns:///db.example:7080')).toEqual({ authority: 'db.example:7080', tls: undefined });
    expect(() => targetOf('https://db.example')).toThrow(/host:port/);
  });
});

describe.each(['WEFT', 'NODE'] as const)('a member serving its gRPC port over TLS (server engine %s)', (grpc_http2_engine) => {
  let server: RunningServer;
  let address: string;

  beforeAll(async () => {
    server = await serve({ ...tlsSettings(fresh('certs'), { cert: material.cert, key: material.key }), grpc_http2_engine });
    address = `127.0.0.1:${server.ports.grpc}`;
  });
  afterAll(async () => {
    await server.stop();
  });

  describe.each(client_http2_engines)('client engine %s', (http2_engine) => {
    it('the SDK given the CA dials https:// and a bare address alike, and reads its own write', async () => {
      for (const target of [`https://${address}`, address]) {
        const db = connect(target, { http2_engine, tls: { ca: material.ca } });
        try {
          const via = `${http2_engine} ${target}`;
          await db.query('CREATE (:Visitor {via: $via})', { via });
          const { rows } = await db.query<{ n: number }>('MATCH (v:Visitor {via: $via}) RETURN count(v) AS n', { via });
          expect(rows).toEqual([{ n: 1 }]);
        } finally {
          db.close();
        }
      }
    });

    it('a server certificate another CA issued is refused, and the error says whose certificate and why', async () => {
      const client = createGrpcClient(GraphService, `https://${address}`, { http2_engine, tls: { ca: stranger.ca.cert_pem } });
      try {
        const e = await failure(client.getNode({ nodeId: 1n }));
        expect(e.code).toBe('UNAVAILABLE');
        expect(e.message).toMatch(new RegExp(`TLS certificate of ${address.replace(/\./g, '\\.')} is not trusted`));
      } finally {
        client.close();
      }
    });

    it('a certificate that does not name the host dialed is refused', async () => {
      const client = createGrpcClient(GraphService, `https://${address}`, { http2_engine, tls: { ca: material.ca, servername: 'elsewhere.example' } });
      try {
        const e = await failure(client.getNode({ nodeId: 1n }));
        expect(e.code).toBe('UNAVAILABLE');
        expect(e.message).toMatch(/not trusted \(ERR_TLS_CERT_ALTNAME_INVALID/);
      } finally {
        client.close();
      }
    });

    it('a plain-text client gets no answer from the TLS port: it fails UNAVAILABLE rather than hang', async () => {
      const client = createGrpcClient(GraphService, `http://${address}`, { http2_engine });
      try {
        const e = await failure(client.getNode({ nodeId: 1n }, { timeout_ms: 5_000 }));
        expect(['UNAVAILABLE', 'INTERNAL']).toContain(e.code);
      } finally {
        client.close();
      }
    });
  });
});

describe('a member that asks its gRPC clients for certificates (grpc_tls_ca_file)', () => {
  let server: RunningServer;
  let address: string;

  beforeAll(async () => {
    server = await serve(tlsSettings(fresh('mutual'), { cert: material.cert, key: material.key, ca: material.ca }));
    address = `https://127.0.0.1:${server.ports.grpc}`;
  });
  afterAll(async () => {
    await server.stop();
  });

  it.each(client_http2_engines)('a client with a certificate the CA issued is served; one without, or with a stranger\'s, is refused (client engine %s)', async (http2_engine) => {
    const own = await ca.member(7);
    const trusted = createGrpcClient(GraphService, address, { http2_engine, tls: { ca: material.ca, cert: own.cert, key: own.key } });
    const bare = createGrpcClient(GraphService, address, { http2_engine, tls: { ca: material.ca } });
    const foreign = await stranger.member(8);
    const strange = createGrpcClient(GraphService, address, { http2_engine, tls: { ca: material.ca, cert: foreign.cert, key: foreign.key } });
    try {
      const created = await trusted.createNode({ labels: ['Mutual'] });
      expect((await trusted.getNode({ nodeId: created.nodeId })).labels).toEqual(['Mutual']);
      for (const refused of [bare, strange]) expect((await failure(refused.getNode({ nodeId: created.nodeId }, { timeout_ms: 5_000 }))).code).toBe('UNAVAILABLE');
    } finally {
      trusted.close();
      bare.close();
      strange.close();
    }
  });
});

describe('gRPC TLS settings that cannot work stop the server at start', () => {
  it('a certificate without its key, a client CA without a certificate, and a file that is not PEM', async () => {
    const dir = fresh('bad');
    const files = tlsSettings(dir, { cert: material.cert, key: material.key });
    writeFileSync(join(dir, 'not-pem.txt'), 'hello');
    const cases: [Partial<ServerConfig>, RegExp][] = [
      [{ grpc_tls_cert_file: files.grpc_tls_cert_file! }, /grpc_tls_key_file is not set/],
      [{ grpc_tls_ca_file: files.grpc_tls_cert_file! }, /grpc_tls_ca_file is set but/],
      [{ ...files, grpc_tls_key_file: join(dir, 'not-pem.txt') }, /grpc_tls_key_file .*not a PEM file/],
      [{ ...files, grpc_tls_cert_file: join(dir, 'absent.crt') }, /grpc_tls_cert_file .*absent\.crt/],
    ];
    for (const [settings, message] of cases) {
      const e = await failure(serve(settings));
      expect(e.code).toBe('INVALID_ARGUMENT');
      expect(e.message).toMatch(message);
    }
  });
});

describe('a TLS client and a port that is not TLS', () => {
  it.each(client_http2_engines)('a TLS client dialing a plain-text gRPC port is told the handshake failed (client engine %s)', async (http2_engine) => {
    const server = await serve({});
    const client = createGrpcClient(GraphService, `https://127.0.0.1:${server.ports.grpc}`, { http2_engine, tls: { ca: material.ca } });
    try {
      const e = await failure(client.getNode({ nodeId: 1n }, { timeout_ms: 5_000 }));
      expect(e.code).toBe('UNAVAILABLE');
      expect(e.message).toMatch(/TLS handshake with 127\.0\.0\.1:\d+ failed/);
    } finally {
      client.close();
      await server.stop();
    }
  });
});
