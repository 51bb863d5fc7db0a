import { PointValue } from '../../common/values/spatial.js';
import { isTemporal, typeName, type Value } from '../../common/values/value.js';
import { argumentError, runtimeTypeError } from '../errors.js';
import { listElement } from './coerce.js';
import { pointComponent } from './spatial-access.js';
import { temporalComponent } from './temporal-access.js';

/**
 * Element and property access on values that carry their contents: lists, maps, temporal values and
 * points.
 * Nodes and relationships are the evaluator's to read from the graph; it calls these for the rest.
 * Null in, null out; anything else is `TypeError/InvalidArgumentType`.
 */

/** `x[i]`: a list by INTEGER index, a map by STRING key. */
export function subscript(container: Value, index: Value): Value {
  if (container === null || index === null) return null;
  if (Array.isArray(container)) return listElement(container as readonly Value[], index);
  if (container instanceof Map) {
    if (typeof index !== 'string') {
      throw runtimeTypeError('MapElementAccessByNonString', `a map is indexed by a STRING, not ${typeName(index)}`);
    }
    return (container as ReadonlyMap<string, Value>).get(index) ?? null;
  }
  throw runtimeTypeError('InvalidArgumentType', `cannot index ${typeName(container)}`);
}

/** `x.key` on a map (missing key gives null), a temporal value or a point (their components). */
export function staticProperty(v: Value, key: string): Value {
  if (v === null) return null;
  if (v instanceof Map) return (v as ReadonlyMap<string, Value>).get(key) ?? null;
  if (isTemporal(v)) {
    const c = temporalComponent(v, key);
    if (c === undefined) throw runtimeTypeError('InvalidArgumentValue', `${typeName(v)} has no component '${key}'`);
    return c;
  }
  if (v instanceof PointValue) {
    const c = pointComponent(v, key);
    if (c === undefined) throw argumentError('InvalidArgumentValue', `POINT has no component '${key}'`);
    return c;
  }
  throw runtimeTypeError('InvalidArgumentType', `cannot read property '${key}' of ${typeName(v)}`);
}
