/**
 * The SHOW commands of Neo4j 5 that map onto what Weft has, and their columns as the manual names them:
 * `defaults` are returned without YIELD, `columns` by `YIELD *` (defaults first). The parser writes a
 * command as a query over its internal `procedure`, whose name no query can write unquoted; the
 * procedures (execute/show-procedures.ts) yield every column in this order.
 */
export type ShowKind = 'indexes' | 'constraints' | 'functions' | 'procedures' | 'transactions' | 'terminate';

export interface ShowCommandColumns {
  readonly procedure: string;
  readonly defaults: readonly string[];
  readonly columns: readonly string[];
}

const index_defaults = ['id', 'name', 'state', 'populationPercent', 'type', 'entityType', 'labelsOrTypes', 'properties', 'indexProvider', 'owningConstraint', 'lastRead', 'readCount'];
const constraint_defaults = ['id', 'name', 'type', 'entityType', 'labelsOrTypes', 'properties', 'ownedIndex', 'propertyType'];
const function_defaults = ['name', 'category', 'description'];
const procedure_defaults = ['name', 'description', 'mode', 'worksOnSystem'];
const transaction_defaults = ['database', 'transactionId', 'currentQueryId', 'connectionId', 'clientAddress', 'username', 'currentQuery', 'startTime', 'status', 'elapsedTime'];

export const show_commands: Readonly<Record<ShowKind, ShowCommandColumns>> = {
  indexes: {
    procedure: 'show indexes',
    defaults: index_defaults,
    columns: [...index_defaults, 'trackedSince', 'options', 'failureMessage', 'createStatement'],
  },
  constraints: {
    procedure: 'show constraints',
    defaults: constraint_defaults,
    columns: [...constraint_defaults, 'options', 'createStatement'],
  },
  functions: {
    procedure: 'show functions',
    defaults: function_defaults,
    columns: [...function_defaults, 'signature', 'isBuiltIn', 'argumentDescription', 'returnDescription', 'aggregating', 'rolesExecution', 'rolesBoostedExecution', 'isDeprecated', 'deprecatedBy'],
  },
  procedures: {
    procedure: 'show procedures',
    defaults: procedure_defaults,
    columns: [
      ...procedure_defaults,
      'signature',
      'argumentDescription',
      'returnDescription',
      'admin',
      'rolesExecution',
      'rolesBoostedExecution',
      'isDeprecated',
      'deprecatedBy',
      'option',
    ],
  },
  transactions: {
    procedure: 'show transactions',
    defaults: transaction_defaults,
    columns: [
      ...transaction_defaults,
      'outerTransactionId',
      'metaData',
      'parameters',
      'planner',
      'runtime',
      'indexes',
      'currentQueryStartTime',
      'protocol',
      'requestUri',
      'currentQueryStatus',
      'statusDetails',
      'resourceInformation',
      'activeLockCount',
      'currentQueryActiveLockCount',
      'cpuTime',
      'waitTime',
      'idleTime',
      'currentQueryElapsedTime',
      'currentQueryCpuTime',
      'currentQueryWaitTime',
      'currentQueryIdleTime',
      'currentQueryAllocatedBytes',
      'allocatedDirectBytes',
      'estimatedUsedHeapMemory',
      'pageHits',
      'pageFaults',
      'currentQueryPageHits',
      'currentQueryPageFaults',
      'initializationStackTrace',
    ],
  },
  // TERMINATE TRANSACTIONS is no SHOW command, but is written the same way (build-show.ts).
  terminate: {
    procedure: 'terminate transactions',
    defaults: ['transactionId', 'username', 'message'],
    columns: ['transactionId', 'username', 'message'],
  },
};
