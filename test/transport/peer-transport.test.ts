import { Client, credentials, Metadata, Server, ServerCredentials } from '@grpc/grpc-js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isWeftError, notFound, WeftError } from '../../src/common/errors.js';
import type { AdmissionMode } from '../../src/log/transport/admission.js';
import { type GrpcPeerTransport, type PeerVersion, startGrpcPeerTransport } from '../../src/log/transport/grpc-peer-transport.js';
import { peer_http2_engines, type PeerHttp2Engine } from '../../src/log/transport/h2-peer-engine.js';
import { server_pair } from '../../src/log/version/version-pair.js';
import { HANDSHAKE_METHOD } from '../../src/log/version/handshake.js';
import type { PeerAddress } from '../../src/log/transport/peer-transport.js';
import { encodeFrame, peerServiceDefinition, type PeerCallRequest } from '../../src/log/transport/peer-wire.js';
import type { TlsMaterial } from '../../src/log/transport/tls-material.js';
import { memorySnapshotFiles } from '../../src/log/transport/snapshot-files.js';
import { SnapshotFileStore } from '../../src/log/driver/snapshot-file-store.js';
import { decodeSnapshotRef, encodeSnapshotRef } from '../../src/log/driver/shipped-snapshot.js';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppendMessage, Message, NodeId, SnapshotMessage } from '../../src/log/raft/types.js';
import { LinkProxy } from '../chaos/link-proxy.js';
import { foreignMember, testAuthority, type TestAuthority } from '../support/certs.js';

/**
 * The peer transport over real sockets on loopback: mutual TLS, identities bound to member ids, the
 * four refusals of SPEC 5.1 (plaintext, foreign CA, expired certificate, wrong identity), unary calls
 * with their errors, chunked snapshots, and a member waiting for a join. Every scenario runs on
 * both HTTP/2 engines of the peer port (setting peer_http2_engine), and members on different
 * engines talk to each other.
 */
const wait_ms_max = 10_000;
const call_timeout_ms = 3_000;

const started: GrpcPeerTransport[] = [];
/** The engine the scenarios of the suite under way run on (set per suite below). */
let suite_engine: PeerHttp2Engine = 'weft';
afterEach(async () => {
  await Promise.all(started.splice(0).map((t) => t.close()));
});

async function member(
  node_id: NodeId,
  tls: TlsMaterial,
  admission: AdmissionMode = 'bound',
  dial_overrides?: ReadonlyMap<string, string>,
  version?: PeerVersion,
  http2_engine: PeerHttp2Engine = suite_engine,
): Promise<Member> {
  const transport = await startGrpcPeerTransport({
    node_id,
    http2_engine,
    host: '127.0.0.1',
    port: 0,
    tls,
    admission,
    limits: { snapshot_chunk_bytes: 64 * 1024, reconnect_backoff_ms_max: 200, keepalive_ms: 500 },
    ...(dial_overrides !== undefined ? { dial_overrides } : {}),
    ...(version !== undefined ? { version } : {}),
  });
  started.push(transport);
  const m: Member = { id: node_id, transport, received: [], unreachable: [], snapshots: [] };
  transport.onRaftMessage((msg) => m.received.push(msg));
  transport.onUnreachable((to) => m.unreachable.push(to));
  transport.onSnapshotSent((to, ok) => m.snapshots.push({ to, ok }));
  transport.handle('echo', async (from, payload) => Buffer.concat([Buffer.from(`${from}:`), payload]));
  transport.handle(HANDSHAKE_METHOD, async (from) => Buffer.from(`handshake from ${from}`));
  transport.handle('missing', async () => {
    throw notFound('no such thing', 'THING_NOT_FOUND', { thing: 'x' });
  });
  return m;
}

interface Member {
  readonly id: NodeId;
  readonly transport: GrpcPeerTransport;
  readonly received: Message[];
  readonly unreachable: NodeId[];
  readonly snapshots: { to: NodeId; ok: boolean }[];
}

function bind(members: readonly Member[], identities: ReadonlyMap<NodeId, string>): void {
  const peers = new Map<NodeId, PeerAddress>(members.map((m) => [m.id, { address: m.transport.address, identity: identities.get(m.id)! }]));
  for (const m of members) m.transport.setPeers(peers);
}

