import { describe, expect, it } from 'vitest';
import { BlobProjection } from '../../src/projections/blobs/blob-projection.js';

/** The blob projection alone: reference counts, pending entries, rollback and release. */
const put = (blob_id: string, chunk_ids: string[]) => ({ kind: 'blob_put' as const, blob_id, chunk_ids, total_size: chunk_ids.length });
const del = (blob_id: string) => ({ kind: 'blob_deleted' as const, blob_id });

describe('blob projection', () => {
  it('counts every occurrence of a chunk, and releases a chunk only when its count reaches zero at commit', () => {
    const p = new BlobProjection();
    p.apply(put('a', ['x', 'y', 'x']), 1, true);
    p.apply(put('b', ['x']), 2, true);
    expect(p.refCount('x')).toBe(3);
    p.apply(del('a'), 3, false);
    expect(p.refCount('x')).toBe(1);
    expect(p.takeReleased()).toEqual([]);
    p.commit(3);
    expect(p.takeReleased()).toEqual(['y']);
    p.apply(del('b'), 4, true);
    expect(p.takeReleased()).toEqual(['x']);
    expect(p.chunkCount).toBe(0);
  });

  it('rollback: pending puts and deletes are undone newest first, and release nothing', () => {
    const p = new BlobProjection();
    p.apply(put('a', ['x']), 1, true);
    p.apply(put('b', ['x', 'z']), 2, false);
    p.apply(del('a'), 3, false);
    p.rollbackAfter(1);
    p.commit(1);
    expect(p.blob('a')).toBeDefined();
    expect(p.blob('b')).toBeUndefined();
    expect([p.refCount('x'), p.refCount('z')]).toEqual([1, 0]);
    expect(p.takeReleased()).toEqual([]);
  });

  it('a checkpoint holds committed blobs only, and restores their counts', () => {
    const p = new BlobProjection();
    p.apply(put('a', ['x']), 1, true);
    p.apply(put('b', ['x']), 2, false);
    p.apply(del('a'), 3, false);
    const restored = new BlobProjection();
    restored.restore(p.snapshot());
    expect(restored.blob('a')).toBeDefined();
    expect(restored.blob('b')).toBeUndefined();
    expect(restored.refCount('x')).toBe(1);
  });

  it('check: deleting an unknown blob is NOT_FOUND, a held one FAILED_PRECONDITION', () => {
    const p = new BlobProjection();
    p.apply(put('a', ['x']), 1, true);
    expect(p.check(del('nope'), () => 0)).toMatchObject({ code: 'NOT_FOUND', reason: 'BLOB_NOT_FOUND' });
    expect(p.check(del('a'), () => 2)).toMatchObject({ code: 'FAILED_PRECONDITION', reason: 'BLOB_REFERENCED', metadata: { references: '2' } });
    expect(p.check(del('a'), () => 0)).toBeUndefined();
  });
});
