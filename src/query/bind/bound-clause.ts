import type { Value } from '../../common/values/value.js';
import type { OnErrorMode, SortDirection } from '../ast/clause.js';
import type { Direction, HopRange, PathSelector } from '../ast/pattern.js';
import type { Span } from '../ast/span.js';
import type { BoundExpression, BoundVariable } from './bound-expression.js';
import type { ProcedureSignature } from './procedures.js';

/**
 * A node of a pattern. `bound` tells whether the variable was bound before this clause (the node is
 * then looked up, not searched for or created). A variable repeated within one clause is the same
 * slot at each place, with `bound` false everywhere: the places must hold the same node.
 */
export interface BoundNodePattern {
  readonly variable: BoundVariable;
  readonly bound: boolean;
  readonly labels: readonly string[];
  /** CREATE and MERGE only: values naming more labels (a STRING or LIST<STRING> each), evaluated per row. */
  readonly dynamic_labels?: readonly BoundExpression[];
  readonly properties?: BoundExpression;
  readonly span: Span;
}

export interface BoundRelationshipPattern {
  readonly variable: BoundVariable;
  readonly bound: boolean;
  readonly types: readonly string[];
  /** CREATE and MERGE only: the type named by a value (a STRING, or a LIST of one), evaluated per row; `types` is then empty. */
  readonly dynamic_type?: BoundExpression;
  readonly direction: Direction;
  /** Present only for variable-length relationships; the variable then holds a list. */
  readonly range?: HopRange;
  readonly properties?: BoundExpression;
  /** A quantified path pattern (see QuantifiedPath); `variable` then holds every relationship it matched, in order. */
  readonly quantified?: BoundQuantifiedPath;
  /**
   * A variable-length relationship of a selected path (or of shortestPath), written as the
   * quantified path pattern of one hop it equals (over hidden singletons, with no group variables):
   * the search by length (SearchRepeat alone, SearchPaths beside other parts) runs it when the
   * bidirectional search cannot.
   */
  readonly searched_as?: BoundQuantifiedPath;
  readonly span: Span;
}

export interface BoundQuantifiedPath {
  /** One iteration, over singleton variables of its own (never bound before the clause). */
  readonly path: BoundPath;
  /** What each iteration must satisfy, over the singletons and variables bound before the clause. */
  readonly where?: BoundExpression;
  /** Each named inner variable (a singleton inside) and its group variable (the list of its values) outside. */
  readonly groups: readonly { readonly inner: BoundVariable; readonly group: BoundVariable }[];
}

/** Invariant: nodes.length === relationships.length + 1; relationships[i] joins nodes[i] and nodes[i + 1]. */
export interface BoundPath {
  readonly variable?: BoundVariable;
  /** More names of the same path (PatternPath.also). */
  readonly also?: readonly BoundVariable[];
  /** Only the shortest (or all shortest) paths between the two end nodes match (a single relationship). */
  readonly shortest?: 'one' | 'all';
  readonly selector?: PathSelector;
  /** `SHORTEST $k`: the selector's count, evaluated per input row. */
  readonly selector_count?: BoundExpression;
  /** With a selector: what matches must satisfy before the selection (see PatternPath.where). */
  readonly where?: BoundExpression;
  readonly nodes: readonly BoundNodePattern[];
  readonly relationships: readonly BoundRelationshipPattern[];
  readonly span: Span;
}

export interface BoundColumn {
  /** The column name: the alias, or the item's verbatim text. */
  readonly name: string;
  /** The slot the column is written to; WITH columns are the variables in scope afterwards. */
  readonly variable: BoundVariable;
  /**
   * Without aggregation: evaluated on each input row. With aggregation: evaluated on each group's
   * row, which holds the grouping keys' and the aggregates' slots (a key column refers to its own slot).
   */
  readonly expression: BoundExpression;
}

/** The grouping and the aggregates of an aggregating projection; both are evaluated on input rows. */
export interface BoundAggregation {
  /** Implicit grouping keys: the columns without an aggregate, written to the column's own slot. */
  readonly keys: readonly { readonly variable: BoundVariable; readonly expression: BoundExpression }[];
  /** Each distinct aggregate call once, written to a hidden slot. */
  readonly aggregates: readonly { readonly variable: BoundVariable; readonly call: BoundExpression & { kind: 'aggregate' } }[];
}

