import { fdatasync, fdatasyncSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { WeftError } from '../../src/common/errors.js';
import { SegmentLog, type SegmentLogIo, type StoredEntry } from '../../src/log/storage/segment-log.js';
import { RECORD_HEADER_BYTES } from '../../src/log/storage/segment-format.js';
import { ScratchDirs, entry, flipBit, recordLayout, segmentFiles, writeBatches } from './segment-files.js';

const scratch = new ScratchDirs();
afterEach(() => scratch.removeAll());

/** The real calls, counted, with a switch that makes the asynchronous fdatasync fail. */
class RecordingIo implements SegmentLogIo {
  readonly calls: string[] = [];
  fail_next_fdatasync = false;
  fail_next_fdatasync_sync = false;
  async fdatasync(fd: number): Promise<void> {
    this.calls.push('fdatasync');
    if (this.fail_next_fdatasync) {
      this.fail_next_fdatasync = false;
      throw Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' });
    }
    await promisify(fdatasync)(fd);
  }
  fdatasyncSync(fd: number): void {
    this.calls.push('fdatasyncSync');
    if (this.fail_next_fdatasync_sync) {
      this.fail_next_fdatasync_sync = false;
      throw Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' });
    }
    fdatasyncSync(fd);
  }
}

function thrown(f: () => unknown): WeftError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(WeftError);
    return e as WeftError;
  }
  throw new Error('expected a WeftError');
}

describe('segment log: checksums on every read', () => {
  it('reads: a bit flipped in a record after open is detected by read and by scan, the others still read', async () => {
    const dir = scratch.fresh();
    const log = SegmentLog.open(dir);
    log.append([entry(1), entry(2), entry(3)]);
    await log.sync();
    expect(log.read(2, 2)).toHaveLength(1); // the read descriptor is open and cached from here on
    const [seg] = segmentFiles(dir);
    const second = recordLayout(seg!)[1]!;

    flipBit(seg!, second.offset + RECORD_HEADER_BYTES + 1);
    const e = thrown(() => log.read(1, 3));
    expect([e.code, e.reason, e.metadata['index'], e.metadata['offset']]).toEqual(['DATA_LOSS', 'LOG_DAMAGED', '2', String(second.offset)]);
    expect(log.read(3, 3)).toHaveLength(1);
    const seen: number[] = [];
    expect(thrown(() => log.scan(1, (s: StoredEntry) => seen.push(s.index))).metadata['index']).toBe('2');
    expect(seen).toEqual([1]);

    flipBit(seg!, second.offset + RECORD_HEADER_BYTES + 1); // restored
    flipBit(seg!, second.offset + 17); // now the header: the index field
    expect(thrown(() => log.read(2, 2)).metadata['index']).toBe('2');
    await log.close();
  });
});

describe('segment log: large batches', () => {
  it('group commit: one batch of 200,000 entries is written, synced and read back', async () => {
    const dir = scratch.fresh();
    const log = SegmentLog.open(dir);
    const count = 200_000;
    log.append(Array.from({ length: count }, (_, k) => ({ index: k + 1, term: 1, data: Buffer.from([k % 251]) })));
    await log.sync();
    expect(log.journalIndex).toBe(count);
    expect(log.stats.fsyncs).toBe(1);
    expect(log.read(count, count)[0]!.data).toEqual(Buffer.from([(count - 1) % 251]));
    await log.close();
  });
});

