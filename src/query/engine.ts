import { failedPrecondition, resourceExhausted } from '../common/errors.js';
import { ValueHashMap } from '../common/values/hash.js';
import type { Value } from '../common/values/value.js';
import { DateTimeValue } from '../common/values/index.js';
import { instantMicros } from '../projections/computed/computed-reads.js';
import type { GraphReader } from '../projections/graph/view.js';
import { WriteSet } from '../projections/graph/write-set.js';
import type { ReadLens } from '../projections/graph/read-lens.js';
import { bind } from './bind/index.js';
import type { BoundPath, BoundQuery } from './bind/bound-clause.js';
import type { BoundExpression } from './bind/bound-expression.js';
import type { BoundQueryStatement, BoundStatement } from './bind/bound-statement.js';
import { CypherError } from './errors.js';
import { Deadline, MemoryBudget, slice_ms_max } from './execute/budget.js';
import { compilePlan } from './execute/compile.js';
import { implicitTransactionRequired } from './execute/in-transactions-op.js';
import { zeroStats, type BatchCommits, type ExecContext, type PhysicalOp, type Row, type SubPlanner, type UpdateStats } from './execute/context.js';
import { ExpressionCompiler, missingParameter } from './execute/expression.js';
import { functionContext, GraphAccess } from './execute/graph-access.js';
import { withBuiltinProcedures } from './execute/builtin-procedures.js';
import { no_procedure_library, type ProcedureLibrary } from './execute/procedures.js';
import { rowBytes, type OpEnv } from './execute/read-ops.js';
import { no_csv_sources, type CsvSources } from './execute/csv/csv-source.js';
import { checkNoDanglingNodes } from './execute/write-ops.js';
import { abortReason, drive, finish, SliceScheduler, type Flow } from './execute/slices.js';
import { functionCatalog } from './functions/catalog.js';
import type { EpochInstant, TemporalClock } from './functions/context.js';
import { optimize } from './optimize/index.js';
import { parse } from './parse/index.js';
import { snapshotStatistics, type PropertyStatistics } from './execute/batch/column-statistics.js';
import { snapshotDegree } from './execute/batch/degree-statistics.js';
import { equalityClass, listClass, planBand, type Histogram } from './plan/histogram.js';
import { runValue } from './plan/parameter-values.js';
import { histogramValue } from './plan/selectivity.js';
import { DEGREE_SAMPLE_EDGES_MAX, DEGREE_SAMPLE_NODES, DISTINCT_SAMPLE_NODES, estimateDistinct, type DistinctEstimate, type GraphCounts, type ParameterUse } from './plan/cardinality.js';
import { explainPlan, explainStatement, no_indexes, type IndexCatalog, type QueryPlan } from './plan/explain.js';
import { inputsOf, type LogicalOp } from './plan/logical.js';
import { freeSlots } from './plan/expressions.js';
import { planPattern, type JoinPolicy } from './plan/plan-match.js';
import { planExpressionBody, planQuery } from './plan/planner.js';
import type { TransactionAdmin } from './execute/transaction-admin.js';

/**
 * The Cypher engine: text in, rows out.
 *
 *   parse -> bind -> plan -> optimize -> compile (physical operators) -> execute
 *
 * `prepare` does the first two once per text (cached); the plan is made per graph size class and
 * cached beside it; operators are compiled per execution, against that execution's graph, parameters
 * and limits. The engine knows nothing of the API: the server maps requests onto `prepare` and
 * `execute`, wrapping write statements in `Database.write`.
 */
export type StatementKind = 'read' | 'write' | 'schema' | 'session';

export interface Prepared {
  readonly text: string;
  readonly kind: StatementKind;
  /** `EXPLAIN <query>`: executing it returns the plan instead of running the query. */
  readonly explain: boolean;
  /** The bound statement; for 'schema' and 'session' the server dispatches on it. */
  readonly statement: BoundStatement;
  /** Result column names (empty for statements that return nothing). */
  readonly columns: readonly string[];
}

