import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, statSync, unlinkSync } from 'node:fs';
import { open, readFile, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { WeftError } from '../../common/errors.js';
import { fsyncDir } from '../../log/storage/fsync-dir.js';

/**
 * Content-addressed chunk files: `<dir>/<sha256 hex>`, one per distinct chunk. A chunk is written to
 * a temporary file, fsynced and renamed, so a name always holds the whole chunk it names; the caller
 * fsyncs the directory (`syncDir`) once for many chunks, before proposing the entry that references
 * them. Which chunks are still needed is the blob projection's business, not the store's.
 */
const hex64 = /^[0-9a-f]{64}$/;
const temp_suffix = '.tmp';

export interface StoredChunk {
  readonly chunk_id: string;
  readonly mtime_ms: number;
}

export class ChunkStore {
  /** Distinguishes the temporary files of concurrent writes of one chunk. */
  private tempSerial = 0;

  private constructor(readonly dir: string) {}

  static open(dir: string): ChunkStore {
    const fresh = !existsSync(dir);
    mkdirSync(dir, { recursive: true });
    if (fresh) fsyncDir(join(dir, '..'));
    return new ChunkStore(dir);
  }

  path(chunk_id: string): string {
    return join(this.dir, chunk_id);
  }

  has(chunk_id: string): boolean {
    return existsSync(this.path(chunk_id));
  }

  /** Writes the chunk unless a file of its name exists; 'existed' means nothing was written. */
  async put(chunk_id: string, data: Uint8Array): Promise<'written' | 'existed'> {
    if (this.has(chunk_id)) return 'existed';
    const tmp = `${this.path(chunk_id)}.${process.pid}-${this.tempSerial++}${temp_suffix}`;
    const handle = await open(tmp, 'w');
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    // Renaming over a file another write just finished is harmless: the content is the same.
    await rename(tmp, this.path(chunk_id));
    return 'written';
  }

  /** Makes the renames durable; called once per upload, before its entry is proposed. */
  syncDir(): void {
    fsyncDir(this.dir);
  }

  /** The chunk's bytes, checked against its name: a mismatch is DATA_LOSS, never served. */
  async read(chunk_id: string): Promise<Buffer> {
    let data: Buffer;
    try {
      data = await readFile(this.path(chunk_id));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') {
        throw new WeftError('DATA_LOSS', `chunk ${chunk_id} is missing from the chunk store`, 'BLOB_CHUNK_LOST', { chunk_id });
      }
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

  /** Chunk files with their modification times; temporary files are listed by `temporaries`. */
  list(): StoredChunk[] {
    const out: StoredChunk[] = [];
    for (const name of readdirSync(this.dir)) {
      if (!hex64.test(name)) continue;
      const mtime_ms = statOrUndefined(this.path(name));
      if (mtime_ms !== undefined) out.push({ chunk_id: name, mtime_ms });
    }
    return out;
  }

  /** Temporary files of interrupted writes, with their modification times. */
  temporaries(): { readonly name: string; readonly mtime_ms: number }[] {
    const out: { name: string; mtime_ms: number }[] = [];
    for (const name of readdirSync(this.dir)) {
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

function statOrUndefined(path: string): number | undefined {
  try {
    return statSync(path).mtimeMs;
  } catch {
    // Deleted between the listing and the stat: nothing to report.
    return undefined;
  }
}
