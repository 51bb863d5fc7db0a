import { describe, expect, it } from 'vitest';
import { PeerBinding } from '../../src/log/transport/admission.js';
import { SnapshotAssembler } from '../../src/log/transport/snapshot-stream.js';
import { isRaftBatch } from '../../src/log/transport/frame-shape.js';
import { parseSpiffeId, spiffeIdOfCertificate } from '../../src/log/transport/spiffe-id.js';
import type { PeerCertificate } from 'node:tls';

const id = (n: number): string => `spiffe://weft.test/member/${n}`;
const at = (n: number): { address: string; identity: string } => ({ address: `127.0.0.1:${7000 + n}`, identity: id(n) });

describe('admission: which identity may speak for which member', () => {
  it('a bound member admits a peer only under the identity its membership binds, and never a claim to its own id', () => {
    const b = new PeerBinding(1, 'bound');
    expect(b.admit(2, id(2), 'x').admitted).toBe(false);
    b.setPeers(new Map([[1, at(1)], [2, at(2)]]));
    expect(b.admit(2, id(2), 'x').admitted).toBe(true);
    expect(b.admit(2, id(3), 'x').admitted).toBe(false);
    expect(b.admit(3, id(3), 'x').admitted).toBe(false);
    expect(b.admit(1, id(1), 'x').admitted).toBe(false);
    expect(b.admit(2, undefined, 'x').admitted).toBe(false);
  });

  it('join wait: open until the first membership, pinning each sender to its first identity; closed for good after', () => {
    const b = new PeerBinding(4, 'open_until_bound');
    b.setPeers(new Map([[4, at(4)]]));
    expect(b.isOpen).toBe(true);
    expect(b.admit(1, id(1), '127.0.0.1:7001').admitted).toBe(true);
    expect(b.peer(1)).toEqual(at(1));
    expect(b.peerIds()).toEqual([1]);
    expect(b.admit(1, id(9), '127.0.0.1:7009').admitted).toBe(false);
    b.setPeers(new Map([[1, at(1)], [4, at(4)]]));
    expect(b.isOpen).toBe(false);
    expect(b.admit(2, id(2), 'x').admitted).toBe(false);
    b.setPeers(new Map([[4, at(4)]]));
    expect(b.isOpen).toBe(false);
    expect(b.admit(1, id(1), 'x').admitted).toBe(false);
  });
});

describe('snapshot assembly', () => {
  const head = (bytes: number) => ({
    message: { type: 'snap' as const, from: 1, to: 2, term: 1, snapshot: { meta: { index: 5, term: 1, conf_state: { voters: [1, 2], learners: [] } } } },
    data_bytes: bytes,
  });
  const chunk = (data: number[], with_head?: number) => ({ from: 1, from_address: 'x', data: new Uint8Array(data), ...(with_head !== undefined ? { head: head(with_head) } : {}) });

  it('reassembles chunks in order into the snapshot message', () => {
    const a = new SnapshotAssembler(100);
    expect(a.add(chunk([1, 2], 5)).kind).toBe('more');
    expect(a.add(chunk([3, 4, 5])).kind).toBe('more');
    const done = a.finish();
    expect(done.kind === 'complete' && [...done.message.snapshot.data]).toEqual([1, 2, 3, 4, 5]);
    expect(done.kind === 'complete' && done.message.snapshot.meta.index).toBe(5);
  });

  it('refuses a snapshot over the bound, without a head, with a second head, past its length, or cut short', () => {
    expect(new SnapshotAssembler(4).add(chunk([1], 5)).kind).toBe('refused');
    expect(new SnapshotAssembler(10).add(chunk([1])).kind).toBe('refused');
    const twice = new SnapshotAssembler(10);
    twice.add(chunk([1], 2));
    expect(twice.add(chunk([2], 2)).kind).toBe('refused');
    const long = new SnapshotAssembler(10);
    long.add(chunk([1], 2));
    expect(long.add(chunk([2, 3])).kind).toBe('refused');
    const short = new SnapshotAssembler(10);
    short.add(chunk([1], 2));
    expect(short.finish().kind).toBe('refused');
  });
});

describe('reading what a peer sends: SPIFFE IDs and frame shapes', () => {
  it('parses valid IDs and refuses malformed ones', () => {
    expect(parseSpiffeId('spiffe://weft.local/member/1')).toEqual({ trust_domain: 'weft.local', path: '/member/1' });
    expect(parseSpiffeId('spiffe://weft.local')).toEqual({ trust_domain: 'weft.local', path: '' });
    for (const bad of ['http://weft.local/x', 'spiffe://Weft.local/x', 'spiffe://weft.local/', 'spiffe://weft.local//x', 'spiffe://weft.local/a/../b', 'spiffe://weft.local/a?b']) {
      expect(() => parseSpiffeId(bad), bad).toThrow();
    }
  });

  it('reads exactly one spiffe URI SAN from a peer certificate', () => {
    const cert = (san: string | undefined) => ({ subjectaltname: san }) as unknown as PeerCertificate;
    expect(spiffeIdOfCertificate(cert('DNS:localhost, URI:spiffe://weft.local/member/1, IP Address:127.0.0.1'))).toBe('spiffe://weft.local/member/1');
    expect(spiffeIdOfCertificate(cert('DNS:localhost'))).toBeUndefined();
    expect(spiffeIdOfCertificate(cert('URI:spiffe://a/x, URI:spiffe://a/y'))).toBeUndefined();
    expect(spiffeIdOfCertificate(cert(undefined))).toBeUndefined();
    expect(spiffeIdOfCertificate(undefined)).toBeUndefined();
  });

  it('frames this version cannot read are recognised before they reach Raft', () => {
    const ok = { from: 1, from_address: 'x', messages: [{ type: 'heartbeat', from: 1, to: 2, term: 1, commit: 0, request_ctx: '' }] };
    expect(isRaftBatch(ok)).toBe(true);
    expect(isRaftBatch({ ...ok, messages: [{ type: 'gossip', from: 1, to: 2, term: 1 }] })).toBe(false);
    expect(isRaftBatch({ ...ok, messages: [{ type: 'app', from: 1, to: 2, term: 1, entries: [{ index: 1, term: 1, data: 'text' }] }] })).toBe(false);
    expect(isRaftBatch({ ...ok, messages: 'none' })).toBe(false);
    expect(isRaftBatch({ from: '1', from_address: 'x', messages: [] })).toBe(false);
  });
});
