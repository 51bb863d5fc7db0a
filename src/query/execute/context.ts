import type { Value } from '../../common/values/value.js';
import type { NodeState } from '../../projections/graph/records.js';
import type { GraphReader } from '../../projections/graph/view.js';
import type { WriteSet } from '../../projections/graph/write-set.js';
import type { BoundPath, BoundQuery } from '../bind/bound-clause.js';
import type { BoundExpression } from '../bind/bound-expression.js';
import type { FunctionContext } from '../functions/context.js';
import type { IndexCatalog } from '../plan/explain.js';
import type { LogicalOp } from '../plan/logical.js';
import type { Deadline, MemoryBudget } from './budget.js';
import type { CsvSources } from './csv/csv-source.js';
import type { ProcedureLibrary } from './procedures.js';
import type { Flow } from './slices.js';
import type { TransactionAdmin } from './transaction-admin.js';

/**
 * A row: one value per slot of the statement (`BoundVariable.id`). Operators write the slots they
 * introduce in place as rows stream through; an operator that keeps rows (sort, eager, a join's
 * build side) keeps copies.
 */
export type Row = Value[];

/**
 * Receives one row; answers false to stop the producer (LIMIT reached, or the consumer is done), or
 * a generator when the row's work paused for the event loop (slices.ts).
 */
export type Sink = (row: Row) => Flow;

/**
 * A physical operator: run once per argument row, it streams its rows into the sink. It answers false
 * when the sink stopped it, so enclosing loops stop too; a generator when it paused.
 */
export type PhysicalOp = (arg: Row, sink: Sink) => Flow;

/** A compiled expression over a row. */
export type Evaluator = (row: Row) => Value;

/** The counters of QueryStats that a statement's writes move. */
export interface UpdateStats {
  nodes_created: number;
  nodes_deleted: number;
  edges_created: number;
  edges_deleted: number;
  properties_set: number;
  labels_added: number;
  labels_removed: number;
}

export function zeroStats(): UpdateStats {
  return { nodes_created: 0, nodes_deleted: 0, edges_created: 0, edges_deleted: 0, properties_set: 0, labels_added: 0, labels_removed: 0 };
}

/** Everything one execution of a statement needs; built per execution, shared by its operators. */
export interface ExecContext {
  readonly graph: GraphReader;
  /** Present for statements that write. */
  readonly writes: WriteSet | undefined;
  readonly params: ReadonlyMap<string, Value>;
  readonly functions: FunctionContext;
  readonly memory: MemoryBudget;
  /** What the write set may hold, in bytes at WRITE_ENTRY_BYTES per entry (write-ops.ts `charged`). */
  readonly write_set_limit_bytes: number;
  readonly deadline: Deadline;
  readonly stats: UpdateStats;
  readonly procedures: ProcedureLibrary;
  /** Index lookups for scans with a property equality, when the catalog offers them. */
  readonly indexes: IndexCatalog;
  /** Number of slots of a row. */
  readonly width: number;
  /** How vector searches read (SPEC VectorConsistency), hint first, then the request and the session. */
  readonly vector_consistency: 'current' | 'snapshot' | 'exact';
  /** The HNSW beam of vector searches (the `vector_ef` hint); `ef_search_min` when absent. */
  readonly vector_ef?: number;
  /**
   * Nodes a vector search hands to the label scan of a slot while it runs the scan over them; the
   * scan reads these instead of its label while the entry is present.
   */
  readonly candidates: Map<number, Iterable<NodeState>>;
  /** How `CALL { } IN TRANSACTIONS` commits its batches; absent where a statement cannot commit mid-run. */
  readonly batches: BatchCommits | undefined;
  /** The member's running statements and open transactions (SHOW and TERMINATE TRANSACTIONS); absent outside a server or Db. */
  readonly transactions: TransactionAdmin | undefined;
  /** Where LOAD CSV reads its URLs. */
  readonly csv: CsvSources;
  /**
   * Whether the statement runs under a driver (`executeSliced`), which can wait for what an operator
   * sets in `Deadline.waiting`; a statement run in one go cannot (LOAD CSV of a remote source needs it).
   */
  readonly can_wait: boolean;
  /** The call's cancellation, which the driver checks between slices; a wait of an operator ends early on it too. */
  readonly signal: AbortSignal | undefined;
  /** Compiles a nested plan (a pattern in an expression, an EXISTS body) in this context. */
  subplan(plan: LogicalOp): PhysicalOp;
  /** Plans the patterns and queries nested in expressions. */
  readonly planner: SubPlanner;
}

/** Plans the patterns and queries nested in expressions, with the enclosing row as argument. */
export interface SubPlanner {
  /** `reads`: an expression evaluated on the plan's rows afterwards (a comprehension's projection). */
  pattern(paths: readonly BoundPath[], where: BoundExpression | undefined, reads?: BoundExpression): LogicalOp;
  query(query: BoundQuery): LogicalOp;
}

/**
 * Commits a statement's writes while it runs, for `CALL { } IN TRANSACTIONS`: supplied by the server
 * around an auto-committed statement's write set, whose writes it proposes through the ordinary write
 * path (checks at apply, change feed, replication).
 */
export interface BatchCommits {
  /**
   * Proposes everything the write set holds since the last proposal or rollback as one log entry and
   * starts the write set over on the newest state, which shows the entry (pending on the leader), so
   * the next batch may run while this one commits. A refusal (a constraint, a conflict with a write
   * that came between) rejects here, and the write set is started over without it. `committed`
   * resolves to the entry's log index (0 when nothing was written) once the call's write concern holds.
   */
  propose(): Promise<ProposedBatch>;
  /** Drops what the write set holds since the last proposal and starts it over on the newest state. */
  rollback(): Promise<void>;
  /** A name for the next inner transaction, unique on this member (REPORT STATUS's transactionId). */
  transactionId(): string;
  /** Resolves after `ms` milliseconds: ON ERROR RETRY's back-off between two tries of a batch. */
  sleep(ms: number): Promise<void>;
  /** Milliseconds on the clock ON ERROR RETRY measures its duration with. */
  now(): number;
}

/** A batch's entry once proposed: refusals are behind it, the wait for its write concern is not. */
export interface ProposedBatch {
  /** The entry's log index; 0 when the batch wrote nothing. */
  readonly index: number;
  /** Resolves to `index` when the write concern holds; rejects when it cannot (leadership lost, a timeout). */
  readonly committed: Promise<number>;
}
