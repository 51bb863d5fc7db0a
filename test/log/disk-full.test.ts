import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WeftError } from '../../src/common/errors.js';
import { DiskStorage } from '../../src/log/driver/disk-storage.js';
import { EMPTY_MEMBERSHIP } from '../../src/log/driver/membership.js';
import { SegmentLog, type StoredEntry } from '../../src/log/storage/segment-log.js';
import { emptySmallDisk, fillSmallDisk, mountSmallDisk, unmountSmallDisk } from '../support/small-disk.js';

/**
 * A member's log on a disk that fills (docs/cluster.md, "A full disk"): a real tmpfs of 4 MiB,
 * filled by a file until the kernel answers ENOSPC. The log must report nothing durable that is
 * not, wait for space rather than fail, write the same bytes again once space returns, and reopen
 * whole either way.
 */
const disk_bytes = 4 * 1024 * 1024;
const options = { segment_bytes_max: 256 * 1024 };

function entries(from: number, count: number, bytes: number): StoredEntry[] {
  return Array.from({ length: count }, (_, k) => ({ index: from + k, term: 1, data: Buffer.alloc(bytes, (from + k) % 251) }));
}

/** Resolves with the error once the log reports its disk full. */
function whenFull(log: SegmentLog): Promise<WeftError> {
  return new Promise((resolve) => {
    if (log.diskFull !== undefined) resolve(log.diskFull);
    log.onSpace((full) => {
      if (full !== undefined) resolve(full);
    });
  });
}

/** Whether `p` has settled by the time the event loop turned once more. */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  p.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((r) => setImmediate(r));
  return done;
}

