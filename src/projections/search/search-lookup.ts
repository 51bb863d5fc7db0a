import type { Catalog } from '../catalog/catalog.js';
import type { IndexRecord } from '../catalog/types.js';
import type { IndexStore } from '../indexes/index-store.js';
import type { TextIndex } from './text-index.js';
import { documentMatches } from './text-query.js';
import type { VectorHit, VectorIndex } from './vector-index.js';
import { metric_function_names, type VectorMetricName } from './vector-metrics.js';

/**
 * The query engine's entry to vector and text indexes: the index of a label and property, whether
 * its first build has published, and its searches. Answers are node ids from the index's latest
 * state; the engine resolves them through its reader, so a snapshot sees only what it should.
 */
export interface VectorIndexHandle {
  readonly name: string;
  readonly metric: VectorMetricName;
  /** `vector_distance`'s name of the metric. */
  readonly metric_function: string;
  readonly dimensions: number;
  /** The first build has published: the index answers. Otherwise it is being built. */
  readonly ready: boolean;
  /** Vectors held (the label's nodes with a vector of the index's width). */
  readonly size: number;
  /** False for L1, which is answered by exact search. */
  readonly approximate: boolean;
  /**
   * Log index of the latest change to the vectors held (`VectorIndex.changedAt`): a snapshot at or
   * after it sees every held vector as held, so hits' distances are distances to its versions.
   */
  readonly changed_at: number;
  search(query: Float32Array, k: number, ef: number, accept?: (id: number) => boolean): readonly VectorHit[];
}

export interface TextIndexHandle {
  readonly name: string;
  readonly analyzer: string;
  readonly ready: boolean;
  /** Nodes whose latest text matches, ascending ids. */
  matching(query: string): readonly number[];
  /** Whether node `id`'s text (the version a reader sees) matches the query under the index's analyzer. */
  matches(id: number, text: string, query: string): boolean;
  /** BM25 of node `id`'s text under the index's current statistics. */
  score(id: number, text: string, query: string): number;
}

function find(catalog: Catalog, label: string, property: string, kind: 'vector' | 'text'): IndexRecord | undefined {
  let best: IndexRecord | undefined;
  for (const i of catalog.indexesOfLabel(label)) {
    if (i.search?.kind !== kind || !i.properties.includes(property)) continue;
    // A ready index before one still building; among equals the oldest.
    if (best === undefined || (best.serving === undefined && i.serving !== undefined)) best = i;
  }
  return best;
}

export function vectorIndexHandle(catalog: Catalog, store: IndexStore, label: string, property: string): VectorIndexHandle | undefined {
  const record = find(catalog, label, property, 'vector');
  const gen = record === undefined ? undefined : store.get(record.serving ?? record.filling ?? -1);
  const index = gen?.search;
  if (record === undefined || index?.kind !== 'vector') return undefined;
  const v: VectorIndex = index;
  return {
    name: record.name,
    metric: v.metric,
    metric_function: metric_function_names[v.metric],
    dimensions: v.dimensions,
    ready: record.serving !== undefined,
    size: v.count(),
    approximate: v.approximate,
    changed_at: v.changedAt,
    search: (query, k, ef, accept) => v.search(query, k, ef, accept),
  };
}

export function textIndexHandle(catalog: Catalog, store: IndexStore, label: string, property: string): TextIndexHandle | undefined {
  const record = find(catalog, label, property, 'text');
  const gen = record === undefined ? undefined : store.get(record.serving ?? record.filling ?? -1);
  const index = gen?.search;
  if (record === undefined || index?.kind !== 'text') return undefined;
  const t: TextIndex = index;
  return {
    name: record.name,
    analyzer: t.analyzer,
    ready: record.serving !== undefined,
    matching: (query) => t.matching(property, t.parse(query)),
    matches: (id, text, query) => documentMatches(t.termsOf(property, id, text), t.parse(query)),
    score: (id, text, query) => t.score(property, t.termsOf(property, id, text), t.parse(query)),
  };
}

