import { unimplemented } from '../common/errors.js';
import type { Value } from '../common/values/value.js';
import type { CypherCall, CypherOutcome, PlanNode } from '../api/query-service.js';
import type { GraphReader } from '../projections/graph/view.js';
import type { WriteSet } from '../projections/graph/write-set.js';
import type { Database } from './database.js';

/**
 * Runs Cypher statements for the member: reads on a snapshot, auto-committed writes through the write
 * path, statements of a transaction in its write set.
 */
export class CypherRunner {
  constructor(private readonly db: Database) {}

  autoCommit(call: CypherCall, view: GraphReader): Promise<CypherOutcome> {
    void this.db;
    void call;
    void view;
    return Promise.reject(unimplemented('the Cypher engine is not wired to this server yet'));
  }

  inTransaction(call: CypherCall, ws: WriteSet): Omit<CypherOutcome, 'applied_index' | 'commit_ts' | 'served_by_leader'> {
    void call;
    void ws;
    throw unimplemented('the Cypher engine is not wired to this server yet');
  }

  explain(text: string, params: ReadonlyMap<string, Value>): PlanNode {
    void text;
    void params;
    throw unimplemented('the Cypher engine is not wired to this server yet');
  }
}
