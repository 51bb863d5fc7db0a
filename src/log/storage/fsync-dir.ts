import { closeSync, fsyncSync, openSync } from 'node:fs';

/** Makes a file's creation, rename or removal in `dir` durable. */
export function fsyncDir(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
