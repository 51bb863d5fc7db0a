import { resourceExhausted } from '../../common/errors.js';
import type { SearchIndexSpec } from '../../log/events.js';
import type { Database } from '../database.js';

/**
 * Vector indexes live in memory (SPEC 1), so their total is bounded by a server setting
 * (`vector_index_memory_mb`). A new build is refused at admission when what the indexes hold now
 * plus an estimate of the new one (every node of the label with a vector, its links and headroom
 * for the HNSW graph's growth) would pass the budget. Writes to a ready index are not refused: the
 * budget bounds what builds add, and /metrics shows what the indexes hold.
 */
const bytes_per_mb = 1024 * 1024;
/** Bookkeeping per HNSW element besides the vector and its links, in bytes. */
const element_overhead_bytes = 64;

export function vectorIndexBytes(db: Database): number {
  let total = 0;
  for (const gen of db.sm.schema.indexes.all()) if (gen.search?.kind === 'vector') total += gen.search.bytes();
  return total;
}

/** Vectors held by vector indexes and bytes held by text indexes, over every generation. */
export function searchIndexTotals(db: Database): { vectors: number; text_bytes: number } {
  let vectors = 0;
  let text_bytes = 0;
  for (const gen of db.sm.schema.indexes.all()) {
    if (gen.search?.kind === 'vector') vectors += gen.search.count();
    else if (gen.search?.kind === 'text') text_bytes += gen.search.bytes();
  }
  return { vectors, text_bytes };
}

export function estimateVectorIndexBytes(nodes: number, spec: Extract<SearchIndexSpec, { kind: 'vector' }>): number {
  // The vector is held twice (the HNSW copy and the one exact search and compaction read).
  return nodes * (spec.dimensions * 4 * 2 + spec.m * 3 * 4 + element_overhead_bytes);
}

export function checkVectorBudget(db: Database, label: string, spec: Extract<SearchIndexSpec, { kind: 'vector' }>, budget_mb: number): void {
  if (budget_mb <= 0) return;
  const nodes = db.sm.graph.stats().label_counts.get(label) ?? 0;
  const held = vectorIndexBytes(db);
  const wanted = estimateVectorIndexBytes(nodes, spec);
  const budget = budget_mb * bytes_per_mb;
  if (held + wanted > budget) {
    const mb = (b: number): string => (b / bytes_per_mb).toFixed(1);
    throw resourceExhausted(
      `a vector index of ${label} (${nodes} nodes x ${spec.dimensions} dimensions) needs about ${mb(wanted)} MiB; vector indexes hold ${mb(held)} MiB of the ${budget_mb} MiB vector_index_memory_mb allows`,
      'VECTOR_MEMORY_BUDGET',
      { label, needed_mb: mb(wanted), held_mb: mb(held), budget_mb: String(budget_mb) },
    );
  }
}
