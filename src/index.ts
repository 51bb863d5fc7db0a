/**
 * Weft embedded: open a data directory and run Cypher in-process.
 *
 *   const db = await open('./data');
 *   await db.query('CREATE (:Person {name: $name})', { name: 'Ada' });
 *   const { columns, rows } = await db.query('MATCH (p:Person) RETURN p.name');
 *   await db.close();
 *
 * Values follow the shared value model (src/common/values): INTEGER is a `bigint`, FLOAT a `number`,
 * maps are `Map`s, nodes and relationships are references by id. Reads run on the latest committed
 * state; writes are one log entry each, answered once journaled.
 */
import type { Value } from './common/values/value.js';
import type { ConcernWait } from './log/driver/log-driver.js';
import type { SearchIndexSpec } from './log/events.js';
import { Database, type DatabaseOptions } from './server/database.js';
import { indexCatalogOf } from './server/cypher-runner.js';
import { admitSchemaStatement } from './server/index-builds/cypher-ddl.js';
import { startSchemaRuntime, type SchemaRuntime } from './server/index-builds/schema-runtime.js';
import { zeroStats } from './query/execute/context.js';
import { readOnlyBatches } from './query/execute/in-transactions-op.js';
import type { SchemaEvent } from './log/events.js';
import { QueryEngine, type Prepared, type QueryResult } from './query/engine.js';
import { isWeftError } from './common/errors.js';
import { RunningTransactions, type StatementHandle } from './server/running-transactions.js';
import { abortReason } from './query/execute/slices.js';
import type { ProcedureLibrary } from './query/execute/procedures.js';
import type { IndexCatalog, QueryPlan } from './query/plan/explain.js';
import { applySessionSet, awaitVectorBuilds, type VectorSession } from './server/vector-reads.js';
import { readWithComputed, validTimeReader, wallClockMicros } from './server/computed/read-views.js';
import { ServerCsvSources, loadCsvSettings } from './server/load-csv/csv-sources.js';
import type { CsvSources } from './query/execute/csv/csv-source.js';

export type { Value } from './common/values/value.js';
export type { QueryResult, Prepared, ExecuteContext, StatementKind } from './query/engine.js';
export type { QueryPlan } from './query/plan/explain.js';
export { QueryEngine } from './query/engine.js';
export { ProcedureRegistry, type Procedure, type ProcedureLibrary } from './query/execute/procedures.js';
export { CypherError } from './query/errors.js';
export { WeftError } from './common/errors.js';
export type { SearchIndexSpec, TextAnalyzerName } from './log/events.js';
export type { PropertyDefinitionSpec, SchemaEvent } from './log/events.js';

export interface OpenOptions {
  /** Statement memory limit; 256 MiB when absent. */
  readonly memory_limit_bytes?: number;
  /** What a write statement's write set may hold (EXCEEDS_WRITE_SET_LIMIT), at 320 bytes per node or relationship; none when absent. */
  readonly write_set_limit_bytes?: number;
  /** Per-statement time limit in ms; none when absent. */
  readonly statement_timeout_ms?: number;
  /** Procedures callable with CALL. */
  readonly procedures?: ProcedureLibrary;
  readonly time_zone?: string;
  /** How long a schema statement (CREATE INDEX, CREATE CONSTRAINT) waits for its build, in seconds; 30 when absent. */
  readonly index_build_statement_wait_secs?: number;
  /** Index builds that run at once; 1 when absent. */
  readonly index_build_max_running?: number;
  /** Storage settings, as the server's config names them. */
  readonly mvcc_retention_secs?: number;
  readonly checkpoint_interval_entries?: number;
  readonly log_segment_bytes_max?: number;
  /** VectorConsistency of this Db's reads unless a hint or `SET vector_consistency` says otherwise; SNAPSHOT when absent. */
  readonly vector_consistency?: 'current' | 'snapshot' | 'exact';
  /** How long a statement waits for a vector index being built, in ms; 5000 when absent, 0 refuses at once. */
  readonly vector_build_wait_ms?: number;
  /** Memory all vector indexes may hold together, in MiB; a build that would pass it is refused. No limit when absent. */
  readonly vector_index_memory_mb?: number;
  /**
   * The directory LOAD CSV resolves `file:///` URLs in (relative: under the data directory); `import`
   * when absent, '' refuses file URLs.
   */
  readonly load_csv_import_dir?: string;
  /** Whether LOAD CSV reads `http://` and `https://` URLs; true when absent. */
  readonly load_csv_remote?: boolean;
}

export const embedded_memory_limit_bytes_default = 256 * 1024 * 1024;
export const embedded_statement_wait_secs_default = 30;
export const embedded_vector_build_wait_ms_default = 5000;