export interface ExecuteContext {
  /** Parameter values by name (without `$`). */
  readonly params: ReadonlyMap<string, Value>;
  readonly memory_limit_bytes: number;
  /**
   * What the write set may hold, at WRITE_ENTRY_BYTES per node or relationship it writes; none when
   * absent. Unlike the memory limit, a server setting the call cannot raise: a write set is the one
   * thing a statement holds until its commit has applied.
   */
  readonly write_set_limit_bytes?: number;
  /** Absolute deadline in ms since the epoch (as Date.now()); absent for none. */
  readonly deadline_ms?: number;
  /** The statement's clock reading, microseconds since the epoch (temporal functions without arguments). */
  readonly now_us: number;
  /**
   * The clock reading when the statement's transaction began, for `datetime.transaction()` and the
   * like: the same for every statement of an interactive transaction. Absent: the statement is its
   * own transaction and `now_us` serves.
   */
  readonly transaction_now_us?: number;
  /** Overrides the engine's procedure library for this execution. */
  readonly procedures?: ProcedureLibrary;
  /** The committed graph as of a commit_ts, for `AS OF TIMESTAMP`. */
  viewAt?(commit_ts: number): GraphReader;
  /** `graph` with temporal records read at a valid time (epoch microseconds), for `valid_at`. */
  validAt?(graph: GraphReader, valid_us: number): GraphReader;
  /** IANA zone or offset for temporal functions; UTC when absent. */
  readonly time_zone?: string;
  /** Uniform in [0, 1) for rand(); Math.random when absent. */
  readonly random?: () => number;
  /** Length of a time slice of `executeSliced`; `slice_ms_max` when absent. */
  readonly slice_ms?: number;
  /** Rows between clock reads (DEADLINE_CHECK_ROWS when absent); tests set 1 to pause at every row. */
  readonly clock_check_rows?: number;
  /**
   * The write set belongs to one transaction, whose statements run one at a time: nothing else
   * writes into it, so `executeSliced` may pause its write statements too.
   */
  readonly writes_private?: boolean;
  /**
   * VectorConsistency from the request, else the session, else the server's default for the read
   * concern; a `vector_consistency` hint in the statement overrides it. SNAPSHOT when absent.
   */
  readonly vector_consistency?: 'current' | 'snapshot' | 'exact';
  /**
   * How a statement that writes reads the nodes of its write set: computed properties evaluated at
   * the time its base reader shows them (docs/computed-properties.md), so a node it created or whose
   * anchor it moved reads as it will read once written. Absent: as stored.
   */
  readonly write_lens?: ReadLens;
  /** How `CALL { } IN TRANSACTIONS` commits its batches; only the server's batch path gives it (executeSliced). */
  readonly batches?: BatchCommits;
  /** The member's running statements and open transactions, for SHOW and TERMINATE TRANSACTIONS; none listed when absent. */
  readonly transactions?: TransactionAdmin;
  /** Where LOAD CSV reads; every LOAD CSV is refused when absent. */
  readonly csv?: CsvSources;
}

export interface QueryResult {
  readonly columns: readonly string[];
  readonly rows: readonly (readonly Value[])[];
  readonly stats: UpdateStats;
}

export interface EngineOptions {
  readonly procedures?: ProcedureLibrary;
  readonly indexes?: IndexCatalog;
  /** Bound on cached prepared statements; the oldest goes first. */
  readonly statement_cache_entries_max?: number;
  /** Rewrite passes to leave out (tests compare plans with and without each). */
  readonly skip_passes?: ReadonlySet<string>;
  /** When paths of a MATCH are hash joined; 'cost' unless a test compares the alternatives. */
  readonly join_policy?: JoinPolicy;
  /** False runs every plan row at a time, without batched pipelines (tests compare the two); true by default. */
  readonly batched?: boolean;
}

export const statement_cache_entries_max_default = 1000;

const EXPLAIN_PREFIX = /^\s*EXPLAIN\s+/i;

/** One answer the planner had from the index catalog (a cost choice, e.g. a value hash join against a seek, rests on it). */
interface IndexAnswer {
  readonly label: string;
  readonly property: string;
  readonly has: boolean;
}

/** A plan as cached, with the index answers it was made under: a plan is made again once one of them changes. */
interface CachedPlan {
  readonly plan: LogicalOp;
  readonly asked: readonly IndexAnswer[];
  /** Properties whose column statistics the snapshot did not have yet: the plan is made again once it has them. */
  readonly unmeasured: readonly StatisticsAsk[];
  /** Parameters the planner weighed by a histogram, with the band of the value it weighed (see `plan`). */
  readonly parameters: readonly WeighedParameter[];
}

