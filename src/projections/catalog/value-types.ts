import { assertNever } from '../../common/assert.js';
import type { PropertyValue } from '../../common/property-value.js';
import { DateTimeValue, kindOf, PointValue, type Value } from '../../common/values/index.js';
import type { PropertyTypeSpec } from '../../log/events.js';

/**
 * Whether a stored value has a declared property type (SPEC 2.4 PropertyType). TIMESTAMP is an
 * instant (a zoned datetime); BLOB is a reference to stored bytes, held as the blob id; GEO is a POINT,
 * or, as before points existed, a map of numeric coordinates (`latitude`/`longitude` or `x`/`y`) that
 * GraphService takes over the wire; DOCUMENT accepts any map, unchecked.
 */
export function valueHasType(value: PropertyValue | Value, type: PropertyTypeSpec): boolean {
  switch (type.kind) {
    case 'scalar':
      switch (type.scalar) {
        case 'STRING':
          return typeof value === 'string';
        case 'INT64':
          return typeof value === 'bigint';
        case 'FLOAT64':
          return typeof value === 'number';
        case 'BOOL':
          return typeof value === 'boolean';
        case 'TIMESTAMP':
          return value instanceof DateTimeValue;
        case 'BLOB':
          return typeof value === 'string' || value instanceof Uint8Array;
        case 'BINARY':
          return value instanceof Uint8Array;
        case 'MAP':
        case 'DOCUMENT':
          return value instanceof Map;
        case 'GEO':
          return value instanceof PointValue || (value instanceof Map && isGeo(value as ReadonlyMap<string, Value>));
        default:
          return assertNever(type.scalar, 'scalar type');
      }
    case 'vector':
      return value instanceof Float32Array && (type.dimensions === 0 || value.length === type.dimensions);
    case 'array':
      return Array.isArray(value) && (value as readonly Value[]).every((v) => v !== null && valueHasType(v, type.element));
    default:
      return assertNever(type, 'property type');
  }
}

function isGeo(m: ReadonlyMap<string, Value>): boolean {
  const num = (k: string): boolean => typeof m.get(k) === 'number' || typeof m.get(k) === 'bigint';
  return (num('latitude') && num('longitude')) || (num('x') && num('y'));
}

/** The type as the SPEC names it, for messages. */
export function typeText(type: PropertyTypeSpec): string {
  switch (type.kind) {
    case 'scalar':
      return type.scalar;
    case 'vector':
      return type.dimensions === 0 ? 'VECTOR' : `VECTOR(${type.dimensions})`;
    case 'array':
      return `ARRAY<${typeText(type.element)}>`;
    default:
      return assertNever(type, 'property type');
  }
}

export function valueKindText(value: PropertyValue): string {
  return kindOf(value).toUpperCase();
}

/** Structural equality of two property types (for if_not_exists matching). */
export function sameType(a: PropertyTypeSpec | undefined, b: PropertyTypeSpec | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (a.kind !== b.kind) return false;
  switch (a.kind) {
    case 'scalar':
      return a.scalar === (b as typeof a).scalar;
    case 'vector':
      return a.dimensions === (b as typeof a).dimensions && a.metric === (b as typeof a).metric;
    case 'array':
      return sameType(a.element, (b as typeof a).element);
    default:
      return assertNever(a, 'property type');
  }
}
