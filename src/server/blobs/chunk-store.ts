import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, statSync, unlinkSync } from 'node:fs';
import { access, open, readFile, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { WeftError } from '../../common/errors.js';
import { fsyncDir } from '../../log/storage/fsync-dir.js';

/**
 * Content-addressed chunk files: `<dir>/<sha256 hex>`, one per distinct chunk. A chunk is written to
 * a temporary file and renamed, so a name never holds a partial chunk while this process runs.
 * Writing and making durable are separate steps: `write` leaves the file in the page cache and
 * `sync` fsyncs it, so an upload streams on while its chunk files are synced behind it, and only
 * waits for the fsyncs (and one directory fsync, `syncDir`) before proposing the entry that
 * references them. A chunk written but not yet synced is tracked here, so an upload that finds it
 * already present syncs it too rather than count on another upload's fsync. Which chunks are still
 * needed is the blob projection's business, not the store's.
 */
const hex64 = /^[0-9a-f]{64}$/;
const temp_suffix = '.tmp';

export interface StoredChunk {
  readonly chunk_id: string;
  readonly mtime_ms: number;
}

export class ChunkStore {
  /** Makes every temporary file name new, so the leftover of a failed write is never reused. */
  private tempSerial = 0;
  /**
   * Chunk files renamed into place by this process and not yet fsynced: id -> the fsync under way,
   * if one is. An id is added before its rename, so no one sees the name without the entry.
   */
  private readonly unsynced = new Map<string, Promise<void> | undefined>();
  /** Writes in progress, by chunk id: a second write of the same chunk waits for the first. */
  private readonly writing = new Map<string, Promise<'written' | 'existed'>>();

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

  /**
   * Writes the chunk unless a file of its name exists; 'existed' means nothing was written. The
   * file is not durable until `sync` has run for it.
   */
  async write(chunk_id: string, data: Uint8Array): Promise<'written' | 'existed'> {
    const under_way = this.writing.get(chunk_id);
    if (under_way !== undefined) return under_way.then(() => 'existed');
    // Registered before the first await, so a second write of the chunk always finds this one.
    const written = this.writeUnlessPresent(chunk_id, data).finally(() => this.writing.delete(chunk_id));
    this.writing.set(chunk_id, written);
    return written;
  }

  /** False while a chunk this process wrote has not been fsynced (`sync`); a crash could lose it. */
  isDurable(chunk_id: string): boolean {
    return !this.unsynced.has(chunk_id);
  }

  /** Writes the chunk and makes it durable (a chunk fetched from a peer, stored one at a time). */
  async put(chunk_id: string, data: Uint8Array): Promise<'written' | 'existed'> {
    const outcome = await this.write(chunk_id, data);
    await this.sync(chunk_id);
    return outcome;
  }

  /**
   * Makes the chunk's file durable, if this process wrote it and has not fsynced it yet. Concurrent
   * calls for one chunk share one fsync. The directory entry needs `syncDir` as well.
   */
  sync(chunk_id: string): Promise<void> {
    if (!this.unsynced.has(chunk_id)) return Promise.resolve();
    const under_way = this.unsynced.get(chunk_id);
    if (under_way !== undefined) return under_way;
    const syncing = fsyncFile(this.path(chunk_id)).then(
      () => {
        if (this.unsynced.get(chunk_id) === syncing) this.unsynced.delete(chunk_id);
      },
      (e: unknown) => {
        // Still not durable: the next caller tries again.
        if (this.unsynced.get(chunk_id) === syncing) this.unsynced.set(chunk_id, undefined);
        throw e;
      },
    );
    this.unsynced.set(chunk_id, syncing);
    return syncing;
  }

  private async writeUnlessPresent(chunk_id: string, data: Uint8Array): Promise<'written' | 'existed'> {
    // Looked up on the thread pool: a stat in a directory of many files, with renames into it
    // going on, can take long enough to hold the event loop back.
    if (await present(this.path(chunk_id))) return 'existed';
    const tmp = `${this.path(chunk_id)}.${process.pid}-${this.tempSerial++}${temp_suffix}`;
    const handle = await open(tmp, 'w');
    try {
      await handle.writeFile(data);
    } finally {
      await handle.close();
    }
    this.unsynced.set(chunk_id, undefined);
    try {
      await rename(tmp, this.path(chunk_id));
    } catch (e) {
      this.unsynced.delete(chunk_id);
      throw e;
    }
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
    this.unsynced.delete(chunk_id);
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

async function present(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw e;
  }
}

async function fsyncFile(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.datasync();
  } finally {
    await handle.close();
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