/**
 * A run value (a parameter, or an expression of parameters and literals) compared with `label.property` as `use`
 * says, whose value fell in `band`, its class by the property's histogram (`parameterClass`).
 */
interface WeighedParameter {
  readonly value: BoundExpression;
  readonly use: ParameterUse;
  readonly label: string;
  readonly property: string;
  readonly band: string;
}

/** Plans kept per prepared statement, over its size classes and parameter bands; the oldest goes first. */
const PLAN_VARIANTS_MAX = 16;

interface CacheEntry {
  readonly prepared: Prepared;
  readonly procedures_version: number;
}

export class QueryEngine {
  private readonly cache = new Map<string, CacheEntry>();
  /** Plans of each prepared statement by graph size class: a plan made for an empty graph is not kept for a large one. */
  private readonly plans = new WeakMap<Prepared, Map<string, CachedPlan>>();
  private readonly procedures: ProcedureLibrary;
  private readonly indexes: IndexCatalog;
  private readonly cacheMax: number;
  private readonly skipPasses: ReadonlySet<string>;
  private readonly joinPolicy: JoinPolicy;
  private readonly batched: boolean;
  private planHits = 0;
  /** Takes this engine's paused statements in turn, one slice per turn of the event loop. */
  private readonly slices = new SliceScheduler();
  private planMisses = 0;

  constructor(options: EngineOptions = {}) {
    this.procedures = withBuiltinProcedures(options.procedures ?? no_procedure_library);
    this.indexes = options.indexes ?? no_indexes;
    this.cacheMax = options.statement_cache_entries_max ?? statement_cache_entries_max_default;
    this.skipPasses = options.skip_passes ?? new Set();
    this.joinPolicy = options.join_policy ?? 'cost';
    this.batched = options.batched ?? true;
  }

  /** Parses and binds a statement (cached by text). Compile-time errors are CypherErrors. */
  prepare(text: string): Prepared {
    return this.entry(text).prepared;
  }

  /**
   * The plan of a statement without running it (SPEC ExplainCypher); with `params`, the plan a run with those
   * values would take (parameters weighed by histograms, see `plan`).
   */
  explain(text: string, graph: GraphReader, params?: ReadonlyMap<string, Value>): QueryPlan {
    const prepared = this.prepare(text);
    const s = prepared.statement;
    if (s.kind !== 'query') return explainStatement(s);
    // The plan takes its own counts, so a plan made before the snapshot had statistics is made again once it has.
    const plan = this.plan(prepared, s, graph, params);
    const counts = plannerCounts(graph);
    // The estimates shown weigh the parameters as the plan did.
    const parameter = (value: BoundExpression, _use: ParameterUse, label: string, property: string): Value | undefined =>
      params === undefined || counts.histogram?.(label, property) === undefined ? undefined : runValue(value, params);
    return explainPlan(plan, params === undefined ? counts : { ...counts, parameter }, this.indexes, s.variables.map((v) => v.name));
  }

  /** The vector searches a query statement's plan holds (label, key and metric of each). */
  vectorTargets(prepared: Prepared, graph: GraphReader): { label: string; key: string; metric: string }[] {
    const s = prepared.statement;
    if (s.kind !== 'query') return [];
    const out: { label: string; key: string; metric: string }[] = [];
    const visit = (op: LogicalOp): void => {
      if (op.op === 'vector_search') out.push({ label: op.label, key: op.key, metric: op.metric });
      for (const i of inputsOf(op)) visit(i);
    };
    visit(this.plan(prepared, s, graph));
    return out;
  }

  /**
   * Runs a prepared query statement. Writes go to `graph`, which must then be a WriteSet; reads may
   * use either. Throws CypherError for Cypher failures and WeftError for limits (memory, deadline).
   */
  execute(prepared: Prepared, graph: GraphReader, ctx: ExecuteContext): QueryResult {
    // Run in one go, a statement cannot wait for its batches' commits: only executeSliced can.
    if (prepared.statement.kind === 'query' && prepared.statement.in_transactions === true && !prepared.explain) throw implicitTransactionRequired();
    const started = this.start(prepared, graph, ctx, false);
    if (!('flow' in started)) return started;
    return runtimeLimits(() => {
      finish(started.flow);
      return started.result();
    });
  }

