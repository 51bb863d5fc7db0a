import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { crc32 } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { decodeSnapshotRef, encodeSnapshotRef, type SnapshotRef } from '../../src/log/driver/shipped-snapshot.js';
import { nextSyncGap, SnapshotFileStore } from '../../src/log/driver/snapshot-file-store.js';
import type { MembershipSnapshot } from '../../src/log/driver/membership.js';
import type { SnapshotChunk } from '../../src/log/transport/peer-wire.js';
import { type SnapshotReceipt, SnapshotReceiver } from '../../src/log/transport/snapshot-stream.js';

/**
 * Snapshots through files: what a leader sends is read from its checkpoint file (and the files saved
 * beside it) a chunk at a time, what a follower receives is written to files of its own and handed to
 * Raft as a reference. A transfer that breaks keeps its durable part and resumes after it when the
 * same snapshot is offered again; a refused one, or another snapshot, leaves nothing of it behind.
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
/** Received bytes are made durable every two chunks here, so a cut leaves a durable part to resume. */
const sync_bytes = 2 * chunk_bytes;

interface Transfer {
  readonly receipt: SnapshotReceipt | undefined;
  /** Where the stream that was taken started (0, or where the receiver said it held part). */
  readonly started_at: number;
  readonly chunks_sent: number;
}

/**
 * Sends `source` (and its companions) from the leader's store to the follower's through the receiver
 * a transport runs, resuming where the receiver says it holds part, as sendSnapshot does. A cut after
 * `cut_after_chunks` chunks breaks the stream as a lost link would (the receiver suspends).
 */
async function transfer(
  leader: SnapshotFileStore,
  follower: SnapshotFileStore,
  source: string,
  options: { cut_after_chunks?: number; companions?: readonly string[]; index?: number } = {},
): Promise<Transfer> {
  const out = (await leader.openOutgoing(encodeSnapshotRef({ membership, path: source, companions: options.companions ?? [] })))!;
  const index = options.index ?? 900;
  let chunks_sent = 0;
  try {
    for (let start = 0; ; ) {
      const receiver = new SnapshotReceiver(2, follower, Number.MAX_SAFE_INTEGER);
      const head = {
        message: { type: 'snap' as const, from: 1, to: 2, term: 3, snapshot: { meta: { index, term: 3, conf_state: membership.conf_state } } },
        data_bytes: out.data_bytes,
        ref: out.ref,
        data_crc: out.data_crc,
        offset: start,
      };
      let resumed: number | undefined;
      for (let offset = start; ; ) {
        if (chunks_sent === options.cut_after_chunks) {
          await receiver.suspend();
          return { receipt: undefined, started_at: start, chunks_sent };
        }
        const data = await out.read(offset, chunk_bytes);
        const first = offset === start;
        offset += data.byteLength;
        const last = offset >= out.data_bytes;
        const chunk: SnapshotChunk = { from: 1, from_address: 'x', ...(first ? { head } : {}), data, crc: crc32(data), ...(last ? { data_crc: out.data_crc } : {}) };
        chunks_sent++;
        const verdict = await receiver.add(chunk);
        if (verdict.kind === 'refused') throw new Error(verdict.why);
        if (verdict.kind === 'resume') {
          resumed = verdict.at;
          break;
        }
        if (last) break;
      }
      if (resumed === undefined) return { receipt: await receiver.finish(), started_at: start, chunks_sent };
      expect(resumed, 'a second resume in one transfer').not.toBe(start);
      start = resumed;
    }
  } finally {
    await out.close();
  }
}

function receivedRef(t: Transfer): SnapshotRef {
  expect(t.receipt?.kind).toBe('complete');
  return decodeSnapshotRef(t.receipt?.kind === 'complete' ? t.receipt.message.snapshot.data : new Uint8Array());
}