describe('segment log: fsync', () => {
  it('inline_fsync_entries_max 1: a lone entry is fsynced on the loop thread, a batch of two in the pool; all durable after reopen', async () => {
    const dir = scratch.fresh();
    const io = new RecordingIo();
    const log = SegmentLog.open(dir, { segment_bytes_max: 1 << 20, inline_fsync_entries_max: 1 }, 1, { io });
    io.calls.length = 0; // the fsync of open
    log.append([entry(1)]);
    await log.sync();
    log.append([entry(2), entry(3)]);
    await log.sync();
    expect(io.calls).toEqual(['fdatasyncSync', 'fdatasync']);
    expect(log.journalIndex).toBe(3);
    await log.close();
    const again = SegmentLog.open(dir);
    expect(again.read(1, 3).map((e) => e.index)).toEqual([1, 2, 3]);
    await again.close();
  });

  it('follower_inline_fsync_entries_max 1: a lone entry is fsynced on the loop thread until the member leads, then in the pool, and again inline once it follows', async () => {
    const dir = scratch.fresh();
    const io = new RecordingIo();
    const log = SegmentLog.open(dir, { segment_bytes_max: 1 << 20, follower_inline_fsync_entries_max: 1 }, 1, { io });
    io.calls.length = 0;
    log.append([entry(1)]);
    await log.sync();
    log.setLeading(true);
    log.append([entry(2)]);
    await log.sync();
    log.setLeading(false);
    log.append([entry(3)]);
    await log.sync();
    log.append([entry(4), entry(5)]);
    await log.sync();
    expect(io.calls).toEqual(['fdatasyncSync', 'fdatasync', 'fdatasyncSync', 'fdatasync']);
    await log.close();
  });

  it('single_member_inline_fsync_entries_max 1: a leader alone fsyncs a lone entry on the loop thread, in the pool once a member joins or for a batch of two', async () => {
    const dir = scratch.fresh();
    const io = new RecordingIo();
    const log = SegmentLog.open(dir, { segment_bytes_max: 1 << 20, single_member_inline_fsync_entries_max: 1 }, 1, { io });
    io.calls.length = 0;
    log.setLeading(true);
    log.setGroupOfOne(true);
    log.append([entry(1)]);
    await log.sync();
    log.append([entry(2), entry(3)]);
    await log.sync();
    log.setGroupOfOne(false);
    log.append([entry(4)]);
    await log.sync();
    // Not leading: the follower bound (absent here) decides, whatever the group's size.
    log.setLeading(false);
    log.setGroupOfOne(true);
    log.append([entry(5)]);
    await log.sync();
    expect(io.calls).toEqual(['fdatasyncSync', 'fdatasync', 'fdatasync', 'fdatasync']);
    expect(log.journalIndex).toBe(5);
    await log.close();
  });

  it('without the setting every batch, a lone entry too, is fsynced in the pool', async () => {
    const dir = scratch.fresh();
    const io = new RecordingIo();
    const log = SegmentLog.open(dir, undefined, 1, { io });
    io.calls.length = 0;
    log.append([entry(1)]);
    await log.sync();
    expect(io.calls).toEqual(['fdatasync']);
    await log.close();
  });

  it('a failed fsync on the loop thread is as fatal as one in the pool: waiters and later appends refused', async () => {
    const dir = scratch.fresh();
    const io = new RecordingIo();
    const log = SegmentLog.open(dir, { segment_bytes_max: 1 << 20, inline_fsync_entries_max: 1 }, 1, { io });
    log.append([entry(1)]);
    await log.sync();
    io.fail_next_fdatasync_sync = true;
    log.append([entry(2)]);
    await expect(log.whenDurable(2, 'journal')).rejects.toMatchObject({ code: 'UNAVAILABLE', reason: 'LOG_FAILED' });
    expect(log.journalIndex).toBe(1);
    expect(thrown(() => log.append([entry(3)])).reason).toBe('LOG_FAILED');
    await log.close();
  });

  it('fsync on open: what a crashed process left in the file is fsynced before any entry is reported durable', async () => {
    const dir = scratch.fresh();
    await writeBatches(dir, [[1, 2, 3]]);
    const io = new RecordingIo();
    const log = SegmentLog.open(dir, undefined, 1, { io });
    expect(io.calls).toEqual(['fdatasyncSync']);
    expect(log.journalIndex).toBe(3);
    await log.close();
  });

  it('a failed fsync is fatal to the log: never retried, waiters refused, later appends refused', async () => {
    const dir = scratch.fresh();
    const io = new RecordingIo();
    const log = SegmentLog.open(dir, undefined, 1, { io });
    log.append([entry(1)]);
    await log.sync();
    io.fail_next_fdatasync = true;
    log.append([entry(2)]);
    const refused = await log.whenDurable(2, 'journal').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(WeftError);
    expect([(refused as WeftError).code, (refused as WeftError).reason]).toEqual(['UNAVAILABLE', 'LOG_FAILED']);
    expect(log.journalIndex).toBe(1);
    expect(thrown(() => log.append([entry(3)])).reason).toBe('LOG_FAILED');
    await expect(log.sync()).rejects.toBeInstanceOf(WeftError);
    await expect(log.truncateFrom(2)).rejects.toBeInstanceOf(WeftError);
    // One fdatasync for entry 1, one that failed for entry 2, and no retry of it.
    await new Promise((r) => setImmediate(r));
    expect(io.calls.filter((c) => c === 'fdatasync')).toHaveLength(2);
    await log.close();

    // A restart re-reads and re-verifies the file, and fsyncs it before reporting anything durable.
    const again = SegmentLog.open(dir);
    expect(again.journalIndex).toBe(again.lastIndex);
    expect(again.lastIndex).toBeGreaterThanOrEqual(1);
    await again.close();
  });
});
