import { Client, credentials, Metadata, type ServiceError } from '@grpc/grpc-js';
import { afterEach, describe, expect, it } from 'vitest';
import { isWeftError, WeftError } from '../../src/common/errors.js';
import { type GrpcPeerTransport, startGrpcPeerTransport } from '../../src/log/transport/grpc-peer-transport.js';
import type { PeerAddress } from '../../src/log/transport/peer-transport.js';
import { decodeFrame, encodeFrame, type PeerCallRequest, type PeerCallResponse, peerServiceDefinition } from '../../src/log/transport/peer-wire.js';
import { server_pair } from '../../src/log/version/version-pair.js';
import type { NodeId } from '../../src/log/raft/types.js';
import { testAuthority, type TestAuthority } from '../support/certs.js';

/**
 * The peer port speaks gRPC as any implementation does: a second implementation (grpc-js, with a
 * member's certificate) calls a member and reads its answers and statuses, and deadlines and
 * cancellation reach the handler on the other member.
 */
const wait_ms_max = 10_000;
const started: GrpcPeerTransport[] = [];
const clients: Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await Promise.all(started.splice(0).map((t) => t.close()));
});

async function member(ca: TestAuthority, node_id: NodeId): Promise<GrpcPeerTransport> {
  const transport = await startGrpcPeerTransport({ node_id, host: '127.0.0.1', port: 0, tls: await ca.member(node_id), admission: 'bound' });
  started.push(transport);
  return transport;
}

function bind(ca: TestAuthority, members: ReadonlyMap<NodeId, string>, transports: readonly GrpcPeerTransport[]): void {
  const peers = new Map<NodeId, PeerAddress>([...members].map(([id, address]) => [id, { address, identity: `spiffe://${ca.trust_domain}/member/${id}` }]));
  for (const t of transports) t.setPeers(peers);
}

/** A grpc-js client proving member `node_id`'s certificate, accepting the server by its SPIFFE ID. */
async function grpcJsMember(ca: TestAuthority, node_id: NodeId, address: string): Promise<Client> {
  const tls = await ca.member(node_id);
  const client = new Client(address, credentials.createSsl(tls.ca, tls.key, tls.cert, { checkServerIdentity: () => undefined }), {
    'grpc.ssl_target_name_override': 'weft-peer',
  });
  clients.push(client);
  return client;
}

function unary(client: Client, path: string, request: PeerCallRequest, deadline_ms: number): Promise<{ error: ServiceError | null; response: PeerCallResponse | undefined }> {
  return new Promise((resolve) =>
    client.makeUnaryRequest(path, encodeFrame, (b: Buffer) => decodeFrame<PeerCallResponse>(b), request, new Metadata(), { deadline: Date.now() + deadline_ms }, (error, response) =>
      resolve({ error, response }),
    ),
  );
}

async function eventually(what: string, ok: () => boolean): Promise<void> {
  const deadline = Date.now() + wait_ms_max;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`not within ${wait_ms_max} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('peer transport: the wire is gRPC', () => {
  it('a grpc-js client with a member certificate calls a member: the answer, a handler error with its code and message, and an unknown method', async () => {
    const ca = await testAuthority();
    const b = await member(ca, 2);
    bind(ca, new Map([[1, '127.0.0.1:1'], [2, b.address]]), [b]);
    b.handle('echo', async (from, payload) => Buffer.concat([Buffer.from(`${from}:`), payload]));
    b.handle('fails', async () => {
      throw new WeftError('FAILED_PRECONDITION', 'not now: ünïcode kept', 'NOT_NOW');
    });
    const client = await grpcJsMember(ca, 1, b.address);
    const request = (method: string): PeerCallRequest => ({ from: 1, from_address: '127.0.0.1:1', pair: server_pair, deployment: '', method, payload: Buffer.from('hi') });

    const ok = await unary(client, peerServiceDefinition.call.path, request('echo'), 5_000);
    expect(ok.error).toBeNull();
    expect(Buffer.from(ok.response!.payload).toString()).toBe('1:hi');

    const failed = await unary(client, peerServiceDefinition.call.path, request('fails'), 5_000);
    // FAILED_PRECONDITION is 9; grpc-js decodes the percent-encoded grpc-message.
    expect([failed.error?.code, failed.error?.details]).toEqual([9, 'not now: ünïcode kept']);

    const unknown = await unary(client, '/weft.peer.v1.Peer/NoSuchMethod', request('echo'), 5_000);
    expect(unknown.error?.code).toBe(12);
  });

  it('deadline: a handler that does not answer in time ends the call DEADLINE_EXCEEDED, and its signal is aborted on the answering member', async () => {
    const ca = await testAuthority();
    const a = await member(ca, 1);
    const b = await member(ca, 2);
    bind(ca, new Map([[1, a.address], [2, b.address]]), [a, b]);
    let aborted = false;
    b.handle('slow', (_from, _payload, signal) => new Promise<Uint8Array>((resolve) => signal.addEventListener('abort', () => {
      aborted = true;
      resolve(new Uint8Array());
    })));
    let error: WeftError | undefined;
    try {
      await a.call(2, 'slow', new Uint8Array(), 300);
    } catch (e) {
      if (!isWeftError(e)) throw e;
      error = e;
    }
    expect(error?.code).toBe('DEADLINE_EXCEEDED');
    await eventually('the handler on member 2 sees its call aborted', () => aborted);
  });
});
