import { closeSync, fsyncSync, openSync, renameSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { fsyncDir } from './fsync-dir.js';

/** Replaces `path` with `bytes` so that a crash leaves either the old file or the new one, whole. */
export function writeFileAtomic(path: string, bytes: Uint8Array): void {
  const tmp = `${path}.tmp`;
  const fd = openSync(tmp, 'w');
  try {
    let written = 0;
    while (written < bytes.byteLength) written += writeSync(fd, bytes, written);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
  fsyncDir(dirname(path));
}
