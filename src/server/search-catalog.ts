import type { IndexCatalog } from '../query/plan/explain.js';
import { textIndexHandle, vectorIndexHandle } from '../projections/search/search-lookup.js';
import type { Database } from './database.js';

/** The planner's view of the member's vector and text indexes (see IndexCatalog). */
export function searchCatalogOf(db: Database): Required<Pick<IndexCatalog, 'vectorIndex' | 'textIndex' | 'currentNode'>> {
  const schema = db.sm.schema;
  return {
    vectorIndex: (label, property) => vectorIndexHandle(schema.catalog, schema.indexes, label, property),
    textIndex: (label, property) => textIndexHandle(schema.catalog, schema.indexes, label, property),
    currentNode: (id) => db.latestCommitted().node(id),
  };
}
