import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { WeftError } from '../../src/common/errors.js';
import { SegmentLog, type SegmentLogOptions } from '../../src/log/storage/segment-log.js';
import { RECORD_HEADER_BYTES, RECORD_MAGIC, SEGMENT_HEADER_BYTES } from '../../src/log/storage/segment-format.js';

/** Scratch folders, and surgery on segment files, for the recovery scenarios. */
export class ScratchDirs {
  private readonly dirs: string[] = [];
  fresh(): string {
    const dir = mkdtempSync(join(tmpdir(), 'weft-log-'));
    this.dirs.push(dir);
    return dir;
  }
  removeAll(): void {
    for (const d of this.dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  }
}

export const entry = (index: number, text = `entry ${index}`, term = 1) => ({ index, term, data: Buffer.from(text) });

/**
 * Segments of 64 KiB: preallocated like the default 64 MiB ones, small enough that the scenarios
 * which rewrite a file many times stay fast.
 */
export const small_segments: SegmentLogOptions = { segment_bytes_max: 64 * 1024 };

/** Writes `batches` (lists of entry indexes), each appended together and fsynced before the next. */
export async function writeBatches(dir: string, batches: readonly (readonly number[])[], options: SegmentLogOptions = small_segments): Promise<void> {
  const log = SegmentLog.open(dir, options);
  for (const batch of batches) {
    log.append(batch.map((i) => entry(i)));
    await log.sync();
  }
  await log.close();
}

export function segmentFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((n) => n.endsWith('.seg'))
    .sort()
    .map((n) => join(dir, n));
}

/** Byte offset and size of each record in a segment file, found by walking the headers to the zeros. */
export function recordLayout(path: string): { offset: number; bytes: number }[] {
  const b = readFileSync(path);
  const out: { offset: number; bytes: number }[] = [];
  for (let at = SEGMENT_HEADER_BYTES; at + RECORD_HEADER_BYTES <= b.byteLength && b.readUInt32LE(at) === RECORD_MAGIC; ) {
    const bytes = RECORD_HEADER_BYTES + b.readUInt32LE(at + 12);
    out.push({ offset: at, bytes });
    at += bytes;
  }
  return out;
}

export function flipBit(path: string, byte: number, bit = 0): void {
  const b = readFileSync(path);
  b[byte] = b[byte]! ^ (1 << bit);
  writeFileSync(path, b);
}

/** Runs `open` and returns the WeftError it throws; fails the test if it opens. */
export function openError(open: () => SegmentLog): WeftError {
  let log: SegmentLog | undefined;
  try {
    log = open();
  } catch (e) {
    expect(e).toBeInstanceOf(WeftError);
    return e as WeftError;
  }
  void log.close();
  throw new Error('the log opened; it should have been refused');
}