function identitiesOf(ca: TestAuthority, ids: readonly NodeId[]): Map<NodeId, string> {
  return new Map(ids.map((id) => [id, `spiffe://${ca.trust_domain}/member/${id}`]));
}

function append(from: NodeId, to: NodeId, index: number): AppendMessage {
  return { type: 'app', from, to, term: 1, index, log_term: 1, commit: 0, entries: [{ index: index + 1, term: 1, type: 'normal', data: new Uint8Array([index & 255, 7]) }] };
}

async function eventually(what: string, ok: () => boolean): Promise<void> {
  const deadline = Date.now() + wait_ms_max;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`not within ${wait_ms_max} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function callError(p: Promise<unknown>): Promise<WeftError> {
  try {
    await p;
  } catch (e) {
    if (isWeftError(e)) return e;
    throw e;
  }
  throw new Error('the call succeeded');
}

/** Gives a refused sender time to have been refused: a delivered message would have arrived by then. */
async function settle(): Promise<void> {
  await new Promise((r) => setTimeout(r, 300));
}

describe.each(peer_http2_engines)('peer transport on the %s HTTP/2 engine: mutual TLS between members', (engine) => {
  beforeEach(() => {
    suite_engine = engine;
  });

  it('happy path: two members bound to their identities exchange Raft messages in order, answer calls and ship a chunked snapshot', async () => {
    const ca = await testAuthority();
    const a = await member(1, await ca.member(1));
    const b = await member(2, await ca.member(2));
    bind([a, b], identitiesOf(ca, [1, 2]));

    a.transport.send(Array.from({ length: 100 }, (_, i) => append(1, 2, i)));
    await eventually('member 2 receives 100 appends', () => b.received.length === 100);
    // Sent in one turn of the event loop, they left as one frame, not one frame per message.
    expect(a.transport.counters.raft_frames_sent).toBe(1);
    expect(b.received.map((m) => (m as AppendMessage).index)).toEqual(Array.from({ length: 100 }, (_, i) => i));
    expect(Buffer.from((b.received[5] as AppendMessage).entries[0]!.data)).toEqual(Buffer.from([5, 7]));
    b.transport.send([{ type: 'app_resp', from: 2, to: 1, term: 1, index: 100, reject: false, reject_hint: 0, log_term: 0 }]);
    await eventually('member 1 receives the answer', () => a.received.length === 1);

    expect(Buffer.from(await a.transport.call(2, 'echo', Buffer.from('hi'), call_timeout_ms)).toString()).toBe('1:hi');
    const missing = await callError(a.transport.call(2, 'missing', new Uint8Array(), call_timeout_ms));
    expect([missing.code, missing.reason, missing.metadata['thing']]).toEqual(['NOT_FOUND', 'THING_NOT_FOUND', 'x']);
    expect((await callError(a.transport.call(2, 'nobody-registered-this', new Uint8Array(), call_timeout_ms))).code).toBe('UNIMPLEMENTED');

    const data = new Uint8Array(1024 * 1024 + 17).map((_, i) => (i * 31) & 255);
    const snap: SnapshotMessage = { type: 'snap', from: 1, to: 2, term: 3, snapshot: { meta: { index: 900, term: 3, conf_state: { voters: [1, 2], learners: [] } }, data } };
    a.transport.send([snap]);
    await eventually('the snapshot is reported sent', () => a.snapshots.length === 1);
    expect(a.snapshots).toEqual([{ to: 2, ok: true }]);
    const got = b.received.find((m): m is SnapshotMessage => m.type === 'snap')!;
    expect(got.snapshot.meta).toEqual(snap.snapshot.meta);
    expect(Buffer.from(got.snapshot.data).equals(Buffer.from(data))).toBe(true);
    expect(a.unreachable).toEqual([]);
  });

  it('a peer that is down: calls fail UNAVAILABLE, sends are reported unreachable, a snapshot is reported not sent', async () => {
    const ca = await testAuthority();
    const a = await member(1, await ca.member(1));
    const b = await member(2, await ca.member(2));
    bind([a, b], identitiesOf(ca, [1, 2]));
    await b.transport.close();

    expect((await callError(a.transport.call(2, 'echo', new Uint8Array(), call_timeout_ms))).code).toBe('UNAVAILABLE');
    expect((await callError(a.transport.call(9, 'echo', new Uint8Array(), call_timeout_ms))).code).toBe('UNAVAILABLE');
    a.transport.send([append(1, 2, 0)]);
    await eventually('member 2 is reported unreachable', () => a.unreachable.includes(2));
    a.transport.send([{ type: 'snap', from: 1, to: 2, term: 1, snapshot: { meta: { index: 1, term: 1, conf_state: { voters: [1, 2], learners: [] } }, data: new Uint8Array(10) } }]);
    await eventually('the snapshot is reported', () => a.snapshots.length === 1);
    expect(a.snapshots).toEqual([{ to: 2, ok: false }]);
  });

  it('refused: a caller proving an identity other than the one bound to its member id', async () => {
    const ca = await testAuthority();
    const a = await member(1, await ca.member(1, { identity: `spiffe://${ca.trust_domain}/member/9` }));
    const b = await member(2, await ca.member(2));
    bind([a, b], identitiesOf(ca, [1, 2]));
    // Member 1 dials correctly (2 proves member/2), but 2 refuses what 1 proves.
    expect((await callError(a.transport.call(2, 'echo', new Uint8Array(), call_timeout_ms))).code).toBe('PERMISSION_DENIED');
    a.transport.send([append(1, 2, 0)]);
    await eventually('member 1 learns the stream was refused', () => a.unreachable.includes(2));
    await settle();
    expect(b.received).toEqual([]);
    expect(b.transport.counters.refused_frames).toBeGreaterThanOrEqual(2);
  });

  it('refused: a server proving an identity other than the one the dialer expects', async () => {
    const ca = await testAuthority();
    const a = await member(1, await ca.member(1));
    const b = await member(2, await ca.member(2, { identity: `spiffe://${ca.trust_domain}/member/3` }));
    const ids = identitiesOf(ca, [1, 2]);
    bind([a, b], ids);
    const err = await callError(a.transport.call(2, 'echo', new Uint8Array(), call_timeout_ms));
    expect(err.code).toBe('UNAVAILABLE');
    a.transport.send([append(1, 2, 0)]);
    await eventually('member 2 is reported unreachable', () => a.unreachable.includes(2));
    expect(b.received).toEqual([]);
  });

  it('refused: a member whose certificate a foreign CA signed, both as caller and as server', async () => {
    const ca = await testAuthority();
    const a = await member(1, await foreignMember(ca, 1));
    const b = await member(2, await ca.member(2));
    bind([a, b], identitiesOf(ca, [1, 2]));
    expect((await callError(a.transport.call(2, 'echo', new Uint8Array(), call_timeout_ms))).code).toBe('UNAVAILABLE');
    expect((await callError(b.transport.call(1, 'echo', new Uint8Array(), call_timeout_ms))).code).toBe('UNAVAILABLE');
    a.transport.send([append(1, 2, 0)]);
    await eventually('member 2 is reported unreachable', () => a.unreachable.includes(2));
    await settle();
    expect(b.received).toEqual([]);
  });

  it('refused: an expired certificate, both as caller and as server', async () => {
    const ca = await testAuthority();
    const a = await member(1, await ca.member(1, { expired: true }));
    const b = await member(2, await ca.member(2));
    bind([a, b], identitiesOf(ca, [1, 2]));
    expect((await callError(a.transport.call(2, 'echo', new Uint8Array(), call_timeout_ms))).code).toBe('UNAVAILABLE');
    expect((await callError(b.transport.call(1, 'echo', new Uint8Array(), call_timeout_ms))).code).toBe('UNAVAILABLE');
    await settle();
    expect([a.received, b.received]).toEqual([[], []]);
  });

  it('refused: a plaintext peer, as caller and as server', async () => {
    const ca = await testAuthority();
    const b = await member(2, await ca.member(2));
    b.transport.setPeers(new Map([[1, { address: '127.0.0.1:1', identity: `spiffe://${ca.trust_domain}/member/1` }]]));

    // A plaintext caller speaking the peer protocol to member 2's TLS port.
    const plain = new Client(b.transport.address, credentials.createInsecure());
    const request: PeerCallRequest = { from: 1, from_address: '127.0.0.1:1', method: 'echo', payload: Buffer.from('x') };
    const code = await new Promise<number>((resolve) =>
      plain.makeUnaryRequest(peerServiceDefinition.call.path, encodeFrame, (x: Buffer) => x, request, new Metadata(), { deadline: Date.now() + call_timeout_ms }, (e) => resolve(e?.code ?? 0)),
    );
    plain.close();
    expect(code).not.toBe(0);

    // A plaintext server answering the peer protocol: member 2 must not talk to it.
    let served = 0;
    const server = new Server();
    // Any answer counts: the member must not send it a single frame or call.
    const answer = (_call: unknown, callback: (e: null, r: object) => void): void => {
      served++;
      callback(null, { payload: new Uint8Array(), delivered: true });
    };
    server.addService(peerServiceDefinition, { raft: answer, snapshot: answer, call: answer });
    const port = await new Promise<number>((resolve, reject) => server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))));
    try {
      b.transport.setPeers(new Map([[1, { address: `127.0.0.1:${port}`, identity: `spiffe://${ca.trust_domain}/member/1` }]]));
      expect((await callError(b.transport.call(1, 'echo', new Uint8Array(), call_timeout_ms))).code).toBe('UNAVAILABLE');
      b.transport.send([append(2, 1, 0)]);
      await eventually('member 1 is reported unreachable', () => b.unreachable.includes(1));
      expect(served).toBe(0);
    } finally {
      server.forceShutdown();
    }
  });

  it('join wait: a member in no membership admits a CA-signed leader, answers it at the address it came from, and binds once it learns its peers', async () => {
    const ca = await testAuthority();
    const leader = await member(1, await ca.member(1));
    const joiner = await member(4, await ca.member(4), 'open_until_bound');
    leader.transport.setPeers(
      new Map([
        [1, { address: leader.transport.address, identity: `spiffe://${ca.trust_domain}/member/1` }],
        [4, { address: joiner.transport.address, identity: `spiffe://${ca.trust_domain}/member/4` }],
      ]),
    );
    expect(joiner.transport.admissionOpen).toBe(true);
    leader.transport.send([append(1, 4, 0)]);
    await eventually('the joiner receives the append', () => joiner.received.length === 1);
    joiner.transport.send([{ type: 'app_resp', from: 4, to: 1, term: 1, index: 1, reject: false, reject_hint: 0, log_term: 0 }]);
    await eventually('the leader receives the answer', () => leader.received.length === 1);

    // Once the joiner learns a membership that binds member 1 to another identity, member 1 is refused.
    joiner.transport.setPeers(
      new Map([
        [1, { address: leader.transport.address, identity: `spiffe://${ca.trust_domain}/member/100` }],
        [4, { address: joiner.transport.address, identity: `spiffe://${ca.trust_domain}/member/4` }],
      ]),
    );
    expect(joiner.transport.admissionOpen).toBe(false);
    expect((await callError(leader.transport.call(4, 'echo', new Uint8Array(), call_timeout_ms))).code).toBe('PERMISSION_DENIED');
  });

  it('interrupted snapshot: a link dropped mid-transfer keeps the durable part at the receiver, and the send after the link heals resumes after it and arrives whole', async () => {
    const ca = await testAuthority();
    const b = await member(2, await ca.member(2));
    const proxy = await LinkProxy.start(b.transport.address);
    const root = mkdtempSync(join(tmpdir(), 'weft-snapshot-link-'));
    try {
      const a = await member(1, await ca.member(1), 'bound', new Map([[b.transport.address, proxy.address]]));
      bind([a, b], identitiesOf(ca, [1, 2]));
      a.transport.useSnapshotFiles(SnapshotFileStore.open(join(root, 'a-incoming')));
      const incoming = join(root, 'b-incoming');
      b.transport.useSnapshotFiles(SnapshotFileStore.open(incoming));
      const source = join(root, 'checkpoint.ckpt');
      writeFileSync(source, Buffer.alloc(4 * 1024 * 1024 + 3).map((_, i) => (i * 7 + (i >> 16)) & 255));
      const membership = { conf_state: { voters: [1, 2], learners: [] }, members: [], departed: [] };
      const snap: SnapshotMessage = {
        type: 'snap',
        from: 1,
        to: 2,
        term: 3,
        snapshot: { meta: { index: 900, term: 3, conf_state: membership.conf_state }, data: encodeSnapshotRef({ membership, path: source }) },
      };
      const partial = join(incoming, 'partial', 'checkpoint.ckpt');
      // Slowed down so the drop lands while the file is still arriving.
      proxy.set({ kind: 'delay', ms: 40 });
      a.transport.send([snap]);
      await eventually('part of the snapshot is on the receiver\'s disk', () => existsSync(partial) && statSync(partial).size > 0);
      proxy.set({ kind: 'drop' });
      await eventually('the snapshot is reported not sent', () => a.snapshots.length === 1);
      expect(a.snapshots).toEqual([{ to: 2, ok: false }]);
      expect(b.received.filter((m) => m.type === 'snap')).toEqual([]);
      expect(readdirSync(incoming)).toEqual(['partial']);

      proxy.set({ kind: 'pass' });
      // The channel may still be backing off after the drop: Raft sends again until one is sent, and so does this.
      const attempts_max = 20;
      for (let attempt = 1; !a.snapshots.some((r) => r.ok); attempt++) {
        expect(attempt, 'sends after the link healed').toBeLessThanOrEqual(attempts_max);
        const reported = a.snapshots.length;
        a.transport.send([snap]);
        await eventually(`send ${attempt} after the link healed is reported`, () => a.snapshots.length > reported);
      }
      expect(a.transport.counters.snapshots_resumed).toBe(1);
      expect(a.transport.counters.snapshot_bytes_not_resent).toBeGreaterThan(0);
      // The counters /metrics exports: every send started and its outcome on the sender, every stream's end on the receiver.
      const data_bytes = 4 * 1024 * 1024 + 3;
      expect(a.transport.counters.snapshots_sent).toBe(a.snapshots.length);
      expect(a.transport.counters.snapshots_delivered).toBe(1);
      expect(a.transport.counters.snapshot_bytes_sent).toBeGreaterThanOrEqual(data_bytes);
      expect(b.transport.counters.snapshots_received).toBe(1);
      expect(b.transport.counters.snapshot_receives_broken).toBeGreaterThanOrEqual(1);
      expect(b.transport.counters.snapshot_resumes_offered).toBe(1);
      // What the first attempt wrote was kept whole (the link broke, the learner kept running): no byte written twice.
      expect(b.transport.counters.snapshot_bytes_received).toBe(data_bytes);
      expect(readdirSync(incoming)).toHaveLength(1);
      const got = b.received.find((m): m is SnapshotMessage => m.type === 'snap')!;
      const ref = decodeSnapshotRef(got.snapshot.data);
      expect(ref.path.startsWith(incoming)).toBe(true);
      expect(readFileSync(ref.path).equals(readFileSync(source))).toBe(true);
    } finally {
      await proxy.close();
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('through a link proxy: messages pass, a dropped link is reported unreachable, a partition is found by pings, and the link heals', async () => {
    const ca = await testAuthority();
    const b = await member(2, await ca.member(2));
    const proxy = await LinkProxy.start(b.transport.address);
    try {
      const a = await member(1, await ca.member(1), 'bound', new Map([[b.transport.address, proxy.address]]));
      bind([a, b], identitiesOf(ca, [1, 2]));
      a.transport.send([append(1, 2, 0)]);
      await eventually('the first append passes the proxy', () => b.received.length === 1);
      expect(proxy.connections).toBeGreaterThan(0);

      proxy.set({ kind: 'drop' });
      await eventually('member 2 is reported unreachable', () => {
        a.transport.send([append(1, 2, 1)]);
        return a.unreachable.includes(2);
      });
      proxy.set({ kind: 'pass' });
      await eventually('appends pass again', () => {
        a.transport.send([append(1, 2, 2)]);
        return b.received.some((m) => m.type === 'app' && m.index === 2);
      });

      const before = a.unreachable.length;
      proxy.set({ kind: 'partition', direction: 'both' });
      await eventually('pings find the partition', () => {
        a.transport.send([append(1, 2, 3)]);
        return a.unreachable.length > before;
      });
      proxy.set({ kind: 'pass' });
      await eventually('appends pass after the partition heals', () => {
        a.transport.send([append(1, 2, 4)]);
        return b.received.some((m) => m.type === 'app' && m.index === 4);
      });
    } finally {
      await proxy.close();
    }
  });
  it('version handshake: members of different pairs or deployments exchange only the handshake; every other frame is refused and counted', async () => {
    const ca = await testAuthority();
    const a = await member(1, await ca.member(1), 'bound', undefined, { pair: { engine: 1, host_epoch: 0 }, deployment: () => 'aa' });
    const b = await member(2, await ca.member(2), 'bound', undefined, { pair: { engine: 2, host_epoch: 0 }, deployment: () => 'aa' });
    const c = await member(3, await ca.member(3), 'bound', undefined, { pair: { engine: 1, host_epoch: 0 }, deployment: () => 'bb' });
    bind([a, b, c], identitiesOf(ca, [1, 2, 3]));

    // Raft between different pairs: refused, so to the sender the peer is unreachable.
    a.transport.send([append(1, 2, 0)]);
    b.transport.send([append(2, 1, 0)]);
    await eventually('both ends report the other unreachable', () => a.unreachable.includes(2) && b.unreachable.includes(1));
    // Another deployment at the same pair: refused the same way.
    a.transport.send([append(1, 3, 0)]);
    await eventually('member 3 is unreachable to member 1', () => a.unreachable.includes(3));

    // A call (a forwarded write, a read index) is refused with the receiver's pair; the handshake is answered.
    const refused = await callError(a.transport.call(2, 'echo', Buffer.from('x'), call_timeout_ms));
    expect(refused.code).toBe('FAILED_PRECONDITION');
    expect(refused.reason).toBe('VERSION_MISMATCH');
    expect(refused.metadata).toMatchObject({ engine_format: '2', host_epoch: '0', deployment: 'aa' });
    expect(Buffer.from(await a.transport.call(2, HANDSHAKE_METHOD, new Uint8Array(), call_timeout_ms)).toString()).toBe('handshake from 1');
    expect(Buffer.from(await c.transport.call(1, HANDSHAKE_METHOD, new Uint8Array(), call_timeout_ms)).toString()).toBe('handshake from 3');

    await settle();
    expect([a.received, b.received, c.received]).toEqual([[], [], []]);
    expect(b.transport.counters.version_refused_calls).toBeGreaterThanOrEqual(2);
    expect(a.transport.counters.version_refused_calls).toBeGreaterThanOrEqual(1);
    expect(c.transport.counters.version_refused_calls).toBeGreaterThanOrEqual(1);
  });
});

describe('peer transport: members on different HTTP/2 engines', () => {
  it('a member on Weft\'s engine and one on node:http2 exchange Raft messages, calls and a multi-frame snapshot both ways, and refuse a foreign CA alike', async () => {
    const ca = await testAuthority();
    const a = await member(1, await ca.member(1), 'bound', undefined, undefined, 'weft');
    const b = await member(2, await ca.member(2), 'bound', undefined, undefined, 'node');
    bind([a, b], identitiesOf(ca, [1, 2]));

    a.transport.send(Array.from({ length: 50 }, (_, i) => append(1, 2, i)));
    b.transport.send(Array.from({ length: 50 }, (_, i) => append(2, 1, i)));
    await eventually('each receives the other\'s 50 appends', () => a.received.length === 50 && b.received.length === 50);
    expect(b.received.map((m) => (m as AppendMessage).index)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(Buffer.from(await a.transport.call(2, 'echo', Buffer.from('to node'), call_timeout_ms)).toString()).toBe('1:to node');
    expect(Buffer.from(await b.transport.call(1, 'echo', Buffer.from('to weft'), call_timeout_ms)).toString()).toBe('2:to weft');

    // Larger than one chunk (64 KiB here) and than one HTTP/2 frame: many DATA frames each way.
    const data = new Uint8Array(300 * 1024 + 5).map((_, i) => (i * 13) & 255);
    const snapshot = (from: NodeId, to: NodeId): SnapshotMessage => ({ type: 'snap', from, to, term: 2, snapshot: { meta: { index: 70, term: 2, conf_state: { voters: [1, 2], learners: [] } }, data } });
    a.transport.send([snapshot(1, 2)]);
    b.transport.send([snapshot(2, 1)]);
    await eventually('both snapshots are reported', () => a.snapshots.length === 1 && b.snapshots.length === 1);
    expect([a.snapshots, b.snapshots]).toEqual([[{ to: 2, ok: true }], [{ to: 1, ok: true }]]);
    for (const m of [a, b]) {
      const got = m.received.find((x): x is SnapshotMessage => x.type === 'snap')!;
      expect(Buffer.from(got.snapshot.data).equals(Buffer.from(data))).toBe(true);
    }

    const stranger = await member(3, await foreignMember(ca, 3), 'bound', undefined, undefined, 'weft');
    const peers = new Map<NodeId, PeerAddress>([
      [1, { address: a.transport.address, identity: `spiffe://${ca.trust_domain}/member/1` }],
      [2, { address: b.transport.address, identity: `spiffe://${ca.trust_domain}/member/2` }],
      [3, { address: stranger.transport.address, identity: `spiffe://${ca.trust_domain}/member/3` }],
    ]);
    for (const m of [a, b, stranger]) m.transport.setPeers(peers);
    for (const [from, to] of [[stranger, 1], [stranger, 2], [a, 3], [b, 3]] as const) {
      expect((await callError(from.transport.call(to, 'echo', new Uint8Array(), call_timeout_ms))).code).toBe('UNAVAILABLE');
    }
  });
});

describe('peer transport: commit notices ride with the next message', () => {
  const notice = (index: number): AppendMessage => ({ type: 'app', from: 1, to: 2, term: 1, index, log_term: 1, commit: index, entries: [], quiet: true });

  async function pair(commit_notice_hold_ms: number): Promise<[GrpcPeerTransport, Message[]]> {
    const ca = await testAuthority();
    const start = async (node_id: NodeId): Promise<GrpcPeerTransport> => {
      const t = await startGrpcPeerTransport({ node_id, host: '127.0.0.1', port: 0, tls: await ca.member(node_id), admission: 'bound', limits: { commit_notice_hold_ms } });
      started.push(t);
      return t;
    };
    const a = await start(1);
    const b = await start(2);
    const peers = new Map<NodeId, PeerAddress>([
      [1, { address: a.address, identity: `spiffe://${ca.trust_domain}/member/1` }],
      [2, { address: b.address, identity: `spiffe://${ca.trust_domain}/member/2` }],
    ]);
    a.setPeers(peers);
    b.setPeers(peers);
    const received: Message[] = [];
    b.onRaftMessage((m) => received.push(m));
    return [a, received];
  }

  it('a notice queued alone waits for the next append to the peer and leaves in its frame, in order', async () => {
    // A hold far longer than the test: whatever arrives came with the append.
    const [a, received] = await pair(600_000);
    a.send([append(1, 2, 0)]);
    await eventually('the first append arrives', () => received.length === 1);
    const frames_before = a.counters.raft_frames_sent;
    a.send([notice(1)]);
    await new Promise((r) => setImmediate(r));
    expect(received.length).toBe(1);
    a.send([append(1, 2, 1)]);
    await eventually('the notice and the append arrive', () => received.length === 3);
    expect(received.slice(1).map((m) => [m.type, (m as AppendMessage).entries.length])).toEqual([['app', 0], ['app', 1]]);
    expect(a.counters.raft_frames_sent - frames_before).toBe(1);
  });

  it('a notice with nothing after it still leaves once its hold has passed; with a hold of 0 it leaves in its own turn', async () => {
    for (const hold_ms of [5, 0]) {
      const [a, received] = await pair(hold_ms);
      a.send([notice(4)]);
      await eventually(`the lone notice arrives (hold ${hold_ms} ms)`, () => received.length === 1);
      expect((received[0] as AppendMessage).commit).toBe(4);
      expect(a.counters.raft_frames_sent).toBe(1);
    }
  });
});
