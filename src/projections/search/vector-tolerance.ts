import type { VectorMetricName } from './vector-metrics.js';

/**
 * Proven bounds on how far hnswlib's distance for a hit may lie from `vector_distance` of the same
 * two vectors, so a search can order hits by the index's distances and compute exact ones only where
 * two hits are too close to tell apart (query/execute/vector-order.ts).
 *
 * hnswlib computes in 32-bit floats, with SIMD lanes summed in an order that depends on the CPU (and
 * perhaps fused multiply-adds, flushed subnormals); `vector_distance` computes in 64-bit floats over
 * the same 32-bit components. Every bound below holds for any summation order, with or without
 * fused multiply-adds, and covers subnormals flushed to zero (inputs and results) by an absolute
 * term of smallest normals. The 64-bit side's own rounding (2^-53 per step) is covered by taking
 * twice each margin. Notation: u = 2^-24 (unit roundoff of 32-bit floats), g(n) = n u / (1 - n u)
 * (the classic bound on n roundings in a row), d the dimensions.
 */
const u = 2 ** -24;
const normal_min = 2 ** -126;
const gamma = (n: number): number => (n * u) / (1 - n * u);

/**
 * COSINE: hnswlib normalises both vectors in 32-bit floats (the sum of squares, its square root, one
 * division per component) only when that sum neither underflows nor overflows. Squared norms in
 * [2^-60, 2^60] keep it far from both: the squares flushed to zero then lose at most d 2^-126 of at
 * least 2^-60, a relative d 2^-66 (`omega`). Outside, no bound: the hit is measured.
 */
export const cosine_norm_squared_min = 2 ** -60;
export const cosine_norm_squared_max = 2 ** 60;

/** Extra for squared norms near the ends of the range above, relative: d 2^-66. */
const omega = (d: number): number => d * 2 ** -66;

/**
 * What the COSINE and DOT bounds need of a search besides each hit's distance (64-bit Euclidean
 * norms, each at most 2^-30 relatively below the true one; the bounds allow for that).
 */
export interface SearchNorms {
  /** The query's norm. */
  readonly query: number;
  /** DOT: at least the norm of every vector the index holds. */
  readonly held_max: number;
}

/**
 * A bound on |HNSW's distance - `vector_distance`| for one hit at `distance` (in `vector_distance`'s
 * terms). `norms` is needed by COSINE and DOT (without it: Infinity, the hit is measured); a COSINE
 * caller passes it only when the held vector's squared norm lies in the range above.
 *
 * - L2: hnswlib returns S, the sum of d squared differences, each difference, square and addition
 *   rounded. With nonnegative terms, |S - exact| <= (d + 2) u S plus (2 d + 4) smallest normals near
 *   underflow. Twice that margin is taken; `vector_distance` (sqrt of a 64-bit sum) lies within the
 *   square roots of the bounds.
 * - COSINE: the held vector x is stored as x' with x'_i = (x_i / |x|)(1 + e_i) + t_i, where
 *   |e_i| <= E = g(d + 4) + 4 omega (the sum of squares within g(d) + omega of |x|^2, one rounding of
 *   the root, one of the division) and |t_i| <= 2^-126 (a flushed quotient); the query likewise. Its
 *   similarity S' = fl(x' . q') then lies within 2E + E^2 (the components' errors, by
 *   Cauchy-Schwarz on the unit vectors) + g(d)(1 + E)^2 (the 32-bit dot product of vectors of norm
 *   at most 1 + E) + (4d + 4) 2^-126 (flushed terms) of the exact cosine similarity, and 1 - S' is
 *   rounded once more (3u: it is below 3). Twice the sum is taken: a constant per width, about 790u
 *   (4.7e-5) at 128 dimensions.
 * - DOT: hnswlib returns 1 - S' with S' = fl(x . q); |S' - x . q| <= g(d) sum |x_i q_i| <=
 *   g(d) |x| |q| (Cauchy-Schwarz; |x| <= held_max) plus the flushed terms, at most
 *   2^-126 (d + sqrt(d) (|q| + held_max)); then 1 - S' is rounded (u |1 - S'|) and the distance
 *   (1 - S') - 1 formed in 64 bits (u |distance| covers it). Twice the sum is taken.
 * - L1 is answered exactly: 0.
 */
export function distanceTolerance(metric: VectorMetricName, dimensions: number, distance: number, norms?: SearchNorms): number {
  const d = dimensions;
  switch (metric) {
    case 'L2': {
      const s = distance * distance;
      const slack = 2 * ((d + 2) * u * s + (2 * d + 4) * normal_min);
      return Math.max(Math.sqrt(s + slack) - distance, distance - Math.sqrt(Math.max(0, s - slack)));
    }
    case 'L1':
      return 0;
    case 'COSINE': {
      if (norms === undefined || !cosineNormalisable(norms.query * norms.query)) return Infinity;
      return cosineTolerance(d);
    }
    case 'DOT': {
      if (norms === undefined) return Infinity;
      // The norms are 64-bit sums that may lie a little below the true norms.
      const q = norms.query * (1 + 2 ** -30);
      const x = norms.held_max * (1 + 2 ** -30);
      const flushed = normal_min * (d + Math.sqrt(d) * (q + x));
      const t = 2 * (gamma(d) * q * x + flushed + u * (Math.abs(distance) + 1) * (1 + 2 * u) + u * Math.abs(distance));
      return Number.isFinite(t) ? t : Infinity;
    }
  }
}

/** Whether hnswlib's 32-bit normalisation of a vector with this squared norm (64-bit) is bounded above. */
export function cosineNormalisable(normSquared: number): boolean {
  return normSquared >= cosine_norm_squared_min && normSquared <= cosine_norm_squared_max;
}

/** The COSINE bound (see distanceTolerance), the same for every hit of a width. */
function cosineTolerance(d: number): number {
  const e = gamma(d + 4) + 4 * omega(d);
  return 2 * (2 * e + e * e + gamma(d) * (1 + e) ** 2 + (4 * d + 4) * normal_min + 3 * u);
}

/** The Euclidean norm in 64-bit floats. */
export function euclideanNorm(v: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i]! * v[i]!;
  return Math.sqrt(s);
}
