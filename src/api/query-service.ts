import { failedPrecondition, invalidArgument } from '../common/errors.js';
import type { Value } from '../common/values/value.js';
import type { ConcernWait } from '../log/driver/log-driver.js';
import type { ExpectedVersion } from '../log/events.js';
import { resolveWriteConcern, type ConcernDefaults, type WriteConcernRequest } from '../log/write-concern.js';
import type { Change } from '../projections/change-feed.js';
import { ChangeOperation, QueryService, type ChangeEventSchema, type ExecuteCypherRequest, type QueryPlanSchema } from '../gen/weft/v1/query_pb.js';
import { Journal, ReadConcernLevel, ReadPreference, WriteConcernMode, type ReadConcern, type WriteConcern } from '../gen/weft/v1/consistency_pb.js';
import type { MessageInitShape } from '@bufbuild/protobuf';
import { implement, type CallContext, type RegisteredService } from './handlers.js';
import { edgeToWire, nodeToWire, valueFromWire, valueToWire, type RefResolver } from './value-codec.js';

/**
 * QueryService (SPEC 4.1): Cypher statements, interactive transactions and the change feed. This
 * file turns requests into checked calls (read and write concern rules, limits) and answers; the
 * server runs them.
 */
export type ReadLevel = 'LOCAL' | 'MAJORITY' | 'LINEARIZABLE' | 'SNAPSHOT';

/** One Cypher statement to run, with every request rule already applied. */
export interface CypherCall {
  readonly text: string;
  readonly params: ReadonlyMap<string, Value>;
  readonly level: ReadLevel;
  /** Causal fence: wait until this member applied this index; 0 for none. */
  readonly after_index: number;
  /** SNAPSHOT pin (HLC microseconds); 0 for none. */
  readonly at_timestamp: number;
  readonly concern: ConcernWait;
  /** 0n: the statement commits on its own. */
  readonly transaction_id: bigint;
  readonly memory_limit_bytes: number;
  readonly deadline_ms?: number;
  readonly signal: AbortSignal;
  readonly vector_consistency: 'CURRENT' | 'SNAPSHOT' | 'EXACT' | undefined;
  readonly vector_build_wait_ms: number | undefined;
}

export interface CypherStats {
  readonly nodes_created: number;
  readonly nodes_deleted: number;
  readonly edges_created: number;
  readonly edges_deleted: number;
  readonly properties_set: number;
}

export interface CypherOutcome {
  readonly columns: readonly string[];
  readonly rows: readonly (readonly Value[])[];
  readonly stats: CypherStats;
  /** Resolves node and relationship values of the rows (the snapshot the statement read). */
  readonly refs: RefResolver;
  readonly applied_index: number;
  /** The commit_ts the statement's writes landed at; 0 for reads and inside a transaction. */
  readonly commit_ts: number;
  readonly served_by_leader: boolean;
  /** Set by a read-only member (SPEC 9.4): commit_ts of the last entry it applied; absent or 0 otherwise. */
  readonly read_as_of_ts?: number;
}

export interface PlanNode {
  readonly operator: string;
  readonly details: Readonly<Record<string, string>>;
  readonly children: readonly PlanNode[];
  readonly estimated_rows: number;
}

export interface QueryBackend {
  readonly members: number;
  readonly defaults: {
    readonly read_concern: ReadLevel;
    readonly concern: ConcernDefaults;
    readonly query_memory_limit_mb: number;
    readonly vector_build_wait_ms: number;
  };
  runCypher(call: CypherCall): Promise<CypherOutcome>;
  explainCypher(text: string, params: ReadonlyMap<string, Value>): PlanNode;
  begin(): { id: bigint; snapshot_ts: number };
  commit(id: bigint, expect: readonly ExpectedVersion[], concern: ConcernWait): Promise<{ index: number; commit_ts: number }>;
  rollback(id: bigint): void;
  watch(from_ts: number, signal: AbortSignal): AsyncIterable<readonly Change[]>;
}

export const query_memory_limit_mb_max = 4096;

