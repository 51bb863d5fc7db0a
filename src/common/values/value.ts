import {
  DateTimeValue,
  DateValue,
  DurationValue,
  LocalDateTimeValue,
  LocalTimeValue,
  TimeValue,
} from './temporal.js';
import type { PointValue } from './spatial.js';

/**
 * One representation of a Cypher value, shared by storage and the query engine:
 *
 * | Cypher type    | JavaScript                                  |
 * |----------------|---------------------------------------------|
 * | NULL           | `null`                                      |
 * | BOOLEAN        | `boolean`                                   |
 * | INTEGER        | `bigint`, kept within signed 64 bits        |
 * | FLOAT          | `number` (IEEE 754 binary64)                |
 * | STRING         | `string`                                    |
 * | BYTES          | `Uint8Array`                                |
 * | VECTOR         | `Float32Array`                              |
 * | LIST           | `readonly Value[]`                          |
 * | MAP            | `ReadonlyMap<string, Value>` (a JS `Map`)   |
 * | temporal types | the classes of temporal.ts                  |
 * | POINT          | `PointValue` (spatial.ts)                   |
 * | NODE, RELATIONSHIP, PATH | light references by id (below)    |
 *
 * Graph references live here, not in src/query, only because equality, ordering and hashing must know
 * them; they carry no labels or properties, which the query engine reads from the graph by id.
 */
export type Value =
  | null
  | boolean
  | bigint
  | number
  | string
  | Uint8Array
  | Float32Array
  | readonly Value[]
  | ReadonlyMap<string, Value>
  | DateValue
  | LocalTimeValue
  | TimeValue
  | LocalDateTimeValue
  | DateTimeValue
  | DurationValue
  | PointValue
  | NodeRef
  | RelationshipRef
  | PathValue;

/** A node, identified by its numeric node id (a safe integer). */
export interface NodeRef {
  readonly kind: 'node';
  readonly id: number;
}

/** A relationship (edge), identified by its numeric edge id. */
export interface RelationshipRef {
  readonly kind: 'relationship';
  readonly id: number;
}

/**
 * A path: node ids from start to end and the relationship ids between them.
 * Invariant: `rels.length === nodes.length - 1` and `nodes.length >= 1`; hop i joins nodes[i] to nodes[i+1],
 * in either direction (the relationship's own direction is read from the graph).
 */
export interface PathValue {
  readonly kind: 'path';
  readonly nodes: readonly number[];
  readonly rels: readonly number[];
}

export type ValueMap = ReadonlyMap<string, Value>;

/** The kinds a value can have, in the order of the global sort order (see order.ts). */
export type ValueKind =
  | 'map'
  | 'node'
  | 'relationship'
  | 'list'
  | 'path'
  | 'point'
  | 'datetime'
  | 'localdatetime'
  | 'date'
  | 'time'
  | 'localtime'
  | 'duration'
  | 'vector'
  | 'bytes'
  | 'string'
  | 'boolean'
  | 'integer'
  | 'float'
  | 'null';

export function kindOf(v: Value): ValueKind {
  switch (typeof v) {
    case 'bigint':
      return 'integer';
    case 'number':
      return 'float';
    case 'string':
      return 'string';
    case 'boolean':
      return 'boolean';
    default:
      break;
  }
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'list';
  if (v instanceof Map) return 'map';
  if (v instanceof Uint8Array) return 'bytes';
  if (v instanceof Float32Array) return 'vector';
  return (v as { readonly kind: ValueKind }).kind;
}

export function isList(v: Value): v is readonly Value[] {
  return Array.isArray(v);
}

export function isMap(v: Value): v is ValueMap {
  return v instanceof Map;
}

export function isNode(v: Value): v is NodeRef {
  return typeof v === 'object' && v !== null && (v as { kind?: unknown }).kind === 'node';
}

export function isRelationship(v: Value): v is RelationshipRef {
  return typeof v === 'object' && v !== null && (v as { kind?: unknown }).kind === 'relationship';
}

export function isPath(v: Value): v is PathValue {
  return typeof v === 'object' && v !== null && (v as { kind?: unknown }).kind === 'path';
}

export function isTemporal(v: Value): v is DateValue | LocalTimeValue | TimeValue | LocalDateTimeValue | DateTimeValue | DurationValue {
  return (
    v instanceof DateValue ||
    v instanceof LocalTimeValue ||
    v instanceof TimeValue ||
    v instanceof LocalDateTimeValue ||
    v instanceof DateTimeValue ||
    v instanceof DurationValue
  );
}

/** The Cypher type name of a value, as error messages and `valueType()` show it. */
export function typeName(v: Value): string {
  const k = kindOf(v);
  switch (k) {
    case 'map':
      return 'MAP';
    case 'node':
      return 'NODE';
    case 'relationship':
      return 'RELATIONSHIP';
    case 'list':
      return 'LIST';
    case 'path':
      return 'PATH';
    case 'point':
      return 'POINT';
    case 'datetime':
      return 'ZONED DATETIME';
    case 'localdatetime':
      return 'LOCAL DATETIME';
    case 'date':
      return 'DATE';
    case 'time':
      return 'ZONED TIME';
    case 'localtime':
      return 'LOCAL TIME';
    case 'duration':
      return 'DURATION';
    case 'vector':
      return 'VECTOR';
    case 'bytes':
      return 'BYTES';
    case 'string':
      return 'STRING';
    case 'boolean':
      return 'BOOLEAN';
    case 'integer':
      return 'INTEGER';
    case 'float':
      return 'FLOAT';
    case 'null':
      return 'NULL';
  }
}

/** INTEGER bounds (signed 64-bit). */
export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

export function isInt64(v: bigint): boolean {
  return v >= INT64_MIN && v <= INT64_MAX;
}

export const nodeRef = (id: number): NodeRef => ({ kind: 'node', id });
export const relationshipRef = (id: number): RelationshipRef => ({ kind: 'relationship', id });
export const pathValue = (nodes: readonly number[], rels: readonly number[]): PathValue => ({ kind: 'path', nodes, rels });
