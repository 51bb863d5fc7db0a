import { existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { failedPrecondition, isWeftError } from '../../common/errors.js';
import { fsyncDir } from '../../log/storage/fsync-dir.js';
import { defaultConfig } from '../config.js';
import { Database } from '../database.js';

/**
 * Where an import writes. Into a new database it fills a staging directory beside the target
 * (`<dir>.import-<pid>`) and renames it into place at the end, so a failed or killed import leaves no
 * database at the target. Into an existing one it opens the directory itself, holding its lock for
 * the whole import: a server running on it makes the import refuse, and no server can start on it
 * while the import runs.
 */
export interface ImportTarget {
  readonly db: Database;
  /** Makes the import visible (a staged one is renamed into place) once the database is closed. */
  publish(): void;
  /** Removes what a failed import staged; an existing database keeps its state (the import's entries are inert). */
  discard(): void;
}

export function holdsDatabase(dir: string): boolean {
  return existsSync(join(dir, 'ENGINE_FORMAT')) || existsSync(join(dir, 'checkpoints')) || existsSync(join(dir, 'log'));
}

export async function openTarget(dataDir: string, intoExisting: boolean): Promise<ImportTarget> {
  const dir = resolve(dataDir);
  const existing = existsSync(dir) && holdsDatabase(dir);
  if (existing && !intoExisting) {
    throw failedPrecondition(`${dir} holds a database; pass --into-existing to import into it`, 'IMPORT_TARGET_NOT_EMPTY', { data_dir: dir });
  }
  if (!existing && existsSync(dir) && readdirSync(dir).length > 0) {
    throw failedPrecondition(`${dir} is not empty and holds no database; import into a new or empty directory`, 'IMPORT_TARGET_NOT_EMPTY', { data_dir: dir });
  }
  const work = existing ? dir : join(dirname(dir), `${basename(dir)}.import-${process.pid}`);
  if (!existing) removeDeadStaging(dir);
  const db = await openDatabase(work);
  return {
    db,
    publish() {
      if (work === dir) return;
      // rename(2) replaces an empty directory whole, so the target appears complete or not at all.
      renameSync(work, dir);
      fsyncDir(dirname(dir));
    },
    discard() {
      if (work !== dir) rmSync(work, { recursive: true, force: true });
    },
  };
}

/** Removes staging directories of imports into `dir` whose process is gone (killed), and this process's own. */
function removeDeadStaging(dir: string): void {
  const parent = dirname(dir);
  if (!existsSync(parent)) return;
  const prefix = `${basename(dir)}.import-`;
  for (const name of readdirSync(parent)) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number(name.slice(prefix.length));
    if (!Number.isSafeInteger(pid)) continue;
    if (pid === process.pid || !alive(pid)) rmSync(join(parent, name), { recursive: true, force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function openDatabase(dir: string): Promise<Database> {
  try {
    return await Database.open({
      data_dir: dir,
      node_id: 1,
      mvcc_retention_secs: defaultConfig.mvcc_retention_secs,
      // No checkpoint between the parts of an import: a checkpoint holds only applied state, and the
      // parts apply together at the last one (docs/import.md). Nor at close: the journaled entries are
      // the import's durability, and a checkpoint of the whole graph would cost as much as the import
      // itself; the next open replays them and checkpoints at its own interval or close.
      checkpoint_interval_entries: Number.MAX_SAFE_INTEGER,
      checkpoint_at_close: false,
      log_segment_bytes_max: defaultConfig.log_segment_bytes_max,
    });
  } catch (e) {
    if (isWeftError(e) && e.reason === 'DATA_DIR_LOCKED') {
      throw failedPrecondition(`${e.message}; stop the server on it before importing (weft import works offline)`, 'DATA_DIR_LOCKED', { ...e.metadata });
    }
    throw e;
  }
}