export function queryService(backend: QueryBackend): RegisteredService {
  return implement(QueryService, {
    async executeCypher(req, ctx) {
      const call = checkExecute(req, ctx, backend);
      const started = performance.now();
      const out = await backend.runCypher(call);
      return {
        columns: [...out.columns],
        rows: out.rows.map((row) => ({ values: row.map((v) => valueToWire(v, out.refs)) })),
        stats: {
          nodesCreated: BigInt(out.stats.nodes_created),
          nodesDeleted: BigInt(out.stats.nodes_deleted),
          edgesCreated: BigInt(out.stats.edges_created),
          edgesDeleted: BigInt(out.stats.edges_deleted),
          propertiesSet: BigInt(out.stats.properties_set),
          executionTimeMs: BigInt(Math.round(performance.now() - started)),
          appliedIndex: BigInt(out.applied_index),
          servedByLeader: out.served_by_leader,
          commitTs: BigInt(out.commit_ts),
          readAsOfTs: BigInt(out.read_as_of_ts ?? 0),
        },
      };
    },

    async explainCypher(req) {
      if (req.query.trim() === '') throw invalidArgument('query is empty');
      return { plan: planToWire(backend.explainCypher(req.query, paramsOf(req.parameters))) };
    },

    async beginTransaction() {
      const tx = backend.begin();
      return { transactionId: tx.id, snapshotTs: BigInt(tx.snapshot_ts) };
    },

    async commitTransaction(req) {
      if (req.transactionId === 0n) throw invalidArgument('transaction_id is required');
      const expect = req.expect.map((e, i): ExpectedVersion => {
        if (e.nodeId === 0n) throw invalidArgument(`expect[${i}].node_id is required`);
        if (e.version === 0n) throw invalidArgument(`expect[${i}].version is 0, which is never a version; omit it to require that the node not exist`);
        return e.version === undefined ? { node_id: Number(e.nodeId) } : { node_id: Number(e.nodeId), version: Number(e.version) };
      });
      const receipt = await backend.commit(req.transactionId, expect, resolveWriteConcern(undefined, backend.defaults.concern, backend.members));
      return { appliedIndex: BigInt(receipt.index), commitTs: BigInt(receipt.commit_ts) };
    },

    async rollbackTransaction(req) {
      if (req.transactionId === 0n) throw invalidArgument('transaction_id is required');
      backend.rollback(req.transactionId);
      return {};
    },

    async *watchChanges(req, ctx) {
      const labels = new Set(req.labels);
      const types = new Set(req.edgeTypes);
      const operations = new Set(req.operations);
      for await (const changes of backend.watch(Number(req.fromCommitTs), ctx.signal)) {
        for (const change of changes) {
          const event = changeToWire(change);
          if (operations.size > 0 && !operations.has(event.operation)) continue;
          if (labels.size > 0 || types.size > 0) {
            const nodeLabels = [...(change.node_before?.labels ?? []), ...(change.node_after?.labels ?? [])];
            const edgeType = change.edge_after?.type ?? change.edge_before?.type;
            const matches = nodeLabels.some((l) => labels.has(l)) || (edgeType !== undefined && types.has(edgeType));
            if (!matches) continue;
          }
          yield event;
        }
      }
    },
  });
}

/** SPEC 4.1's request rules, in the order the SPEC lists them. */
function checkExecute(req: ExecuteCypherRequest, ctx: CallContext, backend: QueryBackend): CypherCall {
  if (req.query.trim() === '') throw invalidArgument('query is empty');
  if (!(req.readPreference in ReadPreference)) throw invalidArgument(`unknown read_preference ${req.readPreference}`);
  const level = readLevel(req.readConcern, backend.defaults.read_concern);
  const after_index = Number(req.readConcern?.afterIndex ?? 0n);
  const at_timestamp = Number(req.readConcern?.atTimestamp ?? 0n);
  if (after_index > 0 && (level === 'LOCAL' || level === 'LINEARIZABLE')) {
    throw failedPrecondition(`after_index is valid only with read concern MAJORITY or SNAPSHOT, not ${level}`);
  }
  if (at_timestamp > 0 && level !== 'SNAPSHOT') {
    throw failedPrecondition(`at_timestamp is valid only with read concern SNAPSHOT, not ${level}`);
  }
  const concern = resolveWriteConcern(writeConcernOf(req.writeConcern), backend.defaults.concern, backend.members);
  if (after_index > 0 && req.writeConcern !== undefined) {
    const majority = Math.floor(backend.members / 2) + 1;
    if (concern.acks < majority || concern.level !== 'journal') {
      throw invalidArgument('a causal session (read_concern.after_index > 0) requires a MAJORITY journaled write concern');
    }
  }
  const limit_mb = req.queryMemoryLimitMb ?? backend.defaults.query_memory_limit_mb;
  if (limit_mb === 0 || limit_mb > query_memory_limit_mb_max) {
    throw invalidArgument(`query_memory_limit_mb must lie in [1, ${query_memory_limit_mb_max}], got ${limit_mb}`);
  }
  return {
    text: req.query,
    params: paramsOf(req.parameters),
    level,
    after_index,
    at_timestamp,
    concern,
    transaction_id: req.transactionId,
    memory_limit_bytes: limit_mb * 1024 * 1024,
    ...(ctx.deadline_ms !== undefined ? { deadline_ms: ctx.deadline_ms } : {}),
    signal: ctx.signal,
    vector_consistency: vectorConsistencyOf(req.vectorConsistency),
    vector_build_wait_ms: req.vectorBuildWaitMs,
  };
}

