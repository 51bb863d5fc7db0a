import type { Value } from '../../common/values/value.js';
import { cosine, squaredL2 } from '../../projections/search/vector-metrics.js';
import { arg, badValue, wrongType } from './args.js';
import { scalar, type ScalarFunction } from './definition.js';

/**
 * The vector similarity functions of the Neo4j 5 manual: `vector.similarity.cosine(a, b)` and
 * `vector.similarity.euclidean(a, b)` over two lists of numbers of one length, each a FLOAT in [0, 1]
 * where 1 is most similar. They are the similarity scores Neo4j's vector indexes report, so
 * `(1 + cos) / 2` and `1 / (1 + d²)`; Weft's own `vector_distance` measures distances instead.
 */

function numbers(fn: string, v: Value): Float64Array {
  if (!Array.isArray(v)) return wrongType(fn, 'a LIST of numbers', v);
  const items = v as readonly Value[];
  const out = new Float64Array(items.length);
  items.forEach((x, i) => {
    if (typeof x === 'number') out[i] = x;
    else if (typeof x === 'bigint') out[i] = Number(x);
    else wrongType(fn, 'a LIST of numbers', v);
  });
  return out;
}

function similarity(name: string, score: (a: Float64Array, b: Float64Array) => number | null): ScalarFunction {
  const fn = `vector.similarity.${name}`;
  return scalar(fn, 2, 2, (args) => {
    const [x, y] = [arg(args, 0), arg(args, 1)];
    if (x === null || y === null) return null;
    const a = numbers(fn, x);
    const b = numbers(fn, y);
    if (a.length !== b.length) badValue(fn, `the vectors have different dimensions: ${a.length} and ${b.length}`);
    if (a.length === 0) badValue(fn, 'the vectors are empty');
    return score(a, b);
  });
}

export const vectorSimilarityFunctions: readonly ScalarFunction[] = [
  // A zero vector has no direction, so its cosine similarity is unknown: null.
  similarity('cosine', (a, b) => {
    const c = cosine(a, b);
    return c === undefined ? null : (1 + Math.max(-1, Math.min(1, c))) / 2;
  }),
  similarity('euclidean', (a, b) => 1 / (1 + squaredL2(a, b))),
];
