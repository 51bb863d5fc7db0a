import { DurationValue } from '../../common/values/temporal.js';
import { isList, typeName, type Value } from '../../common/values/value.js';
import { show_commands } from '../ast/show-commands.js';
import { any_type, duration_type, integer_type, listOf, map_type, string_type, type StaticType } from '../bind/static-type.js';
import { runtimeTypeError } from '../errors.js';
import type { Procedure, ProcedureContext } from './procedures.js';
import type { TerminateOutcome, TransactionInfo } from './transaction-admin.js';

/**
 * `SHOW TRANSACTIONS` and `TERMINATE TRANSACTIONS` (Neo4j 5 Cypher manual, "Transaction commands"):
 * internal procedures over the member's registry of running statements and open transactions
 * (ProcedureContext.transactions). Each takes the ids the command names, or null for every one.
 * Columns Weft has no fact for (CPU and wait times, page hits, allocations) are null; docs/cypher.md
 * section 3.6 lists which are given.
 */

/** The database name in ids and the `database` column: Weft serves one graph. */
export const database_name = 'weft';

const duration_columns = ['elapsedTime', 'cpuTime', 'waitTime', 'idleTime', 'currentQueryElapsedTime', 'currentQueryCpuTime', 'currentQueryWaitTime', 'currentQueryIdleTime'];
const integer_columns = [
  'activeLockCount',
  'currentQueryActiveLockCount',
  'currentQueryAllocatedBytes',
  'allocatedDirectBytes',
  'estimatedUsedHeapMemory',
  'pageHits',
  'pageFaults',
  'currentQueryPageHits',
  'currentQueryPageFaults',
];
const map_columns = ['metaData', 'parameters', 'resourceInformation'];

function columnType(name: string): StaticType {
  if (duration_columns.includes(name)) return duration_type;
  if (integer_columns.includes(name)) return integer_type;
  if (map_columns.includes(name)) return map_type;
  if (name === 'indexes') return listOf(map_type);
  return string_type;
}

/** The ids a command names: STRINGs or LISTs of them, flattened; undefined (every one) for none. */
function requestedIds(arg: Value, command: string): readonly string[] | undefined {
  if (arg === null) return undefined;
  const out: string[] = [];
  const add = (v: Value): void => {
    if (typeof v === 'string') out.push(v);
    else if (isList(v)) for (const x of v) add(x);
    else throw runtimeTypeError('InvalidArgumentType', `${command} takes transaction ids as STRING or LIST<STRING>, not ${typeName(v)}`);
  };
  add(arg);
  return out;
}

const millis = (ms: number): DurationValue => {
  const whole = Math.max(0, Math.floor(ms));
  return new DurationValue(0, 0, Math.floor(whole / 1000), (whole % 1000) * 1_000_000);
};

const iso = (ms: number): string => new Date(ms).toISOString();

const statuses: Readonly<Record<TransactionInfo['state'], string>> = {
  running: 'Running',
  closing: 'Closing',
  terminated: 'Terminated with reason: Status.Transaction.Terminated',
};

function transactionRow(tx: TransactionInfo, now_ms: number): ReadonlyMap<string, Value> {
  const q = tx.query;
  return new Map<string, Value>([
    ['database', database_name],
    ['transactionId', tx.transaction_id],
    ['currentQueryId', q?.query_id ?? ''],
    ['connectionId', ''],
    ['clientAddress', ''],
    ['username', ''],
    ['currentQuery', q?.text ?? ''],
    ['startTime', iso(tx.start_ms)],
    ['status', statuses[tx.state]],
    ['elapsedTime', millis(now_ms - tx.start_ms)],
    ['outerTransactionId', ''],
    ['metaData', new Map()],
    ['parameters', q?.parameters ?? new Map()],
    ['indexes', []],
    ['currentQueryStartTime', q === undefined ? '' : iso(q.start_ms)],
    ['currentQueryStatus', q === undefined ? '' : 'running'],
    ['statusDetails', ''],
    ['resourceInformation', new Map()],
    // Weft takes no locks: writes are checked for conflicts when they commit.
    ['activeLockCount', 0n],
    ['currentQueryActiveLockCount', q === undefined ? null : 0n],
    // An explicit transaction between statements is idle since it was last used.
    ['idleTime', millis(q === undefined ? now_ms - tx.last_used_ms : 0)],
    ['currentQueryElapsedTime', q === undefined ? null : millis(now_ms - q.start_ms)],
    ['initializationStackTrace', ''],
  ]);
}

function commandProcedure(kind: 'transactions' | 'terminate', rows: (ids: readonly string[] | undefined, context: ProcedureContext) => Iterable<ReadonlyMap<string, Value>>): Procedure {
  const { procedure, columns } = show_commands[kind];
  return {
    name: procedure,
    inputs: [{ name: 'ids', type: any_type }],
    outputs: columns.map((name) => ({ name, type: columnType(name) })),
    *call(args, context) {
      const ids = requestedIds(args[0] ?? null, kind === 'terminate' ? 'TERMINATE TRANSACTIONS' : 'SHOW TRANSACTIONS');
      for (const row of rows(ids, context)) yield columns.map((c) => row.get(c) ?? null);
    },
  };
}

/** One row per transaction, in the order they began; with ids, only those (an unknown id lists nothing). */
export const show_transactions_procedure = commandProcedure('transactions', function* (ids, context) {
  const now_ms = Date.now();
  const wanted = ids === undefined ? undefined : new Set(ids);
  for (const tx of context.transactions?.list() ?? []) {
    if (wanted === undefined || wanted.has(tx.transaction_id)) yield transactionRow(tx, now_ms);
  }
});

const messages: Readonly<Record<TerminateOutcome, string>> = {
  terminated: 'Transaction terminated.',
  not_found: 'Transaction not found.',
  closing: 'Transaction is closing: its commit is under way.',
};

/** One row per id named, in the order written (an id named twice is answered once). */
export const terminate_transactions_procedure = commandProcedure('terminate', function* (ids, context) {
  for (const id of new Set(ids ?? [])) {
    const outcome = context.transactions?.terminate(id) ?? 'not_found';
    yield new Map<string, Value>([
      ['transactionId', id],
      ['username', ''],
      ['message', messages[outcome]],
    ]);
  }
});
