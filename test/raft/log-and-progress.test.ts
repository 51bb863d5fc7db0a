import { describe, expect, it } from 'vitest';
import { AssertionFailure } from '../../src/common/assert.js';
import { decodeConfChange, encodeConfChange, MemoryStorage } from '../../src/log/raft/index.js';
import type { Entry } from '../../src/log/raft/index.js';
import { Inflights, Progress } from '../../src/log/raft/progress.js';
import { RaftLog } from '../../src/log/raft/raft-log.js';
import { ProgressTracker } from '../../src/log/raft/tracker.js';

const data = new Uint8Array([1, 2, 3, 4]);
const ents = (...terms: number[]): Entry[] => terms.map((term, k) => ({ index: k + 1, term, type: 'normal', data }));

function logWith(stored: Entry[], unstable: Entry[] = []): RaftLog {
  const s = new MemoryStorage();
  s.append(stored);
  const log = new RaftLog(s);
  log.append(unstable);
  return log;
}

describe('raft log: the stored part plus the unstable tail', () => {
  it('finds where a rejected append can match, one term at a time', () => {
    const log = logWith(ents(1, 1, 2, 2, 2, 4, 4));
    expect(log.findConflictByTerm(7, 3)).toEqual({ index: 5, term: 2 });
    expect(log.findConflictByTerm(7, 4)).toEqual({ index: 7, term: 4 });
    expect(log.findConflictByTerm(4, 1)).toEqual({ index: 2, term: 1 });
    expect(log.findConflictByTerm(2, 0)).toEqual({ index: 0, term: 0 });
  });

  it('appends after a matching entry, replacing a conflicting suffix but never a committed entry', () => {
    const log = logWith(ents(1, 1, 2), ents(1, 1, 2, 2).slice(3));
    log.commitTo(2);
    expect(log.maybeAppend(2, 1, 3, [{ index: 3, term: 3, type: 'normal', data }])).toBe(3);
    expect(log.lastIndex()).toBe(3);
    expect(log.term(3)).toBe(3);
    expect(log.committed).toBe(3);
    expect(log.maybeAppend(3, 2, 3, [])).toBeUndefined();
    expect(() => log.maybeAppend(1, 1, 3, [{ index: 2, term: 9, type: 'normal', data }])).toThrow(AssertionFailure);
  });

  it('keeps the newer tail when the driver persisted entries that were replaced since', () => {
    const log = logWith([], ents(1, 1, 1));
    log.append([{ index: 3, term: 2, type: 'normal', data }]);
    log.stableTo(3, 1);
    expect(log.unstableEntries().map((e) => e.term)).toEqual([1, 1, 2]);
    log.stableTo(3, 2);
    expect(log.unstableEntries()).toEqual([]);
  });

  it('hands out entries up to a byte budget, at least one', () => {
    const log = logWith(ents(1, 1, 1, 1));
    expect(log.slice(1, 5, 8)).toHaveLength(2);
    expect(log.slice(1, 5, 1)).toHaveLength(1);
  });

  it('reports compacted entries as unavailable', () => {
    const s = new MemoryStorage();
    s.append(ents(1, 1, 2, 2));
    s.createSnapshot(3, { voters: [1], learners: [] }, new Uint8Array());
    s.compact(3);
    const log = new RaftLog(s);
    expect(log.firstIndex()).toBe(4);
    expect(log.term(3)).toBe(2);
    expect(log.term(2)).toBeUndefined();
    expect(log.slice(2, 5, 100)).toBeUndefined();
    expect(log.committed).toBe(3);
  });
});

describe('flow control', () => {
  it('bounds appends in flight by count and by bytes, and frees them as acknowledged', () => {
    const inf = new Inflights(3, 100);
    inf.add(5, 10);
    inf.add(9, 10);
    expect(inf.full()).toBe(false);
    inf.add(12, 90);
    expect(inf.full()).toBe(true);
    inf.freeLE(9);
    expect(inf.count()).toBe(1);
    expect(inf.full()).toBe(false);
    const by_bytes = new Inflights(100, 50);
    by_bytes.add(1, 60);
    expect(by_bytes.full()).toBe(true);
  });

  it('ignores a stale rejection, and backs off to the hint on a fresh one', () => {
    const pr = new Progress(11, false, 10, 0);
    pr.probe_sent = true;
    expect(pr.maybeDecrTo(5, 3)).toBe(false);
    expect(pr.maybeDecrTo(10, 6)).toBe(true);
    expect(pr.next).toBe(7);
    expect(pr.probe_sent).toBe(false);
    pr.maybeUpdate(6);
    pr.becomeReplicate();
    pr.sentEntries(3, 30);
    expect(pr.next).toBe(10);
    expect(pr.maybeDecrTo(6, 0)).toBe(false);
    expect(pr.maybeDecrTo(8, 0)).toBe(true);
    expect(pr.next).toBe(7);
  });
});

describe('quorums', () => {
  it('commits what a majority of voters holds; learners do not count', () => {
    const t = new ProgressTracker(10, 0);
    t.reset({ voters: [1, 2, 3], learners: [4] }, 1);
    const set = (id: number, match: number): void => {
      t.progress.get(id)!.match = match;
    };
    set(1, 9);
    set(2, 5);
    set(3, 2);
    set(4, 9);
    expect(t.committed()).toBe(5);
    t.recordVote(1, true);
    t.recordVote(4, true);
    expect(t.voteResult()).toBe('pending');
    t.recordVote(2, false);
    t.recordVote(3, false);
    expect(t.voteResult()).toBe('lost');
  });

  it('encodes membership changes losslessly', () => {
    for (const cc of [
      { kind: 'add_voter', node: 7 },
      { kind: 'add_learner', node: 2 ** 40 + 3 },
      { kind: 'remove', node: 1 },
    ] as const) {
      expect(decodeConfChange(encodeConfChange(cc))).toEqual(cc);
    }
  });
});
