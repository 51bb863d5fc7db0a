import { mkdirSync, rmSync } from 'node:fs';
import { open, rm, type FileHandle } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { IncomingSnapshot, OutgoingSnapshot, SnapshotFiles } from '../transport/snapshot-files.js';
import type { MembershipSnapshot } from './membership.js';
import { decodeSnapshotRef, encodeSnapshotRef } from './shipped-snapshot.js';

/**
 * Snapshot data on a member's disk (snapshot-files.ts). Sending, the checkpoint file a SnapshotRef
 * names is opened once and read a chunk at a time through that descriptor: the open descriptor is
 * what pins it, so a checkpoint that compaction deletes while it travels is still read whole (its
 * name goes, its bytes stay until the transfer closes it). Receiving, chunks are written to a file
 * of their own under `dir` as they arrive and fsynced at the end; Raft is handed a SnapshotRef to
 * it, and the member installs it by renaming it among its checkpoints (LogDriver.installSnapshot).
 *
 * Whatever is in `dir` when the store opens was half received, or received and never installed,
 * before a restart: it is removed. A received file Raft does not take (a stale snapshot) is removed
 * when the driver sees it refused (discard).
 */
export class SnapshotFileStore implements SnapshotFiles {
  /** Names each file received in this process apart; `dir` is emptied at open, so no name repeats. */
  private received = 0;

  private constructor(private readonly dir: string) {}

  static open(dir: string): SnapshotFileStore {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    return new SnapshotFileStore(resolve(dir));
  }

  async openOutgoing(data: Uint8Array): Promise<OutgoingSnapshot | undefined> {
    const ref = decodeSnapshotRef(data);
    let file: FileHandle;
    try {
      file = await open(ref.path, 'r');
    } catch {
      return undefined;
    }
    const { size } = await file.stat();
    return {
      ref: encodeMembership(ref.membership),
      data_bytes: size,
      read: async (offset, length) => {
        const buffer = Buffer.allocUnsafe(length);
        const { bytesRead } = await file.read(buffer, 0, length, offset);
        return buffer.subarray(0, bytesRead);
      },
      close: () => file.close(),
    };
  }

  async openIncoming(ref: Uint8Array, data_bytes: number): Promise<IncomingSnapshot> {
    const membership = decodeMembership(ref);
    const path = join(this.dir, `received-${++this.received}.part`);
    const file = await open(path, 'w');
    let offset = 0;
    let closed = false;
    const closeOnce = async (): Promise<void> => {
      if (closed) return;
      closed = true;
      await file.close();
    };
    return {
      append: async (chunk) => {
        let written = 0;
        while (written < chunk.byteLength) written += (await file.write(chunk, written, chunk.byteLength - written, offset + written)).bytesWritten;
        offset += chunk.byteLength;
      },
      finish: async () => {
        if (offset !== data_bytes) throw new Error(`received ${offset} of ${data_bytes} bytes`);
        await file.sync();
        await closeOnce();
        return encodeSnapshotRef({ membership, path });
      },
      abort: async () => {
        await closeOnce();
        await rm(path, { force: true });
      },
    };
  }

  /** Removes a received file Raft did not take; a ref to anything outside this store is left alone. */
  async discard(data: Uint8Array): Promise<void> {
    const { path } = decodeSnapshotRef(data);
    if (resolve(path).startsWith(this.dir + '/')) await rm(path, { force: true });
  }
}

function encodeMembership(membership: MembershipSnapshot): Uint8Array {
  return Buffer.from(JSON.stringify(membership));
}

function decodeMembership(ref: Uint8Array): MembershipSnapshot {
  return JSON.parse(Buffer.from(ref.buffer, ref.byteOffset, ref.byteLength).toString('utf8')) as MembershipSnapshot;
}
