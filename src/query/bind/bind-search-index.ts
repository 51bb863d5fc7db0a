import type { Expression, LiteralValue } from '../ast/expression.js';
import type { SearchIndexClause } from '../ast/statement.js';
import type { Span } from '../ast/span.js';
import type { BoundSearchIndex } from './bound-statement.js';
import { vector_dimensions_max, vector_index_ef_construction_default, vector_index_m_default } from '../../projections/catalog/validate.js';
import { bindError } from './context.js';

/**
 * The OPTIONS of `CREATE VECTOR INDEX` and `CREATE FULLTEXT INDEX`, in Neo4j's spelling:
 *
 *   OPTIONS {indexConfig: {`vector.dimensions`: 16, `vector.similarity_function`: 'cosine',
 *                          `vector.hnsw.m`: 16, `vector.hnsw.ef_construction`: 100}}
 *   OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}}
 *
 * Values are literals. An unknown key is refused, so a misspelt setting is not silently ignored.
 */

const similarity_functions: Readonly<Record<string, 'COSINE' | 'L2' | 'DOT' | 'L1'>> = {
  cosine: 'COSINE',
  euclidean: 'L2',
  l2: 'L2',
  dot: 'DOT',
  manhattan: 'L1',
  l1: 'L1',
};

const analyzers = ['standard', 'whitespace', 'keyword', 'english'] as const;

export function bindSearchIndex(s: SearchIndexClause, properties: readonly string[]): BoundSearchIndex {
  const config = indexConfig(s.options, s.span);
  if (s.kind === 'fulltext') {
    const analyzer = text(config, 'fulltext.analyzer', s.span) ?? 'standard';
    for (const key of config.keys()) if (key !== 'fulltext.analyzer') throw unknownKey(key, s.span);
    const a = analyzers.find((x) => x === analyzer.toLowerCase());
    if (a === undefined) throw bindError('InvalidArgumentValue', `fulltext.analyzer is one of ${analyzers.join(', ')}, not '${analyzer}'`, s.span);
    return { kind: 'text', analyzer: a };
  }
  if (properties.length !== 1) throw bindError('InvalidArgumentValue', 'a vector index covers exactly one property', s.span);
  const known = new Set(['vector.dimensions', 'vector.similarity_function', 'vector.hnsw.m', 'vector.hnsw.ef_construction']);
  for (const key of config.keys()) if (!known.has(key)) throw unknownKey(key, s.span);
  const dimensions = integer(config, 'vector.dimensions', s.span);
  if (dimensions === undefined) throw bindError('InvalidArgumentValue', 'a vector index needs indexConfig `vector.dimensions`', s.span);
  if (dimensions < 1 || dimensions > vector_dimensions_max) {
    throw bindError('InvalidArgumentValue', `vector.dimensions is 1 to ${vector_dimensions_max}, not ${dimensions}`, s.span);
  }
  const fn = (text(config, 'vector.similarity_function', s.span) ?? 'cosine').toLowerCase();
  const metric = similarity_functions[fn];
  if (metric === undefined) {
    throw bindError('InvalidArgumentValue', `vector.similarity_function is one of ${Object.keys(similarity_functions).join(', ')}, not '${fn}'`, s.span);
  }
  return {
    kind: 'vector',
    dimensions,
    metric,
    m: integer(config, 'vector.hnsw.m', s.span) ?? vector_index_m_default,
    ef_construction: integer(config, 'vector.hnsw.ef_construction', s.span) ?? vector_index_ef_construction_default,
  };
}

function unknownKey(key: string, span: Span) {
  return bindError('InvalidArgumentValue', `unknown index setting '${key}'`, span);
}

/** `{indexConfig: {...}}` as a map of literal values; no OPTIONS is an empty map. */
function indexConfig(options: Expression | undefined, span: Span): Map<string, LiteralValue> {
  const out = new Map<string, LiteralValue>();
  if (options === undefined) return out;
  if (options.kind !== 'map') throw bindError('InvalidArgumentValue', 'OPTIONS takes a map', span);
  for (const e of options.entries) {
    if (e.key !== 'indexConfig') throw bindError('InvalidArgumentValue', `unknown index option '${e.key}' (known: indexConfig)`, span);
    if (e.value.kind !== 'map') throw bindError('InvalidArgumentValue', 'indexConfig takes a map', span);
    for (const c of e.value.entries) {
      if (c.value.kind !== 'literal') throw bindError('InvalidArgumentValue', `index setting '${c.key}' takes a literal value`, span);
      out.set(c.key, c.value.value);
    }
  }
  return out;
}

function text(config: ReadonlyMap<string, LiteralValue>, key: string, span: Span): string | undefined {
  const v = config.get(key);
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw bindError('InvalidArgumentValue', `index setting '${key}' takes a string`, span);
  return v;
}

function integer(config: ReadonlyMap<string, LiteralValue>, key: string, span: Span): number | undefined {
  const v = config.get(key);
  if (v === undefined) return undefined;
  if (typeof v !== 'bigint') throw bindError('InvalidArgumentValue', `index setting '${key}' takes an integer`, span);
  return Number(v);
}
