import { createHash } from 'node:crypto';
import { readdirSync, statSync, unlinkSync } from 'node:fs';
import { readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { WeftError } from '../../common/errors.js';

/**
 * Chunk files of engine format 2: `<dir>/<sha256 hex>`, one per distinct chunk, and `.tmp` files of
 * writes a crash interrupted. This release writes no new chunk files (chunks go to packs,
 * pack-store.ts); it reads the ones a format-2 release left, deduplicates against them, and deletes
 * them when nothing references them any more. Each was fsynced before an entry named it, so every
 * one that survives start-up collection is durable.
 */
const hex64 = /^[0-9a-f]{64}$/;
const temp_suffix = '.tmp';

export interface StoredChunk {
  readonly chunk_id: string;
  readonly mtime_ms: number;
}

export class ChunkStore {
  private constructor(readonly dir: string) {}

  /** The store of an existing directory; no directory is created (a new data directory has none). */
  static open(dir: string): ChunkStore {
    return new ChunkStore(dir);
  }

  path(chunk_id: string): string {
    return join(this.dir, chunk_id);
  }

  /** The chunk's bytes, checked against its name: a mismatch is DATA_LOSS, never served. */
  async read(chunk_id: string): Promise<Buffer> {
    let data: Buffer;
    try {
      data = await readFile(this.path(chunk_id));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw chunkLost(chunk_id);
      throw e;
    }
    const actual = createHash('sha256').update(data).digest('hex');
    if (actual !== chunk_id) {
      throw new WeftError('DATA_LOSS', `chunk ${chunk_id} holds bytes hashing to ${actual}`, 'BLOB_CHUNK_CORRUPT', { chunk_id });
    }
    return data;
  }

  /**
   * Deletes a chunk file. Synchronous on purpose: the caller decides and deletes in one step, so no
   * upload can start using the chunk in between.
   */
  deleteSync(chunk_id: string): boolean {
    try {
      unlinkSync(this.path(chunk_id));
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw e;
    }
  }

  /** Chunk files with their modification times; none when the directory does not exist. */
  list(): StoredChunk[] {
    const out: StoredChunk[] = [];
    for (const name of namesIn(this.dir)) {
      if (!hex64.test(name)) continue;
      const mtime_ms = statOrUndefined(this.path(name));
      if (mtime_ms !== undefined) out.push({ chunk_id: name, mtime_ms });
    }
    return out;
  }

  /** Temporary files of interrupted writes, with their modification times. */
  temporaries(): { readonly name: string; readonly mtime_ms: number }[] {
    const out: { name: string; mtime_ms: number }[] = [];
    for (const name of namesIn(this.dir)) {
      if (!name.endsWith(temp_suffix)) continue;
      const mtime_ms = statOrUndefined(join(this.dir, name));
      if (mtime_ms !== undefined) out.push({ name, mtime_ms });
    }
    return out;
  }

  async deleteTemporary(name: string): Promise<void> {
    await unlink(join(this.dir, name)).catch((e: NodeJS.ErrnoException) => {
      if (e.code !== 'ENOENT') throw e;
    });
  }
}

export function chunkLost(chunk_id: string): WeftError {
  return new WeftError('DATA_LOSS', `chunk ${chunk_id} is missing from the chunk store`, 'BLOB_CHUNK_LOST', { chunk_id });
}

function namesIn(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
}

function statOrUndefined(path: string): number | undefined {
  try {
    return statSync(path).mtimeMs;
  } catch {
    // Deleted between the listing and the stat: nothing to report.
    return undefined;
  }
}
