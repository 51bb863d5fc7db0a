import { writeSync } from 'node:fs';
import { write as writeCb } from 'node:fs';
import { promisify } from 'node:util';

/**
 * Writing zeros over a span of a file: how a segment is preallocated, and how the log removes
 * records it cuts without shrinking the file (the end of the log is where zeros begin).
 */

/** The size of one zero-filling write; it bounds the memory and the time of each call. */
export const zero_chunk_bytes = 1024 * 1024;
const ZERO_CHUNK = Buffer.alloc(zero_chunk_bytes);
const writeP = promisify(writeCb);

/** Writes zeros over [from, to) on this thread; for the short spans of a cut. */
export function zeroRangeSync(fd: number, from: number, to: number): void {
  for (let at = from; at < to; ) at += writeSync(fd, ZERO_CHUNK, 0, Math.min(zero_chunk_bytes, to - at), at);
}

/**
 * Writes zeros over [from, to) in the thread pool, one chunk at a time, off the event loop; stops
 * before the next chunk once `stop` says so.
 */
export async function zeroRange(fd: number, from: number, to: number, stop: () => boolean = () => false): Promise<void> {
  for (let at = from; at < to && !stop(); ) at += (await writeP(fd, ZERO_CHUNK, 0, Math.min(zero_chunk_bytes, to - at), at)).bytesWritten;
}
