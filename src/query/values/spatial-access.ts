import type { PointValue } from '../../common/values/spatial.js';
import type { Value } from '../../common/values/value.js';
import { argumentError } from '../errors.js';

/**
 * `p.x`, `p.latitude`, `p.crs`…: a point's components, names matched without regard to case. A
 * component the point's CRS lacks (`z` of a 2D point, `latitude` of a Cartesian one) is an error, as in
 * Neo4j; undefined for a name that is no component at all.
 */
export function pointComponent(p: PointValue, name: string): Value | undefined {
  const missing = (what: string): never => {
    throw argumentError('InvalidArgumentValue', `the component '${name}' is not available on a ${what} point: ${String(p)}`);
  };
  switch (name.toLowerCase()) {
    case 'x':
      return p.x;
    case 'y':
      return p.y;
    case 'z':
      return p.z ?? missing(p.crs.name);
    case 'longitude':
      return p.crs.geographic ? p.x : missing(p.crs.name);
    case 'latitude':
      return p.crs.geographic ? p.y : missing(p.crs.name);
    case 'height':
      return p.crs.geographic && p.z !== undefined ? p.z : missing(p.crs.name);
    case 'crs':
      return p.crs.name;
    case 'srid':
      return BigInt(p.srid);
    default:
      return undefined;
  }
}
