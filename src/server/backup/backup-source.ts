/**
 * The member's side of an online backup: the newest checkpoint, then every committed entry after it
 * up to the commit index at the moment the backup starts. Writes go on meanwhile; they land after
 * that index and are not part of this backup. Everything is read through the Database, the log
 * driver and the checkpoint functions, never from the files' layout.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { reasonError } from '../../api/error-catalog.js';
import { encodePayload } from '../../log/codec.js';
import { ENGINE_FORMAT } from '../../log/engine-format.js';
import { newestCheckpoint } from '../../projections/checkpoint.js';
import { savedGraphFiles } from '../../projections/search/vector-index-file.js';
import type { Database } from '../database.js';
import { backup_checkpoint_chunk_bytes, backup_format, encodeFrame, sha256, type BackupFrame, type BackupHead } from './backup-format.js';

/** Entries read from the log per step; the stream yields between steps so writes keep flowing. */
export const backup_entries_per_read = 512;

/**
 * The member's blob chunks, for a backup: `hold` names every chunk the blobs reference now and keeps
 * each from being released or moved until `release`; `read` answers a chunk's bytes, checked.
 */
export interface BackupChunks {
  hold(): { readonly chunk_ids: readonly string[]; release(): void };
  read(chunk_id: string): Promise<Uint8Array>;
}

export async function* backupStream(db: Database, signal: AbortSignal, chunks?: BackupChunks): AsyncGenerator<Uint8Array> {
  // One synchronous step fixes the backup's position: no write can land between these reads. The
  // chunks held here are the ones the state at `last_index` references, since that state is db.sm's.
  const held = chunks?.hold() ?? { chunk_ids: [], release: () => undefined };
  try {
    yield* backupFrames(db, signal, held.chunk_ids, chunks);
  } finally {
    held.release();
  }
}

/** The frames of `backupStream`; its first synchronous step reads the position `held` was taken at. */
async function* backupFrames(db: Database, signal: AbortSignal, chunk_ids: readonly string[], chunks: BackupChunks | undefined): AsyncGenerator<Uint8Array> {
  const last_index = db.committedIndex;
  const commit_ts = db.lastCommittedTs;
  const checkpoint = newestCheckpoint(db.dataDir.checkpointDir);
  const checkpoint_index = checkpoint?.index ?? 0;
  const first_needed = checkpoint_index + 1;
  overtaken(db, first_needed);
  // The checkpoint's saved HNSW graphs, opened in the same step: a later checkpoint may prune the
  // files, but an open descriptor keeps reading what they held. A restore then need not rebuild.
  const graphs = checkpoint === undefined ? [] : openGraphs(db.dataDir.checkpointDir, checkpoint_index);
  const head: BackupHead = {
    format: backup_format,
    engine_format: ENGINE_FORMAT,
    deployment: Buffer.from(db.deployment).toString('hex'),
    checkpoint_index,
    checkpoint_name: checkpoint?.name ?? '',
    checkpoint_bytes: checkpoint?.bytes.byteLength ?? 0,
    graph_files: graphs.map((g) => ({ name: g.name, bytes: g.bytes })),
    chunks: chunk_ids.length,
    last_index,
    commit_ts,
  };
  const digest = sha256();
  const emit = (f: BackupFrame): Buffer => {
    const bytes = encodeFrame(f);
    digest.update(bytes);
    return bytes;
  };
  try {
    yield emit({ kind: 'head', head });
    if (checkpoint !== undefined) {
      for (let at = 0; at < checkpoint.bytes.byteLength; at += backup_checkpoint_chunk_bytes) {
        signal.throwIfAborted();
        yield emit({ kind: 'checkpoint', bytes: checkpoint.bytes.subarray(at, at + backup_checkpoint_chunk_bytes) });
      }
    }
    for (const g of graphs) {
      for (let at = 0; at < g.bytes; at += backup_checkpoint_chunk_bytes) {
        signal.throwIfAborted();
        const chunk = Buffer.alloc(Math.min(backup_checkpoint_chunk_bytes, g.bytes - at));
        for (let got = 0; got < chunk.byteLength; ) {
          const n = readSync(g.fd, chunk, got, chunk.byteLength - got, at + got);
          if (n === 0) throw new Error(`${g.name} ended at ${at + got} of ${g.bytes} bytes`);
          got += n;
        }
        yield emit({ kind: 'graph', name: g.name, bytes: chunk });
      }
    }
  } finally {
    for (const g of graphs) closeSync(g.fd);
  }
  let entries = 0;
  for (let from = first_needed; from <= last_index; from += backup_entries_per_read) {
    signal.throwIfAborted();
    // Compaction keeps the log after the previous checkpoint; a backup slower than two checkpoints loses its tail.
    overtaken(db, from);
    const to = Math.min(last_index, from + backup_entries_per_read - 1);
    const frames = db.log.read(from, to).map((e) => emit({ kind: 'entry', index: e.index, term: e.term, payload: encodePayload({ commit_ts: e.commit_ts, event: e.event }) }));
    entries += frames.length;
    yield Buffer.concat(frames);
  }
  for (const chunk_id of chunk_ids) {
    signal.throwIfAborted();
    yield emit({ kind: 'chunk', chunk_id, bytes: await chunks!.read(chunk_id) });
  }
  yield encodeFrame({ kind: 'end', end: { entries, sha256: digest.digest('hex') } });
}

function openGraphs(dir: string, checkpoint_index: number): { name: string; fd: number; bytes: number }[] {
  const out: { name: string; fd: number; bytes: number }[] = [];
  try {
    for (const name of savedGraphFiles(dir, checkpoint_index)) {
      const fd = openSync(join(dir, name), 'r');
      out.push({ name, fd, bytes: fstatSync(fd).size });
    }
  } catch (e) {
    for (const g of out) closeSync(g.fd);
    throw e;
  }
  return out;
}

function overtaken(db: Database, needed: number): void {
  if (db.logFirstIndex > needed) {
    throw reasonError('BACKUP_OVERTAKEN', `the log now starts at entry ${db.logFirstIndex}; the backup still needed entry ${needed}`, {
      needed_index: String(needed),
      first_index: String(db.logFirstIndex),
    });
  }
}
