import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { LogDriver } from '../../src/log/driver/log-driver.js';
import type { MembershipSnapshot } from '../../src/log/driver/membership.js';
import { decodeSnapshotRef } from '../../src/log/driver/shipped-snapshot.js';
import { encodeShippedManifest } from '../../src/log/driver/shipped-manifest.js';
import { HybridClock, systemClockMicros } from '../../src/log/hlc.js';
import type { Message, SnapshotMessage } from '../../src/log/raft/types.js';
import type { PeerTransport, RaftMessageHandler } from '../../src/log/transport/peer-transport.js';
import type { SnapshotFiles } from '../../src/log/transport/snapshot-files.js';
import { SnapshotReceiver } from '../../src/log/transport/snapshot-stream.js';

/**
 * A received snapshot the core took and a newer one replaced before it was installed is removed at
 * once, not left in snapshot-incoming/ until the next restart; the newer one is installed and its
 * emptied directory removed too.
 */
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const membership: MembershipSnapshot = {
  conf_state: { voters: [1], learners: [2] },
  members: [
    { node_id: 1, address: 'mem:1', identity: 'spiffe://weft.local/member/1' },
    { node_id: 2, address: 'mem:2', identity: 'spiffe://weft.local/member/2' },
  ],
  departed: [],
};

/** A transport that only hands the driver's handlers and snapshot store to the test. */
class CapturingTransport implements PeerTransport {
  raft: RaftMessageHandler | undefined;
  files: SnapshotFiles | undefined;
  readonly address = 'mem:2';
  setPeers(): void {}
  send(_messages: readonly Message[]): void {}
  onRaftMessage(handler: RaftMessageHandler): void {
    this.raft = handler;
  }
  onUnreachable(): void {}
  onSnapshotSent(): void {}
  call(): Promise<Uint8Array> {
    return Promise.reject(new Error('no peers here'));
  }
  setDeparted(): void {}
  useSnapshotFiles(files: SnapshotFiles): void {
    this.files = files;
  }
  handle(): void {}
  async close(): Promise<void> {}
}

/** Receives a snapshot at `index` into the member's store, as its peer server would, and returns the message Raft is handed. */
async function received(files: SnapshotFiles, index: number): Promise<SnapshotMessage> {
  const data = Buffer.from(`state as of ${index}`);
  const ref = encodeShippedManifest({ membership, files: [{ name: `checkpoint-${String(index).padStart(20, '0')}.ckpt`, bytes: data.byteLength }] });
  const meta = { index, term: 2, conf_state: membership.conf_state };
  const receiver = new SnapshotReceiver(2, files, 1 << 20);
  const head = { message: { type: 'snap' as const, from: 1, to: 2, term: 2, snapshot: { meta } }, data_bytes: data.byteLength, ref, data_crc: crc32(data), offset: 0 };
  expect(await receiver.add({ from: 1, from_address: 'mem:1', head, data, crc: crc32(data), data_crc: crc32(data) })).toEqual({ kind: 'taken' });
  const receipt = await receiver.finish();
  if (receipt.kind !== 'complete') throw new Error(receipt.why);
  return receipt.message;
}

describe('a received snapshot superseded before it is installed', () => {
  it('is removed when the core takes the newer one; the newer one is installed and nothing is left in snapshot-incoming/', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-superseded-'));
    dirs.push(dir);
    const transport = new CapturingTransport();
    const driver = await LogDriver.open(join(dir, 'log'), {
      node_id: 2,
      clock: new HybridClock(systemClockMicros),
      segment: { segment_bytes_max: 1 << 20, inline_fsync_entries_max: 0 },
      checkpoint_index: 0,
      checkpoint_ts: 0,
      timing: { tick_ms: 100, election_ticks: 10, heartbeat_ticks: 1 },
      join_wait: true,
      self: { node_id: 2, address: 'mem:2', identity: 'spiffe://weft.local/member/2' },
      transport,
    });
    const installed: number[] = [];
    try {
      await driver.start({
        apply: () => {},
        leadershipLost: () => {},
        installSnapshot: async (index) => {
          installed.push(index);
        },
      });
      const incoming = join(dir, 'log', 'snapshot-incoming');
      const older = await received(transport.files!, 10);
      const newer = await received(transport.files!, 20);
      expect(readdirSync(incoming).sort()).toEqual(['received-1', 'received-2']);
      // Both reach the core in one turn, before a Ready installs the first.
      transport.raft!(older);
      transport.raft!(newer);
      const deadline = Date.now() + 5_000;
      while ((installed.length === 0 || readdirSync(incoming).length > 0) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      expect(installed).toEqual([20]);
      expect(existsSync(decodeSnapshotRef(older.snapshot.data).path)).toBe(false);
      expect(readdirSync(incoming)).toEqual([]);
    } finally {
      await driver.close();
    }
  });
});
