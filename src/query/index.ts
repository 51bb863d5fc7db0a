/**
 * The Cypher engine's surface for the server: prepare a statement, run it against a graph reader or
 * a write set, explain it. Nothing here knows of the API's wire types.
 */
export {
  QueryEngine,
  statement_cache_entries_max_default,
  type EngineOptions,
  type ExecuteContext,
  type Prepared,
  type QueryResult,
  type StatementKind,
} from './engine.js';
export type { UpdateStats } from './execute/context.js';
export { ProcedureRegistry, no_procedure_library, type Procedure, type ProcedureLibrary } from './execute/procedures.js';
export { no_indexes, type IndexCatalog, type IndexSuggestion, type QueryPlan } from './plan/explain.js';
export { CypherError, type CypherErrorPhase, type CypherErrorType } from './errors.js';