const journaled: ConcernWait = { acks: 1, level: 'journal', timeout_ms: 0 };

export class Db {
  private readonly engine: QueryEngine;
  private readonly indexes: IndexCatalog;
  /**
   * Index builds and checks of this database, as a server runs them: schema statements are admitted
   * here, and builds a crash interrupted are taken up again on open.
   */
  private readonly schema: SchemaRuntime;
  /** `SET vector_consistency` and `SET vector_build_wait`: this Db is one session. */
  private readonly session: VectorSession = {};
  /** Its statements while they run, for SHOW and TERMINATE TRANSACTIONS (each is its own implicit transaction). */
  private readonly transactions = new RunningTransactions();
  /** Where LOAD CSV reads. */
  private readonly csv: CsvSources;

  constructor(
    /** The member underneath: its log, projections and write path. */
    readonly database: Database,
    private readonly options: OpenOptions,
  ) {
    this.indexes = indexCatalogOf(database);
    this.csv = new ServerCsvSources(
      loadCsvSettings({
        data_dir: database.dataDir.path,
        load_csv_import_dir: options.load_csv_import_dir ?? 'import',
        load_csv_file_urls: 'ON',
        load_csv_remote: options.load_csv_remote === false ? 'OFF' : 'ON',
      }),
    );
    this.engine = new QueryEngine({ indexes: this.indexes, ...(options.procedures !== undefined ? { procedures: options.procedures } : {}) });
    this.schema = startSchemaRuntime(database, {
      index_build_max_running: options.index_build_max_running ?? 1,
      index_build_statement_wait_secs: options.index_build_statement_wait_secs ?? embedded_statement_wait_secs_default,
      ...(options.vector_index_memory_mb !== undefined ? { vector_index_memory_mb: options.vector_index_memory_mb } : {}),
      concern: () => journaled,
    });
  }

  /**
   * Runs one statement. Params are Cypher values by name (`$name`). A schema statement returns once
   * its build has published, or fails when the build does not finish within the statement wait (the
   * build goes on; the catalog shows it).
   */
  async query(text: string, params: Readonly<Record<string, Value>> = {}): Promise<QueryResult> {
    const prepared = this.engine.prepare(text);
    if (prepared.kind === 'schema') {
      await admitSchemaStatement(this.schema.admin, prepared.statement);
      return { columns: [], rows: [], stats: zeroStats() };
    }
    if (prepared.kind === 'session') {
      applySessionSet(prepared, this.session);
      return { columns: [], rows: [], stats: zeroStats() };
    }
    const vector_consistency = this.session.vector_consistency ?? this.options.vector_consistency ?? 'snapshot';
    await awaitVectorBuilds(this.database, this.engine, this.indexes, prepared, vector_consistency, {
      session: this.session.vector_build_wait_ms,
      server: this.options.vector_build_wait_ms ?? embedded_vector_build_wait_ms_default,
    });
    const handle = this.transactions.begin(text, new Map(Object.entries(params)));
    try {
      return await this.run(prepared, params, vector_consistency, handle);
    } finally {
      handle.end();
    }
  }

