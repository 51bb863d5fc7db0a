import { closeSync, fsyncSync, openSync } from 'node:fs';
import { open } from 'node:fs/promises';

/** Makes a file's creation, rename or removal in `dir` durable. */
export function fsyncDir(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** fsyncDir in the thread pool: beside a file's fdatasync, it adds no wait of its own. */
export async function fsyncDirAsync(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
