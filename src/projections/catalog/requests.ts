import type { ConstraintKindName, ConstraintScopeSpec, PropertyTypeSpec, SearchIndexSpec } from '../../log/events.js';

/** What a caller asks of the schema, from either route (SchemaService or Cypher DDL). */
export interface ConstraintRequest {
  /** Empty: the server derives a name. */
  readonly name: string;
  readonly label: string;
  readonly constraint: ConstraintKindName;
  readonly properties: readonly string[];
  readonly property_type?: PropertyTypeSpec;
  readonly scope?: ConstraintScopeSpec;
  readonly if_not_exists: boolean;
  /** How long to wait for the backing build; undefined takes the server default. */
  readonly wait_ms?: number;
  readonly on_duplicate_rename: string;
  /** The backing index's name; absent: derived from the constraint's (CREATE UNIQUE INDEX names it). */
  readonly index_name?: string;
}

export interface IndexRequest {
  /** Empty: the server derives a name. */
  readonly name: string;
  readonly label: string;
  readonly properties: readonly string[];
  readonly if_not_exists: boolean;
  readonly wait_ms?: number;
  /** A vector or text index; absent for a B-tree index. */
  readonly search?: SearchIndexSpec;
}

/** An index named by id or by name (a name that looks like a number is still a name). */
export type IndexRef = { readonly index_id: number } | { readonly index_name: string };