  /**
   * Runs a read statement in time slices (`slice_ms_max`), giving the event loop back between them so
   * one long statement cannot stall the server; `signal` stops it at its next slice (the call was
   * cancelled or passed its deadline). Write statements run as `execute` does: a write executes
   * against the latest state with no other write in between (docs/query-engine.md, Time slices).
   */
  async executeSliced(prepared: Prepared, graph: GraphReader, ctx: ExecuteContext, signal?: AbortSignal): Promise<QueryResult> {
    // A call cancelled (or a statement terminated) while it waited to start runs nothing: the driver
    // looks at the signal only between slices, and a short statement ends within its first.
    if (signal?.aborted === true) throw abortReason(signal);
    if (prepared.kind === 'write' && ctx.writes_private !== true) return this.execute(prepared, graph, ctx);
    const started = this.start(prepared, graph, ctx, true, signal);
    if (!('flow' in started)) return started;
    try {
      await drive(started.flow, started.deadline, signal, ctx.slice_ms ?? slice_ms_max, this.slices);
    } catch (e) {
      return runtimeLimits(() => {
        throw e;
      });
    }
    return started.result();
  }

  /** Checks, plans and compiles a statement, and starts it; the result is read once its flow ends. */
  private start(prepared: Prepared, graph: GraphReader, ctx: ExecuteContext, sliced: boolean, signal?: AbortSignal): QueryResult | Started {
    const statement = prepared.statement;
    if (statement.kind !== 'query') {
      throw failedPrecondition(`a ${prepared.kind} statement is carried out by the server, not the query engine`);
    }
    if (prepared.explain) {
      const plan = this.explain(prepared.text, graph, ctx.params);
      return { columns: ['plan'], rows: [[plan.details.explain ?? '']], stats: zeroStats() };
    }
    for (const p of statement.parameters) if (!ctx.params.has(p)) throw missingParameter(p);
    const target = this.atValidTime(statement, statement.as_of === undefined ? graph : this.asOf(statement.as_of, ctx), ctx);
    if (statement.updating && !(target instanceof WriteSet)) {
      throw failedPrecondition('a write statement must run against a write set');
    }
    return runtimeLimits(() => {
      // The pipeline from bound statement to rows (parse and bind happened in `prepare`):
      const logical = this.plan(prepared, statement, target, ctx.params); // plan + optimize, cached
      const cx = this.context(statement, target, ctx, sliced, signal);
      const physical = cx.subplan(logical); // compile to physical operators
      if (sliced) cx.deadline.beginSlice(ctx.slice_ms ?? slice_ms_max);
      const { flow, rows } = run(logical, physical, cx); // execute: the first slice runs here
      return {
        flow,
        deadline: cx.deadline,
        result: (): QueryResult => {
          if (cx.writes !== undefined && statement.updating) checkNoDanglingNodes(cx.writes);
          return { columns: prepared.columns, rows, stats: cx.stats };
        },
      };
    });
  }

  /** Prepared-plan cache counters since the engine started (SPEC 9 metrics). */
  planCacheStats(): PlanCacheStats {
    return { hits: this.planHits, misses: this.planMisses, entries: this.cache.size };
  }

  private entry(text: string): CacheEntry {
    const cached = this.cache.get(text);
    if (cached !== undefined && cached.procedures_version === this.procedures.version) {
      // Refresh recency: Map iteration order is insertion order.
      this.cache.delete(text);
      this.cache.set(text, cached);
      return cached;
    }
    const prepared = prepareStatement(text, this.procedures);
    const entry: CacheEntry = { prepared, procedures_version: this.procedures.version };
    this.cache.set(text, entry);
    if (this.cache.size > this.cacheMax) this.cache.delete(this.cache.keys().next().value as string);
    return entry;
  }

