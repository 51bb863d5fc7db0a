import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { open, rm, stat, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { crc32 } from 'node:zlib';
import { writeFileAtomic } from '../storage/atomic-file.js';
import { fsyncDir } from '../storage/fsync-dir.js';
import type { IncomingSnapshot, OutgoingSnapshot, SnapshotFiles, SnapshotIdentity } from '../transport/snapshot-files.js';
import { decodeSnapshotRef, encodeSnapshotRef } from './shipped-snapshot.js';
import { decodeShippedManifest, encodeShippedManifest, type ShippedFile } from './shipped-manifest.js';
import { OutgoingFiles } from './outgoing-files.js';

/**
 * Snapshot data on a member's disk (snapshot-files.ts). A snapshot is a checkpoint file and the files
 * saved beside it (the HNSW graphs of its vector indexes), shipped as one run of bytes: the files one
 * after another, their names and lengths in the stream's head (shipped-manifest.ts).
 *
 * Sending, each file a SnapshotRef names is opened once and read a chunk at a time through that
 * descriptor (outgoing-files.ts): the open descriptor pins it, so a checkpoint that compaction
 * deletes while it travels is still read whole.
 *
 * Receiving, chunks are written into `partial/` under `dir`, each byte to its own file, and made
 * durable after the first MiB, then at doubling intervals up to `sync_bytes` (nextSyncGap; fsync, then
 * `progress` records how many bytes and their CRC-32). A
 * transfer broken by the link or by a restart of this member leaves `partial/` in place; the same
 * snapshot (index, term, length and CRC-32 of the whole) offered again resumes after the recorded
 * bytes, once their CRC is read back and found equal. Any other snapshot replaces it. Once whole,
 * `partial/` is fsynced and renamed `received-<n>/`, and Raft is handed a SnapshotRef to its files;
 * the member installs them by renaming them among its checkpoints (LogDriver.installSnapshot), and
 * the emptied directory is removed (discard).
 *
 * Whatever else is in `dir` when the store opens (received and never installed before a restart) is
 * removed. A received snapshot Raft does not take, or that a newer one supersedes, is removed when
 * the driver sees it (discard).
 */
export class SnapshotFileStore implements SnapshotFiles {
  /** Names each snapshot received in this process apart; `dir` holds no received-* at open, so no name repeats. */
  private received = 0;
  /** The transfer writing into `partial/`; a newer one takes the directory over (see openIncoming). */
  private writer: PartialWriter | undefined;
  /** Outgoing CRCs by the files' names, lengths and times: a checkpoint is read once to be named, not at every send. */
  private readonly crcs = new Map<string, number>();

  private constructor(
    private readonly dir: string,
    private readonly sync_bytes: number,
  ) {}

  static open(dir: string, sync_bytes = snapshot_sync_bytes): SnapshotFileStore {
    mkdirSync(dir, { recursive: true });
    for (const name of readdirSync(dir)) if (name !== partial_dir) rmSync(join(dir, name), { recursive: true, force: true });
    return new SnapshotFileStore(resolve(dir), sync_bytes);
  }

  async openOutgoing(data: Uint8Array): Promise<OutgoingSnapshot | undefined> {
    const ref = decodeSnapshotRef(data);
    const files = await OutgoingFiles.open(ref.path, ref.companions ?? []);
    if (files === undefined) return undefined;
    const key = files.identityKey();
    let data_crc = this.crcs.get(key);
    if (data_crc === undefined) {
      try {
        data_crc = await files.crc();
      } catch (e) {
        await files.close();
        throw e;
      }
      // One entry per checkpoint sent: the newest few are all that is ever asked for.
      if (this.crcs.size >= outgoing_crcs_max) this.crcs.clear();
      this.crcs.set(key, data_crc);
    }
    return {
      ref: encodeShippedManifest({ membership: ref.membership, files: files.manifest() }),
      data_bytes: files.bytes,
      data_crc,
      read: (offset, length) => files.read(offset, length),
      close: () => files.close(),
    };
  }

  /** Openings one after another: two transfers must not prepare `partial/` at once. */
  private opening: Promise<unknown> = Promise.resolve();

  openIncoming(ref: Uint8Array, identity: SnapshotIdentity): Promise<IncomingSnapshot> {
    const run = this.opening.then(() => this.openIncomingNow(ref, identity));
    this.opening = run.catch(() => undefined);
    return run;
  }

  private async openIncomingNow(ref: Uint8Array, identity: SnapshotIdentity): Promise<IncomingSnapshot> {
    const manifest = decodeShippedManifest(ref, identity.data_bytes);
    const total = manifest.files.reduce((sum, f) => sum + f.bytes, 0);
    if (total !== identity.data_bytes) throw new Error(`the snapshot's files hold ${total} bytes, its head says ${identity.data_bytes}`);
    // A newer transfer takes the directory over: the older stream is dead or about to be (one sender at a time).
    await this.writer?.release();
    const partial = join(this.dir, partial_dir);
    const progress = readProgress(partial);
    const record: Progress = { identity, ref: Buffer.from(ref).toString('base64'), bytes: 0, crc: 0 };
    let held = { bytes: 0, crc: 0 };
    if (progress !== undefined && sameSnapshot(progress, record) && (await prefixCrc(partial, manifest.files, progress.bytes)) === progress.crc) {
      held = { bytes: progress.bytes, crc: progress.crc };
    } else {
      rmSync(partial, { recursive: true, force: true });
      mkdirSync(partial);
      writeFileAtomic(join(partial, progress_file), Buffer.from(JSON.stringify(record)));
      fsyncDir(this.dir);
    }
    const writer = new PartialWriter(partial, manifest.files, { ...record, ...held }, this.sync_bytes);
    this.writer = writer;
    return {
      held,
      append: (chunk) => writer.append(chunk),
      finish: async () => {
        await writer.complete();
        const name = `received-${++this.received}`;
        const whole = join(this.dir, name);
        renameSync(partial, whole);
        fsyncDir(this.dir);
        if (this.writer === writer) this.writer = undefined;
        const [checkpoint, ...companions] = manifest.files.map((f) => join(whole, f.name));
        return encodeSnapshotRef({ membership: manifest.membership, path: checkpoint!, companions });
      },
      suspend: () => writer.release(),
      abort: async () => {
        await writer.release();
        if (this.writer === writer) {
          this.writer = undefined;
          await rm(partial, { recursive: true, force: true });
        }
      },
    };
  }

  /**
   * Removes a received snapshot's directory (whatever of it was not moved out at install); a ref to
   * anything outside this store (a checkpoint of the leader's own) is left alone.
   */
  async discard(data: Uint8Array): Promise<void> {
    const { path } = decodeSnapshotRef(data);
    const parent = dirname(resolve(path));
    if (dirname(parent) === this.dir && basename(parent).startsWith('received-')) await rm(parent, { recursive: true, force: true });
  }
}

/** Received bytes are fsynced, and their count recorded, at least this often: a resume repeats less than this. */
export const snapshot_sync_bytes = 16 * 1024 * 1024;
/**
 * The first sync comes after this many bytes (or after `sync_bytes_max` when that is less), so a
 * learner killed early in a transfer keeps something: with only the largest interval, a kill before
 * the first 16 MiB lost everything.
 */
export const snapshot_sync_bytes_first = 1024 * 1024;

/**
 * Bytes to receive, `durable` bytes being durable, before the next sync: as many as are durable
 * (the intervals double: 1, 2, 4, 8, 16 MiB, ...), at least the first interval and at most
 * `sync_bytes_max`. A kill loses at most half of what arrived, and never more than the largest
 * interval; the doubling costs log2(max / first) syncs more than syncing every `sync_bytes_max` alone
 * (four with the defaults), whatever the snapshot's size.
 */
export function nextSyncGap(durable: number, sync_bytes_max: number): number {
  return Math.min(sync_bytes_max, Math.max(snapshot_sync_bytes_first, durable));
}
const outgoing_crcs_max = 8;
const partial_dir = 'partial';
const progress_file = 'progress';

interface Progress {
  readonly identity: SnapshotIdentity;
  /** The head's ref, base64: the same snapshot carries the same file names and lengths. */
  readonly ref: string;
  /** Durable bytes from the start of the data, and their CRC-32. */
  readonly bytes: number;
  readonly crc: number;
}

function readProgress(partial: string): Progress | undefined {
  try {
    return JSON.parse(readFileSync(join(partial, progress_file), 'utf8')) as Progress;
  } catch {
    return undefined;
  }
}

function sameSnapshot(a: Progress, b: Progress): boolean {
  const x = a.identity;
  const y = b.identity;
  return x.index === y.index && x.term === y.term && x.data_bytes === y.data_bytes && x.data_crc === y.data_crc && y.data_crc >= 0 && a.ref === b.ref;
}

/** CRC-32 of the first `bytes` of the files as they are on disk; -1 when any is shorter. */
async function prefixCrc(partial: string, files: readonly ShippedFile[], bytes: number): Promise<number> {
  let crc = 0;
  let left = bytes;
  const buffer = Buffer.allocUnsafe(1024 * 1024);
  for (const f of files) {
    if (left === 0) break;
    const want = Math.min(left, f.bytes);
    const path = join(partial, f.name);
    if (!existsSync(path) || (await stat(path)).size < want) return -1;
    const file = await open(path, 'r');
    try {
      for (let at = 0; at < want; ) {
        const { bytesRead } = await file.read(buffer, 0, Math.min(buffer.byteLength, want - at), at);
        if (bytesRead === 0) return -1;
        crc = crc32(buffer.subarray(0, bytesRead), crc);
        at += bytesRead;
      }
    } finally {
      await file.close();
    }
    left -= want;
  }
  return crc;
}

/**
 * Writes one transfer's bytes into `partial/`, file by file at their offsets, and records its
 * progress each time it makes them durable. Released (suspend, or a newer transfer), it writes no more.
 */
class PartialWriter {
  private readonly handles = new Map<string, FileHandle>();
  /** Invariant: progress.bytes <= offset; bytes past progress.bytes may be lost in a crash. */
  private offset: number;
  private crc: number;
  private progress: Progress;
  private released = false;
  /** The write or sync in progress: a release waits for it. */
  private busy: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly partial: string,
    private readonly files: readonly ShippedFile[],
    progress: Progress,
    private readonly sync_bytes: number,
  ) {
    this.progress = progress;
    this.offset = progress.bytes;
    this.crc = progress.crc;
  }

  append(chunk: Uint8Array): Promise<void> {
    const run = this.busy.then(() => this.write(chunk));
    this.busy = run.catch(() => undefined);
    return run;
  }

  /** Every byte is here: fsyncs them and closes the files (the caller renames the directory). */
  async complete(): Promise<void> {
    await this.busy;
    if (this.released) throw new Error('a newer transfer took the snapshot over');
    this.released = true;
    // A file of no bytes got no write: it is made here so that every named file exists.
    for (const f of this.files) await this.handle(f.name);
    await this.closeAll(true);
  }

  /** Makes what was written durable, records it, and writes no more. */
  async release(): Promise<void> {
    await this.busy;
    if (this.released) return;
    this.released = true;
    try {
      await this.sync();
    } finally {
      await this.closeAll(false);
    }
  }

  private async write(chunk: Uint8Array): Promise<void> {
    if (this.released) throw new Error('a newer transfer took the snapshot over');
    let at = 0;
    let start = 0;
    for (const f of this.files) {
      const end = start + f.bytes;
      while (at < chunk.byteLength && this.offset + at >= start && this.offset + at < end) {
        const n = Math.min(chunk.byteLength - at, end - (this.offset + at));
        const file = await this.handle(f.name);
        let written = 0;
        while (written < n) written += (await file.write(chunk, at + written, n - written, this.offset + at + written - start)).bytesWritten;
        at += n;
      }
      start = end;
    }
    if (at !== chunk.byteLength) throw new Error(`the snapshot's data passes its files' ${start} bytes`);
    this.crc = crc32(chunk, this.crc);
    this.offset += chunk.byteLength;
    if (this.offset - this.progress.bytes >= nextSyncGap(this.progress.bytes, this.sync_bytes)) await this.sync();
  }

  private async sync(): Promise<void> {
    if (this.offset === this.progress.bytes) return;
    for (const file of this.handles.values()) await file.sync();
    this.progress = { ...this.progress, bytes: this.offset, crc: this.crc };
    writeFileAtomic(join(this.partial, progress_file), Buffer.from(JSON.stringify(this.progress)));
  }

  private async handle(name: string): Promise<FileHandle> {
    let file = this.handles.get(name);
    if (file === undefined) {
      const path = join(this.partial, name);
      file = await open(path, existsSync(path) ? 'r+' : 'w');
      this.handles.set(name, file);
    }
    return file;
  }

  private async closeAll(sync: boolean): Promise<void> {
    for (const file of this.handles.values()) {
      if (sync) await file.sync();
      await file.close();
    }
    this.handles.clear();
    if (sync) fsyncDir(this.partial);
  }
}
