/**
 * The distance metrics of vector indexes (SPEC DistanceMetric) and their `vector_distance` names.
 * Distances follow `vector_distance`: smaller is closer (cosine: 1 - similarity, L2: Euclidean,
 * DOT: the negated inner product, L1: Manhattan).
 */
export type VectorMetricName = 'COSINE' | 'L2' | 'DOT' | 'L1';

export const metric_function_names: Readonly<Record<VectorMetricName, string>> = {
  COSINE: 'cosine',
  L2: 'euclidean',
  DOT: 'dot',
  L1: 'manhattan',
};

export function vectorMetricDistance(metric: VectorMetricName, a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  let acc = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    switch (metric) {
      case 'COSINE':
      case 'DOT':
        dot += x * y;
        na += x * x;
        nb += y * y;
        break;
      case 'L2':
        acc += (x - y) * (x - y);
        break;
      case 'L1':
        acc += Math.abs(x - y);
        break;
    }
  }
  switch (metric) {
    case 'COSINE':
      return na === 0 || nb === 0 ? 1 : 1 - dot / Math.sqrt(na * nb);
    case 'DOT':
      return -dot;
    case 'L2':
      return Math.sqrt(acc);
    case 'L1':
      return acc;
  }
}
