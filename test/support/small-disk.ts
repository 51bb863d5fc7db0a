import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, rmSync, statfsSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A real full disk for tests and the chaos harness: a directory mounted as a tmpfs of a fixed size,
 * filled by writing a file until the kernel refuses it (ENOSPC), emptied by removing that file.
 * Nothing below the storage layer is faked: the member meets the same errors a full ext4 or xfs
 * would give a write or a file creation. Mounting needs root (or CAP_SYS_ADMIN), which the CI image
 * and the development machine have; without it `mountSmallDisk` throws and says so.
 */

/** The file that takes the free space; named so no member mistakes it for its own. */
export const fill_file = '.disk-fill';

export function mountSmallDisk(dir: string, size_bytes: number): void {
  mkdirSync(dir, { recursive: true });
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size_bytes},mode=0755`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (e) {
    const detail = e instanceof Error ? e.message : String(e);
    throw new Error(`a small disk needs 'mount -t tmpfs' (root or CAP_SYS_ADMIN): ${detail}`);
  }
}

/** Unmounts it (lazily: a member killed a moment ago may still hold a descriptor) and removes the directory. */
export function unmountSmallDisk(dir: string): void {
  try {
    execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
  } catch {
    // Not mounted (a run that failed before mounting): nothing to undo.
  }
  rmSync(dir, { recursive: true, force: true });
}

/** Chunks the fill writes: large ones first, then small ones for the last pages. */
const fill_chunks_bytes: readonly number[] = [1024 * 1024, 4096];

/** Takes every free byte of the disk under `dir` (until ENOSPC); returns how many it took. */
export function fillSmallDisk(dir: string): number {
  const fd = openSync(join(dir, fill_file), 'a');
  let taken = 0;
  try {
    for (const size of fill_chunks_bytes) {
      const chunk = Buffer.alloc(size, 0x5a);
      for (;;) {
        try {
          taken += writeSync(fd, chunk);
        } catch (e) {
          if ((e as { code?: unknown }).code === 'ENOSPC') break;
          throw e;
        }
      }
    }
  } finally {
    closeSync(fd);
  }
  return taken;
}

/** Free bytes on the disk under `dir`, as the file system reports them (statfs). */
export function freeBytes(dir: string): number {
  const s = statfsSync(dir);
  return s.bavail * s.bsize;
}

/**
 * Takes the disk's free space but `leave_bytes` (rounded up to the file system's blocks), sized from
 * statfs: a test can let one known write through and refuse the next. Returns what it left.
 */
export function fillSmallDiskLeaving(dir: string, leave_bytes: number): number {
  const block = statfsSync(dir).bsize;
  const leave = Math.ceil(leave_bytes / block) * block;
  const take = freeBytes(dir) - leave;
  if (take > 0) {
    const fd = openSync(join(dir, fill_file), 'a');
    try {
      const chunk = Buffer.alloc(1024 * 1024, 0x5a);
      for (let left = take; left > 0; ) left -= writeSync(fd, chunk, 0, Math.min(chunk.byteLength, left));
    } finally {
      closeSync(fd);
    }
  }
  return freeBytes(dir);
}

/** Gives the space back. */
export function emptySmallDisk(dir: string): void {
  rmSync(join(dir, fill_file), { force: true });
}
