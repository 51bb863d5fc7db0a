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

/**
 * One loop per metric, no branch inside it: the top-k above a vector search computes this for every
 * row it orders, so it is on every query's path.
 */
export function vectorMetricDistance(metric: VectorMetricName, a: ArrayLike<number>, b: ArrayLike<number>): number {
  switch (metric) {
    case 'COSINE':
      return cosineDistance(a, b);
    case 'DOT':
      return -dotProduct(a, b);
    case 'L2':
      return Math.sqrt(squaredL2(a, b));
    case 'L1':
      return manhattan(a, b);
  }
}

function cosineDistance(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const c = cosine(a, b);
  return c === undefined ? 1 : 1 - c;
}

/** The cosine of the angle between two vectors of one length; undefined when one has no direction (all zeros). */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number | undefined {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? undefined : dot / Math.sqrt(na * nb);
}

function dotProduct(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!;
  return dot;
}

export function squaredL2(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let acc = 0;
  for (let i = 0; i < a.length; i++) {
    const t = a[i]! - b[i]!;
    acc += t * t;
  }
  return acc;
}

function manhattan(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let acc = 0;
  for (let i = 0; i < a.length; i++) acc += Math.abs(a[i]! - b[i]!);
  return acc;
}
