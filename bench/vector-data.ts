/**
 * Benchmark vectors with structure: `clusters` centres drawn from a seeded generator, each vector a
 * centre plus Gaussian noise, as embeddings of related things cluster. Queries are drawn the same way
 * (fresh points near the same centres), so the nearest neighbours are not the query itself.
 */
/** The benches draw from the tests' seeded generator, so one seed means one data set everywhere. */
import { prng as seeded } from '../test/support/prng.js';

export { seeded };

export interface VectorSet {
  readonly data: Float32Array[];
  readonly queries: Float32Array[];
}

export function clusteredSet(seed: number, n: number, queries: number, dims: number, clusters: number, spread: number): VectorSet {
  const r = seeded(seed);
  const gauss = (): number => Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());
  const centres = [...Array(clusters).keys()].map(() => Float32Array.from({ length: dims }, () => gauss()));
  const point = (): Float32Array => {
    const c = centres[Math.floor(r() * clusters)]!;
    return Float32Array.from(c, (x) => x + gauss() * spread);
  };
  return { data: [...Array(n).keys()].map(point), queries: [...Array(queries).keys()].map(point) };
}

/** Exact k nearest by squared Euclidean distance (ids are positions in `data`). */
export function exactKnn(data: readonly Float32Array[], q: Float32Array, k: number): number[] {
  const best: { i: number; d: number }[] = [];
  for (let i = 0; i < data.length; i++) {
    const v = data[i]!;
    let s = 0;
    for (let j = 0; j < v.length; j++) s += (v[j]! - q[j]!) ** 2;
    if (best.length < k || s < best[best.length - 1]!.d) {
      best.push({ i, d: s });
      best.sort((a, b) => a.d - b.d);
      if (best.length > k) best.pop();
    }
  }
  return best.map((b) => b.i);
}

export function recallAt(got: readonly number[], want: readonly number[]): number {
  const w = new Set(want);
  return got.filter((x) => w.has(x)).length / want.length;
}
