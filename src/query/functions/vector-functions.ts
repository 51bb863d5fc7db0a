import type { Value } from '../../common/values/value.js';
import { vectorMetricDistance, type VectorMetricName } from '../../projections/search/vector-metrics.js';
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
 * `text_match(n.prop, query)` and `text_score(n.prop, query)` need a text index covering the
 * property: the expression compiler evaluates them with that index's analyzer and BM25 statistics,
 * and the planner starts a label scan from the index when text_match filters it.
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

const index_metrics: Readonly<Record<VectorMetric, VectorMetricName>> = { cosine: 'COSINE', euclidean: 'L2', manhattan: 'L1', dot: 'DOT' };

/** The distance vector indexes order by, so an index and this function never disagree. */
export function vectorDistance(a: ArrayLike<number>, b: ArrayLike<number>, metric: VectorMetric): number {
  if (a.length !== b.length) badValue('vector_distance', `dimensions differ: ${a.length} and ${b.length}`);
  return vectorMetricDistance(index_metrics[metric], a, b);
}

function textIndexRequired(name: string): never {
  throw new CypherError(
    'SemanticError',
    'runtime',
    'TextIndexRequired',
    `${name}() takes a node property as its first argument and needs a text index covering it`,
    'FAILED_PRECONDITION',
  );
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
  // Both are compiled against the text index by the expression compiler (execute/text-functions.ts);
  // these entries give the binder their arity, and refuse a call that reaches them some other way.
  scalar('text_match', 2, 2, () => textIndexRequired('text_match'), { requires: 'text_index' }),
  scalar('text_score', 2, 2, () => textIndexRequired('text_score'), { requires: 'text_index' }),
];
