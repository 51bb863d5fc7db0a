import { closeSync, existsSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { WeftError, failedPrecondition } from '../common/errors.js';
import { ENGINE_FORMAT, predecessorFormat } from '../log/engine-format.js';
import { writeFileAtomic } from '../log/storage/atomic-file.js';

/**
 * The data directory of one member:
 *   ENGINE_FORMAT   the engine format that wrote it (SPEC 9.7). A release opens its own format, and takes
 *                   over its predecessor's directory at an upgrade by rewriting the file (after which
 *                   the older release refuses it); any other format is refused by name, untouched.
 *                   A directory holding data but no file is refused too (docs/storage.md).
 *   LOCK            the pid of the process that has it open
 *   log/            segment files of the log
 *   checkpoints/    projection checkpoints
 *   raft-state      term and vote
 */
export class DataDir {
  private constructor(
    readonly path: string,
    private readonly lockPath: string,
  ) {}

  get logDir(): string {
    return this.path;
  }

  get checkpointDir(): string {
    return join(this.path, 'checkpoints');
  }

  /** `engine_format` is the format this release runs (the test-only override may change it, docs/upgrades.md). */
  static open(path: string, engine_format: number = ENGINE_FORMAT): DataDir {
    const dir = resolve(path);
    mkdirSync(dir, { recursive: true });
    const formatPath = join(dir, 'ENGINE_FORMAT');
    if (existsSync(formatPath)) {
      const text = readFileSync(formatPath, 'utf8').trim();
      const found = /^\d+$/.test(text) ? Number(text) : undefined;
      if (found !== engine_format && (found === undefined || found !== predecessorFormat(engine_format))) {
        const newer = found !== undefined && found > engine_format ? ' It was written by a newer release, which an older one never opens.' : '';
        throw new WeftError(
          'FAILED_PRECONDITION',
          `data directory ${dir} has engine format ${text}; this release opens only format ${engine_format}.${newer} It was left untouched.`,
          'ENGINE_FORMAT_MISMATCH',
          { directory_engine_format: text, engine_format: String(engine_format) },
        );
      }
      // The predecessor's directory: this release takes it over. Once the file names the new format,
      // the older release refuses the directory (SPEC 9.6).
      if (found !== engine_format) takeLockThen(dir, () => writeFileAtomic(formatPath, Buffer.from(`${engine_format}\n`)));
    } else {
      const nonEmpty = existsSync(join(dir, 'log')) || existsSync(join(dir, 'checkpoints'));
      if (nonEmpty) {
        throw failedPrecondition(`data directory ${dir} holds data but no ENGINE_FORMAT file; refusing to open it. It was left untouched.`, 'ENGINE_FORMAT_MISSING', {
          engine_format: String(engine_format),
        });
      }
      writeFileAtomic(formatPath, Buffer.from(`${engine_format}\n`));
    }
    const lockPath = join(dir, 'LOCK');
    takeLock(lockPath, dir);
    return new DataDir(dir, lockPath);
  }

  release(): void {
    try {
      unlinkSync(this.lockPath);
    } catch {
      // Already gone: nothing to release.
    }
  }
}

/** Runs `change` holding the directory's lock, so a process that has the directory open is never changed under. */
function takeLockThen(dir: string, change: () => void): void {
  const lockPath = join(dir, 'LOCK');
  takeLock(lockPath, dir);
  try {
    change();
  } finally {
    unlinkSync(lockPath);
  }
}

function takeLock(lockPath: string, dir: string): void {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx');
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const pid = Number.parseInt(readFileSync(lockPath, 'utf8'), 10);
      if (Number.isInteger(pid) && pid !== process.pid && alive(pid)) {
        throw failedPrecondition(`data directory ${dir} is in use by process ${pid}`, 'DATA_DIR_LOCKED', { pid: String(pid) });
      }
      // The holder died without releasing it (kill -9): the lock is stale.
      unlinkSync(lockPath);
    }
  }
  throw failedPrecondition(`could not lock data directory ${dir}`, 'DATA_DIR_LOCKED');
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
