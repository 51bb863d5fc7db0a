import { prng } from '../support/prng.js';

/**
 * Vectors with structure: `clusters` centres drawn uniformly, each point a centre plus small noise,
 * as embeddings of similar things cluster. Deterministic from the seed.
 */
export function clusteredVectors(seed: number, n: number, d: number, clusters: number): Float32Array[] {
  const r = prng(seed);
  const centres = [...Array(clusters).keys()].map(() => Float32Array.from({ length: d }, () => r() * 2 - 1));
  return [...Array(n).keys()].map((i) => {
    const c = centres[i % clusters]!;
    return Float32Array.from(c, (x) => x + (r() - 0.5) * 0.4);
  });
}

export function euclidean(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i]! - b[i]!) ** 2;
  return Math.sqrt(s);
}

/** Ids of the k nearest by brute force (ties by id), among `ids` when given. */
export function bruteForce(vectors: readonly Float32Array[], q: Float32Array, k: number, keep: (i: number) => boolean = () => true): number[] {
  return vectors
    .map((v, i) => ({ i, d: euclidean(v, q) }))
    .filter((x) => keep(x.i))
    .sort((a, b) => a.d - b.d || a.i - b.i)
    .slice(0, k)
    .map((x) => x.i);
}
