import type { LiteralValue } from '../ast/expression.js';
import type { Span } from '../ast/span.js';
import type { BoundQuery } from './bound-clause.js';
import type { BoundExpression, BoundVariable } from './bound-expression.js';

export type VectorConsistency = 'current' | 'snapshot' | 'exact';

/** The query hints, validated. Hints take precedence over the same settings in the request. */
export interface BoundHints {
  readonly vector_consistency?: VectorConsistency;
  readonly vector_build_wait_ms?: number;
  /** `valid_at(<datetime>)`: the valid time temporal labels and edge types are read at (docs/temporal.md). */
  readonly valid_at?: BoundExpression;
  /** `vector_ef(n)`: the HNSW beam of the statement's vector searches (at least their k), instead of 64. */
  readonly vector_ef?: number;
}

export interface BoundQueryStatement {
  readonly kind: 'query';
  readonly query: BoundQuery;
  /** AS OF TIMESTAMP: a constant (integer literal or parameter), the commit_ts to read at. */
  readonly as_of?: BoundExpression;
  readonly hints: BoundHints;
  /** Every slot of the statement's rows; variables[id].id === id. */
  readonly variables: readonly BoundVariable[];
  /** Parameter names the statement refers to (including the implicit arguments of a standalone call). */
  readonly parameters: readonly string[];
  /** True when any clause writes (CREATE, MERGE, SET, REMOVE, DELETE). */
  readonly updating: boolean;
  /**
   * Present when the statement holds `CALL { } IN TRANSACTIONS`: it commits a log entry per batch while
   * it runs, so it runs only auto-committed, on the server's batch path (docs/cypher.md section 2.1).
   */
  readonly in_transactions?: true;
  /**
   * Present when the statement holds LOAD CSV: a remote source is read as its data arrives, which only
   * a statement run in time slices can wait for.
   */
  readonly loads_csv?: true;
}

/** PropertyType (SPEC 2.4) as written in `REQUIRE n.p IS :: TYPE`. */
export type BoundPropertyType =
  | {
      readonly kind: 'scalar';
      readonly scalar: 'STRING' | 'INT64' | 'FLOAT64' | 'BOOL' | 'TIMESTAMP' | 'BLOB' | 'BINARY' | 'MAP' | 'GEO' | 'DOCUMENT';
    }
  | { readonly kind: 'vector'; readonly dimensions: number }
  | { readonly kind: 'array'; readonly element: BoundPropertyType };

/** ConstraintScope (SPEC 2.4): the nodes a UNIQUE constraint holds among. */
export type BoundConstraintScope =
  | { readonly property: string; readonly kind: 'equals'; readonly value: string | bigint | boolean }
  | { readonly property: string; readonly kind: 'present' };

export type ConstraintKind = 'UNIQUE' | 'NOT_NULL' | 'NODE_KEY' | 'PROPERTY_TYPE';

export interface BoundCreateConstraint {
  readonly kind: 'create_constraint';
  readonly name?: string;
  readonly if_not_exists: boolean;
  readonly label: string;
  readonly constraint: ConstraintKind;
  /** In declaration order: the column order of a backing index. Invariant: non-empty, no repeats. */
  readonly properties: readonly string[];
  readonly property_type?: BoundPropertyType;
  readonly scope?: BoundConstraintScope;
  readonly span: Span;
}

export interface BoundCreateIndex {
  readonly kind: 'create_index';
  readonly name?: string;
  readonly unique: boolean;
  readonly if_not_exists: boolean;
  readonly label: string;
  /** Invariant: non-empty, no repeats. */
  readonly properties: readonly string[];
  /** Only for a UNIQUE index. */
  readonly scope?: BoundConstraintScope;
  /** A vector or full-text index (never unique, never scoped). */
  readonly search?: BoundSearchIndex;
  readonly span: Span;
}

export type BoundSearchIndex =
  | {
      readonly kind: 'vector';
      readonly dimensions: number;
      readonly metric: 'COSINE' | 'L2' | 'DOT' | 'L1';
      readonly m: number;
      readonly ef_construction: number;
    }
  | { readonly kind: 'text'; readonly analyzer: 'standard' | 'whitespace' | 'keyword' | 'english' };

export interface BoundDrop {
  readonly kind: 'drop_constraint' | 'drop_index';
  readonly name: string;
  readonly if_exists: boolean;
  readonly span: Span;
}

export type BoundSessionSetting =
  | { readonly name: 'vector_consistency'; readonly value: VectorConsistency }
  | { readonly name: 'vector_build_wait_ms'; readonly value: number };

export interface BoundSessionSet {
  readonly kind: 'session_set';
  readonly setting: BoundSessionSetting;
  readonly span: Span;
}

export type BoundStatement = BoundQueryStatement | BoundCreateConstraint | BoundCreateIndex | BoundDrop | BoundSessionSet;

export type { LiteralValue };
