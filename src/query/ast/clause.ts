import type { Expression, PropertyExpr } from './expression.js';
import type { DynamicNames, Pattern, PatternPath } from './pattern.js';
import type { Query } from './query.js';
import type { Span } from './span.js';

export interface ProjectionItem {
  readonly expression: Expression;
  readonly alias?: string;
  /** The item's verbatim source text; an unaliased item's column is named by it (`aVg(    n.aGe     )`). */
  readonly text: string;
  readonly span: Span;
}

export type SortDirection = 'asc' | 'desc';

export interface SortItem {
  readonly expression: Expression;
  readonly direction: SortDirection;
  readonly span: Span;
}

/** The body shared by WITH and RETURN. */
export interface Projection {
  readonly distinct: boolean;
  /** `WITH *` / `RETURN *`: every variable in scope, then `items`. */
  readonly star: boolean;
  readonly items: readonly ProjectionItem[];
  readonly order: readonly SortItem[];
  readonly skip?: Expression;
  readonly limit?: Expression;
  /** Set for LET: the items declare new variables, so a name already in scope is VariableAlreadyBound. */
  readonly new_names?: true;
  readonly span: Span;
}

export interface MatchClause {
  readonly kind: 'match';
  readonly optional: boolean;
  readonly pattern: Pattern;
  readonly where?: Expression;
  readonly span: Span;
}

export interface UnwindClause {
  readonly kind: 'unwind';
  readonly expression: Expression;
  readonly variable: string;
  readonly variable_span: Span;
  readonly span: Span;
}

/** `LOAD CSV [WITH HEADERS] FROM url AS variable [FIELDTERMINATOR 'c']`. */
export interface LoadCsvClause {
  readonly kind: 'load_csv';
  /** WITH HEADERS: the first record names the fields, and each later one is a map. */
  readonly headers: boolean;
  readonly url: Expression;
  readonly variable: string;
  readonly variable_span: Span;
  /** One character (code point); the builder checks it. Absent: a comma. */
  readonly terminator?: string;
  readonly span: Span;
}

export interface YieldItem {
  /** The procedure's output field. */
  readonly field: string;
  /** The variable it is bound to (the field name unless renamed with AS). */
  readonly variable: string;
  readonly span: Span;
}

export interface CallClause {
  readonly kind: 'call';
  /** OPTIONAL CALL: a row the procedure yields nothing for (after WHERE) continues with the outputs null. */
  readonly optional: boolean;
  /** Dotted name as written, e.g. `test.my.proc`. */
  readonly procedure: string;
  /** Absent for an implicit invocation (`CALL p` without parentheses), whose arguments come from parameters. */
  readonly args?: readonly Expression[];
  /** Absent without YIELD; 'star' for `YIELD *`. */
  readonly yield?: 'star' | readonly YieldItem[];
  readonly where?: Expression;
  readonly span: Span;
}

export interface CreateClause {
  readonly kind: 'create';
  readonly pattern: Pattern;
  readonly span: Span;
}

export type SetItem =
  | { readonly kind: 'set_property'; readonly target: PropertyExpr; readonly value: Expression; readonly span: Span }
  /** `n = {map}`: replaces every property. */
  | { readonly kind: 'replace_properties'; readonly variable: string; readonly value: Expression; readonly span: Span }
  /** `n += {map}`: adds and overwrites the map's keys. */
  | { readonly kind: 'merge_properties'; readonly variable: string; readonly value: Expression; readonly span: Span }
  | {
      readonly kind: 'set_labels';
      readonly variable: string;
      readonly labels: readonly string[];
      /** `SET n:$(expr)`: labels computed per row, beside the written ones. */
      readonly dynamic?: readonly DynamicNames[];
      readonly span: Span;
    }
  /** `SET n[key] = value`: the key is computed per row (a STRING). */
  | { readonly kind: 'set_dynamic_property'; readonly object: Expression; readonly key: Expression; readonly value: Expression; readonly span: Span };

export interface MergeClause {
  readonly kind: 'merge';
  readonly path: PatternPath;
  readonly on_create: readonly SetItem[];
  readonly on_match: readonly SetItem[];
  readonly span: Span;
}

export interface SetClause {
  readonly kind: 'set';
  readonly items: readonly SetItem[];
  readonly span: Span;
}

export type RemoveItem =
  | { readonly kind: 'remove_property'; readonly target: PropertyExpr; readonly span: Span }
  | {
      readonly kind: 'remove_labels';
      readonly variable: string;
      readonly labels: readonly string[];
      readonly dynamic?: readonly DynamicNames[];
      readonly span: Span;
    }
  | { readonly kind: 'remove_dynamic_property'; readonly object: Expression; readonly key: Expression; readonly span: Span };