describe('a log on a full disk', () => {
  let disk: string;
  beforeEach(() => {
    disk = mkdtempSync(join(tmpdir(), 'weft-small-disk-'));
    mountSmallDisk(disk, disk_bytes);
  });
  afterEach(() => unmountSmallDisk(disk));

  it('waits for space without reporting the batch durable, then writes it again and reopens with every entry', async () => {
    const dir = join(disk, 'log');
    const log = SegmentLog.open(dir, options);
    log.append(entries(1, 4, 1024));
    await log.sync();
    const heard: (string | undefined)[] = [];
    log.onSpace((full) => heard.push(full?.reason));
    fillSmallDisk(disk);

    // 40 entries of 16 KiB: more than the newest segment's pages, none of which the full disk can give.
    log.append(entries(5, 40, 16 * 1024));
    const durable = log.whenDurable(44, 'journal');
    const full = await whenFull(log);
    expect([full.code, full.reason]).toEqual(['RESOURCE_EXHAUSTED', 'DISK_FULL']);
    expect(log.journalIndex).toBe(4);
    expect(await settled(durable)).toBe(false);

    emptySmallDisk(disk);
    await durable;
    expect(log.journalIndex).toBe(44);
    expect(log.diskFull).toBeUndefined();
    expect(heard).toEqual(['DISK_FULL', undefined]);
    expect(log.stats.no_space_waits).toBe(1);
    await log.close();

    const again = SegmentLog.open(dir, options);
    expect(again.lastIndex).toBe(44);
    expect(again.read(1, 44).map((e) => [e.index, e.data.byteLength, e.data[0]])).toEqual(
      [...entries(1, 4, 1024), ...entries(5, 40, 16 * 1024)].map((e) => [e.index, e.data.byteLength, e.data[0]]),
    );
    await again.close();
  });

  it('closed while it waits for space, it fails the waiting writes DISK_FULL and reopens with what was durable', async () => {
    const dir = join(disk, 'log');
    const log = SegmentLog.open(dir, options);
    log.append(entries(1, 3, 512));
    await log.sync();
    fillSmallDisk(disk);
    log.append(entries(4, 40, 16 * 1024));
    const durable = log.whenDurable(43, 'journal');
    await whenFull(log);
    await log.close();
    await expect(durable).rejects.toMatchObject({ code: 'RESOURCE_EXHAUSTED', reason: 'DISK_FULL' });

    emptySmallDisk(disk);
    const again = SegmentLog.open(dir, options);
    expect(again.lastIndex).toBe(3);
    expect(again.read(1, 3).map((e) => e.data.byteLength)).toEqual([512, 512, 512]);
    again.append(entries(4, 2, 512));
    await again.sync();
    expect(again.lastIndex).toBe(5);
    await again.close();
  });

  it('appends across the end of a segment on a full disk wait; the ones before stay durable, and all are there once space returns', async () => {
    const dir = join(disk, 'log');
    const small = { segment_bytes_max: 64 * 1024 };
    const log = SegmentLog.open(dir, small);
    // Ten entries of 4 KiB, synced one by one: the segment fills up to its roll.
    for (const e of entries(1, 10, 4096)) {
      log.append([e]);
      await log.sync();
    }
    fillSmallDisk(disk);
    // Enough to fill the first segment past its end and need the next.
    for (const e of entries(11, 20, 4096)) log.append([e]);
    const durable = log.whenDurable(30, 'journal');
    await whenFull(log);
    expect(log.journalIndex).toBeGreaterThanOrEqual(10);
    expect(log.journalIndex).toBeLessThan(30);
    emptySmallDisk(disk);
    await durable;
    await log.close();
    const again = SegmentLog.open(dir, small);
    expect(again.lastIndex).toBe(30);
    expect(again.read(1, 30).every((e, k) => e.data[0] === (k + 1) % 251)).toBe(true);
    await again.close();
  });

  it('a hard state refused for space is written once space returns, and a restart reads it', async () => {
    const dir = join(disk, 'member');
    const open = (): DiskStorage =>
      DiskStorage.open(dir, { segment: options, checkpoint_index: 0, legacy_membership: EMPTY_MEMBERSHIP });
    const storage = open();
    const heard: (string | undefined)[] = [];
    storage.onSpace((full) => heard.push(full?.reason));
    fillSmallDisk(disk);
    const written = storage.persistHardState({ term: 3, vote: 2, commit: 0 });
    // The first try is made at once: by now it was refused, or it is still to be refused.
    if (storage.diskFull === undefined) await new Promise<void>((resolve) => storage.onSpace(() => resolve()));
    expect(storage.diskFull?.reason).toBe('DISK_FULL');
    expect(await settled(written)).toBe(false);
    emptySmallDisk(disk);
    await written;
    expect(storage.diskFull).toBeUndefined();
    expect(heard).toEqual(['DISK_FULL', undefined]);
    await storage.close();
    const again = open();
    expect(again.hardState).toMatchObject({ term: 3, vote: 2 });
    await again.close();
  });

  it('a snapshot from the leader installed on a full disk waits for space, says so, and completes once space returns', async () => {
    const dir = join(disk, 'member');
    const open = (checkpoint_index: number): DiskStorage =>
      DiskStorage.open(dir, { segment: options, checkpoint_index, legacy_membership: EMPTY_MEMBERSHIP });
    const storage = open(0);
    const heard: (string | undefined)[] = [];
    storage.onSpace((full) => heard.push(full?.reason));
    const meta = { index: 100, term: 4, conf_state: EMPTY_MEMBERSHIP.conf_state };
    // 1. Its meta: the driver writes it through untilSpace.
    fillSmallDisk(disk);
    const recorded = storage.untilSpace(() => storage.recordSnapshot(meta, EMPTY_MEMBERSHIP));
    if (storage.diskFull === undefined) await new Promise<void>((resolve) => storage.onSpace(() => resolve()));
    expect(storage.diskFull?.reason).toBe('DISK_FULL');
    await new Promise((r) => setTimeout(r, 300));
    expect(await settled(recorded)).toBe(false);
    emptySmallDisk(disk);
    await recorded;
    expect(storage.diskFull).toBeUndefined();
    // 2. The new log and the hard state: the old log's one page, freed on the way, does not hold both.
    fillSmallDisk(disk);
    const installed = storage.installSnapshot(meta, EMPTY_MEMBERSHIP);
    if (storage.diskFull === undefined) await new Promise<void>((resolve) => storage.onSpace(() => resolve()));
    expect(storage.diskFull?.reason).toBe('DISK_FULL');
    await new Promise((r) => setTimeout(r, 300));
    expect(await settled(installed)).toBe(false);
    emptySmallDisk(disk);
    await installed;
    expect(storage.diskFull).toBeUndefined();
    // The new log may wait, then the hard state (the old log's page freed between them): each a wait of its own.
    expect(heard.slice(0, 3)).toEqual(['DISK_FULL', undefined, 'DISK_FULL']);
    expect(heard.every((h, k) => h === (k % 2 === 0 ? 'DISK_FULL' : undefined)) && heard.at(-1) === undefined).toBe(true);
    expect(storage.diskFullRefusals).toBe(heard.filter((h) => h !== undefined).length);
    // The member goes on from the snapshot, and a restart finds the same.
    expect([storage.firstIndex(), storage.lastIndex(), storage.term(100)]).toEqual([101, 100, 4]);
    await storage.append([101, 102].map((index) => ({ index, term: 4, type: 'normal' as const, data: new Uint8Array([index]) })));
    await storage.sync();
    await storage.close();
    const again = open(100);
    expect([again.firstIndex(), again.lastIndex(), again.initialState().hard_state.commit]).toEqual([101, 102, 100]);
    await again.close();
  });
});
