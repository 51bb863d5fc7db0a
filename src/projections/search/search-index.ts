import type { SearchIndexSpec } from '../../log/events.js';
import type { NodeRecord } from '../graph/records.js';
import { TextIndex } from './text-index.js';
import { VectorIndex } from './vector-index.js';

/**
 * The search side of an index generation: a vector or text index kept current at apply, like a
 * B-tree generation's entries. It holds the latest state of each node (pending writes included); a
 * reader at an older snapshot re-checks every candidate against the version it sees.
 */
export type SearchIndex = VectorIndex | TextIndex;

export function createSearchIndex(spec: SearchIndexSpec, label: string, properties: readonly string[]): SearchIndex {
  switch (spec.kind) {
    case 'vector':
      return new VectorIndex(spec, label, properties[0] ?? '');
    case 'text':
      return new TextIndex(spec.analyzer, label, properties);
  }
}

/** What every search index does at apply: take a record's latest state, or forget a node. */
export interface SearchMaintenance {
  refresh(record: NodeRecord): void;
  forget(id: number): void;
  /** Nodes held: a build's progress count. */
  count(): number;
  /** Estimated bytes held in memory. */
  bytes(): number;
}
