import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DiskStorage, type DiskStorageOptions } from '../../src/log/driver/disk-storage.js';
import { EMPTY_MEMBERSHIP, type MembershipSnapshot } from '../../src/log/driver/membership.js';
import type { Entry } from '../../src/log/raft/types.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Resolves after the current turn of the event loop, its immediates included. */
const endOfTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function fresh(): string {
  const d = mkdtempSync(join(tmpdir(), 'weft-disk-storage-'));
  dirs.push(d);
  return d;
}

const options = (checkpoint_index = 0): DiskStorageOptions => ({
  segment: { segment_bytes_max: 256 },
  checkpoint_index,
  legacy_membership: EMPTY_MEMBERSHIP,
});

function entries(from: number, to: number, term: number): Entry[] {
  const out: Entry[] = [];
  for (let i = from; i <= to; i++) out.push({ index: i, term, type: i % 5 === 0 ? 'conf_change' : 'normal', data: Buffer.from(`e${i}t${term}`) });
  return out;
}

const pair: MembershipSnapshot = {
  conf_state: { voters: [1, 2], learners: [] },
  members: [
    { node_id: 1, address: 'a:1', identity: 'spiffe://t/1' },
    { node_id: 2, address: 'a:2', identity: 'spiffe://t/2' },
  ],
  departed: [],
};

