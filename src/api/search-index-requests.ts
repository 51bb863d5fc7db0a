import type { MessageShape } from '@bufbuild/protobuf';
import { invalidArgument } from '../common/errors.js';
import type { SearchIndexSpec, TextAnalyzerName } from '../log/events.js';
import type { IndexRequest } from '../projections/catalog/requests.js';
import { vector_index_ef_construction_default, vector_index_m_default } from '../projections/catalog/validate.js';
import { DistanceMetric, TextAnalyzer, type CreateSearchIndexRequestSchema } from '../gen/weft/v2/schema_pb.js';

/**
 * CreateSearchIndex's request as schema admission takes it. Zero HNSW settings take the defaults
 * Cypher DDL uses; the admission checks every bound.
 */

const analyzers: Readonly<Record<number, TextAnalyzerName>> = {
  [TextAnalyzer.UNSPECIFIED]: 'standard',
  [TextAnalyzer.STANDARD]: 'standard',
  [TextAnalyzer.WHITESPACE]: 'whitespace',
  [TextAnalyzer.KEYWORD]: 'keyword',
  [TextAnalyzer.ENGLISH]: 'english',
};

const metrics: Readonly<Record<number, 'COSINE' | 'L2' | 'DOT' | 'L1'>> = {
  [DistanceMetric.UNSPECIFIED]: 'COSINE',
  [DistanceMetric.COSINE]: 'COSINE',
  [DistanceMetric.L2]: 'L2',
  [DistanceMetric.DOT]: 'DOT',
  [DistanceMetric.L1]: 'L1',
};

export function searchIndexRequestFromWire(req: MessageShape<typeof CreateSearchIndexRequestSchema>, wait_ms: number | undefined): IndexRequest {
  if (req.label === '') throw invalidArgument('label is required', 'INVALID_INDEX', { field: 'label' });
  if (req.properties.length === 0) throw invalidArgument('properties: one or more are required', 'INVALID_INDEX', { field: 'properties' });
  return {
    name: req.name,
    label: req.label,
    properties: req.properties,
    if_not_exists: req.ifNotExists,
    ...(wait_ms !== undefined ? { wait_ms } : {}),
    search: specOf(req.kind),
  };
}

function specOf(kind: MessageShape<typeof CreateSearchIndexRequestSchema>['kind']): SearchIndexSpec {
  switch (kind.case) {
    case 'vector': {
      const metric = metrics[kind.value.metric];
      if (metric === undefined) throw invalidArgument(`vector.metric: unknown distance metric ${kind.value.metric}`, 'INVALID_INDEX');
      return {
        kind: 'vector',
        dimensions: kind.value.dimensions,
        metric,
        m: kind.value.m === 0 ? vector_index_m_default : kind.value.m,
        ef_construction: kind.value.efConstruction === 0 ? vector_index_ef_construction_default : kind.value.efConstruction,
      };
    }
    case 'text': {
      const analyzer = analyzers[kind.value.analyzer];
      if (analyzer === undefined) throw invalidArgument(`text.analyzer: unknown analyzer ${kind.value.analyzer}`, 'INVALID_INDEX');
      return { kind: 'text', analyzer };
    }
    case undefined:
      throw invalidArgument('one of vector or text is required', 'INVALID_INDEX', { field: 'kind' });
  }
}
