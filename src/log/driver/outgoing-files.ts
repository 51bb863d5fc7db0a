import { open, type FileHandle } from 'node:fs/promises';
import { basename } from 'node:path';
import { crc32 } from 'node:zlib';
import type { ShippedFile } from './shipped-manifest.js';

/**
 * The files of one snapshot being sent, read as one run of bytes (the checkpoint, then each companion)
 * through descriptors opened once: a file compaction deletes meanwhile is still read whole.
 */
export class OutgoingFiles {
  private constructor(private readonly files: readonly { readonly name: string; readonly handle: FileHandle; readonly bytes: number; readonly mtime_ms: number }[]) {}

  /**
   * Opens the checkpoint and its companions. Undefined when the checkpoint is gone; a companion that
   * is gone (pruned with an older checkpoint) is left out: the receiver rebuilds what it lacks.
   */
  static async open(checkpoint: string, companions: readonly string[]): Promise<OutgoingFiles | undefined> {
    const opened: { name: string; handle: FileHandle; bytes: number; mtime_ms: number }[] = [];
    for (const [i, path] of [checkpoint, ...companions].entries()) {
      let handle: FileHandle;
      try {
        handle = await open(path, 'r');
      } catch {
        if (i === 0) return undefined;
        continue;
      }
      const { size, mtimeMs } = await handle.stat();
      opened.push({ name: basename(path), handle, bytes: size, mtime_ms: mtimeMs });
    }
    return new OutgoingFiles(opened);
  }

  get bytes(): number {
    return this.files.reduce((sum, f) => sum + f.bytes, 0);
  }

  manifest(): ShippedFile[] {
    return this.files.map((f) => ({ name: f.name, bytes: f.bytes }));
  }

  /** Names these files' contents as long as none is rewritten: names, lengths and modification times. */
  identityKey(): string {
    return JSON.stringify(this.files.map((f) => [f.name, f.bytes, f.mtime_ms]));
  }

  /** CRC-32 of the whole run, read a megabyte at a time. */
  async crc(): Promise<number> {
    let crc = 0;
    for (let at = 0; at < this.bytes; ) {
      const chunk = await this.read(at, crc_read_bytes);
      if (chunk.byteLength === 0) break;
      crc = crc32(chunk, crc);
      at += chunk.byteLength;
    }
    return crc;
  }

  /** Up to `length` bytes at `offset` of the run (fewer only at its end); may span files. */
  async read(offset: number, length: number): Promise<Uint8Array> {
    const out = Buffer.allocUnsafe(Math.max(0, Math.min(length, this.bytes - offset)));
    let filled = 0;
    let start = 0;
    for (const f of this.files) {
      const end = start + f.bytes;
      while (filled < out.byteLength && offset + filled >= start && offset + filled < end) {
        const { bytesRead } = await f.handle.read(out, filled, Math.min(out.byteLength - filled, end - (offset + filled)), offset + filled - start);
        if (bytesRead === 0) return out.subarray(0, filled);
        filled += bytesRead;
      }
      start = end;
    }
    return out.subarray(0, filled);
  }

  async close(): Promise<void> {
    for (const f of this.files) await f.handle.close();
  }
}

const crc_read_bytes = 1024 * 1024;