export interface RemoveClause {
  readonly kind: 'remove';
  readonly items: readonly RemoveItem[];
  readonly span: Span;
}

export interface DeleteClause {
  readonly kind: 'delete';
  readonly detach: boolean;
  readonly expressions: readonly Expression[];
  readonly span: Span;
}

export interface WithClause {
  readonly kind: 'with';
  readonly projection: Projection;
  readonly where?: Expression;
  readonly span: Span;
}

export interface ReturnClause {
  readonly kind: 'return';
  readonly projection: Projection;
  readonly span: Span;
}

/** What a batch of `IN TRANSACTIONS` does when it fails. */
export type OnErrorMode = 'fail' | 'continue' | 'break';

/**
 * `ON ERROR RETRY [[FOR] d SECONDS] [THEN mode]`: a batch that fails with a transient error (a conflict
 * with another write) is run again with back-off for up to `duration` seconds; then, or at once for
 * any other error, the InTransactions' `on_error` (the THEN mode, CONTINUE by default) applies.
 */
export interface OnErrorRetry {
  /** Seconds, an INTEGER or FLOAT >= 0; absent for the default. */
  readonly duration?: Expression;
  readonly span: Span;
}

/** `IN TRANSACTIONS [OF n ROWS] [ON ERROR ...]`: the subquery's rows are committed in batches. */
export interface InTransactions {
  /** Input rows per batch; absent for the default. */
  readonly rows?: Expression;
  /** What a failed batch does: the mode after ON ERROR, or after RETRY's THEN. */
  readonly on_error: OnErrorMode;
  readonly retry?: OnErrorRetry;
  /** `REPORT STATUS AS s`: the variable that holds each row's inner-transaction status. */
  readonly report?: { readonly name: string; readonly span: Span };
  /** `IN [n] CONCURRENT TRANSACTIONS`: the batches in flight at most (absent for the default). */
  readonly concurrency?: Expression;
  /** Whether CONCURRENT was written. */
  readonly concurrent: boolean;
  readonly span: Span;
}

/** A variable named in a variable scope clause `CALL (a, b) { ... }`. */
export interface ScopeVariable {
  readonly name: string;
  readonly span: Span;
}

/** `[OPTIONAL] CALL [(a, b) | (*)] { query } [IN TRANSACTIONS ...]`: the query runs once per incoming row. */
export interface SubqueryCallClause {
  readonly kind: 'call_subquery';
  /** OPTIONAL CALL: a row for which the subquery returns nothing continues with its columns null. */
  readonly optional: boolean;
  /**
   * The variable scope clause: the variables imported, or 'all' for `(*)`. Absent for the older
   * form, where a leading WITH of plain outer variables imports them.
   */
  readonly scope?: 'all' | readonly ScopeVariable[];
  readonly query: Query;
  readonly in_transactions?: InTransactions;
  readonly span: Span;
}

/** `FOREACH (x IN list | clauses)`: the updating clauses run once per element; the row passes on once. */
export interface ForeachClause {
  readonly kind: 'foreach';
  readonly variable: string;
  readonly variable_span: Span;
  readonly list: Expression;
  /** Invariant: non-empty, and only updating clauses (FOREACH included); the builder checks it. */
  readonly clauses: readonly Clause[];
  readonly span: Span;
}

/** `FINISH`: the query ends without returning rows (its updates still happen). */
export interface FinishClause {
  readonly kind: 'finish';
  readonly span: Span;
}

export type Clause =
  | MatchClause
  | UnwindClause
  | LoadCsvClause
  | CallClause
  | CreateClause
  | MergeClause
  | SetClause
  | RemoveClause
  | DeleteClause
  | WithClause
  | ReturnClause
  | SubqueryCallClause
  | ForeachClause
  | FinishClause;

export type UpdatingClause = CreateClause | MergeClause | SetClause | RemoveClause | DeleteClause | ForeachClause;

export function isUpdatingClause(clause: Clause): clause is UpdatingClause {
  switch (clause.kind) {
    case 'create':
    case 'merge':
    case 'set':
    case 'remove':
    case 'delete':
    case 'foreach':
      return true;
    default:
      return false;
  }
}

/** True when the clause writes to the graph itself or through a CALL subquery it holds. */
export function clauseUpdates(clause: Clause): boolean {
  if (clause.kind === 'call_subquery') return clause.query.parts.some((p) => p.clauses.some(clauseUpdates));
  return isUpdatingClause(clause);
}
