import {
  CARTESIAN,
  CARTESIAN_3D,
  crsByName,
  crsBySrid,
  PointValue,
  pointValue,
  WGS_84,
  WGS_84_3D,
  type CoordinateReferenceSystem,
} from '../../common/values/spatial.js';
import type { Value } from '../../common/values/value.js';
import { arg, badValue, wrongType } from './args.js';
import { scalar, type ScalarFunction } from './definition.js';

/**
 * The spatial functions of the Neo4j 5 manual: `point()` from a map, `point.distance()` and
 * `point.withinBBox()`. The value itself, its CRSs and its text are src/common/values/spatial.ts.
 */

/** The radius of the sphere Neo4j's geographic distance is measured on (about the equatorial radius), in meters. */
export const EARTH_RADIUS_METERS = 6_378_140;

const COORDINATE_KEYS = ['x', 'y', 'z', 'longitude', 'latitude', 'height'] as const;
type CoordinateKey = (typeof COORDINATE_KEYS)[number];

/**
 * `point({x, y[, z][, crs | srid]})` or `point({longitude, latitude[, height | z][, crs | srid]})`. Keys are
 * matched without regard to case and keys of no meaning to a point are ignored, as Neo4j does; a null
 * anywhere among the keys that matter gives null.
 */
export function pointFromMap(map: ReadonlyMap<string, Value>): PointValue | null {
  const fields = new Map<string, Value>();
  for (const [key, value] of map) {
    const lower = key.toLowerCase();
    if ((COORDINATE_KEYS as readonly string[]).includes(lower) || lower === 'crs' || lower === 'srid') {
      if (fields.has(lower)) badValue('point', `the key '${lower}' is given twice`);
      fields.set(lower, value);
    }
  }
  for (const value of fields.values()) if (value === null) return null;
  const number = (key: CoordinateKey): number | undefined => {
    const v = fields.get(key);
    if (v === undefined) return undefined;
    if (typeof v === 'number') return v;
    if (typeof v === 'bigint') return Number(v);
    return wrongType('point', `a number for '${key}'`, v);
  };
  // `z` is also the height of a geographic point (`{longitude, latitude, z}` is WGS-84 3D); `height`
  // belongs to the geographic form only.
  const usesGeographic = fields.has('longitude') || fields.has('latitude') || fields.has('height');
  const usesCartesian = fields.has('x') || fields.has('y');
  if (usesCartesian && usesGeographic) {
    badValue('point', 'a point takes either x and y or longitude and latitude (with height), not keys of both');
  }
  if (fields.has('height') && fields.has('z')) badValue('point', 'give the height as either height or z, not both');
  const c = usesGeographic
    ? { x: number('longitude'), y: number('latitude'), z: number('height') ?? number('z') }
    : { x: number('x'), y: number('y'), z: number('z') };
  if (c.x === undefined || c.y === undefined) {
    badValue('point', usesGeographic ? 'a geographic point needs both longitude and latitude' : 'a point needs x and y, or longitude and latitude');
  }
  const coordinates = c.z === undefined ? [c.x, c.y] : [c.x, c.y, c.z];
  const crs = declaredCrs(fields) ?? defaultCrs(usesGeographic, coordinates.length);
  if (usesGeographic && !crs.geographic) badValue('point', `longitude and latitude make a geographic point, not one of CRS '${crs.name}'`);
  if (crs.dimensions !== coordinates.length) {
    badValue('point', `CRS '${crs.name}' has ${crs.dimensions} dimensions but ${coordinates.length} coordinates were given`);
  }
  const p = pointValue(crs, coordinates);
  return typeof p === 'string' ? badValue('point', p) : p;
}

function declaredCrs(fields: ReadonlyMap<string, Value>): CoordinateReferenceSystem | undefined {
  const name = fields.get('crs');
  const srid = fields.get('srid');
  if (name !== undefined && srid !== undefined) badValue('point', 'give either crs or srid, not both');
  if (name !== undefined) {
    if (typeof name !== 'string') return wrongType('point', "a STRING for 'crs'", name);
    return crsByName(name) ?? badValue('point', `unknown coordinate reference system '${name}' (known: cartesian, cartesian-3d, wgs-84, wgs-84-3d)`);
  }
  if (srid !== undefined) {
    if (typeof srid !== 'bigint') return wrongType('point', "an INTEGER for 'srid'", srid);
    return crsBySrid(Number(srid)) ?? badValue('point', `unknown coordinate reference system code ${srid} (known: 7203, 9157, 4326, 4979)`);
  }
  return undefined;
}

