import type { Expression } from '../ast/expression.js';
import type { PatternPath } from '../ast/pattern.js';
import type { Query, SingleQuery } from '../ast/query.js';
import type { Span } from '../ast/span.js';
import { CypherError, type CypherErrorType } from '../errors.js';
import type { FunctionCatalog, FunctionSignature } from '../functions/signature.js';
import type { BoundPath, BoundQuery } from './bound-clause.js';
import type { BoundExpression, BoundVariable } from './bound-expression.js';
import type { ProcedureCatalog } from './procedures.js';
import type { Scope, VariableTable } from './scope.js';

export interface BindOptions {
  /** The function library's signatures (src/query/functions/catalog.ts in the server). */
  readonly functions: FunctionCatalog;
  /** Procedures callable with CALL; Weft ships none, so the default catalog is empty. */
  readonly procedures?: ProcedureCatalog;
  /**
   * The parameters the request supplies. When given, a reference to any other parameter is refused
   * at compile time (ParameterMissing); when absent, parameters are checked when the query runs.
   */
  readonly parameters?: ReadonlySet<string>;
}

/**
 * Where aggregate calls may appear: 'allowed' in WITH/RETURN items, 'nested' inside another
 * aggregate's arguments, 'forbidden' everywhere else.
 */
export type AggregationMode = 'allowed' | 'nested' | 'forbidden';

/** How a pattern's variables are treated. */
export type PatternMode =
  /** MATCH: new variables join the clause scope; bound ones are matched again. */
  | 'match'
  /** CREATE and MERGE: bound nodes may only be endpoints, bound relationships never. */
  | 'create'
  | 'merge'
  /** A pattern predicate in WHERE: every named variable must already be bound. */
  | 'predicate'
  /** A pattern comprehension or EXISTS: new variables live in the caller's child scope. */
  | 'local';

export interface ExpressionEnv {
  readonly scope: Scope;
  readonly aggregation: AggregationMode;
  /** True where a pattern may stand as a predicate: a WHERE, through AND/OR/XOR/NOT. */
  readonly predicate: boolean;
  /** Expressions (by AST key) to read from a projection column instead of binding them again. */
  readonly substitutions?: ReadonlyMap<string, BoundVariable>;
}

/** The binder's shared state and its mutually recursive entry points (wired in bind.ts). */
export interface BindContext {
  readonly options: BindOptions;
  readonly variables: VariableTable;
  /** Parameter names referenced so far. */
  readonly parameters: Set<string>;
  expression(e: Expression, env: ExpressionEnv): BoundExpression;
  paths(paths: readonly PatternPath[], scope: Scope, mode: PatternMode): { paths: BoundPath[]; introduced: BoundVariable[] };
  /** A query nested in an expression (EXISTS { ... }), starting from the given scope. */
  subquery(q: Query, scope: Scope): BoundQuery;
  /**
   * The body of a CALL subquery, each UNION part starting from the scope `start` gives it; it may
   * update. The `sticky` variables stay visible after every WITH of the part (the variable scope
   * clause's imports are visible in the whole body).
   */
  callBody(q: Query, start: (part: SingleQuery) => { scope: Scope; sticky: readonly BoundVariable[] }): BoundQuery;
  lookupFunction(name: string): FunctionSignature | undefined;
}

/** A compile-time error located at a span; the TCK classifies nearly all of them as SyntaxError. */
export function bindError(detail: string, message: string, span: Span, type: CypherErrorType = 'SyntaxError'): CypherError {
  return new CypherError(type, 'compile time', detail, `${message} (line ${span.line}, column ${span.column})`);
}
