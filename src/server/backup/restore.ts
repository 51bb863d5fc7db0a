/**
 * `weft restore`: builds a new data directory from a backup directory. The checkpoint is loaded, the
 * log tail applied on top of it (each entry decoded and applied, so a damaged tail fails here, not at
 * the first start), and the result written as the new directory's only checkpoint, with an empty log
 * continuing after it.
 *
 * The restored directory is a new deployment of one member: it gets a fresh deployment id. Its
 * history forks from the source at the backup's commit_ts, so it must never pass for the source or
 * join its group, and an OperationRef issued for the source must not settle here as if nothing had
 * happened after the backup (it is refused as FOREIGN_OPERATION; clients enroll again).
 */
import { randomBytes } from 'node:crypto';
import { closeSync, copyFileSync, createReadStream, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { failedPrecondition } from '../../common/errors.js';
import { decodePayload } from '../../log/codec.js';
import { ENGINE_FORMAT, predecessorFormat } from '../../log/engine-format.js';
import { SegmentLog, defaultSegmentLogOptions } from '../../log/storage/segment-log.js';
import { writeSnapshotMeta } from '../../log/driver/disk-storage.js';
import { loadCheckpoint, writeCheckpoint } from '../../projections/checkpoint.js';
import { DataDir } from '../data-dir.js';
import { fsyncDir } from '../../log/storage/fsync-dir.js';
import { packName } from '../blobs/pack-format.js';
import { readTrailer } from '../blobs/pack-store.js';
import { backup_chunks_file, backup_manifest_file, backup_tail_file, damaged, decodeFrames, sha256 } from './backup-format.js';
import type { BackupManifest } from './manifest.js';

export interface RestoreResult {
  readonly manifest: BackupManifest;
  /** Hex of the restored directory's new deployment id. */
  readonly deployment: string;
  readonly committed_index: number;
  /**
   * Vector indexes whose graph the backup did not carry usable (a backup of format 1, or a file
   * refused at load), so the restore rebuilt them: one line each, why. Empty when every graph came
   * from the backup.
   */
  readonly vector_rebuilds: readonly string[];
}

async function fileDigest(path: string): Promise<{ bytes: number; sha256: string }> {
  const hash = sha256();
  let bytes = 0;
  for await (const chunk of createReadStream(path)) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).byteLength;
  }
  return { bytes, sha256: hash.digest('hex') };
}

async function readManifest(from: string): Promise<BackupManifest> {
  const path = join(from, backup_manifest_file);
  if (!existsSync(path)) throw damaged(path, 'no manifest: the backup did not finish');
  const manifest = JSON.parse(readFileSync(path, 'utf8')) as BackupManifest;
  // A backup of the predecessor's format restores too: this release reads its checkpoint and entries,
  // and the directory it writes is of this release's format (as an upgrade takes a directory over).
  if (manifest.engine_format !== ENGINE_FORMAT && manifest.engine_format !== predecessorFormat(ENGINE_FORMAT)) {
    throw failedPrecondition(`backup ${from} has engine format ${manifest.engine_format}; this release restores formats ${predecessorFormat(ENGINE_FORMAT) ?? ENGINE_FORMAT} and ${ENGINE_FORMAT}`, 'ENGINE_FORMAT_MISMATCH');
  }
  for (const [name, want] of Object.entries(manifest.files)) {
    const file = join(from, name);
    if (!existsSync(file)) throw damaged(file, 'missing');
    const got = await fileDigest(file);
    if (got.sha256 !== want.sha256 || got.bytes !== want.bytes) throw damaged(file, 'its size or SHA-256 differs from the manifest');
  }
  return manifest;
}

/**
 * The backup's chunks become the restored directory's first blob pack, copied whole and made
 * durable. Its digest was checked against the manifest; its trailer must check too, or the pack
 * would read as one a stop interrupted.
 */
function restoreChunks(from: string, packs_dir: string): void {
  if (readTrailer(from).kind !== 'sealed') throw damaged(from, 'its pack trailer does not check');
  mkdirSync(packs_dir, { recursive: true });
  const to = join(packs_dir, packName(0));
  copyFileSync(from, to);
  const fd = openSync(to, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  fsyncDir(packs_dir);
  fsyncDir(join(packs_dir, '..'));
  fsyncDir(join(packs_dir, '..', '..'));
}

/**
 * The restored directory opens as a group of one: member `node_id` (start it with that node_id), the
 * only voter, with no peer address or identity until it is given a transport.
 */
export async function restoreBackup(from: string, dataDir: string, node_id = 1): Promise<RestoreResult> {
  const manifest = await readManifest(from);
  if (existsSync(dataDir) && readdirSync(dataDir).length > 0) throw failedPrecondition(`data directory ${dataDir} is not empty; restore makes a new one`);
  // loadCheckpoint reads the newest valid checkpoint of a directory: the backup holds just its one,
  // with the HNSW graphs saved beside it; writing the new checkpoint below saves them again there.
  const vector_rebuilds: string[] = [];
  const sm = loadCheckpoint(from, (line) => vector_rebuilds.push(line));
  if (sm.committedIndex !== manifest.checkpoint_index) {
    throw damaged(manifest.checkpoint_file, `the checkpoint loads at index ${sm.committedIndex}, not ${manifest.checkpoint_index}`);
  }
  const tail = join(from, backup_tail_file);
  // The term of the last entry applied: the snapshot's term in the new directory's Raft log.
  let term = 0;
  for await (const f of decodeFrames(createReadStream(tail), tail)) {
    if (f.kind !== 'entry') throw damaged(tail, `a ${f.kind} frame among the entries`);
    if (f.index !== sm.committedIndex + 1) throw damaged(tail, `entry ${f.index} where ${sm.committedIndex + 1} was due`);
    const { commit_ts, event } = decodePayload(f.payload);
    sm.apply({ index: f.index, term: f.term, commit_ts, event }, true);
    term = f.term;
  }
  if (sm.committedIndex !== manifest.last_index) throw damaged(tail, `entries end at ${sm.committedIndex}, not ${manifest.last_index}`);
  sm.deployment = new Uint8Array(randomBytes(16));
  const dir = DataDir.open(dataDir);
  try {
    const conf_state = { voters: [node_id], learners: [] };
    const membership = { conf_state, members: [{ node_id, address: '', identity: '' }], departed: [] };
    writeSnapshotMeta(dir.logDir, { index: sm.committedIndex, term, conf_state }, membership);
    writeCheckpoint(dir.checkpointDir, sm);
    // The log continues after the checkpoint; the log driver keeps its segments under `log/`.
    await SegmentLog.open(join(dir.logDir, 'log'), defaultSegmentLogOptions, sm.committedIndex + 1).close();
    if (manifest.files[backup_chunks_file] !== undefined) restoreChunks(join(from, backup_chunks_file), join(dataDir, 'blobs', 'packs'));
  } finally {
    dir.release();
  }
  return { manifest, deployment: Buffer.from(sm.deployment).toString('hex'), committed_index: sm.committedIndex, vector_rebuilds };
}