  /**
   * A query statement, in time slices: other calls are served between them, SHOW TRANSACTIONS lists it
   * and TERMINATE TRANSACTIONS stops it at its next slice (a write then proposes nothing).
   */
  private async run(prepared: Prepared, params: Readonly<Record<string, Value>>, vector_consistency: 'current' | 'snapshot' | 'exact', handle: StatementHandle): Promise<QueryResult> {
    const now_us = Date.now() * 1000;
    const ctx = {
      vector_consistency,
      params: new Map(Object.entries(params)),
      memory_limit_bytes: this.options.memory_limit_bytes ?? embedded_memory_limit_bytes_default,
      ...(this.options.write_set_limit_bytes !== undefined && { write_set_limit_bytes: this.options.write_set_limit_bytes }),
      ...(this.options.statement_timeout_ms !== undefined && { deadline_ms: Date.now() + this.options.statement_timeout_ms }),
      now_us,
      // Reads see what a server's reads see: computed properties and valid time at the read time.
      viewAt: (ts: number) => readWithComputed(this.database, this.database.viewAtTimestamp(ts), ts),
      validAt: validTimeReader(this.database, wallClockMicros),
      ...(this.options.time_zone !== undefined && { time_zone: this.options.time_zone }),
      transactions: this.transactions,
      csv: this.csv,
    };
    const signal = handle.signal;
    if (prepared.explain) return this.engine.execute(prepared, this.database.latestCommitted(), ctx);
    const batched = prepared.statement.kind === 'query' && prepared.statement.in_transactions === true;
    if (batched && prepared.kind === 'read') {
      // CALL { } IN TRANSACTIONS that writes nothing: nothing to commit between its batches.
      return this.engine.executeSliced(prepared, readWithComputed(this.database, this.database.latestCommitted(), now_us), { ...ctx, batches: readOnlyBatches() }, signal);
    }
    if (batched) {
      // CALL { } IN TRANSACTIONS: each batch is committed as it ends (docs/cypher.md 2.1).
      const { value } = await this.database.writeInBatches(
        (ws, batches) => this.engine.executeSliced(prepared, ws, { ...ctx, writes_private: true, batches }, signal),
        { concern: journaled, computed_at_us: now_us },
      );
      return value;
    }
    if (prepared.kind === 'read') return this.engine.executeSliced(prepared, readWithComputed(this.database, this.database.latestCommitted(), now_us), ctx, signal);
    const options = { concern: journaled, computed_at_us: now_us };
    try {
      const { value } = await this.database.writeSliced(async (ws) => {
        const result = await this.engine.executeSliced(prepared, ws, { ...ctx, writes_private: true }, signal);
        // Built: its entry is proposed now, and it commits whatever TERMINATE asks.
        handle.closing();
        return result;
      }, options);
      return value;
    } catch (e) {
      // Overtaken while paused by a write on what it read (another caller of this Db): run again in
      // one go, which nothing can overtake.
      if (!isWeftError(e) || e.reason !== 'TRANSACTION_CONFLICT') throw e;
      // Run in one go it cannot be stopped part way: a termination that came meanwhile ends it here.
      if (signal.aborted) throw abortReason(signal);
      handle.closing();
      const { value } = await this.database.write((ws) => this.engine.execute(prepared, ws, ctx), options);
      return value;
    }
  }

  /**
   * A vector or full-text index of one label, as `CREATE VECTOR INDEX` / `CREATE FULLTEXT INDEX` make
   * it; returns once its build has published (or fails as the DDL does).
   */
  async createSearchIndex(req: { name?: string; label: string; properties: readonly string[]; search: SearchIndexSpec; if_not_exists?: boolean }): Promise<void> {
    await this.schema.admin.createIndex({ name: req.name ?? '', label: req.label, properties: req.properties, if_not_exists: req.if_not_exists ?? false, search: req.search });
  }

  /**
   * A label definition, as the SchemaService's CreateLabel makes it (SPEC 4.3 rule 2): declared
   * properties, computed properties, schema mode, and whether it is temporal (docs/temporal.md).
   */
  async defineLabel(def: Omit<Extract<SchemaEvent, { kind: 'label_defined' }>, 'kind'>): Promise<void> {
    await this.schema.admin.defineLabel({ kind: 'label_defined', ...def });
  }

  /** An edge type definition, as CreateEdgeType makes it (SPEC 4.3 rule 3). */
  async defineEdgeType(def: Omit<Extract<SchemaEvent, { kind: 'edge_type_defined' }>, 'kind'>): Promise<void> {
    await this.schema.admin.defineEdgeType({ kind: 'edge_type_defined', ...def });
  }

  /** The plan of a statement, not run. */
  explain(text: string): QueryPlan {
    return this.engine.explain(text, this.database.latestCommitted());
  }

  /** Closes the database, letting writes under way reach their concern for up to `drain_ms`. */
  async close(drain_ms?: number): Promise<void> {
    this.schema.stop();
    await this.database.close(drain_ms);
  }
}

/** Opens (creating if needed) the data directory `dir`. */
export async function open(dir: string, options: OpenOptions = {}): Promise<Db> {
  const settings: DatabaseOptions = {
    data_dir: dir,
    node_id: 1,
    mvcc_retention_secs: options.mvcc_retention_secs ?? 300,
    checkpoint_interval_entries: options.checkpoint_interval_entries ?? 50_000,
    log_segment_bytes_max: options.log_segment_bytes_max ?? 64 * 1024 * 1024,
  };
  return new Db(await Database.open(settings), options);
}

/**
 * Bulk import from CSV files into a new data directory (or, with `into_existing`, one not open
 * anywhere), as `weft import` does; docs/import.md has the header format and the guarantees.
 *
 *   await importCsv('./data', { nodes: [{ labels: ['Person'], files: ['persons.csv'] }],
 *                               relationships: [{ type: 'KNOWS', files: ['knows.csv'] }] });
 */
export { importCsv, type ImportOptions, type ImportSummary, type NodeInput, type RelationshipInput } from './server/import/importer.js';
export type { ImportProgress, ImportPhase } from './server/import/progress.js';
export type { BadRow } from './server/import/bad-rows.js';