function defaultCrs(geographic: boolean, dimensions: number): CoordinateReferenceSystem {
  if (geographic) return dimensions === 3 ? WGS_84_3D : WGS_84;
  return dimensions === 3 ? CARTESIAN_3D : CARTESIAN;
}

function pointArg(fn: string, v: Value): PointValue {
  return v instanceof PointValue ? v : wrongType(fn, 'a POINT', v);
}

/**
 * Distance between two points of one CRS; null across CRSs. Cartesian: Euclidean. WGS-84: the haversine
 * great-circle distance on a sphere of `EARTH_RADIUS_METERS`; in 3D taken at the two points' mean height
 * and then combined with the height difference by Pythagoras, as the manual describes.
 */
export function pointDistance(a: PointValue, b: PointValue): number | null {
  if (a.crs !== b.crs) return null;
  if (!a.crs.geographic) {
    const dz = a.z === undefined ? 0 : a.z - (b.z as number);
    return Math.sqrt((a.x - b.x) ** 2 + (a.y - b.y) ** 2 + dz ** 2);
  }
  // Each coordinate is turned into radians before the differences are taken, as Neo4j does, so that the
  // results agree to the last digit.
  const toRadians = Math.PI / 180;
  const lon1 = a.x * toRadians;
  const lat1 = a.y * toRadians;
  const lon2 = b.x * toRadians;
  const lat2 = b.y * toRadians;
  const h = Math.sin((lat2 - lat1) / 2) ** 2 + Math.cos(lat1) * Math.cos(lat2) * Math.sin((lon2 - lon1) / 2) ** 2;
  const angle = 2 * Math.atan2(Math.sqrt(h), Math.sqrt(1 - h));
  if (a.z === undefined) return EARTH_RADIUS_METERS * angle;
  const meanHeight = (a.z + (b.z as number)) / 2;
  const alongSurface = (EARTH_RADIUS_METERS + meanHeight) * angle;
  const rise = a.z - (b.z as number);
  return Math.sqrt(alongSurface * alongSurface + rise * rise);
}

/**
 * Whether `p` lies in the box from `lowerLeft` to `upperRight`, bounds included; null across CRSs. In
 * WGS-84 a lower-left longitude east of the upper-right one is a box across the 180th meridian; a
 * lower-left latitude north of the upper-right one is an empty box, as is any such inversion in a
 * Cartesian CRS.
 */
export function withinBBox(p: PointValue, lowerLeft: PointValue, upperRight: PointValue): boolean | null {
  if (p.crs !== lowerLeft.crs || p.crs !== upperRight.crs) return null;
  const between = (v: number, lo: number, hi: number): boolean => v >= lo && v <= hi;
  const xInside =
    p.crs.geographic && lowerLeft.x > upperRight.x
      ? p.x >= lowerLeft.x || p.x <= upperRight.x
      : between(p.x, lowerLeft.x, upperRight.x);
  const zInside = p.z === undefined || between(p.z, lowerLeft.z as number, upperRight.z as number);
  return xInside && between(p.y, lowerLeft.y, upperRight.y) && zInside;
}

export const spatialFunctions: readonly ScalarFunction[] = [
  scalar('point', 1, 1, ([m = null]) => {
    if (m === null) return null;
    if (!(m instanceof Map)) return wrongType('point', 'a MAP', m);
    return pointFromMap(m as ReadonlyMap<string, Value>);
  }),
  scalar('point.distance', 2, 2, (args) => {
    const [a, b] = [arg(args, 0), arg(args, 1)];
    if (a === null || b === null) return null;
    return pointDistance(pointArg('point.distance', a), pointArg('point.distance', b));
  }),
  scalar('point.withinbbox', 3, 3, (args) => {
    const [p, lowerLeft, upperRight] = [arg(args, 0), arg(args, 1), arg(args, 2)];
    if (p === null || lowerLeft === null || upperRight === null) return null;
    const fn = 'point.withinBBox';
    return withinBBox(pointArg(fn, p), pointArg(fn, lowerLeft), pointArg(fn, upperRight));
  }),
];
