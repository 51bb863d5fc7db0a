import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SegmentLog } from '../../src/log/storage/segment-log.js';
import { nonZeroEnd } from '../../src/log/storage/segment-format.js';

/** The end of the records of a preallocated segment that holds no garbage: where its zeros begin. */
const recordsEnd = (b: Buffer): number => nonZeroEnd(b, 0);

const dirs: string[] = [];
function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'weft-log-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const entry = (index: number, text = `entry ${index}`) => ({ index, term: 1, data: Buffer.from(text) });

/** What `read` returns in a callback of the check phase scheduled now, before anything scheduled after it. */
const atEndOfTurn = <T>(read: () => T): Promise<T> => new Promise((resolve) => setImmediate(() => resolve(read())));

/** Appends `count` entries from `first` on, each from its own callback of one turn; resolves once all are fsynced. */
async function appendFromCallbacks(log: SegmentLog, first: number, count: number): Promise<void> {
  const appended = Array.from({ length: count }, (_, i) => new Promise<void>((resolve) => setImmediate(() => {
    log.append([entry(first + i)]);
    resolve();
  })));
  await Promise.all(appended);
  await flushEnded(log);
}

/** Resolves once everything appended is fsynced and the flush that did it has ended. */
async function flushEnded(log: SegmentLog): Promise<void> {
  await log.sync();
  // The flush that reported them durable ends in the microtasks after; the next append starts a new one.
  await new Promise((resolve) => setImmediate(resolve));
}

describe('segment log', () => {
  it('recovery: entries appended and fsynced are read back after reopening', async () => {
    const dir = freshDir();
    const log = SegmentLog.open(dir);
    log.append([entry(1), entry(2), entry(3)]);
    await log.sync();
    expect(log.journalIndex).toBe(3);
    await log.close();
    const again = SegmentLog.open(dir);
    expect(again.lastIndex).toBe(3);
    expect(again.read(1, 3).map((e) => Buffer.from(e.data).toString())).toEqual(['entry 1', 'entry 2', 'entry 3']);
    await again.close();
  });

  it('recovery: a torn write in the last segment is cut off, earlier entries survive', async () => {
    const dir = freshDir();
    const log = SegmentLog.open(dir);
    log.append([entry(1), entry(2)]);
    await log.sync();
    await log.close();
    const seg = join(dir, readdirSync(dir).find((n) => n.endsWith('.seg'))!);
    const b = readFileSync(seg);
    const end = recordsEnd(b);
    b.fill(0, end - 3, end); // the last record loses its tail
    b.set([1, 2], end + 100); // and garbage follows
    writeFileSync(seg, b);
    const again = SegmentLog.open(dir);
    expect(again.lastIndex).toBe(1);
    again.append([entry(2, 'rewritten')]);
    await again.sync();
    expect(Buffer.from(again.read(2, 2)[0]!.data).toString()).toBe('rewritten');
    await again.close();
  });

  it('group commit: many appends in one turn share few fsyncs', async () => {
    const dir = freshDir();
    const log = SegmentLog.open(dir);
    for (let i = 1; i <= 500; i++) log.append([entry(i)]);
    await log.sync();
    expect(log.stats.entries_synced).toBe(500);
    expect(log.stats.fsyncs).toBeLessThanOrEqual(2);
    await log.close();
  });

  it('group commit: a lone append is written at once, before the turn ends', async () => {
    const log = SegmentLog.open(freshDir());
    const written = atEndOfTurn(() => log.cacheIndex);
    log.append([entry(1)]);
    expect(await written).toBe(1);
    await log.sync();
    await log.close();
  });

  it('group commit: a leader with followers waits the turn even for a lone append, so its sends to them leave first', async () => {
    const log = SegmentLog.open(freshDir());
    log.setLeading(true);
    log.setGroupOfOne(false);
    let written = atEndOfTurn(() => log.cacheIndex);
    log.append([entry(1)]);
    expect(await written).toBe(0);
    await flushEnded(log);
    // Alone in its group, the same lone append is written at once.
    log.setGroupOfOne(true);
    written = atEndOfTurn(() => log.cacheIndex);
    log.append([entry(2)]);
    expect(await written).toBe(2);
    await log.sync();
    await log.close();
  });

  it('group commit: once appends arrive together, a flush waits a turn and gathers the callbacks of that turn', async () => {
    const log = SegmentLog.open(freshDir());
    // 64 proposals each from its own callback of one turn, as 64 calls read from their sockets.
    // Nothing arrived together yet: the first is flushed alone, the rest join the next batch.
    await appendFromCallbacks(log, 1, 64);
    expect(log.stats.fsyncs).toBe(2);
    // Now writes arrive together: the next flush waits for the turn's other callbacks.
    await appendFromCallbacks(log, 65, 64);
    expect(log.stats.fsyncs).toBe(3);
    expect(log.stats.entries_synced).toBe(128);

    // A lone append after them still waits a turn; once a lone batch was written, the next is at once.
    let written = atEndOfTurn(() => log.cacheIndex);
    log.append([entry(129)]);
    expect(await written).toBe(128);
    await flushEnded(log);
    written = atEndOfTurn(() => log.cacheIndex);
    log.append([entry(130)]);
    expect(await written).toBe(130);
    await log.sync();
    await log.close();
  });

  it('segments roll over at the size bound and are compacted whole', async () => {
    const dir = freshDir();
    const log = SegmentLog.open(dir, { segment_bytes_max: 200 });
    for (let i = 1; i <= 20; i++) {
      log.append([entry(i, 'x'.repeat(50))]);
      await log.sync();
    }
    const before = readdirSync(dir).filter((n) => n.endsWith('.seg')).length;
    expect(before).toBeGreaterThan(3);
    log.compactTo(10);
    expect(log.firstIndex).toBeGreaterThan(1);
    expect(log.firstIndex).toBeLessThanOrEqual(11);
    expect(log.read(11, 20)).toHaveLength(10);
    await log.close();
    const again = SegmentLog.open(dir);
    expect(again.lastIndex).toBe(20);
    await again.close();
  });

  it('a conflicting suffix is truncated durably', async () => {
    const dir = freshDir();
    const log = SegmentLog.open(dir);
    log.append([entry(1), entry(2), entry(3), entry(4)]);
    await log.truncateFrom(3);
    expect(log.lastIndex).toBe(2);
    log.append([{ index: 3, term: 2, data: Buffer.from('new') }]);
    await log.close();
    const again = SegmentLog.open(dir);
    expect(again.lastIndex).toBe(3);
    expect(again.read(3, 3)[0]!.term).toBe(2);
    await again.close();
  });
});
