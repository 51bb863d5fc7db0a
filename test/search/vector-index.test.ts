import { describe, expect, it } from 'vitest';
import { VectorIndex, compaction_deleted_min } from '../../src/projections/search/vector-index.js';
import { vectorDistance } from '../../src/query/functions/vector-functions.js';
import { prng, testSeed } from '../support/prng.js';
import { record } from './records.js';

/**
 * The vector index as apply keeps it: the latest vector of each node of the label, deletions
 * mark-deleted and compacted away, distances as vector_distance gives them, L1 answered exactly.
 */
const spec = (metric: 'COSINE' | 'L2' | 'DOT' | 'L1', dimensions = 8) => ({ kind: 'vector' as const, dimensions, metric, m: 16, ef_construction: 200 });

function randomVectors(seed: number, n: number, d: number): Float32Array[] {
  const r = prng(seed);
  return [...Array(n).keys()].map(() => Float32Array.from({ length: d }, () => r() * 2 - 1));
}

describe('vector index maintenance', () => {
  it('holds the latest vector of live nodes of its label only, of its own width', () => {
    const v = new VectorIndex(spec('L2', 3), 'Doc', 'emb');
    v.refresh(record(1, ['Doc'], { emb: new Float32Array([1, 0, 0]) }));
    v.refresh(record(2, ['Other'], { emb: new Float32Array([1, 0, 0]) }));
    v.refresh(record(3, ['Doc'], { emb: new Float32Array([1, 0]) }));
    v.refresh(record(4, ['Doc'], { emb: 'not a vector' }));
    expect([...v.ids()]).toEqual([1]);
    v.refresh(record(1, ['Doc'], { emb: new Float32Array([0, 0, 5]) }));
    expect(v.search(new Float32Array([0, 0, 5]), 1, 10)).toMatchObject([{ id: 1, distance: 0 }]);
    v.refresh(record(1, ['Doc'], {}, true));
    expect(v.count()).toBe(0);
    expect(v.search(new Float32Array([0, 0, 5]), 1, 10)).toEqual([]);
  });

  it.each(['COSINE', 'L2', 'DOT', 'L1'] as const)('%s: distances equal vector_distance, and a small index answers exactly', (metric) => {
    const seed = testSeed(`vector index ${metric}`);
    const vs = randomVectors(seed, 200, 8);
    const v = new VectorIndex(spec(metric), 'Doc', 'emb');
    vs.forEach((x, i) => v.refresh(record(i + 1, ['Doc'], { emb: x })));
    const q = randomVectors(seed + 1, 1, 8)[0]!;
    const fn = { COSINE: 'cosine', L2: 'euclidean', DOT: 'dot', L1: 'manhattan' } as const;
    const brute = vs
      .map((x, i) => ({ id: i + 1, distance: vectorDistance(x, q, fn[metric]) }))
      .sort((a, b) => a.distance - b.distance)
      .slice(0, 10);
    const got = v.search(q, 10, 200);
    expect(got.map((h) => h.id)).toEqual(brute.map((h) => h.id));
    got.forEach((h, i) => expect(h.distance).toBeCloseTo(brute[i]!.distance, 4));
    expect(v.approximate).toBe(metric !== 'L1');
  });

  it('grows past its first capacity, and compacts once deletions outnumber live vectors', () => {
    const n = compaction_deleted_min * 3;
    const vs = randomVectors(7, n, 4);
    const v = new VectorIndex(spec('L2', 4), 'Doc', 'emb');
    vs.forEach((x, i) => v.refresh(record(i + 1, ['Doc'], { emb: x })));
    expect(v.count()).toBe(n);
    for (let i = 1; i <= n - 100; i++) v.forget(i);
    // Compacted when deletions passed the live vectors, and again as they kept coming.
    expect(v.compactions).toBeGreaterThanOrEqual(1);
    expect(v.count()).toBe(100);
    expect(v.deletedCount()).toBeLessThan(compaction_deleted_min);
    const q = vs[n - 1]!;
    expect(v.search(q, 1, 64)[0]).toMatchObject({ id: n, distance: 0 });
    // A forgotten id comes back in its old slot.
    v.refresh(record(n - 100, ['Doc'], { emb: vs[0]! }));
    expect(v.search(vs[0]!, 1, 64)[0]?.id).toBe(n - 100);
  });

  it('a filtered search keeps only accepted ids', () => {
    const vs = randomVectors(11, 300, 6);
    const v = new VectorIndex(spec('COSINE', 6), 'Doc', 'emb');
    vs.forEach((x, i) => v.refresh(record(i + 1, ['Doc'], { emb: x })));
    const got = v.search(vs[0]!, 5, 100, (id) => id % 7 === 0);
    expect(got).toHaveLength(5);
    expect(got.every((h) => h.id % 7 === 0)).toBe(true);
  });
});
