import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { fsyncDir } from './fsync-dir.js';
import { fsyncingSync } from './no-space.js';

/** Replaces `path` with `bytes` so that a crash leaves either the old file or the new one, whole. */
export function writeFileAtomic(path: string, bytes: Uint8Array): void {
  const tmp = `${path}.tmp`;
  const fd = openSync(tmp, 'w');
  try {
    let written = 0;
    while (written < bytes.byteLength) written += writeSync(fd, bytes, written);
    // A failed fsync is never taken for a full disk, whatever its errno (no-space.ts): never retried.
    fsyncingSync(() => fsyncSync(fd));
  } catch (e) {
    // Refused for space, say: the old file stands, and the partial new one gives its space back.
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw e;
  }
  closeSync(fd);
  renameSync(tmp, path);
  fsyncDir(dirname(path));
}
