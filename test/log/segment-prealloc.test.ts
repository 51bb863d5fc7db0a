import { existsSync, mkdirSync, readFileSync, rmdirSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { crc32 } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { SegmentLog, type SegmentLogOptions } from '../../src/log/storage/segment-log.js';
import { SEGMENT_HEADER_BYTES } from '../../src/log/storage/segment-format.js';
import { SPARE_NAME } from '../../src/log/storage/segment-spare.js';
import { ScratchDirs, entry, openError, recordLayout, segmentFiles, small_segments, writeBatches } from './segment-files.js';

/**
 * Preallocated segments (docs/storage.md, "Preallocated segments"): files made at their full size,
 * records written over zeros, the next segment made ahead, and recovery that finds the end of the
 * log where the zeros begin without ever mistaking damage for that end.
 */
const scratch = new ScratchDirs();
afterEach(() => scratch.removeAll());

const SEGMENT = small_segments.segment_bytes_max;
const text = (log: SegmentLog, from: number, to: number): string[] => log.read(from, to).map((e) => Buffer.from(e.data).toString());
const recordsEnd = (path: string): number => {
  const layout = recordLayout(path);
  const last = layout[layout.length - 1];
  return last === undefined ? SEGMENT_HEADER_BYTES : last.offset + last.bytes;
};
const zerosFrom = (path: string, from: number): boolean => readFileSync(path).subarray(from).every((b) => b === 0);

/** Entries of `bytes` payload bytes each, numbered from..to, appended and synced one by one. */
async function appendEach(log: SegmentLog, from: number, to: number, bytes: number): Promise<void> {
  for (let i = from; i <= to; i++) {
    log.append([entry(i, `${i}:`.padEnd(bytes, 'x'))]);
    await log.sync();
  }
}

describe('preallocated segments: the files', () => {
  it('a new log starts with a segment of its full size; writes fill it in place and leave zeros after the last record', async () => {
    const dir = scratch.fresh();
    const log = SegmentLog.open(dir, small_segments);
    const [seg] = segmentFiles(dir);
    expect(statSync(seg!).size).toBe(SEGMENT);
    await appendEach(log, 1, 5, 100);
    expect(statSync(seg!).size).toBe(SEGMENT);
    expect(recordLayout(seg!)).toHaveLength(5);
    expect(zerosFrom(seg!, recordsEnd(seg!))).toBe(true);
    await log.close();
    const again = SegmentLog.open(dir, small_segments);
    expect([again.lastIndex, again.recovery.torn]).toEqual([5, undefined]);
    await again.close();
  });

  it('the next segment is made ahead once the current one is half full, and rotation renames it into place at full size', async () => {
    const dir = scratch.fresh();
    const log = SegmentLog.open(dir, small_segments);
    // 1 KiB entries: the first segment passes half at about entry 32 and fills at about 64.
    await appendEach(log, 1, 40, 1000);
    await waitForFile(join(dir, SPARE_NAME));
    await appendEach(log, 41, 80, 1000);
    const files = segmentFiles(dir);
    expect(files).toHaveLength(2);
    // The batch that crosses the size bound may carry a segment a little past its preallocated size.
    expect(statSync(files[0]!).size).toBeGreaterThanOrEqual(SEGMENT);
    expect(statSync(files[1]!).size).toBe(SEGMENT);
    const second_first = Number.parseInt(basename(files[1]!), 10);
    expect(recordLayout(files[0]!)).toHaveLength(second_first - 1);
    await log.close();
    const again = SegmentLog.open(dir, small_segments);
    expect(again.lastIndex).toBe(80);
    expect(text(again, second_first - 1, second_first)).toEqual([`${second_first - 1}:`.padEnd(1000, 'x'), `${second_first}:`.padEnd(1000, 'x')]);
    await again.close();
  });

  it('a rotation that comes while the spare is still being made waits for it: the boundary stays at the size bound', async () => {
    const dir = scratch.fresh();
    const log = SegmentLog.open(dir, small_segments);
    // One batch takes the segment from empty past its size: the spare starts at that rotation.
    log.append(Array.from({ length: 70 }, (_, k) => entry(k + 1, 'y'.repeat(1000))));
    await log.sync();
    log.append([entry(71, 'after the roll')]);
    await log.sync();
    const files = segmentFiles(dir);
    expect(files.map((f) => basename(f))).toEqual(['00000000000000000001.seg', '00000000000000000071.seg']);
    expect(statSync(files[1]!).size).toBe(SEGMENT);
    expect(existsSync(join(dir, SPARE_NAME))).toBe(false);
    await log.close();
  });

  it('a spare that cannot be made: rotation creates the segment in place, and the log goes on', async () => {
    const dir = scratch.fresh();
    const log = SegmentLog.open(dir, small_segments);
    // A directory where the spare file would go: making the spare fails.
    mkdirSync(join(dir, SPARE_NAME));
    await appendEach(log, 1, 80, 1000);
    expect(segmentFiles(dir).length).toBe(2);
    expect(statSync(segmentFiles(dir)[1]!).size).toBe(SEGMENT);
    await log.close();
    rmdirSync(join(dir, SPARE_NAME));
    const again = SegmentLog.open(dir, small_segments);
    expect(again.lastIndex).toBe(80);
    await again.close();
  });

  it('a conflicting suffix is replaced by zeros, so a shorter rewrite leaves nothing stale for recovery to misread', async () => {
    const dir = scratch.fresh();
    const log = SegmentLog.open(dir, small_segments);
    // Records of equal size: a stale record would sit exactly where recovery looks next.
    log.append(Array.from({ length: 6 }, (_, k) => ({ index: k + 1, term: 1, data: Buffer.alloc(50, 0x61) })));
    await log.sync();
    await log.truncateFrom(3);
    log.append([{ index: 3, term: 2, data: Buffer.alloc(50, 0x62) }]);
    await log.sync();
    const [seg] = segmentFiles(dir);
    expect(statSync(seg!).size).toBe(SEGMENT);
    expect(zerosFrom(seg!, recordsEnd(seg!))).toBe(true);
    await log.close();
    const again = SegmentLog.open(dir, small_segments);
    expect([again.lastIndex, again.recovery.torn]).toEqual([3, undefined]);
    expect(again.read(3, 3)[0]!.term).toBe(2);
    await again.close();
  });
});

describe('preallocated segments: recovery finds the end where the zeros begin', () => {
  it('a crash while the spare was being made: the half-made spare is removed at open and nothing is lost', async () => {
    const dir = scratch.fresh();
    await writeBatches(dir, [[1], [2], [3]]);
    writeFileSync(join(dir, SPARE_NAME), Buffer.from('half a spare, and not zeros'));
    const log = SegmentLog.open(dir, small_segments);
    expect([log.lastIndex, log.recovery.torn]).toEqual([3, undefined]);
    expect(existsSync(join(dir, SPARE_NAME))).toBe(false);
    await log.close();
  });

  it('zeros in the middle are not the end: an intact record of a later batch after them is corruption, refused', async () => {
    const dir = scratch.fresh();
    await writeBatches(dir, [[1], [2], [3]]);
    const [seg] = segmentFiles(dir);
    const second = recordLayout(seg!)[1]!;
    const b = readFileSync(seg!);
    b.fill(0, second.offset, second.offset + second.bytes);
    writeFileSync(seg!, b);
    const e = openError(() => SegmentLog.open(dir, small_segments));
    expect([e.code, e.reason, e.metadata['index']]).toEqual(['DATA_LOSS', 'LOG_DAMAGED', '2']);
    expect(e.message).toMatch(/entry 3 of a later write batch follows intact/);
  });

  it('non-zero bytes far past the end with no intact record among them are the remains of a torn write: zeroed, nothing lost', async () => {
    const dir = scratch.fresh();
    await writeBatches(dir, [[1], [2], [3]]);
    const [seg] = segmentFiles(dir);
    const b = readFileSync(seg!);
    b.fill(0x5a, SEGMENT - 700, SEGMENT - 100);
    writeFileSync(seg!, b);
    const log = SegmentLog.open(dir, small_segments);
    expect(log.lastIndex).toBe(3);
    expect(log.recovery.torn).toEqual({ from_index: 4, bytes: SEGMENT - 100 - recordsEnd(seg!) });
    expect(zerosFrom(seg!, recordsEnd(seg!))).toBe(true);
    await log.close();
  });

  it('garbage after the end of a segment that is not the newest is corruption (it was fsynced whole before the roll)', async () => {
    const dir = scratch.fresh();
    await writeBatches(dir, [[1], [2], [3], [4], [5], [6], [7], [8], [9]], { segment_bytes_max: 200 });
    const [first] = segmentFiles(dir);
    const b = readFileSync(first!);
    b[b.byteLength - 1] = 7;
    writeFileSync(first!, b);
    const e = openError(() => SegmentLog.open(dir, { segment_bytes_max: 200 }));
    expect([e.code, e.metadata['segment']]).toEqual(['DATA_LOSS', basename(first!)]);
  });

  it('a rotated-in segment whose header never landed is a tear: it is removed, and the log continues from the segment before', async () => {
    const dir = scratch.fresh();
    const options: SegmentLogOptions = { segment_bytes_max: 200 };
    await writeBatches(dir, [[1], [2], [3], [4], [5]], options);
    const files = segmentFiles(dir);
    const newest = files[files.length - 1]!;
    const b = readFileSync(newest);
    b.fill(0, 0, SEGMENT_HEADER_BYTES); // the header's sector never reached the disk, the record did
    writeFileSync(newest, b);
    const log = SegmentLog.open(dir, options);
    const first = Number.parseInt(basename(newest), 10);
    expect(log.lastIndex).toBe(first - 1);
    expect(log.recovery.torn?.from_index).toBe(first);
    expect(segmentFiles(dir)).toEqual(files.slice(0, -1));
    log.append([entry(first, 'again')]);
    await log.sync();
    await log.close();
    const again = SegmentLog.open(dir, options);
    expect(text(again, first, first)).toEqual(['again']);
    await again.close();
  });

  it('a segment whose header is zeros but holds a record of a later batch is corruption, refused', async () => {
    const dir = scratch.fresh();
    const options: SegmentLogOptions = { segment_bytes_max: 200 };
    await writeBatches(dir, [[1], [2], [3], [4], [5], [6]], options);
    const files = segmentFiles(dir);
    const newest = files[files.length - 1]!;
    expect(recordLayout(newest).length).toBeGreaterThanOrEqual(2);
    const b = readFileSync(newest);
    b.fill(0, 0, SEGMENT_HEADER_BYTES);
    writeFileSync(newest, b);
    const e = openError(() => SegmentLog.open(dir, options));
    expect([e.code, e.metadata['offset']]).toEqual(['DATA_LOSS', '0']);
    expect(e.message).toMatch(/later write batch follows intact/);
  });
});

describe('preallocated segments: segments of format 2', () => {
  it('a log of format-2 segments (files that grew) opens, takes writes in place, and rotates into preallocated segments', async () => {
    const dir = scratch.fresh();
    const grown: SegmentLogOptions = { segment_bytes_max: 2000, preallocate: false };
    await writeBatches(dir, [[1, 2], [3], [4]], grown);
    const [seg] = segmentFiles(dir);
    rewriteAsFormat2(seg!);
    const size = statSync(seg!).size;
    expect(size).toBe(recordsEnd(seg!));
    const options: SegmentLogOptions = { segment_bytes_max: 2000 };
    const log = SegmentLog.open(dir, options);
    expect([log.lastIndex, log.recovery.torn]).toEqual([4, undefined]);
    await appendEach(log, 5, 40, 100);
    await log.close();
    const files = segmentFiles(dir);
    expect(files.length).toBeGreaterThan(1);
    expect(readFileSync(files[0]!).readUInt32LE(4)).toBe(2);
    expect(readFileSync(files[1]!).readUInt32LE(4)).toBe(3);
    expect(statSync(files[1]!).size).toBeGreaterThanOrEqual(2000);
    const again = SegmentLog.open(dir, options);
    expect(again.lastIndex).toBe(40);
    expect(text(again, 1, 1)).toEqual(['entry 1']);
    await again.close();
  });

  it('a torn tail of a format-2 segment (the file cut short mid-record) is still cut', async () => {
    const dir = scratch.fresh();
    await writeBatches(dir, [[1], [2, 3]], { segment_bytes_max: 2000, preallocate: false });
    const [seg] = segmentFiles(dir);
    rewriteAsFormat2(seg!);
    const b = readFileSync(seg!);
    writeFileSync(seg!, b.subarray(0, b.byteLength - 4));
    const log = SegmentLog.open(dir);
    expect([log.lastIndex, log.recovery.torn?.from_index]).toEqual([2, 3]);
    await log.close();
  });
});

/** Marks a segment written without preallocation as format 2, the version before preallocation. */
function rewriteAsFormat2(path: string): void {
  const b = readFileSync(path);
  b.writeUInt32LE(2, 4);
  b.writeUInt32LE(crc32(b.subarray(0, 20)), 20);
  writeFileSync(path, b);
}

/** Waits (bounded) for a file the log makes in the background. */
async function waitForFile(path: string): Promise<void> {
  for (let tries = 0; tries < 500 && !existsSync(path); tries++) await new Promise((r) => setTimeout(r, 10));
  expect(existsSync(path), `${path} appears`).toBe(true);
}
