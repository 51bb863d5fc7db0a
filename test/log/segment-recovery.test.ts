import { readFileSync, statSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { crc32 } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { reasons } from '../../src/api/error-catalog.js';
import { SegmentLog } from '../../src/log/storage/segment-log.js';
import { RECORD_HEADER_BYTES } from '../../src/log/storage/segment-format.js';
import { SECTOR_BYTES } from '../../src/log/storage/segment-recovery.js';
import { ScratchDirs, entry, flipBit, openError, recordLayout, segmentFiles, writeBatches } from './segment-files.js';

const scratch = new ScratchDirs();
afterEach(() => scratch.removeAll());

const text = (log: SegmentLog, from: number, to: number): string[] => log.read(from, to).map((e) => Buffer.from(e.data).toString());

describe('segment log recovery: corruption is refused, never cut', () => {
  it('recovery: bit flip in a middle record of the newest segment is refused, not truncated', async () => {
    const dir = scratch.fresh();
    await writeBatches(dir, [[1], [2], [3], [4], [5]]);
    const [seg] = segmentFiles(dir);
    const third = recordLayout(seg!)[2]!;
    flipBit(seg!, third.offset + RECORD_HEADER_BYTES + 2, 3);
    const size = statSync(seg!).size;

    const e = openError(() => SegmentLog.open(dir));
    expect([e.code, e.reason]).toEqual(['DATA_LOSS', 'LOG_DAMAGED']);
    expect(e.metadata).toMatchObject({ segment: basename(seg!), offset: String(third.offset), index: '3' });
    expect(e.message).toMatch(/entry 4 of a later write batch follows intact/);
    // Refusing touched nothing: a second open refuses the same way, and the file kept every byte.
    expect(statSync(seg!).size).toBe(size);
    expect(openError(() => SegmentLog.open(dir)).metadata['index']).toBe('3');
  });

  it('recovery: a bit flip in any byte of a middle record, header or payload, is detected', async () => {
    const dir = scratch.fresh();
    await writeBatches(dir, [[1], [2], [3]]);
    const [seg] = segmentFiles(dir);
    const middle = recordLayout(seg!)[1]!;
    const pristine = readFileSync(seg!);
    for (let byte = middle.offset; byte < middle.offset + middle.bytes; byte++) {
      writeFileSync(seg!, pristine);
      flipBit(seg!, byte, byte % 8);
      const e = openError(() => SegmentLog.open(dir));
      expect([e.code, e.metadata['index'], e.metadata['offset']], `flip at byte ${byte}`).toEqual(['DATA_LOSS', '2', String(middle.offset)]);
    }
  });

  it('recovery: with truncate_and_report a member gets the log cut before the damage and the first damaged index', async () => {
    const dir = scratch.fresh();
    await writeBatches(dir, [[1, 2], [3, 4], [5, 6]]);
    const [seg] = segmentFiles(dir);
    flipBit(seg!, recordLayout(seg!)[3]!.offset + 20);
    const log = SegmentLog.open(dir, undefined, 1, { on_damage: 'truncate_and_report' });
    expect(log.recovery.damage).toMatchObject({ index: 4, segment: basename(seg!) });
    expect(log.lastIndex).toBe(3);
    expect(log.journalIndex).toBe(3);
    log.append([entry(4, 'from the leader')]);
    await log.sync();
    await log.close();
    const again = SegmentLog.open(dir);
    expect(again.recovery).toEqual({ torn: undefined, damage: undefined });
    expect(text(again, 3, 4)).toEqual(['entry 3', 'from the leader']);
    await again.close();
  });
});

describe('segment log recovery: a torn last write batch is cut', () => {
  it('recovery: torn tails of every length (record header partial, payload partial) are cut to the last whole record, in a preallocated file and in a file that grew', async () => {
    const dir = scratch.fresh();
    await writeBatches(dir, [[1], [2, 3, 4]]);
    const [seg] = segmentFiles(dir);
    const layout = recordLayout(seg!);
    const pristine = readFileSync(seg!);
    const batch_start = layout[1]!.offset;
    const records_end = layout[layout.length - 1]!.offset + layout[layout.length - 1]!.bytes;
    for (const shape of ['zeros in place', 'file cut short'] as const) {
      for (let size = batch_start; size < records_end; size++) {
        // A preallocated segment keeps its size: what never landed reads as zeros.
        const torn = shape === 'file cut short' ? pristine.subarray(0, size) : Buffer.concat([pristine.subarray(0, size), Buffer.alloc(pristine.byteLength - size)]);
        writeFileSync(seg!, torn);
        const whole = layout.filter((r) => r.offset + r.bytes <= size).length;
        const log = SegmentLog.open(dir);
        expect(log.lastIndex, `${shape} at ${size} bytes`).toBe(whole);
        const at_boundary = layout.some((r) => r.offset === size);
        expect(log.recovery.torn === undefined, `${shape} at ${size} bytes`).toBe(at_boundary);
        await log.close();
        // The cut writes zeros over the remains: the file keeps its size and the log ends where zeros begin.
        const after = readFileSync(seg!);
        expect(after.byteLength).toBe(torn.byteLength);
        const end = whole === layout.length ? records_end : layout[whole]!.offset;
        expect(after.subarray(end).every((b) => b === 0), `${shape} at ${size} bytes`).toBe(true);
      }
    }
  });

  it('recovery: an unwritten sector inside the last batch, later records of the same batch intact, is a tear (pages reach the disk out of order)', async () => {
    const dir = scratch.fresh();
    const batch = Array.from({ length: 40 }, (_, k) => k + 2);
    await writeBatches(dir, [[1], batch]);
    const [seg] = segmentFiles(dir);
    const layout = recordLayout(seg!);
    const b = readFileSync(seg!);
    const hole = { from: 2 * SECTOR_BYTES, to: 3 * SECTOR_BYTES };
    b.fill(0, hole.from, hole.to);
    writeFileSync(seg!, b);
    const whole = layout.filter((r) => r.offset + r.bytes <= hole.from).length;
    expect(whole).toBeLessThan(layout.length - 2); // intact records of the batch follow the hole
    const log = SegmentLog.open(dir);
    expect(log.lastIndex).toBe(whole);
    expect(log.recovery.torn?.from_index).toBe(whole + 1);
    await log.close();
  });

  it('recovery: a bit flip in the middle of the newest write batch, intact records of that batch after it, is refused', async () => {
    const dir = scratch.fresh();
    await writeBatches(dir, [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]]);
    const [seg] = segmentFiles(dir);
    flipBit(seg!, recordLayout(seg!)[4]!.offset + RECORD_HEADER_BYTES + 3, 6);
    const e = openError(() => SegmentLog.open(dir));
    expect([e.code, e.metadata['index']]).toEqual(['DATA_LOSS', '5']);
    expect(e.message).toMatch(/same write batch follows intact/);
  });

  it('recovery: damage to the newest batch alone cannot be told from a tear; it is cut and reported as one', async () => {
    const dir = scratch.fresh();
    await writeBatches(dir, [[1], [2], [3]]);
    const [seg] = segmentFiles(dir);
    flipBit(seg!, recordLayout(seg!)[2]!.offset + RECORD_HEADER_BYTES);
    const log = SegmentLog.open(dir);
    expect(log.lastIndex).toBe(2);
    expect(log.recovery.torn?.from_index).toBe(3);
    await log.close();
  });

  it('recovery: garbage after the last record is cut, and the log takes the rewritten entry', async () => {
    const dir = scratch.fresh();
    await writeBatches(dir, [[1, 2]]);
    const [seg] = segmentFiles(dir);
    const last = recordLayout(seg!)[1]!;
    const b = readFileSync(seg!);
    // The last record's final bytes never landed, and two bytes of garbage lie after it.
    b.fill(0, last.offset + last.bytes - 3, last.offset + last.bytes);
    b.set([1, 2], last.offset + last.bytes + 7);
    writeFileSync(seg!, b);
    const log = SegmentLog.open(dir);
    expect(log.lastIndex).toBe(1);
    log.append([entry(2, 'rewritten')]);
    await log.sync();
    expect(text(log, 2, 2)).toEqual(['rewritten']);
    await log.close();
  });
});