describe('snapshot files', () => {
  it('a 3 MiB checkpoint streams chunk by chunk into a file of the receiver, byte for byte, with the membership as of the snapshot', async () => {
    const leader_dir = scratch();
    const follower_dir = scratch();
    const source = checkpointFile(leader_dir, 3 * 1024 * 1024 + 5);
    const leader = SnapshotFileStore.open(join(leader_dir, 'snapshot-incoming'));
    const follower = SnapshotFileStore.open(join(follower_dir, 'snapshot-incoming'));
    const ref = receivedRef(await transfer(leader, follower, source));
    expect(ref.membership).toEqual(membership);
    expect(ref.path.startsWith(join(follower_dir, 'snapshot-incoming'))).toBe(true);
    expect(readFileSync(ref.path).equals(readFileSync(source))).toBe(true);
    expect(ref.companions).toEqual([]);
  });

  it('the files saved beside a checkpoint travel with it, each arriving whole under its own name; a companion already pruned is left out', async () => {
    const leader_dir = scratch();
    const follower_dir = scratch();
    const source = checkpointFile(leader_dir, 200 * 1024 + 1);
    const graph = join(leader_dir, 'checkpoints', 'vector-00000000000000000900-7.hnsw');
    const meta = join(leader_dir, 'checkpoints', 'vector-00000000000000000900-7.meta');
    const empty = join(leader_dir, 'checkpoints', 'vector-00000000000000000900-8.meta');
    writeFileSync(graph, Buffer.alloc(150 * 1024 + 3).map((_, i) => (i * 17) & 255));
    writeFileSync(meta, 'meta of generation 7');
    writeFileSync(empty, '');
    const gone = join(leader_dir, 'checkpoints', 'vector-00000000000000000900-9.hnsw');
    const follower = SnapshotFileStore.open(join(follower_dir, 'snapshot-incoming'));
    const ref = receivedRef(await transfer(SnapshotFileStore.open(join(leader_dir, 'snapshot-incoming')), follower, source, { companions: [graph, meta, empty, gone] }));
    expect(readFileSync(ref.path).equals(readFileSync(source))).toBe(true);
    expect(ref.companions?.map((p) => basename(p))).toEqual(['vector-00000000000000000900-7.hnsw', 'vector-00000000000000000900-7.meta', 'vector-00000000000000000900-8.meta']);
    for (const [got, sent] of [[ref.companions![0]!, graph], [ref.companions![1]!, meta], [ref.companions![2]!, empty]] as const) {
      expect(readFileSync(got).equals(readFileSync(sent))).toBe(true);
    }
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

  it('resume: a transfer cut midway, offered again, starts after the last durable chunk and arrives whole', async () => {
    const leader_dir = scratch();
    const follower_dir = scratch();
    const incoming = join(follower_dir, 'snapshot-incoming');
    const source = checkpointFile(leader_dir, 1024 * 1024 + 7);
    const leader = SnapshotFileStore.open(join(leader_dir, 'snapshot-incoming'));
    const follower = SnapshotFileStore.open(incoming, sync_bytes);
    const cut = await transfer(leader, follower, source, { cut_after_chunks: 7 });
    expect(cut.receipt).toBeUndefined();
    expect(readdirSync(incoming)).toEqual(['partial']);
    const again = await transfer(leader, follower, source);
    // 7 chunks written, the 7th suspended with the rest: all 7 are durable at the suspend.
    expect(again.started_at).toBe(7 * chunk_bytes);
    expect(readFileSync(receivedRef(again).path).equals(readFileSync(source))).toBe(true);
    expect(readdirSync(incoming)).toEqual(['received-1']);
  });

  it('resume after a restart of the receiver: the durable part is kept at open and its CRC read back; bytes past the last sync are sent again', async () => {
    const leader_dir = scratch();
    const follower_dir = scratch();
    const incoming = join(follower_dir, 'snapshot-incoming');
    const source = checkpointFile(leader_dir, 1024 * 1024 + 7);
    const leader = SnapshotFileStore.open(join(leader_dir, 'snapshot-incoming'));
    const before = SnapshotFileStore.open(incoming, sync_bytes);
    // A crash: the stream is neither suspended nor finished, so only what the last sync recorded counts.
    const out = (await leader.openOutgoing(encodeSnapshotRef({ membership, path: source })))!;
    const receiver = new SnapshotReceiver(2, before, Number.MAX_SAFE_INTEGER);
    const head = { message: { type: 'snap' as const, from: 1, to: 2, term: 3, snapshot: { meta: { index: 900, term: 3, conf_state: membership.conf_state } } }, data_bytes: out.data_bytes, ref: out.ref, data_crc: out.data_crc, offset: 0 };
    for (let i = 0; i < 5; i++) {
      const data = await out.read(i * chunk_bytes, chunk_bytes);
      expect((await receiver.add({ from: 1, from_address: 'x', ...(i === 0 ? { head } : {}), data, crc: crc32(data) })).kind).toBe('taken');
    }
    await out.close();
    const after = SnapshotFileStore.open(incoming, sync_bytes);
    const again = await transfer(leader, after, source);
    // Synced after chunks 2 and 4: chunk 5 was written but never recorded durable.
    expect(again.started_at).toBe(4 * chunk_bytes);
    expect(readFileSync(receivedRef(again).path).equals(readFileSync(source))).toBe(true);
  });

  it('a learner killed in the first megabytes of a transfer still resumes: durable progress is recorded early, then at doubling intervals up to the largest', async () => {
    const leader_dir = scratch();
    const follower_dir = scratch();
    const incoming = join(follower_dir, 'snapshot-incoming');
    const source = checkpointFile(leader_dir, 4 * 1024 * 1024 + 9);
    const leader = SnapshotFileStore.open(join(leader_dir, 'snapshot-incoming'));
    // The default schedule: the largest interval (16 MiB) is far more than this whole transfer.
    const before = SnapshotFileStore.open(incoming);
    const out = (await leader.openOutgoing(encodeSnapshotRef({ membership, path: source })))!;
    const receiver = new SnapshotReceiver(2, before, Number.MAX_SAFE_INTEGER);
    const head = { message: { type: 'snap' as const, from: 1, to: 2, term: 3, snapshot: { meta: { index: 900, term: 3, conf_state: membership.conf_state } } }, data_bytes: out.data_bytes, ref: out.ref, data_crc: out.data_crc, offset: 0 };
    // 3.5 MiB arrive, then kill -9: neither suspended nor finished.
    const chunks = (7 * 1024 * 1024) / 2 / chunk_bytes;
    for (let i = 0; i < chunks; i++) {
      const data = await out.read(i * chunk_bytes, chunk_bytes);
      expect((await receiver.add({ from: 1, from_address: 'x', ...(i === 0 ? { head } : {}), data, crc: crc32(data) })).kind).toBe('taken');
    }
    await out.close();
    const again = await transfer(leader, SnapshotFileStore.open(incoming), source);
    // Durable after the first 1 MiB, then 2 MiB: the resume repeats 1.5 MiB, not 3.5.
    expect(again.started_at).toBe(2 * 1024 * 1024);
    expect(readFileSync(receivedRef(again).path).equals(readFileSync(source))).toBe(true);
  });

  it('across leaders: a new leader offering the very same checkpoint (same index, term, bytes and names) resumes the old leader\'s transfer; its own, different checkpoint starts from byte 0', async () => {
    const old_dir = scratch();
    const new_dir = scratch();
    const follower_dir = scratch();
    const incoming = join(follower_dir, 'snapshot-incoming');
    const source = checkpointFile(old_dir, 1024 * 1024 + 7);
    const follower = SnapshotFileStore.open(incoming, sync_bytes);
    const cut = await transfer(SnapshotFileStore.open(join(old_dir, 'snapshot-incoming')), follower, source, { cut_after_chunks: 6 });
    expect(cut.receipt).toBeUndefined();
    // The new leader holds a byte-identical copy of that checkpoint under the same name.
    const copy = checkpointFile(new_dir, 1024 * 1024 + 7);
    const again = await transfer(SnapshotFileStore.open(join(new_dir, 'snapshot-incoming')), follower, copy);
    expect(again.started_at).toBe(6 * chunk_bytes);
    expect(readFileSync(receivedRef(again).path).equals(readFileSync(source))).toBe(true);

    // Cut again; then a new leader whose checkpoint at that index differs in one byte (its own MVCC
    // horizon, say): nothing of the old part is kept.
    const source2 = checkpointFile(old_dir, 1024 * 1024 + 7);
    await transfer(SnapshotFileStore.open(join(old_dir, 'snapshot-incoming')), follower, source2, { cut_after_chunks: 6, index: 950 });
    const other = checkpointFile(new_dir, 1024 * 1024 + 7);
    const bytes = readFileSync(other);
    bytes[0] = bytes[0]! ^ 1;
    writeFileSync(other, bytes);
    const fresh_start = await transfer(SnapshotFileStore.open(join(new_dir, 'snapshot-incoming')), follower, other, { index: 950 });
    expect(fresh_start.started_at).toBe(0);
    expect(readFileSync(receivedRef(fresh_start).path).equals(bytes)).toBe(true);
  });

  it('the sync schedule: first after snapshot_sync_bytes_first, each interval the bytes already durable, never more than the largest', () => {
    const mib = 1024 * 1024;
    const points = (max: number, total: number): number[] => {
      const out: number[] = [];
      for (let durable = 0; durable + nextSyncGap(durable, max) <= total; ) out.push((durable += nextSyncGap(durable, max)) / mib);
      return out;
    };
    expect(points(16 * mib, 80 * mib)).toEqual([1, 2, 4, 8, 16, 32, 48, 64, 80]);
    // A largest interval below the first: every interval is the largest.
    expect(points(mib / 2, 2 * mib)).toEqual([0.5, 1, 1.5, 2]);
  });

  it('a different snapshot offered after a cut discards the partial one, and a durable part that fails its CRC is not resumed', async () => {
    const leader_dir = scratch();
    const follower_dir = scratch();
    const incoming = join(follower_dir, 'snapshot-incoming');
    const source = checkpointFile(leader_dir, 1024 * 1024);
    const leader = SnapshotFileStore.open(join(leader_dir, 'snapshot-incoming'));
    const follower = SnapshotFileStore.open(incoming, sync_bytes);
    await transfer(leader, follower, source, { cut_after_chunks: 6 });
    const newer = await transfer(leader, follower, source, { index: 901 });
    expect(newer.started_at).toBe(0);
    expect(receivedRef(newer).path).toContain('received-1');

    await transfer(leader, follower, source, { cut_after_chunks: 6 });
    const part = join(incoming, 'partial', 'checkpoint-00000000000000000900.ckpt');
    const bytes = readFileSync(part);
    bytes[100]! ^= 1;
    writeFileSync(part, bytes);
    const fresh = await transfer(leader, follower, source);
    expect(fresh.started_at).toBe(0);
    expect(readFileSync(receivedRef(fresh).path).equals(readFileSync(source))).toBe(true);
  });

  it('a damaged chunk is refused and what arrived before it is removed', async () => {
    const follower_dir = scratch();
    const incoming = join(follower_dir, 'snapshot-incoming');
    const receiver = new SnapshotReceiver(2, SnapshotFileStore.open(incoming), Number.MAX_SAFE_INTEGER);
    const head = { message: { type: 'snap' as const, from: 1, to: 2, term: 3, snapshot: { meta: { index: 9, term: 3, conf_state: membership.conf_state } } }, data_bytes: 8, ref: Buffer.from(JSON.stringify(membership)) };
    const good = new Uint8Array([1, 2, 3, 4]);
    expect(await receiver.add({ from: 1, from_address: 'x', head, data: good, crc: crc32(good) })).toEqual({ kind: 'taken' });
    expect(readdirSync(incoming)).toEqual(['partial']);
    const verdict = await receiver.add({ from: 1, from_address: 'x', data: new Uint8Array([5, 6, 7, 8]), crc: crc32(good) });
    expect(verdict.kind === 'refused' ? verdict.why : verdict.kind).toMatch(/fails its CRC/);
    expect(readdirSync(incoming)).toEqual([]);
  });

  it('at open, a received snapshot never installed is removed; a received one Raft did not take is discarded', async () => {
    const follower_dir = scratch();
    const incoming = join(follower_dir, 'snapshot-incoming');
    mkdirSync(join(incoming, 'received-4'), { recursive: true });
    writeFileSync(join(incoming, 'received-4', 'checkpoint.ckpt'), 'whole but never installed');
    const store = SnapshotFileStore.open(incoming);
    expect(existsSync(join(incoming, 'received-4'))).toBe(false);
    const leader_dir = scratch();
    const source = checkpointFile(leader_dir, 100);
    const done = await transfer(SnapshotFileStore.open(join(leader_dir, 'snapshot-incoming')), store, source);
    const data = done.receipt!.kind === 'complete' ? done.receipt!.message.snapshot.data : new Uint8Array();
    await store.discard(data);
    expect(readdirSync(incoming)).toEqual([]);
    // A reference to a file outside the store (the leader's own checkpoint) is never removed by it.
    await store.discard(encodeSnapshotRef({ membership, path: source }));
    expect(existsSync(source)).toBe(true);
  });
});
