import { assertNever } from '../../common/assert.js';
import type { LogicalOp } from '../plan/logical.js';
import { call } from './call-op.js';
import { aggregateOverBatches, distinctOverBatches } from './batch/batch-aggregate.js';
import { sortOverBatches } from './batch/sort-over-batches.js';
import { aggregateOverScan, topOverScan } from './column-scan.js';
import type { ExecContext, PhysicalOp } from './context.js';
import { expand } from './expand-ops.js';
import { ExpressionCompiler } from './expression.js';
import { GraphAccess } from './graph-access.js';
import { subqueryInTransactions } from './in-transactions-op.js';
import { loadCsv } from './load-csv-op.js';
import { repeat } from './repeat-op.js';
import { searchRepeat } from './search-repeat-op.js';
import { searchPaths } from './search-paths-op.js';
import { selectPaths } from './select-paths-op.js';
import { subquery } from './subquery-op.js';
import { valueHashJoin } from './value-join-op.js';
import { joinAsRows, joinOverBatches, type JoinBatches } from './batch/value-join-batches.js';
import { orderedBySearch, vectorSearch } from './vector-search-op.js';
import * as read from './read-ops.js';
import type { OpEnv } from './read-ops.js';
import * as rel from './relational-ops.js';
import * as write from './write-ops.js';

/**
 * Logical operators to physical ones, bottom-up. `produce` is handled by the caller (it owns the
 * result buffer), so it compiles to its input here.
 */
export function compilePlan(op: LogicalOp, env: OpEnv): PhysicalOp {
  const c = (x: LogicalOp): PhysicalOp => compilePlan(x, env);
  switch (op.op) {
    case 'argument':
      return read.argument();
    case 'node_scan':
      return read.nodeScan(op, c(op.input), env);
    case 'node_by_id':
      return read.nodeById(op, c(op.input), env);
    case 'expand':
      return expand(op, c(op.input), env);
    case 'filter':
      return read.filter(op, c(op.input), env);
    case 'repeat':
      if (op.select !== undefined) return searchRepeat(op, op.select, c(op.input), c(op.inner), env);
      return repeat(op, c(op.input), c(op.inner), env);
    case 'select_paths':
      return selectPaths(op, c(op.input), c(op.inner), env);
    case 'search_paths':
      return searchPaths(op, c(op.input), op.parts.map((p) => c(p.inner)), op.accept !== undefined ? c(op.accept) : undefined, env);
    case 'vector_search':
      return vectorSearch(op, c(op.input), env);
    case 'rel_unique':
      return read.relUnique(op, c(op.input));
    case 'optional':
      return read.optional(op, c(op.input), c(op.inner));
    case 'subquery':
      if (op.batch !== undefined) {
        const input = op.batch.streamed ? compilePlan(op.input, firstSnapshotEnv(env)) : c(op.input);
        return subqueryInTransactions(op, op.batch, input, c(op.inner), env);
      }
      return subquery(op, c(op.input), c(op.inner));
    case 'hash_join':
      return read.hashJoin(op, c(op.left), c(op.right), env);
    case 'value_hash_join':
      return valueJoin(op, env).rows;
    case 'path':
      return read.path(op, c(op.input), env);
    case 'project':
      return read.project(op, c(op.input), env);
    case 'unwind':
      return read.unwind(op, c(op.input), env);
    case 'aggregate': {
      // Over a value join, the join's batches when it has them (its rows otherwise, as `rows` reads them).
      const join = op.input.op === 'value_hash_join' ? valueJoin(op.input, env) : undefined;
      const rows = rel.aggregate(op, join?.rows ?? c(op.input), env);
      // A batched aggregation over a label alone falls back to the fused scan, which falls back to the rows.
      const scan = aggregateOverScan(op, rows, env) ?? rows;
      return aggregateOverBatches(op, scan, env, join?.batches) ?? scan;
    }
    case 'distinct': {
      const rows = rel.distinct(op, c(op.input), env);
      return distinctOverBatches(op, rows, env) ?? rows;
    }
    case 'sort': {
      const rows = rel.sort(op, c(op.input), env);
      return sortOverBatches(op, rows, env, 'rows') ?? rows;
    }
    case 'top': {
      // A vector search below gives the top's rows in its order already.
      if (orderedBySearch(op)) return c(op.input);
      const rows = rel.top(op, c(op.input), env);
      // A batched top-k over a label alone falls back to the fused scan, which falls back to the rows.
      const scan = topOverScan(op, rows, env);
      return sortOverBatches(op, scan ?? rows, env, scan === undefined ? 'rows' : 'fused') ?? scan ?? rows;
    }
    case 'skip':
      return rel.skip(op, c(op.input), env);
    case 'limit':
      return rel.limit(op, c(op.input), env);
    case 'eager':
      return rel.eager(op, c(op.input), env);
    case 'union':
      return rel.union(op, op.parts.map(c), env);
    case 'discard':
      return rel.discard(c(op.input));
    case 'produce':
      return c(op.input);
    case 'create':
      return write.create(op, c(op.input), env);
    case 'merge':
      return write.merge(op, c(op.input), c(op.match), env);
    case 'set':
      return write.set(op, c(op.input), env);
    case 'remove':
      return write.remove(op, c(op.input), env);
    case 'delete':
      return write.del(op, c(op.input), env);
    case 'call':
      return call(op, c(op.input), env);
    case 'load_csv':
      return loadCsv(op, c(op.input), env);
    default:
      return assertNever(op, 'logical operator');
  }
}

/**
 * The operators of a streamed IN TRANSACTIONS input read the snapshot the statement's write set began
 * on, which the server keeps pinned while the statement runs: each batch starts the write set over on
 * a newer state, and an input reading through it would meet the batches' writes (a scan listing the
 * nodes a batch created, a row seeing the writes of the rows after it). Read-only, so without writes.
 */
function firstSnapshotEnv(env: OpEnv): OpEnv {
  const writes = env.cx.writes;
  if (writes === undefined) return env;
  const graph = writes.baseReader;
  const cx: ExecContext = { ...env.cx, graph, writes: undefined, subplan: (plan) => compilePlan(plan, snapshot) };
  const access = new GraphAccess(graph, undefined);
  const snapshot: OpEnv = { ...env, cx, access, exprs: new ExpressionCompiler(cx, access) };
  return snapshot;
}

/**
 * A value join: its row-at-a-time operator, and its batched form when its right side is a batched pipeline (the
 * join's rows then come from it whenever the snapshot has the forms it reads).
 */
function valueJoin(op: Extract<LogicalOp, { op: 'value_hash_join' }>, env: OpEnv): { rows: PhysicalOp; batches: JoinBatches | undefined } {
  const left = compilePlan(op.left, env);
  const rows = valueHashJoin(op, left, compilePlan(op.right, env), env);
  const batches = joinOverBatches(op, left, env);
  return { rows: batches === undefined ? rows : joinAsRows(batches, rows), batches };
}
