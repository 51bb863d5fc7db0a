import type { Expression, LiteralValue } from './expression.js';
import type { Query } from './query.js';
import type { Span } from './span.js';

/** `vector_consistency('snapshot')`, written `USING vector_consistency(...)` or in a hint comment. */
export interface Hint {
  readonly name: string;
  readonly args: readonly Expression[];
  readonly span: Span;
}

export interface QueryStatement {
  readonly kind: 'query';
  readonly query: Query;
  /** `AS OF TIMESTAMP <expr>`: the commit_ts the whole statement reads at. */
  readonly as_of?: Expression;
  readonly hints: readonly Hint[];
  readonly span: Span;
}

/** A property's type in `REQUIRE n.p IS :: TYPE`: a name, optional element type, optional size. */
export interface TypeRef {
  readonly name: string;
  readonly element?: TypeRef;
  readonly size?: number;
  readonly span: Span;
}

export type ConstraintRequirement =
  | { readonly kind: 'unique'; readonly properties: readonly string[] }
  | { readonly kind: 'node_key'; readonly properties: readonly string[] }
  | { readonly kind: 'not_null'; readonly properties: readonly string[] }
  | { readonly kind: 'property_type'; readonly properties: readonly string[]; readonly type: TypeRef };

export interface PropertyRef {
  readonly variable: string;
  readonly key: string;
  readonly span: Span;
}

export interface CreateConstraintStatement {
  readonly kind: 'create_constraint';
  readonly name?: string;
  readonly if_not_exists: boolean;
  readonly variable: string;
  readonly label: string;
  readonly requirement: ConstraintRequirement;
  /** The properties as written, with the variable each names (checked by the binder). */
  readonly property_refs: readonly PropertyRef[];
  /** A scope for UNIQUE: only the nodes the predicate admits are compared. */
  readonly where?: Expression;
  readonly span: Span;
}

export interface DropConstraintStatement {
  readonly kind: 'drop_constraint';
  readonly name: string;
  readonly if_exists: boolean;
  readonly span: Span;
}

export interface CreateIndexStatement {
  readonly kind: 'create_index';
  readonly name?: string;
  readonly unique: boolean;
  readonly if_not_exists: boolean;
  /** The variable of the `FOR (n:Label)` form; absent for `ON Label(prop)`. */
  readonly variable?: string;
  readonly label: string;
  readonly properties: readonly string[];
  readonly property_refs: readonly PropertyRef[];
  readonly where?: Expression;
  /** `CREATE VECTOR INDEX` or `CREATE FULLTEXT INDEX`, with its `OPTIONS {...}` map. */
  readonly search?: SearchIndexClause;
  readonly span: Span;
}

export interface SearchIndexClause {
  readonly kind: 'vector' | 'fulltext';
  readonly options?: Expression;
  readonly span: Span;
}

export interface DropIndexStatement {
  readonly kind: 'drop_index';
  readonly name: string;
  readonly if_exists: boolean;
  readonly span: Span;
}

/** `SET vector_consistency = 'snapshot'`: a setting of the session, not a graph update. */
export interface SessionSetStatement {
  readonly kind: 'session_set';
  readonly name: string;
  readonly value: LiteralValue;
  readonly span: Span;
}

export type SchemaStatement = CreateConstraintStatement | DropConstraintStatement | CreateIndexStatement | DropIndexStatement;

export type Statement = QueryStatement | SchemaStatement | SessionSetStatement;
