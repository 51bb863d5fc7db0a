import type { Value } from '../../common/values/value.js';
import { CypherError } from '../errors.js';
import { arg, badValue, stringArg, wrongType } from './args.js';
import { scalar, type ScalarFunction } from './definition.js';

/**
 * Weft's search functions. `vector_distance(a, b [, metric])` compares two vectors (a VECTOR property
 * and a vector parameter, or lists of numbers) and returns a FLOAT distance: smaller is closer. Metrics:
 * `cosine` (default; 1 - cosine similarity), `euclidean` (L2), `manhattan` (L1) and `dot` (negated
 * inner product, so that smaller is still closer). The planner may push a `vector_distance` ordering
 * into a vector index; this implementation is the exact fallback and the reference for it.
 *
 * `text_match(property, text)` is answered only by a text index: the catalog marks it with
 * `requires: 'text_index'` so the planner rewrites it into an index lookup, and the evaluator refuses it
 * when no text index covers the property. Called directly it raises that refusal.
 */

export const VECTOR_METRICS = ['cosine', 'euclidean', 'manhattan', 'dot'] as const;
export type VectorMetric = (typeof VECTOR_METRICS)[number];

function asVector(v: Value): ArrayLike<number> {
  if (v instanceof Float32Array) return v;
  if (Array.isArray(v)) {
    const out = new Float64Array(v.length);
    (v as readonly Value[]).forEach((x, i) => {
      if (typeof x === 'number') out[i] = x;
      else if (typeof x === 'bigint') out[i] = Number(x);
      else wrongType('vector_distance', 'a VECTOR or a LIST of numbers', v);
    });
    return out;
  }
  return wrongType('vector_distance', 'a VECTOR or a LIST of numbers', v);
}

export function vectorDistance(a: ArrayLike<number>, b: ArrayLike<number>, metric: VectorMetric): number {
  if (a.length !== b.length) badValue('vector_distance', `dimensions differ: ${a.length} and ${b.length}`);
  let dot = 0;
  let na = 0;
  let nb = 0;
  let l1 = 0;
  let l2 = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    dot += x * y;
    na += x * x;
    nb += y * y;
    l1 += Math.abs(x - y);
    l2 += (x - y) * (x - y);
  }
  switch (metric) {
    case 'cosine':
      return na === 0 || nb === 0 ? 1 : 1 - dot / Math.sqrt(na * nb);
    case 'euclidean':
      return Math.sqrt(l2);
    case 'manhattan':
      return l1;
    case 'dot':
      return -dot;
  }
}

export const searchFunctions: readonly ScalarFunction[] = [
  scalar('vector_distance', 2, 3, (args) => {
    const [a, b] = [arg(args, 0), arg(args, 1)];
    if (a === null || b === null) return null;
    let metric: VectorMetric = 'cosine';
    if (args.length > 2) {
      const m = arg(args, 2);
      if (m === null) return null;
      const name = stringArg('vector_distance', m).toLowerCase();
      if (!(VECTOR_METRICS as readonly string[]).includes(name)) badValue('vector_distance', `unknown metric '${name}'`);
      metric = name as VectorMetric;
    }
    return vectorDistance(asVector(a), asVector(b), metric);
  }),
  scalar(
    'text_match',
    2,
    2,
    () => {
      throw new CypherError(
        'SemanticError',
        'runtime',
        'TextIndexRequired',
        'text_match() needs a text index on the property it searches, and none exists',
        'FAILED_PRECONDITION',
      );
    },
    { requires: 'text_index' },
  ),
];
