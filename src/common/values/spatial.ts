import { assert } from '../assert.js';
import { formatFloat } from './float-text.js';

/**
 * Spatial values: a POINT of two or three 64-bit coordinates in one of the four coordinate reference
 * systems Cypher knows (the Neo4j 5 manual's "Spatial values"). The CRS fixes the dimension and whether
 * the coordinates are geographic (x is the longitude, y the latitude, z the height in meters) or
 * Cartesian (units of the data's own choosing).
 */
export interface CoordinateReferenceSystem {
  readonly name: CrsName;
  readonly srid: Srid;
  readonly dimensions: 2 | 3;
  readonly geographic: boolean;
}

export type CrsName = 'cartesian' | 'cartesian-3d' | 'wgs-84' | 'wgs-84-3d';
export type Srid = 7203 | 9157 | 4326 | 4979;

export const CARTESIAN: CoordinateReferenceSystem = { name: 'cartesian', srid: 7203, dimensions: 2, geographic: false };
export const CARTESIAN_3D: CoordinateReferenceSystem = { name: 'cartesian-3d', srid: 9157, dimensions: 3, geographic: false };
export const WGS_84: CoordinateReferenceSystem = { name: 'wgs-84', srid: 4326, dimensions: 2, geographic: true };
export const WGS_84_3D: CoordinateReferenceSystem = { name: 'wgs-84-3d', srid: 4979, dimensions: 3, geographic: true };

const SYSTEMS: readonly CoordinateReferenceSystem[] = [CARTESIAN, CARTESIAN_3D, WGS_84, WGS_84_3D];

/** The CRS of a name, matched without regard to case (`'WGS-84'` is `'wgs-84'`), or undefined. */
export function crsByName(name: string): CoordinateReferenceSystem | undefined {
  const lower = name.toLowerCase();
  return SYSTEMS.find((c) => c.name === lower);
}

export function crsBySrid(srid: number): CoordinateReferenceSystem | undefined {
  return SYSTEMS.find((c) => c.srid === srid);
}

/** Latitude bounds of a geographic point, in degrees. */
export const LATITUDE_MAX_DEGREES = 90;
/** Longitude bounds: a geographic point's x is brought into [-180, 180]. */
export const LONGITUDE_MAX_DEGREES = 180;

/**
 * Why these coordinates cannot make a point of `crs`, or undefined when they can. The longitude is not
 * checked: `pointValue` wraps it into [-180, 180].
 */
export function pointProblem(crs: CoordinateReferenceSystem, coordinates: readonly number[]): string | undefined {
  if (coordinates.length !== crs.dimensions) {
    return `a ${crs.name} point has ${crs.dimensions} coordinates, not ${coordinates.length}`;
  }
  if (crs.geographic) {
    const longitude = coordinates[0] as number;
    if (!Number.isFinite(longitude)) return `cannot create a WGS-84 point with longitude ${formatFloat(longitude)}`;
    const latitude = coordinates[1] as number;
    if (!(latitude >= -LATITUDE_MAX_DEGREES && latitude <= LATITUDE_MAX_DEGREES)) {
      return `cannot create a WGS-84 point with latitude ${formatFloat(latitude)}: the valid range is [-90, 90]`;
    }
  }
  return undefined;
}

/** A longitude wrapped into [-180, 180] (190 is -170, -540 is -180); values inside are kept as they are. */
export function wrapLongitude(x: number): number {
  if (x >= -LONGITUDE_MAX_DEGREES && x <= LONGITUDE_MAX_DEGREES) return x;
  const turned = (((x + LONGITUDE_MAX_DEGREES) % 360) + 360) % 360;
  return turned - LONGITUDE_MAX_DEGREES;
}

export class PointValue {
  readonly kind = 'point' as const;
  /**
   * Invariant: `z` is a number exactly when `crs.dimensions` is 3; a geographic point's latitude `y`
   * lies in [-90, 90] and its longitude `x` in [-180, 180].
   */
  constructor(
    readonly crs: CoordinateReferenceSystem,
    readonly x: number,
    readonly y: number,
    readonly z: number | undefined,
  ) {
    assert((z !== undefined) === (crs.dimensions === 3), 'point dimension does not match its CRS');
    assert(!crs.geographic || (Math.abs(y) <= LATITUDE_MAX_DEGREES && Math.abs(x) <= LONGITUDE_MAX_DEGREES), 'geographic point out of range');
  }

  get srid(): Srid {
    return this.crs.srid;
  }

  /** The coordinates in order: x, y and, in 3D, z. */
  get coordinates(): readonly number[] {
    return this.z === undefined ? [this.x, this.y] : [this.x, this.y, this.z];
  }

  /** The text Cypher shows: `point({x: 1.0, y: 2.0, crs: 'cartesian'})`, z before the CRS in 3D. */
  toString(): string {
    const z = this.z === undefined ? '' : `, z: ${formatFloat(this.z)}`;
    return `point({x: ${formatFloat(this.x)}, y: ${formatFloat(this.y)}${z}, crs: '${this.crs.name}'})`;
  }
}

/**
 * The point of `crs` at `coordinates` (x, y[, z]), its longitude wrapped when geographic; a string
 * saying what is wrong when there is no such point. Every path that makes a point from outside data
 * (Cypher's `point()`, the log codec, the wire) comes through here.
 */
export function pointValue(crs: CoordinateReferenceSystem, coordinates: readonly number[]): PointValue | string {
  const problem = pointProblem(crs, coordinates);
  if (problem !== undefined) return problem;
  const x = crs.geographic ? wrapLongitude(coordinates[0] as number) : (coordinates[0] as number);
  return new PointValue(crs, x, coordinates[1] as number, coordinates[2]);
}