  /**
   * plan, then optimize; cached per prepared statement and graph size class. The planner's counts
   * (samples of degrees and distinct values) are taken on a miss only: a hit costs two lookups, and
   * one look at the snapshot's kept lists per property the plan was made without statistics of.
   *
   * With `params` (a run, or EXPLAIN given values), a parameter compared with a property that has a histogram is weighed
   * as a literal would be (`p.age > $min` keeps the histogram's share above this run's value). Every plan is
   * correct for any value (no rewrite depends on one: a seek or a start only changes the cost), so a plan is
   * re-made rather than made robust: it is kept under the bands its parameters' values fell in (planBand: the
   * histogram bucket near the ends, wider bands towards the middle), and a run whose values fall in other bands
   * plans again, under those. Values in one band keep shares too alike to move a seek, a start or a join.
   */
  private plan(prepared: Prepared, statement: BoundQueryStatement, target: GraphReader, params?: ReadonlyMap<string, Value>): LogicalOp {
    let byClass = this.plans.get(prepared);
    if (byClass === undefined) this.plans.set(prepared, (byClass = new Map()));
    const graph = target instanceof WriteSet ? target.baseReader : target;
    // Plans made without parameter values (EXPLAIN without them) weigh none, and are kept apart.
    const key = `${sizeClass(graph.stats())}${params === undefined ? '\u0002' : ''}`;
    const latest = byClass.get(key);
    const cached = latest === undefined || latest.parameters.length === 0 || params === undefined ? latest : byClass.get(variantKey(key, bandsOf(latest.parameters, params, graph)));
    if (cached !== undefined && this.indexAnswersHold(cached) && !statisticsArrived(cached, target)) {
      this.planHits++;
      return cached.plan;
    }
    this.planMisses++;
    const asked: IndexAnswer[] = [];
    const indexed = (label: string, property: string): boolean => {
      const has = this.indexes.hasIndex(label, [property]);
      asked.push({ label, property, has });
      return has;
    };
    const unmeasured: StatisticsAsk[] = [];
    const measured = plannerCounts(target, unmeasured);
    const parameters: WeighedParameter[] = [];
    const parameter = (value: BoundExpression, use: ParameterUse, label: string, property: string): Value | undefined => {
      const h = measured.histogram?.(label, property);
      const v = params === undefined ? undefined : runValue(value, params);
      if (h === undefined || v === undefined) return undefined;
      if (!parameters.some((p) => p.value === value && p.use === use && p.label === label && p.property === property)) {
        parameters.push({ value, use, label, property, band: parameterClass(h, use, v) });
      }
      return v;
    };
    const weighed: GraphCounts = { ...measured, indexed, ...(params !== undefined && { parameter }) };
    const plan = optimize(planQuery(statement.query, weighed, this.joinPolicy), { counts: weighed }, this.skipPasses);
    const made: CachedPlan = { plan, asked, unmeasured, parameters };
    byClass.delete(key);
    byClass.set(key, made);
    if (parameters.length > 0) byClass.set(variantKey(key, parameters.map((p) => p.band)), made);
    while (byClass.size > PLAN_VARIANTS_MAX) byClass.delete(byClass.keys().next().value as string);
    return plan;
  }

  /** Whether every index the planner asked about is still there, or still absent, as it was answered. */
  private indexAnswersHold(cached: CachedPlan): boolean {
    for (const a of cached.asked) if (this.indexes.hasIndex(a.label, [a.property]) !== a.has) return false;
    return true;
  }

  private asOf(expression: BoundExpression, ctx: ExecuteContext): GraphReader {
    const v = expression.kind === 'literal' ? expression.value : expression.kind === 'parameter' ? (ctx.params.get(expression.name) ?? null) : null;
    if (typeof v !== 'bigint' || v < 0n) {
      throw new CypherError('ArgumentError', 'runtime', 'InvalidArgumentValue', 'AS OF TIMESTAMP needs a non-negative INTEGER commit timestamp');
    }
    if (ctx.viewAt === undefined) throw failedPrecondition('AS OF TIMESTAMP is not available here');
    return ctx.viewAt(Number(v));
  }

  /** The reader of a statement with a `valid_at` hint: its datetime evaluated once, before any row. */
  private atValidTime(statement: BoundQueryStatement, graph: GraphReader, ctx: ExecuteContext): GraphReader {
    const e = statement.hints.valid_at;
    if (e === undefined) return graph;
    const at = runtimeLimits(() => {
      const cx = this.context(statement, graph, ctx);
      const row = new Array<Value>(statement.variables.length).fill(null);
      return new ExpressionCompiler(cx, new GraphAccess(graph, undefined)).compile(e)(row);
    });
    if (!(at instanceof DateTimeValue)) {
      throw new CypherError('ArgumentError', 'runtime', 'InvalidArgumentValue', 'valid_at needs a DATETIME, such as datetime(\'2024-03-01T00:00Z\')');
    }
    if (ctx.validAt === undefined) throw failedPrecondition('valid_at is not available here: it reads a snapshot, not a transaction');
    return ctx.validAt(graph, instantMicros(at)!);
  }

