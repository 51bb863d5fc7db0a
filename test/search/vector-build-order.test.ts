import { describe, expect, it } from 'vitest';
import { VectorIndex } from '../../src/projections/search/vector-index.js';
import { testSeed } from '../support/prng.js';
import { clusteredVectors } from './data.js';
import { record } from './records.js';

/**
 * A build's backfill meets the writes made during it at moments no log entry records: the leader
 * inserts a new node and moves an old one between two slices, a member replaying the log applies
 * the writes first and backfills everything at the publication. Once the build settles at its
 * publication both must hold the same graph, so a restart answers approximate searches as before.
 */
const spec = { kind: 'vector' as const, dimensions: 8, metric: 'L2' as const, m: 16, ef_construction: 200 };
const n = 600;
const seed = testSeed('vector build order');
const vectors = clusteredVectors(seed, n + 1, 8, 6);
const moved = clusteredVectors(seed + 2, 1, 8, 6)[0]!;
const queries = clusteredVectors(seed + 1, 40, 8, 6);
const doc = (id: number, v: Float32Array) => record(id, ['Doc'], { emb: v });

/** The leader: the backfill reaches half the nodes, the writes apply, the backfill goes on. */
function leader(): VectorIndex {
  const v = new VectorIndex(spec, 'Doc', 'emb');
  for (let id = 0; id < n / 2; id++) v.refresh(doc(id, vectors[id]!));
  v.refresh(doc(n, vectors[n]!)); // created during the build
  v.refresh(doc(7, moved)); // an already backfilled node moved
  v.refresh(doc(n - 3, moved)); // a node the backfill has not reached moved
  for (let id = n / 2; id < n; id++) v.refresh(doc(id, id === 7 || id === n - 3 ? moved : vectors[id]!));
  return v;
}

/** A replay: the writes apply, then the publication backfills every node in id order. */
function replay(): VectorIndex {
  const v = new VectorIndex(spec, 'Doc', 'emb');
  v.refresh(doc(n, vectors[n]!));
  v.refresh(doc(7, moved));
  v.refresh(doc(n - 3, moved));
  for (let id = 0; id < n; id++) v.refresh(doc(id, id === 7 || id === n - 3 ? moved : vectors[id]!));
  return v;
}

/** Answers with a narrow beam: they depend on the graph's shape, not only on its vectors. */
const answers = (v: VectorIndex) => queries.map((q) => v.search(q, 10, 10).map((h) => h.id));

describe('a vector build settles at its publication', () => {
  it(`the leader and a replay answer alike once published (seed ${seed})`, () => {
    const a = leader();
    const b = replay();
    expect(a.digest()).toBe(b.digest());
    expect(a.settleBuild()).toBe(true);
    expect(b.settleBuild()).toBe(true);
    expect(answers(a)).toEqual(answers(b));
  });

  it('a build the writes left in id order is kept as it is', () => {
    const v = new VectorIndex(spec, 'Doc', 'emb');
    for (let id = 0; id < 50; id++) v.refresh(doc(id, vectors[id]!));
    v.refresh(doc(3, vectors[3]!)); // the same vector again changes nothing
    expect(v.settleBuild()).toBe(false);
    v.refresh(doc(3, moved));
    expect(v.settleBuild()).toBe(true);
    expect(v.settleBuild()).toBe(false);
  });
});