describe('segment log recovery: segment boundaries and formats', () => {
  const small = { segment_bytes_max: 200 };

  it('recovery: damage at the very end of a segment that is not the newest is refused (it was fsynced before the roll)', async () => {
    const dir = scratch.fresh();
    await writeBatches(dir, [[1], [2], [3], [4], [5], [6], [7], [8], [9]], small);
    const files = segmentFiles(dir);
    expect(files.length).toBeGreaterThan(2);
    const layout = recordLayout(files[0]!);
    const end = layout[layout.length - 1]!.offset + layout[layout.length - 1]!.bytes;
    truncateSync(files[0]!, end - 1);
    const e = openError(() => SegmentLog.open(dir, small));
    expect(e.code).toBe('DATA_LOSS');
    expect(e.metadata['segment']).toBe(basename(files[0]!));
  });

  it('recovery: a segment missing from the middle of the log is refused', async () => {
    const dir = scratch.fresh();
    await writeBatches(dir, [[1], [2], [3], [4], [5], [6], [7], [8], [9]], small);
    const files = segmentFiles(dir);
    unlinkSync(files[1]!);
    expect(openError(() => SegmentLog.open(dir, small)).code).toBe('DATA_LOSS');
  });

  it('recovery: a tear in the first record of a newest segment that was just rolled cuts back to its header', async () => {
    const dir = scratch.fresh();
    // Four records fill a 200-byte segment: 1-4, 5-8, then entry 9 alone in the newest.
    await writeBatches(dir, [[1], [2], [3], [4], [5], [6], [7], [8], [9]], small);
    const files = segmentFiles(dir);
    const newest = files[files.length - 1]!;
    expect(recordLayout(newest)).toHaveLength(1);
    const first = Number.parseInt(basename(newest), 10);
    const layout = recordLayout(newest);
    truncateSync(newest, layout[0]!.offset + 5);
    const log = SegmentLog.open(dir, small);
    expect(log.lastIndex).toBe(first - 1);
    log.append([entry(first, 'again')]);
    await log.sync();
    expect(text(log, first, first)).toEqual(['again']);
    await log.close();
  });

  it('recovery: with truncate_and_report, damage in an older segment removes every later segment', async () => {
    const dir = scratch.fresh();
    await writeBatches(dir, [[1], [2], [3], [4], [5], [6], [7], [8], [9]], small);
    const files = segmentFiles(dir);
    expect(files).toHaveLength(3);
    flipBit(files[0]!, recordLayout(files[0]!)[2]!.offset + RECORD_HEADER_BYTES);
    const log = SegmentLog.open(dir, small, 1, { on_damage: 'truncate_and_report' });
    expect(log.recovery.damage).toMatchObject({ index: 3, segment: basename(files[0]!) });
    expect(log.lastIndex).toBe(2);
    expect(segmentFiles(dir)).toEqual([files[0]]);
    log.append([entry(3, 'refetched')]);
    await log.sync();
    await log.close();
    const again = SegmentLog.open(dir, small);
    expect(text(again, 1, 3)).toEqual(['entry 1', 'entry 2', 'refetched']);
    await again.close();
  });

  it('recovery: a damaged segment header is refused as DATA_LOSS', async () => {
    const dir = scratch.fresh();
    await writeBatches(dir, [[1], [2]]);
    const [seg] = segmentFiles(dir);
    flipBit(seg!, 9);
    const e = openError(() => SegmentLog.open(dir));
    expect([e.code, e.metadata['offset'], e.metadata['index']]).toEqual(['DATA_LOSS', '0', '1']);
  });

  it('format: a segment of the earlier headerless format is refused clearly, not misread as torn', async () => {
    const dir = scratch.fresh();
    // The earlier format: records of a 24-byte header (length, CRC, index, term), no segment header.
    const old = Buffer.alloc(24 + 5);
    old.writeUInt32LE(5, 0);
    old.writeBigUInt64LE(1n, 8);
    old.writeBigUInt64LE(1n, 16);
    old.write('hello', 24);
    writeFileSync(`${dir}/${'1'.padStart(20, '0')}.seg`, old);
    const e = openError(() => SegmentLog.open(dir));
    expect([e.code, e.reason]).toEqual(['FAILED_PRECONDITION', 'LOG_FORMAT_UNSUPPORTED']);
    expect(e.message).toMatch(/older version of the log format/);
    expect(readFileSync(`${dir}/${'1'.padStart(20, '0')}.seg`)).toEqual(old);
  });

  it('format: a segment of a newer format version is refused', async () => {
    const dir = scratch.fresh();
    await writeBatches(dir, [[1]]);
    const [seg] = segmentFiles(dir);
    const b = readFileSync(seg!);
    b.writeUInt32LE(4, 4);
    b.writeUInt32LE(crc32(b.subarray(0, 20)), 20);
    writeFileSync(seg!, b);
    const e = openError(() => SegmentLog.open(dir));
    expect(e.message).toMatch(/format version 4; this build reads versions 2 and 3/);
  });

  it('the log reasons are in the error catalog with the codes the log uses', async () => {
    const dir = scratch.fresh();
    await writeBatches(dir, [[1], [2], [3]]);
    const [seg] = segmentFiles(dir);
    flipBit(seg!, recordLayout(seg!)[0]!.offset + 30);
    const e = openError(() => SegmentLog.open(dir));
    expect(reasons[e.reason as keyof typeof reasons].code).toBe(e.code);
    expect(reasons.LOG_FORMAT_UNSUPPORTED.code).toBe('FAILED_PRECONDITION');
    expect(reasons.LOG_FAILED.code).toBe('UNAVAILABLE');
  });
});
