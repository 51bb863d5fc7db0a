import { describe, expect, it } from 'vitest';
import { PeerBinding } from '../../src/log/transport/admission.js';
import { crc32 } from 'node:zlib';
import { type ChunkVerdict, SnapshotReceiver } from '../../src/log/transport/snapshot-stream.js';
import { memorySnapshotFiles } from '../../src/log/transport/snapshot-files.js';
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

describe('snapshot receipt, one chunk at a time', () => {
  const head = (bytes: number, to = 2) => ({
    message: { type: 'snap' as const, from: 1, to, term: 1, snapshot: { meta: { index: 5, term: 1, conf_state: { voters: [1, 2], learners: [] } } } },
    data_bytes: bytes,
    ref: new Uint8Array(),
  });
  /** A chunk of `data`; `whole` marks it the last, with the CRC of everything sent. */
  const chunk = (data: number[], o: { head?: number; to?: number; whole?: number[]; crc?: number } = {}) => ({
    from: 1,
    from_address: 'x',
    data: new Uint8Array(data),
    crc: o.crc ?? crc32(new Uint8Array(data)),
    ...(o.head !== undefined ? { head: head(o.head, o.to) } : {}),
    ...(o.whole !== undefined ? { data_crc: crc32(new Uint8Array(o.whole)) } : {}),
  });
  const receiver = (bytes_max = 100) => new SnapshotReceiver(2, memorySnapshotFiles(bytes_max), bytes_max);
  const why = (verdict: ChunkVerdict): string => (verdict.kind === 'refused' ? verdict.why : verdict.kind);

  it('takes chunks in order into the snapshot message once the whole CRC holds', async () => {
    const r = receiver();
    expect(await r.add(chunk([1, 2], { head: 5 }))).toEqual({ kind: 'taken' });
    expect(await r.add(chunk([3, 4, 5], { whole: [1, 2, 3, 4, 5] }))).toEqual({ kind: 'taken' });
    const done = await r.finish();
    expect(done.kind === 'complete' && [...done.message.snapshot.data]).toEqual([1, 2, 3, 4, 5]);
    expect(done.kind === 'complete' && done.message.snapshot.meta.index).toBe(5);
  });

  it('refuses a snapshot over the bound, for another member, without a head, with a second head, past its length, a damaged chunk, a wrong whole CRC, or cut short', async () => {
    expect(why(await receiver(4).add(chunk([1], { head: 5 })))).toMatch(/over snapshot_bytes_max/);
    expect(why(await receiver().add(chunk([1], { head: 1, to: 3 })))).toMatch(/for member 3/);
    expect(why(await receiver().add(chunk([1])))).toMatch(/no head/);
    const twice = receiver();
    await twice.add(chunk([1], { head: 2 }));
    expect(why(await twice.add(chunk([2], { head: 2 })))).toMatch(/second head/);
    const long = receiver();
    await long.add(chunk([1], { head: 2 }));
    expect(why(await long.add(chunk([2, 3])))).toMatch(/passes its declared/);
    expect(why(await receiver().add(chunk([1, 2], { head: 2, crc: 7 })))).toMatch(/fails its CRC/);
    const wrong = receiver();
    await wrong.add(chunk([1, 2], { head: 2, whole: [1, 3] }));
    expect(await wrong.finish()).toEqual({ kind: 'refused', why: 'the snapshot fails its whole CRC' });
    const short = receiver();
    await short.add(chunk([1], { head: 2 }));
    expect((await short.finish()).kind).toBe('refused');
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