  private context(statement: BoundQueryStatement, graph: GraphReader, ctx: ExecuteContext, sliced = false, signal?: AbortSignal): ExecContext {
    const writes = graph instanceof WriteSet ? graph : undefined;
    const access = new GraphAccess(graph, writes, writes === undefined ? undefined : ctx.write_lens);
    const instant = instantOf(ctx.now_us);
    const began = ctx.transaction_now_us === undefined ? instant : instantOf(ctx.transaction_now_us);
    const clock: TemporalClock = { statement: () => instant, transaction: () => began, realtime: realtimeInstant };
    // Only statements that plan at run time (subqueries, pattern expressions) need the counts.
    let measured: GraphCounts | undefined;
    const counts = (): GraphCounts => (measured ??= plannerCounts(graph));
    const skip = this.skipPasses;
    const planner: SubPlanner = {
      pattern: (paths, where, reads) => {
        const outer = boundSlots(paths);
        const plan = planPattern({ op: 'argument' }, paths, where, new Set(outer), { counts: counts(), joins: 'never' });
        return optimize(plan, { outer, read_outside: reads === undefined ? new Set() : freeSlots(reads) }, skip);
      },
      query: (query: BoundQuery) => optimize(planExpressionBody(query, counts(), this.joinPolicy), {}, skip),
    };
    const cx: ExecContext = {
      graph,
      writes,
      params: ctx.params,
      functions: functionContext(access, {
        clock,
        defaultTimeZone: ctx.time_zone ?? 'UTC',
        random: ctx.random ?? Math.random,
      }),
      memory: new MemoryBudget(ctx.memory_limit_bytes),
      write_set_limit_bytes: ctx.write_set_limit_bytes ?? Number.POSITIVE_INFINITY,
      deadline: new Deadline(ctx.deadline_ms ?? Infinity, Date.now, ctx.clock_check_rows),
      stats: zeroStats(),
      procedures: ctx.procedures !== undefined ? withBuiltinProcedures(ctx.procedures) : this.procedures,
      indexes: this.indexes,
      width: statement.variables.length,
      vector_consistency: statement.hints.vector_consistency ?? ctx.vector_consistency ?? 'snapshot',
      ...(statement.hints.vector_ef !== undefined && { vector_ef: statement.hints.vector_ef }),
      candidates: new Map(),
      batches: ctx.batches,
      transactions: ctx.transactions,
      csv: ctx.csv ?? no_csv_sources,
      can_wait: sliced,
      signal,
      planner,
      subplan: (plan) => compilePlan(plan, env),
    };
    const env: OpEnv = { cx, access, exprs: new ExpressionCompiler(cx, access), batched: this.batched };
    return cx;
  }
}

/** parse + bind, and the statement's kind and columns. */
function prepareStatement(text: string, procedures: ProcedureLibrary): Prepared {
  const explain = EXPLAIN_PREFIX.test(text);
  const body = explain ? text.replace(EXPLAIN_PREFIX, '') : text;
  const statement = bind(parse(body), { functions: functionCatalog, procedures });
  switch (statement.kind) {
    case 'query':
      return { text, kind: statement.updating ? 'write' : 'read', explain, statement, columns: explain ? ['plan'] : statement.query.columns };
    case 'session_set':
      return { text, kind: 'session', explain, statement, columns: [] };
    default:
      return { text, kind: 'schema', explain, statement, columns: [] };
  }
}

/** A statement under way: its flow, and its result once the flow has ended. */
interface Started {
  readonly flow: Flow;
  readonly deadline: Deadline;
  result(): QueryResult;
}

export interface PlanCacheStats {
  /** Executions that found their plan cached (per statement text and graph size class). */
  readonly hits: number;
  /** Executions that planned and cached. */
  readonly misses: number;
  /** Prepared statements cached, at most `statement_cache_entries_max`. */
  readonly entries: number;
}

