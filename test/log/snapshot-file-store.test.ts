import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { decodeSnapshotRef, encodeSnapshotRef } from '../../src/log/driver/shipped-snapshot.js';
import { SnapshotFileStore } from '../../src/log/driver/snapshot-file-store.js';
import type { MembershipSnapshot } from '../../src/log/driver/membership.js';
import type { SnapshotChunk } from '../../src/log/transport/peer-wire.js';
import { SnapshotReceiver } from '../../src/log/transport/snapshot-stream.js';

/**
 * Snapshots through files: what a leader sends is read from its checkpoint file a chunk at a time,
 * what a follower receives is written to a file of its own and handed to Raft as a reference; a
 * transfer that breaks, is refused or is found half done at open leaves no file behind.
 */
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function scratch(): string {
  const d = mkdtempSync(join(tmpdir(), 'weft-snapfiles-'));
  dirs.push(d);
  return d;
}

const membership: MembershipSnapshot = {
  conf_state: { voters: [1, 2], learners: [] },
  members: [
    { node_id: 1, address: '127.0.0.1:1', identity: 'spiffe://weft.local/member/1' },
    { node_id: 2, address: '127.0.0.1:2', identity: 'spiffe://weft.local/member/2' },
  ],
  departed: [],
};

/** A checkpoint-sized file of bytes that differ from chunk to chunk. */
function checkpointFile(dir: string, bytes: number): string {
  mkdirSync(join(dir, 'checkpoints'), { recursive: true });
  const path = join(dir, 'checkpoints', 'checkpoint-00000000000000000900.ckpt');
  writeFileSync(path, Buffer.alloc(bytes).map((_, i) => (i * 131 + (i >> 12)) & 255));
  return path;
}

const chunk_bytes = 64 * 1024;

/** Sends `source` from the leader's store to the follower's through the receiver a transport runs. */
async function transfer(leader: SnapshotFileStore, follower: SnapshotFileStore, source: string, cut_after_chunks = Number.POSITIVE_INFINITY) {
  const out = (await leader.openOutgoing(encodeSnapshotRef({ membership, path: source })))!;
  const receiver = new SnapshotReceiver(2, follower, Number.MAX_SAFE_INTEGER);
  const head = {
    message: { type: 'snap' as const, from: 1, to: 2, term: 3, snapshot: { meta: { index: 900, term: 3, conf_state: membership.conf_state } } },
    data_bytes: out.data_bytes,
    ref: out.ref,
  };
  let whole = 0;
  let sent = 0;
  try {
    for (let offset = 0; ; sent++) {
      if (sent === cut_after_chunks) {
        await receiver.abort();
        return undefined;
      }
      const data = await out.read(offset, chunk_bytes);
      whole = crc32(data, whole);
      offset += data.byteLength;
      const last = offset >= out.data_bytes;
      const chunk: SnapshotChunk = { from: 1, from_address: 'x', ...(sent === 0 ? { head } : {}), data, crc: crc32(data), ...(last ? { data_crc: whole } : {}) };
      const why = await receiver.add(chunk);
      if (why !== undefined) throw new Error(why);
      if (last) break;
    }
  } finally {
    await out.close();
  }
  return receiver.finish();
}