export interface BoundSortItem {
  readonly expression: BoundExpression;
  readonly direction: SortDirection;
}

/**
 * WITH or RETURN. Order of evaluation: aggregation (if any), columns, DISTINCT, ORDER BY, SKIP,
 * LIMIT, then WHERE (WITH only).
 *
 * ORDER BY is evaluated on the projected row. For a projection without aggregation or DISTINCT the
 * row still holds the input slots too, so a sort key may use variables that were not projected; with
 * aggregation or DISTINCT the sort keys use only the columns (expressions equal to a column's have
 * been replaced by that column's variable).
 */
export interface BoundProjection {
  readonly columns: readonly BoundColumn[];
  readonly distinct: boolean;
  readonly aggregation?: BoundAggregation;
  readonly order: readonly BoundSortItem[];
  /** Constant expressions (literals or parameters); literal values are checked non-negative integers. */
  readonly skip?: BoundExpression;
  readonly limit?: BoundExpression;
  /** WITH ... WHERE, over the columns (and the input slots when `where_reads_input`). */
  readonly where?: BoundExpression;
  /**
   * True when WHERE reads a variable the projection dropped (allowed without aggregation). The
   * planner then filters while the input slots are still present: after ORDER BY, SKIP and LIMIT,
   * or, for DISTINCT (which then has neither SKIP nor LIMIT), before DISTINCT.
   */
  readonly where_reads_input?: boolean;
}

export type BoundSetItem =
  | { readonly kind: 'set_property'; readonly object: BoundExpression; readonly key: string; readonly value: BoundExpression }
  | { readonly kind: 'replace_properties'; readonly variable: BoundVariable; readonly value: BoundExpression }
  | { readonly kind: 'merge_properties'; readonly variable: BoundVariable; readonly value: BoundExpression }
  | {
      readonly kind: 'set_labels';
      readonly variable: BoundVariable;
      readonly labels: readonly string[];
      /** Values naming more labels (a STRING or LIST<STRING> each), evaluated per row. */
      readonly dynamic?: readonly BoundExpression[];
    }
  /** `SET x[key] = value`: the key is a STRING evaluated per row. */
  | { readonly kind: 'set_dynamic_property'; readonly object: BoundExpression; readonly key: BoundExpression; readonly value: BoundExpression };

export type BoundRemoveItem =
  | { readonly kind: 'remove_property'; readonly object: BoundExpression; readonly key: string }
  | { readonly kind: 'remove_labels'; readonly variable: BoundVariable; readonly labels: readonly string[]; readonly dynamic?: readonly BoundExpression[] }
  | { readonly kind: 'remove_dynamic_property'; readonly object: BoundExpression; readonly key: BoundExpression };

export interface BoundYield {
  readonly field: string;
  readonly variable: BoundVariable;
}