/**
 * A value too large for the runtime (an array beyond its length limit, recursion beyond the stack)
 * is this statement's failure, answered like any other resource limit.
 */
function runtimeLimits<T>(body: () => T): T {
  try {
    return body();
  } catch (e) {
    if (e instanceof RangeError) {
      throw resourceExhausted(`the statement exceeds what one statement may hold: ${e.message}`, 'EXCEEDS_MEMORY_BUDGET');
    }
    throw e;
  }
}

/** Starts the physical plan from an empty row; `rows` fills with the result columns as the flow runs. */
function run(logical: LogicalOp, physical: PhysicalOp, cx: ExecContext): { flow: Flow; rows: Value[][] } {
  const rows: Value[][] = [];
  const start: Row = new Array<Value>(cx.width).fill(null);
  if (logical.op !== 'produce') return { flow: physical(start, () => true), rows };
  const slots = logical.columns.map((c) => c.slot);
  const memory = cx.memory;
  const flow = physical(start, (row) => {
    const out = slots.map((s) => row[s] as Value);
    memory.reserve(rowBytes(out));
    rows.push(out);
    return true;
  });
  return { flow, rows };
}

/** Slots a nested pattern finds bound in the enclosing row. */
function boundSlots(paths: readonly BoundPath[]): Set<number> {
  const out = new Set<number>();
  for (const p of paths) {
    for (const n of p.nodes) if (n.bound) out.add(n.variable.id);
    for (const r of p.relationships) if (r.bound) out.add(r.variable.id);
  }
  return out;
}

/**
 * The graph's counts for the planner, with degrees per label from the degree summaries of the snapshot's
 * CSRs where it keeps them (degree-statistics.ts), else measured on a sample of the label's nodes (the
 * first DEGREE_SAMPLE_NODES the store lists), each measurement made once per planning.
 */
function plannerCounts(target: GraphReader, unmeasured?: StatisticsAsk[]): GraphCounts {
  // Samples read the committed state under a write set: a transaction's read set holds what its
  // statements read, not what the planner looked at to estimate.
  const graph = target instanceof WriteSet ? target.baseReader : target;
  const stats = graph.stats();
  const measured = new Map<string, number>();
  const degree = (label: string, types: readonly string[], direction: 'out' | 'in' | 'both'): number => {
    const key = `${label}\u0000${types.join('|')}\u0000${direction}`;
    const known = measured.get(key);
    if (known !== undefined) return known;
    const summarized = snapshotDegree(graph, label, types, direction);
    if (summarized !== undefined) {
      measured.set(key, summarized);
      return summarized;
    }
    let nodes = 0;
    let edges = 0;
    for (const n of graph.nodesWithLabel(label)) {
      let here = 0;
      for (const e of graph.edgesOf(n.id, direction, types.length === 1 ? types[0] : undefined)) {
        if (types.length > 1 && !types.includes(e.type)) continue;
        if (++here >= DEGREE_SAMPLE_EDGES_MAX) break;
      }
      edges += here;
      if (++nodes >= DEGREE_SAMPLE_NODES) break;
    }
    const average = nodes === 0 ? 0 : edges / nodes;
    measured.set(key, average);
    return average;
  };
  // Statistics from a strided sample of the whole label (with a histogram) where the snapshot keeps the
  // label's list; the first nodes of the label otherwise.
  const columnsOf = new Map<string, PropertyStatistics | undefined>();
  const columns = (label: string, property: string): PropertyStatistics | undefined => {
    const key = `${label}\u0000${property}`;
    if (columnsOf.has(key)) return columnsOf.get(key);
    const known = snapshotStatistics(graph, label, property);
    columnsOf.set(key, known);
    if (known === undefined) unmeasured?.push({ label, property });
    return known;
  };
  const distinctOf = new Map<string, DistinctEstimate>();
  const distinct = (label: string, property: string): DistinctEstimate => {
    const measured = columns(label, property)?.distinct;
    if (measured !== undefined) return measured;
    const key = `${label}\u0000${property}`;
    let known = distinctOf.get(key);
    if (known === undefined) distinctOf.set(key, (known = sampleDistinct(graph, label, property, stats.label_counts.get(label) ?? 0)));
    return known;
  };
  const histogram = (label: string, property: string): Histogram | undefined => columns(label, property)?.histogram;
  const strings = (label: string, property: string): readonly string[] | undefined => columns(label, property)?.strings;
  return { ...stats, degree, distinct, histogram, strings };
}

