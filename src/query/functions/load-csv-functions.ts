import { scalar, type FunctionDefinition } from './definition.js';

/**
 * `linenumber()` and `file()` where no LOAD CSV is in scope (after a WITH, say): the line and file of
 * the record LOAD CSV read last in the statement, as Neo4j keeps them, and null before any. Where a
 * LOAD CSV is in scope the binder reads its row's own slots instead (bind-expression.ts), which stay
 * right when rows are held (batches of IN TRANSACTIONS, a sort).
 */
export const loadCsvFunctions: readonly FunctionDefinition[] = [
  scalar('linenumber', 0, 0, (_args, ctx) => ctx.loadCsv.line, { deterministic: false }),
  scalar('file', 0, 0, (_args, ctx) => ctx.loadCsv.file, { deterministic: false }),
];