export type BoundClause =
  | {
      readonly kind: 'match';
      readonly optional: boolean;
      readonly pattern: readonly BoundPath[];
      readonly where?: BoundExpression;
      /** Slots this clause binds, named and unnamed (an OPTIONAL MATCH sets them to null when nothing matches). */
      readonly introduced: readonly BoundVariable[];
      readonly span: Span;
    }
  | {
      readonly kind: 'unwind';
      readonly expression: BoundExpression;
      readonly variable: BoundVariable;
      /** FOREACH's list: a value that is not a list (nor null) is a TypeError rather than one element. */
      readonly lists_only?: true;
      readonly span: Span;
    }
  | {
      readonly kind: 'load_csv';
      readonly headers: boolean;
      readonly url: BoundExpression;
      readonly variable: BoundVariable;
      /** Where each row's line number and the source's file go, for `linenumber()` and `file()`. */
      readonly line: BoundVariable;
      readonly file: BoundVariable;
      /** One character; a comma when absent. */
      readonly terminator?: string;
      readonly span: Span;
    }
  | {
      readonly kind: 'call';
      /** OPTIONAL CALL: a row the procedure yields nothing for (after WHERE) continues with the yields null. */
      readonly optional: boolean;
      readonly procedure: ProcedureSignature;
      /** One per procedure input, in order; an implicit call reads them from parameters of the same name. */
      readonly args: readonly BoundExpression[];
      readonly yields: readonly BoundYield[];
      readonly where?: BoundExpression;
      /** A standalone call: the whole query, its outputs are the result columns. */
      readonly standalone: boolean;
      readonly span: Span;
    }
  | { readonly kind: 'create'; readonly pattern: readonly BoundPath[]; readonly span: Span }
  | {
      readonly kind: 'merge';
      readonly path: BoundPath;
      readonly on_create: readonly BoundSetItem[];
      readonly on_match: readonly BoundSetItem[];
      readonly span: Span;
    }
  | { readonly kind: 'set'; readonly items: readonly BoundSetItem[]; readonly span: Span }
  | { readonly kind: 'remove'; readonly items: readonly BoundRemoveItem[]; readonly span: Span }
  | { readonly kind: 'delete'; readonly detach: boolean; readonly expressions: readonly BoundExpression[]; readonly span: Span }
  | { readonly kind: 'with'; readonly projection: BoundProjection; readonly span: Span }
  | { readonly kind: 'return'; readonly projection: BoundProjection; readonly span: Span }
  | {
      readonly kind: 'call_subquery';
      readonly optional: boolean;
      /** Runs once per incoming row, with that row as its argument. */
      readonly query: BoundQuery;
      /** The outer variables the body may read. */
      readonly imports: readonly BoundVariable[];
      /**
       * The first part's result columns, declared in the outer scope after the clause (a UNION's other
       * parts are renamed to them). Empty for a unit subquery, which passes each incoming row on once.
       */
      readonly returns: readonly BoundVariable[];
      /** `IN TRANSACTIONS`: the incoming rows are taken in batches, each committed as its own log entry. */
      readonly in_transactions?: BoundInTransactions;
      readonly span: Span;
    }
  | {
      readonly kind: 'foreach';
      readonly variable: BoundVariable;
      readonly list: BoundExpression;
      /** Updating clauses only, run once per element with `variable` bound to it. */
      readonly clauses: readonly BoundClause[];
      readonly span: Span;
    }
  | { readonly kind: 'finish'; readonly span: Span };

export interface BoundSingleQuery {
  readonly clauses: readonly BoundClause[];
  /** The result columns: RETURN's columns, a standalone call's outputs, or none for a query without RETURN. */
  readonly columns: readonly { readonly name: string; readonly variable: BoundVariable }[];
}

/** Invariant: every part has the same column names in the same order. */
export interface BoundQuery {
  readonly parts: readonly BoundSingleQuery[];
  readonly union_all: boolean;
  readonly columns: readonly string[];
}

/** `CALL { } IN TRANSACTIONS [OF n ROWS] [ON ERROR ...] [REPORT STATUS AS s]`, checked. */
export interface BoundInTransactions {
  /** Incoming rows per batch: constant (literals, parameters); absent for the default, `in_transactions_rows_default`. */
  readonly rows?: BoundExpression;
  /** What a failed batch does (with RETRY, once retrying gives up or at once for an error that is not transient). */
  readonly on_error: OnErrorMode;
  /** ON ERROR RETRY: transient failures are run again first. */
  readonly retry?: BoundOnErrorRetry;
  /** The status variable, declared in the outer scope after the clause. Only with ON ERROR CONTINUE or BREAK. */
  readonly report?: BoundVariable;
  /** Whether CONCURRENT was written: batches may then be in flight together. */
  readonly concurrent: boolean;
  /** `IN n CONCURRENT`: the batches in flight at most, a constant; absent for the default. */
  readonly concurrency?: BoundExpression;
}

/** `ON ERROR RETRY [FOR d SECONDS]`, checked. */
export interface BoundOnErrorRetry {
  /** Seconds, a constant; absent for `in_transactions_retry_seconds_default`. */
  readonly duration?: BoundExpression;
}

/** How long ON ERROR RETRY goes on without FOR: the manual leaves it to the implementation. */
export const in_transactions_retry_seconds_default = 30;

/** A retry duration the manual allows: an INTEGER or FLOAT of at least 0 (seconds). */
export function retrySeconds(v: Value): boolean {
  return (typeof v === 'bigint' && v >= 0n) || (typeof v === 'number' && v >= 0);
}

/** The manual's default batch: 1000 incoming rows per inner transaction. */
export const in_transactions_rows_default = 1000n;