describe('snapshot files', () => {
  it('a 3 MiB checkpoint streams chunk by chunk into a file of the receiver, byte for byte, with the membership as of the snapshot', async () => {
    const leader_dir = scratch();
    const follower_dir = scratch();
    const source = checkpointFile(leader_dir, 3 * 1024 * 1024 + 5);
    const leader = SnapshotFileStore.open(join(leader_dir, 'snapshot-incoming'));
    const follower = SnapshotFileStore.open(join(follower_dir, 'snapshot-incoming'));
    const done = await transfer(leader, follower, source);
    expect(done?.kind).toBe('complete');
    const ref = decodeSnapshotRef(done!.kind === 'complete' ? done!.message.snapshot.data : new Uint8Array());
    expect(ref.membership).toEqual(membership);
    expect(ref.path.startsWith(join(follower_dir, 'snapshot-incoming'))).toBe(true);
    expect(readFileSync(ref.path).equals(readFileSync(source))).toBe(true);
  });

  it('the checkpoint being sent is pinned: compaction deleting its name mid-transfer does not cut it short', async () => {
    const leader_dir = scratch();
    const source = checkpointFile(leader_dir, 1024 * 1024);
    const expected = readFileSync(source);
    const leader = SnapshotFileStore.open(join(leader_dir, 'snapshot-incoming'));
    const out = (await leader.openOutgoing(encodeSnapshotRef({ membership, path: source })))!;
    const first = Buffer.from(await out.read(0, chunk_bytes));
    unlinkSync(source);
    const rest = Buffer.from(await out.read(chunk_bytes, out.data_bytes - chunk_bytes));
    await out.close();
    expect(Buffer.concat([first, rest]).equals(expected)).toBe(true);
    // Asked again once it is gone, the store answers nothing: Raft is told the snapshot was not sent.
    expect(await leader.openOutgoing(encodeSnapshotRef({ membership, path: source }))).toBeUndefined();
  });

  it('interrupted: a transfer cut midway leaves no file, and the next attempt from the start installs whole', async () => {
    const leader_dir = scratch();
    const follower_dir = scratch();
    const incoming = join(follower_dir, 'snapshot-incoming');
    const source = checkpointFile(leader_dir, 1024 * 1024);
    const leader = SnapshotFileStore.open(join(leader_dir, 'snapshot-incoming'));
    const follower = SnapshotFileStore.open(incoming);
    expect(await transfer(leader, follower, source, 3)).toBeUndefined();
    expect(readdirSync(incoming)).toEqual([]);
    const done = await transfer(leader, follower, source);
    expect(done?.kind).toBe('complete');
    expect(readdirSync(incoming)).toHaveLength(1);
  });

  it('a damaged chunk is refused and what arrived before it is removed', async () => {
    const follower_dir = scratch();
    const incoming = join(follower_dir, 'snapshot-incoming');
    const receiver = new SnapshotReceiver(2, SnapshotFileStore.open(incoming), Number.MAX_SAFE_INTEGER);
    const head = { message: { type: 'snap' as const, from: 1, to: 2, term: 3, snapshot: { meta: { index: 9, term: 3, conf_state: membership.conf_state } } }, data_bytes: 8, ref: Buffer.from(JSON.stringify(membership)) };
    const good = new Uint8Array([1, 2, 3, 4]);
    expect(await receiver.add({ from: 1, from_address: 'x', head, data: good, crc: crc32(good) })).toBeUndefined();
    expect(readdirSync(incoming)).toHaveLength(1);
    expect(await receiver.add({ from: 1, from_address: 'x', data: new Uint8Array([5, 6, 7, 8]), crc: crc32(good) })).toMatch(/fails its CRC/);
    expect(readdirSync(incoming)).toEqual([]);
  });

  it('at open, a half-received file of an earlier process is removed; a received file Raft did not take is discarded', async () => {
    const follower_dir = scratch();
    const incoming = join(follower_dir, 'snapshot-incoming');
    mkdirSync(incoming, { recursive: true });
    writeFileSync(join(incoming, 'received-1.part'), 'half');
    const store = SnapshotFileStore.open(incoming);
    expect(existsSync(join(incoming, 'received-1.part'))).toBe(false);
    const leader_dir = scratch();
    const source = checkpointFile(leader_dir, 100);
    const done = await transfer(SnapshotFileStore.open(join(leader_dir, 'snapshot-incoming')), store, source);
    const data = done!.kind === 'complete' ? done!.message.snapshot.data : new Uint8Array();
    await store.discard(data);
    expect(readdirSync(incoming)).toEqual([]);
    // A reference to a file outside the store (the leader's own checkpoint) is never removed by it.
    await store.discard(encodeSnapshotRef({ membership, path: source }));
    expect(existsSync(source)).toBe(true);
  });
});
