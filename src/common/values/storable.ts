import type { DateTimeValue, DateValue, DurationValue, LocalDateTimeValue, LocalTimeValue, TimeValue } from './temporal.js';
import type { PointValue } from './spatial.js';
import { kindOf, type Value } from './value.js';

/** The scalar kinds a property can hold. */
export type StorableScalar =
  | boolean
  | bigint
  | number
  | string
  | Uint8Array
  | Float32Array
  | DateValue
  | LocalTimeValue
  | TimeValue
  | LocalDateTimeValue
  | DateTimeValue
  | DurationValue
  | PointValue;

/**
 * A property value as the type system can describe it: a scalar, a list of scalars, or a document
 * (MAP/DOCUMENT properties). The rules the type cannot say (one kind per list, documents only where
 * declared) are `isStorableProperty`'s.
 */
export type StorableValue = StorableScalar | readonly StorableScalar[] | StorableDocument;
export type StorableDocument = ReadonlyMap<string, StorableDocumentValue>;
export type StorableDocumentValue = StorableScalar | null | readonly StorableDocumentValue[] | StorableDocument;

/**
 * Which values a property may hold. Storable: BOOLEAN, INTEGER, FLOAT, STRING, BYTES, VECTOR, the six
 * temporal types, POINT, and lists of those whose non-null elements share one kind (INTEGER and FLOAT
 * count as one numeric kind, as Cypher allows `[1, 2.5]`; points of different CRSs are different
 * kinds). Never storable: null (setting null removes the property), nodes, relationships, paths, lists
 * containing lists, maps or nulls. Maps are storable only where a label's schema declares the property
 * as MAP or DOCUMENT (SPEC 2.4), which the caller says by passing `allowMaps`; such a map may nest any
 * storable value, lists and maps included.
 */
export interface StorableOptions {
  readonly allowMaps?: boolean;
}

export function isStorableProperty(v: Value, options: StorableOptions = {}): v is StorableValue {
  const k = kindOf(v);
  switch (k) {
    case 'boolean':
    case 'integer':
    case 'float':
    case 'string':
    case 'bytes':
    case 'vector':
    case 'date':
    case 'localtime':
    case 'time':
    case 'localdatetime':
    case 'datetime':
    case 'duration':
    case 'point':
      return true;
    case 'list':
      return options.allowMaps === true ? isDocument(v) : isHomogeneousScalarList(v as readonly Value[]);
    case 'map':
      return options.allowMaps === true && isDocument(v);
    case 'null':
    case 'node':
    case 'relationship':
    case 'path':
      return false;
  }
}

function isHomogeneousScalarList(list: readonly Value[]): boolean {
  let first: string | undefined;
  for (const x of list) {
    if (x === null) return false;
    let k: string = kindOf(x);
    if (k === 'list' || k === 'map' || k === 'node' || k === 'relationship' || k === 'path') return false;
    if (k === 'integer' || k === 'float') k = 'number';
    // Points of one list share a CRS (Neo4j stores no list mixing systems).
    else if (k === 'point') k = `point ${(x as PointValue).srid}`;
    if (first === undefined) first = k;
    else if (first !== k) return false;
  }
  return true;
}

/** A document: nested maps and lists of storable scalars (nulls allowed inside, as JSON allows). */
function isDocument(v: Value): boolean {
  const k = kindOf(v);
  if (k === 'node' || k === 'relationship' || k === 'path') return false;
  if (k === 'list') return (v as readonly Value[]).every(isDocument);
  if (k === 'map') {
    for (const x of (v as ReadonlyMap<string, Value>).values()) if (!isDocument(x)) return false;
  }
  return true;
}
