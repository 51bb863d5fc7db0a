import { clauseUpdates, type Clause } from '../ast/clause.js';
import type { Query } from '../ast/query.js';
import type { Statement } from '../ast/statement.js';
import { assertNever } from '../../common/assert.js';
import type { FunctionSignature } from '../functions/signature.js';
import { ExpressionBinder } from './bind-expression.js';
import { ClauseBinder } from './bind-clause.js';
import { bindAsOf, bindHints, bindSessionSet } from './bind-options.js';
import { PatternBinder } from './bind-pattern.js';
import { ProjectionBinder } from './bind-projection.js';
import { QueryBinder } from './bind-query.js';
import { bindCreateConstraint, bindCreateIndex } from './bind-schema.js';
import type { BoundStatement } from './bound-statement.js';
import { bindError, type BindContext, type BindOptions } from './context.js';
import { VariableTable } from './scope.js';

/**
 * Semantic analysis: resolves every name of a parsed statement, checks what openCypher checks at
 * compile time, and returns a tree ready for planning. Errors are CypherErrors with phase
 * 'compile time' (SyntaxError for nearly all, as the TCK classifies them).
 */
export function bind(statement: Statement, options: BindOptions): BoundStatement {
  switch (statement.kind) {
    case 'query': {
      const { context, expressions, queries } = makeBinder(options);
      const query = queries.bind(statement.query, undefined);
      const as_of = statement.as_of ? bindAsOf(statement.as_of, expressions) : undefined;
      const updating = statement.query.parts.some((p) => p.clauses.some(clauseUpdates));
      if (as_of !== undefined && updating) {
        // A write lands at the newest commit; reading an older snapshot for it would lose updates.
        throw bindError('InvalidClauseComposition', 'AS OF TIMESTAMP reads a past snapshot and cannot be combined with updates', as_of.span);
      }
      const hints = bindHints(statement.hints, expressions);
      if (hints.valid_at !== undefined && updating) {
        // A write changes the stored versions; it reads them as stored, never at a valid time.
        throw bindError('InvalidClauseComposition', 'valid_at reads temporal records at a valid time and cannot be combined with updates', hints.valid_at.span);
      }
      return {
        kind: 'query',
        query,
        ...(as_of && { as_of }),
        hints,
        variables: context.variables.all,
        parameters: [...context.parameters].sort(),
        updating,
        ...(statement.query.parts.some((p) => p.clauses.some((c) => c.kind === 'call_subquery' && c.in_transactions !== undefined)) && { in_transactions: true as const }),
        ...(loadsCsv(statement.query) && { loads_csv: true as const }),
      };
    }
    case 'create_constraint':
      return bindCreateConstraint(statement);
    case 'create_index':
      return bindCreateIndex(statement);
    case 'drop_constraint':
    case 'drop_index':
      return { kind: statement.kind, name: statement.name, if_exists: statement.if_exists, span: statement.span };
    case 'session_set':
      return bindSessionSet(statement);
    default:
      return assertNever(statement, 'statement');
  }
}

function makeBinder(options: BindOptions): { context: BindContext; expressions: ExpressionBinder; queries: QueryBinder } {
  const cache = new Map<string, FunctionSignature | undefined>();
  let expressions: ExpressionBinder | undefined;
  let patterns: PatternBinder | undefined;
  let queries: QueryBinder | undefined;
  const context: BindContext = {
    options,
    variables: new VariableTable(),
    parameters: new Set(),
    expression: (e, env) => expressions!.bind(e, env),
    paths: (paths, scope, mode) => patterns!.paths(paths, scope, mode),
    subquery: (q, scope) => queries!.bind(q, scope),
    callBody: (q, start) => queries!.bindCallBody(q, start),
    lookupFunction: (name) => {
      const key = name.toLowerCase();
      if (!cache.has(key)) cache.set(key, options.functions.lookup(key));
      return cache.get(key);
    },
  };
  expressions = new ExpressionBinder(context);
  patterns = new PatternBinder(context);
  const projections = new ProjectionBinder(context, expressions);
  queries = new QueryBinder(new ClauseBinder(context, expressions, projections));
  return { context, expressions, queries };
}

/** Whether a LOAD CSV clause runs in the query or in a CALL subquery of it. */
function loadsCsv(query: Query): boolean {
  const holds = (c: Clause): boolean => c.kind === 'load_csv' || (c.kind === 'call_subquery' && loadsCsv(c.query));
  return query.parts.some((p) => p.clauses.some(holds));
}