function readLevel(rc: ReadConcern | undefined, fallback: ReadLevel): ReadLevel {
  switch (rc?.level ?? ReadConcernLevel.UNSPECIFIED) {
    case ReadConcernLevel.UNSPECIFIED:
      return fallback;
    case ReadConcernLevel.LOCAL:
      return 'LOCAL';
    case ReadConcernLevel.MAJORITY:
      return 'MAJORITY';
    case ReadConcernLevel.LINEARIZABLE:
      return 'LINEARIZABLE';
    case ReadConcernLevel.SNAPSHOT:
      return 'SNAPSHOT';
    default:
      throw invalidArgument(`unknown read concern level ${rc?.level}`);
  }
}

function writeConcernOf(wc: WriteConcern | undefined): WriteConcernRequest | undefined {
  if (wc === undefined) return undefined;
  const journal =
    wc.journal === Journal.UNSPECIFIED
      ? 'UNSPECIFIED'
      : wc.journal === Journal.JOURNAL
        ? 'JOURNAL'
        : wc.journal === Journal.CACHE
          ? 'CACHE'
          : wc.journal === Journal.MEMORY
            ? 'MEMORY'
            : undefined;
  if (journal === undefined) throw invalidArgument(`unknown write concern journal ${wc.journal}`);
  if (wc.mode !== WriteConcernMode.UNSPECIFIED && wc.mode !== WriteConcernMode.MAJORITY) throw invalidArgument(`unknown write concern mode ${wc.mode}`);
  return {
    journal,
    timeout_ms: wc.timeoutMs,
    ...(wc.acks !== undefined ? { acks: wc.acks, acks_set: true } : {}),
    mode: wc.mode === WriteConcernMode.MAJORITY ? 'MAJORITY' : 'UNSPECIFIED',
  };
}

function vectorConsistencyOf(v: number): CypherCall['vector_consistency'] {
  switch (v) {
    case 0:
      return undefined;
    case 1:
      return 'CURRENT';
    case 2:
      return 'SNAPSHOT';
    case 3:
      return 'EXACT';
    default:
      throw invalidArgument(`unknown vector_consistency ${v}`);
  }
}

function paramsOf(parameters: ExecuteCypherRequest['parameters']): Map<string, Value> {
  return new Map(Object.entries(parameters).map(([k, v]) => [k, valueFromWire(v, `parameters.${k}`)]));
}

function planToWire(plan: PlanNode): MessageInitShape<typeof QueryPlanSchema> {
  return { operator: plan.operator, details: { ...plan.details }, children: plan.children.map(planToWire), estimatedRows: plan.estimated_rows };
}

const operationOf: Record<Change['operation'], ChangeOperation> = {
  node_created: ChangeOperation.NODE_CREATED,
  node_updated: ChangeOperation.NODE_UPDATED,
  node_deleted: ChangeOperation.NODE_DELETED,
  edge_created: ChangeOperation.EDGE_CREATED,
  edge_updated: ChangeOperation.EDGE_UPDATED,
  edge_deleted: ChangeOperation.EDGE_DELETED,
};

function changeToWire(c: Change): MessageInitShape<typeof ChangeEventSchema> & { operation: ChangeOperation } {
  return {
    commitTs: BigInt(c.commit_ts),
    index: BigInt(c.index),
    operation: operationOf[c.operation],
    ordinal: c.ordinal,
    ...(c.node_before ? { nodeBefore: nodeToWire(c.node_before) } : {}),
    ...(c.node_after ? { nodeAfter: nodeToWire(c.node_after) } : {}),
    ...(c.edge_before ? { edgeBefore: edgeToWire(c.edge_before) } : {}),
    ...(c.edge_after ? { edgeAfter: edgeToWire(c.edge_after) } : {}),
  };
}