/** The key of a plan made for parameter values in `bands`. */
function variantKey(key: string, bands: readonly string[]): string {
  return `${key}\u0001${bands.join(',')}`;
}

/** The classes this run's values of `parameters` fall in, by the snapshot's histograms ('x': no value, or no histogram now). */
function bandsOf(parameters: readonly WeighedParameter[], params: ReadonlyMap<string, Value>, graph: GraphReader): string[] {
  return parameters.map((p) => {
    const v = runValue(p.value, params);
    const h = snapshotStatistics(graph, p.label, p.property)?.histogram;
    return v === undefined || h === undefined ? 'x' : parameterClass(h, p.use, v);
  });
}

/**
 * The class of a weighed value that keeps plans apart: for a range, the band of the histogram it falls in
 * (planBand); for an equality, the power of two of the share it keeps (equalityClass); for IN, those of the list's
 * length and of the share its values keep (listClass). A value of another kind (null, a list where a number was
 * compared) has a class of its own per kind: it keeps no row, whatever the plan.
 */
function parameterClass(h: Histogram, use: ParameterUse, v: Value): string {
  if (use === 'in') return Array.isArray(v) ? listClass(h, (v as readonly Value[]).map(histogramValue)) : `k${kindOf(v)}`;
  const x = histogramValue(v);
  if (x === undefined) return `k${kindOf(v)}`;
  return use === 'range' ? `r${planBand(h, x)}` : equalityClass(h, x);
}

function kindOf(v: Value): string {
  return v === null ? 'null' : Array.isArray(v) ? 'list' : v instanceof Map ? 'map' : typeof v === 'object' ? v.constructor.name : typeof v;
}

/** A property of a label's nodes the planner asked statistics of. */
interface StatisticsAsk {
  readonly label: string;
  readonly property: string;
}

/** Whether the snapshot now has statistics the plan was made without (a label's list kept since). */
function statisticsArrived(cached: CachedPlan, target: GraphReader): boolean {
  if (cached.unmeasured.length === 0) return false;
  const graph = target instanceof WriteSet ? target.baseReader : target;
  return cached.unmeasured.some((a) => snapshotStatistics(graph, a.label, a.property) !== undefined);
}

/** Distinct values of `property` over the first DISTINCT_SAMPLE_NODES nodes of `label` (of `population`). */
function sampleDistinct(graph: GraphReader, label: string, property: string, population: number): DistinctEstimate {
  const seen = new ValueHashMap<number>();
  let nodes = 0;
  let present = 0;
  for (const n of graph.nodesWithLabel(label)) {
    const v = n.props.get(property);
    if (v !== undefined) {
      present++;
      seen.set(v, (seen.get(v) ?? 0) + 1);
    }
    if (++nodes >= DISTINCT_SAMPLE_NODES) break;
  }
  if (nodes === 0) return { values: 0, present: 0 };
  let once = 0;
  for (const [, c] of seen.entries()) if (c === 1) once++;
  const fraction = present / nodes;
  return { values: estimateDistinct(present, seen.size, once, Math.round(population * fraction)), present: fraction };
}

/** Plans are reused while the graph stays within a factor of two of the size they were made for. */
function sizeClass(counts: Pick<GraphCounts, 'nodes' | 'edges'>): string {
  return `${Math.ceil(Math.log2(counts.nodes + 1))}:${Math.ceil(Math.log2(counts.edges + 1))}`;
}

function instantOf(us: number): EpochInstant {
  const epochSecond = Math.floor(us / 1_000_000);
  return { epochSecond, nano: (us - epochSecond * 1_000_000) * 1000 };
}

/**
 * `*.realtime()`: the wall clock at each call, to the microsecond. Date.now() counts milliseconds; the
 * high-resolution clock adds the microseconds when it agrees with it to the millisecond (it does not
 * follow adjustments of the wall clock, so then the millisecond reading stands alone).
 */
function realtimeInstant(): EpochInstant {
  const wall_us = Date.now() * 1000;
  const fine_us = Math.floor((performance.timeOrigin + performance.now()) * 1000);
  return instantOf(fine_us >= wall_us && fine_us < wall_us + 1000 ? fine_us : wall_us);
}