describe('disk Raft storage', () => {
  it('a member with other voters writes a commit-only change to raft-commit at once: a crash right after it keeps it', async () => {
    const dir = fresh();
    const s = DiskStorage.open(dir, options());
    await s.append(entries(1, 12, 1));
    await s.sync();
    s.setHardState({ term: 3, vote: 2, commit: 4 });
    s.setHardState({ term: 3, vote: 2, commit: 9 });
    expect(readFileSync(join(dir, 'raft-commit')).readDoubleLE(0)).toBe(9);
    // No close: what a kill -9 right after the commit leaves.
    const again = DiskStorage.open(dir, options());
    expect(again.initialState().hard_state).toEqual({ term: 3, vote: 2, commit: 9 });
    await again.close();
    await s.close();
  });

  it('a group of one writes a commit-only change to raft-commit at the end of its turn, not within it, and a crash after that turn keeps it', async () => {
    const dir = fresh();
    const s = DiskStorage.open(dir, options());
    s.setCommitWriteDeferred(true);
    await s.append(entries(1, 12, 1));
    await s.sync();
    s.setHardState({ term: 3, vote: 2, commit: 4 });
    await endOfTurn();
    s.setHardState({ term: 3, vote: 2, commit: 7 });
    s.setHardState({ term: 3, vote: 2, commit: 9 });
    // Within the turn the file still holds the earlier commit (raft-state holds only term and vote's write).
    expect(readFileSync(join(dir, 'raft-commit')).readDoubleLE(0)).toBe(4);
    await endOfTurn();
    expect(readFileSync(join(dir, 'raft-commit')).readDoubleLE(0)).toBe(9);
    // No close: the process is gone, and the next one reads the commit the turn wrote.
    const again = DiskStorage.open(dir, options());
    expect(again.initialState().hard_state).toEqual({ term: 3, vote: 2, commit: 9 });
    await again.close();
  });

  it('entries, their types and terms, and the hard state survive a reopen; a commit-only change is kept too', async () => {
    const dir = fresh();
    const s = DiskStorage.open(dir, options());
    await s.append(entries(1, 12, 1));
    await s.sync();
    s.setHardState({ term: 3, vote: 2, commit: 4 });
    s.setHardState({ term: 3, vote: 2, commit: 9 });
    await s.close();

    const again = DiskStorage.open(dir, options());
    expect(again.initialState().hard_state).toEqual({ term: 3, vote: 2, commit: 9 });
    expect([again.firstIndex(), again.lastIndex()]).toEqual([1, 12]);
    expect(again.term(0)).toBe(0);
    expect(again.term(7)).toBe(1);
    expect(again.term(13)).toBeUndefined();
    const read = again.entries(4, 7, Number.MAX_SAFE_INTEGER);
    expect(read.map((e) => [e.index, e.type, Buffer.from(e.data).toString()])).toEqual([
      [4, 'normal', 'e4t1'],
      [5, 'conf_change', 'e5t1'],
      [6, 'normal', 'e6t1'],
    ]);
    // At least one entry is returned even when it alone passes the byte budget.
    expect(again.entries(4, 7, 1)).toHaveLength(1);
    await again.close();
  });

  it('the entries it still holds in memory read the same as from the file, across a replaced suffix and past the memory bound', async () => {
    const dir = fresh();
    const s = DiskStorage.open(dir, options());
    const text = (es: readonly Entry[]): string[] => es.map((e) => `${e.index}:${e.type}:${Buffer.from(e.data).toString()}`);
    await s.append(entries(1, 10, 1));
    // A new leader's entries replace 7..10: the remembered 7..10 of term 1 must not be served again.
    await s.append(entries(7, 8, 2));
    expect(text(s.entries(5, 9, Number.MAX_SAFE_INTEGER))).toEqual(['5:conf_change:e5t1', '6:normal:e6t1', '7:normal:e7t2', '8:normal:e8t2']);
    expect(s.entries(5, 9, 1)).toHaveLength(1);
    // More than the 8192 entries kept in memory: the oldest are read back from the file again.
    await s.append(entries(9, 9000, 2));
    await s.sync();
    const live = text(s.entries(1, 9001, Number.MAX_SAFE_INTEGER));
    const newest = text(s.entries(8000, 9001, Number.MAX_SAFE_INTEGER));
    await s.close();
    const again = DiskStorage.open(dir, options());
    expect(live).toEqual(text(again.entries(1, 9001, Number.MAX_SAFE_INTEGER)));
    expect(live).toHaveLength(9000);
    expect(live[7]).toBe('8:normal:e8t2');
    expect(newest).toEqual(text(again.entries(8000, 9001, Number.MAX_SAFE_INTEGER)));
    await again.close();
  });

  it('entries from a new leader replace a conflicting stored suffix', async () => {
    const dir = fresh();
    const s = DiskStorage.open(dir, options());
    await s.append(entries(1, 10, 1));
    await s.append(entries(7, 8, 2));
    expect(s.lastIndex()).toBe(8);
    expect([s.term(6), s.term(7), s.term(8), s.term(9)]).toEqual([1, 2, 2, undefined]);
    await s.close();
    const again = DiskStorage.open(dir, options());
    expect(again.entries(6, 9, Number.MAX_SAFE_INTEGER).map((e) => Buffer.from(e.data).toString())).toEqual(['e6t1', 'e7t2', 'e8t2']);
    await again.close();
  });

  it('a checkpoint records its term and membership; compaction keeps the terms the core may still ask for; a restart from it sees that membership', async () => {
    const dir = fresh();
    const s = DiskStorage.open(dir, options());
    await s.append(entries(1, 40, 1));
    await s.sync();
    s.recordCheckpoint(30, pair);
    s.compactTo(20);
    expect(s.firstIndex()).toBeGreaterThan(1);
    expect(s.firstIndex()).toBeLessThanOrEqual(21);
    expect(s.term(s.firstIndex() - 1)).toBe(1);
    expect(s.term(30)).toBe(1);
    await s.close();

    const again = DiskStorage.open(dir, options(30));
    expect(again.initialState().conf_state).toEqual(pair.conf_state);
    expect(again.snapshotMeta.membership.members.map((m) => m.address)).toEqual(['a:1', 'a:2']);
    // The checkpoint's index is committed whatever the hard state said.
    expect(again.initialState().hard_state.commit).toBe(30);
    await again.close();
  });

  it('installing a snapshot from the leader starts the log again after it', async () => {
    const dir = fresh();
    const s = DiskStorage.open(dir, options());
    await s.append(entries(1, 5, 1));
    const meta = { index: 100, term: 4, conf_state: pair.conf_state };
    s.recordSnapshot(meta, pair);
    await s.installSnapshot(meta, pair);
    expect([s.firstIndex(), s.lastIndex(), s.term(100)]).toEqual([101, 100, 4]);
    await s.append(entries(101, 103, 4));
    await s.close();
    const again = DiskStorage.open(dir, options(100));
    expect([again.firstIndex(), again.lastIndex(), again.term(102)]).toEqual([101, 103, 4]);
    expect(again.initialState().hard_state.commit).toBe(100);
    await again.close();
  });

  it('a durability listener keeps hearing after a snapshot from the leader replaces the log: a member that installed one and later leads still counts its own fsyncs toward commits', async () => {
    const dir = fresh();
    const s = DiskStorage.open(dir, options());
    const heard: number[] = [];
    s.onDurable(({ journal }) => heard.push(journal));
    await s.append(entries(1, 5, 1));
    await s.sync();
    expect(heard.at(-1)).toBe(5);
    const meta = { index: 100, term: 4, conf_state: pair.conf_state };
    s.recordSnapshot(meta, pair);
    await s.installSnapshot(meta, pair);
    await s.append(entries(101, 103, 4));
    await s.sync();
    expect(heard.at(-1)).toBe(103);
    await s.close();
  });

  it('the log\'s counters go on from where they were across a snapshot from the leader: /metrics counts for the whole process', async () => {
    const dir = fresh();
    const s = DiskStorage.open(dir, options());
    await s.append(entries(1, 5, 1));
    await s.sync();
    const before = s.stats;
    expect(before.fsyncs).toBeGreaterThan(0);
    expect(before.entries_synced).toBe(5);
    const meta = { index: 100, term: 4, conf_state: pair.conf_state };
    s.recordSnapshot(meta, pair);
    await s.installSnapshot(meta, pair);
    expect(s.stats).toEqual(before);
    await s.append(entries(101, 103, 4));
    await s.sync();
    expect(s.stats.entries_synced).toBe(8);
    expect(s.stats.fsyncs).toBeGreaterThan(before.fsyncs);
    expect(s.stats.bytes_written).toBeGreaterThan(before.bytes_written);
    await s.close();
  });

  it('a crash between recording a leader\'s snapshot and starting the log again: a log that diverged at the snapshot\'s index is not kept', async () => {
    const dir = fresh();
    const s = DiskStorage.open(dir, options());
    // Entries of a deposed leader's term 1 reach past the snapshot the new leader sends (index 20, term 3).
    await s.append(entries(1, 40, 1));
    await s.sync();
    const meta = { index: 20, term: 3, conf_state: pair.conf_state };
    s.recordSnapshot(meta, pair);
    // kill -9 here: the checkpoint is in place, the log is still the old one.
    await s.close();
    const again = DiskStorage.open(dir, options(20));
    // Nothing at or below 20 may be read as the group's entries: they are not the committed ones.
    expect([again.firstIndex(), again.lastIndex(), again.term(20)]).toEqual([21, 20, 3]);
    await again.close();
  });

  it('the same crash with a log that agrees at the snapshot\'s index keeps the log: what follows is settled by the leader\'s appends', async () => {
    const dir = fresh();
    const s = DiskStorage.open(dir, options());
    await s.append([...entries(1, 20, 3), ...entries(21, 40, 4)]);
    await s.sync();
    const meta = { index: 20, term: 3, conf_state: pair.conf_state };
    s.recordSnapshot(meta, pair);
    await s.close();
    const again = DiskStorage.open(dir, options(20));
    expect([again.lastIndex(), again.term(20), again.term(30)]).toEqual([40, 3, 4]);
    await again.close();
  });
});
