import { describe, expect, it } from 'vitest';
import { equals, equivalent } from '../../src/common/values/equality.js';
import { hashValue, ValueHashSet } from '../../src/common/values/hash.js';
import { compareValues, orderCompare } from '../../src/common/values/order.js';
import {
  CARTESIAN,
  CARTESIAN_3D,
  crsByName,
  crsBySrid,
  PointValue,
  pointValue,
  WGS_84,
  WGS_84_3D,
  wrapLongitude,
  type CoordinateReferenceSystem,
} from '../../src/common/values/spatial.js';
import { isStorableProperty } from '../../src/common/values/storable.js';
import { DurationValue } from '../../src/common/values/temporal.js';
import { kindOf, pathValue, typeName, type Value } from '../../src/common/values/value.js';
import { pointDistance, withinBBox } from '../../src/query/functions/spatial-functions.js';
import { fromJsonValue, toJsonValue } from '../../src/query/values/convert.js';
import { decodeState, encodeState } from '../../src/log/codec.js';
import { prng, testSeed } from '../support/prng.js';

function pt(crs: CoordinateReferenceSystem, ...coordinates: number[]): PointValue {
  const p = pointValue(crs, coordinates);
  if (typeof p === 'string') throw new Error(p);
  return p;
}

describe('spatial values: the four coordinate reference systems', () => {
  it('are found by name without regard to case, and by SRID', () => {
    expect(crsByName('WGS-84')).toBe(WGS_84);
    expect(crsByName('Cartesian-3D')).toBe(CARTESIAN_3D);
    expect(crsByName('wgs84')).toBeUndefined();
    expect([7203, 9157, 4326, 4979].map((s) => crsBySrid(s)?.name)).toEqual(['cartesian', 'cartesian-3d', 'wgs-84', 'wgs-84-3d']);
    expect(crsBySrid(4269)).toBeUndefined();
  });

  it('refuse a latitude outside [-90, 90], a coordinate count that is not the CRS dimension, and a longitude that is not finite', () => {
    expect(pointValue(WGS_84, [0, 90.5])).toMatch(/latitude 90.5/);
    expect(pointValue(WGS_84, [0, NaN])).toMatch(/latitude NaN/);
    expect(pointValue(WGS_84, [Infinity, 0])).toMatch(/longitude Infinity/);
    expect(pointValue(CARTESIAN, [1, 2, 3])).toMatch(/2 coordinates, not 3/);
    expect(pointValue(WGS_84_3D, [1, 2])).toMatch(/3 coordinates, not 2/);
    // Cartesian coordinates are unbounded.
    expect(pt(CARTESIAN, 1e300, -1e300).x).toBe(1e300);
  });

  it('wrap a geographic longitude into [-180, 180]', () => {
    expect([190, -190, 540, -540, 180, -180, 360, 0.5].map(wrapLongitude)).toEqual([-170, 170, -180, -180, 180, -180, 0, 0.5]);
    expect(pt(WGS_84, 200, 10).x).toBe(-160);
    expect(pt(CARTESIAN, 200, 10).x).toBe(200);
  });
});

describe('spatial values: text, kind and JSON form', () => {
  it('print as Neo4j prints a point', () => {
    expect(String(pt(CARTESIAN, 1, 2))).toBe("point({x: 1.0, y: 2.0, crs: 'cartesian'})");
    expect(String(pt(CARTESIAN_3D, 1.5, -2, 1e20))).toBe("point({x: 1.5, y: -2.0, z: 1.0E20, crs: 'cartesian-3d'})");
    expect(String(pt(WGS_84, 12.78, 56.7))).toBe("point({x: 12.78, y: 56.7, crs: 'wgs-84'})");
    expect(String(pt(WGS_84_3D, 12.78, 56.7, 100))).toBe("point({x: 12.78, y: 56.7, z: 100.0, crs: 'wgs-84-3d'})");
  });

  it('are of kind point and type POINT', () => {
    expect(kindOf(pt(CARTESIAN, 0, 0))).toBe('point');
    expect(typeName(pt(WGS_84, 0, 0))).toBe('POINT');
  });

  it('round-trip through the neutral JSON form, coordinates that are not finite included', () => {
    for (const p of [pt(CARTESIAN, 1, 2), pt(CARTESIAN_3D, NaN, -Infinity, 0.1), pt(WGS_84_3D, -179.5, -89.9, -20)]) {
      const back = fromJsonValue(JSON.parse(JSON.stringify(toJsonValue(p))));
      expect(equivalent(back, p)).toBe(true);
      expect(String(back)).toBe(String(p));
    }
    expect(() => fromJsonValue({ point: { srid: 4326, coordinates: [0, 100] } })).toThrow(/latitude/);
    expect(() => fromJsonValue({ point: { srid: 1, coordinates: [0, 1] } })).toThrow(/malformed/);
  });
});

describe('spatial values: equality, hashing and grouping', () => {
  it('are equal when the CRS and every coordinate are', () => {
    expect(equals(pt(CARTESIAN, 1, 2), pt(CARTESIAN, 1, 2))).toBe(true);
    expect(equals(pt(CARTESIAN, 1, 2), pt(CARTESIAN, 1, 2.0000001))).toBe(false);
    // The same numbers in another CRS are another value.
    expect(equals(pt(CARTESIAN, 1, 2), pt(WGS_84, 1, 2))).toBe(false);
    expect(equals(pt(CARTESIAN, 1, 2), null)).toBe(null);
    expect(equals(pt(CARTESIAN, 1, 2), new Map([['x', 1], ['y', 2]]) as Value)).toBe(false);
    expect(equals([pt(WGS_84, 1, 2)], [pt(WGS_84, 1, 2)])).toBe(true);
  });

  it('treat NaN coordinates as = treats NaN: unequal, but equivalent for DISTINCT', () => {
    const a = pt(CARTESIAN, NaN, 1);
    expect(equals(a, pt(CARTESIAN, NaN, 1))).toBe(false);
    expect(equivalent(a, pt(CARTESIAN, NaN, 1))).toBe(true);
    expect(hashValue(a)).toBe(hashValue(pt(CARTESIAN, NaN, 1)));
  });

  it('hash consistently with equivalence, -0.0 and 0.0 alike', () => {
    expect(hashValue(pt(CARTESIAN, -0, 1))).toBe(hashValue(pt(CARTESIAN, 0, 1)));
    expect(hashValue(pt(CARTESIAN, 1, 2))).not.toBe(hashValue(pt(WGS_84, 1, 2)));
    const set = new ValueHashSet();
    const added = [pt(CARTESIAN, 1, 2), pt(CARTESIAN, 1, 2), pt(WGS_84, 1, 2), pt(CARTESIAN_3D, 1, 2, 0), pt(CARTESIAN, 2, 1)].map((p) => set.add(p));
    expect(added).toEqual([true, false, true, true, true]);
  });
});

describe('spatial values: comparison and order', () => {
  it('are not comparable with < (null), like durations', () => {
    expect(compareValues(pt(CARTESIAN, 1, 2), pt(CARTESIAN, 3, 4))).toBe(null);
    expect(compareValues(pt(CARTESIAN, 1, 2), pt(CARTESIAN, 1, 2))).toBe(null);
    expect(compareValues(pt(CARTESIAN, 1, 2), 1n)).toBe(null);
  });

  it('sort after paths and before the temporal types, by SRID and then by coordinates', () => {
    const sorted: Value[] = [
      'text',
      new DurationValue(0, 1, 0n, 0),
      pt(CARTESIAN_3D, 0, 0, 0),
      pt(CARTESIAN, 2, 0),
      pt(CARTESIAN, 1, 5),
      pt(WGS_84_3D, 0, 0, 0),
      pt(WGS_84, 10, -5),
      pt(WGS_84, 10, -6),
      pathValue([1], []),
    ].sort(orderCompare);
    expect(sorted.map((v) => (typeof v === 'object' && v !== null && 'kind' in v && v.kind === 'point' ? String(v) : kindOf(v)))).toEqual([
      'path',
      "point({x: 10.0, y: -6.0, crs: 'wgs-84'})",
      "point({x: 10.0, y: -5.0, crs: 'wgs-84'})",
      "point({x: 0.0, y: 0.0, z: 0.0, crs: 'wgs-84-3d'})",
      "point({x: 1.0, y: 5.0, crs: 'cartesian'})",
      "point({x: 2.0, y: 0.0, crs: 'cartesian'})",
      "point({x: 0.0, y: 0.0, z: 0.0, crs: 'cartesian-3d'})",
      'duration',
      'string',
    ]);
  });
});

describe('spatial values: storable as properties', () => {
  it('alone and in lists of one CRS', () => {
    expect(isStorableProperty(pt(WGS_84, 1, 2))).toBe(true);
    expect(isStorableProperty([pt(CARTESIAN, 1, 2), pt(CARTESIAN, 3, 4)])).toBe(true);
    expect(isStorableProperty([pt(CARTESIAN, 1, 2), pt(WGS_84, 3, 4)])).toBe(false);
    expect(isStorableProperty([pt(CARTESIAN, 1, 2), 1n])).toBe(false);
  });
});

describe('point.distance', () => {
  it('is Euclidean in a Cartesian CRS, in 2D and 3D', () => {
    expect(pointDistance(pt(CARTESIAN, 0, 0), pt(CARTESIAN, 3, 4))).toBe(5);
    expect(pointDistance(pt(CARTESIAN_3D, 1, 2, 3), pt(CARTESIAN_3D, 3, 5, 9))).toBe(7);
  });

  it('is the haversine distance on a sphere of 6,378,140 m in WGS-84', () => {
    // A quarter of a great circle: from the equator to the pole.
    expect(pointDistance(pt(WGS_84, 0, 0), pt(WGS_84, 0, 90))).toBeCloseTo((Math.PI / 2) * 6_378_140, 6);
    // Across the antimeridian the short way round: two degrees of longitude at the equator.
    expect(pointDistance(pt(WGS_84, 179, 0), pt(WGS_84, -179, 0))).toBeCloseTo((2 * Math.PI * 6_378_140) / 180, 6);
  });

  it('in WGS-84 3D is taken at the mean height and combined with the height difference', () => {
    const flat = pointDistance(pt(WGS_84_3D, 0, 0, 1000), pt(WGS_84_3D, 1, 0, 1000)) as number;
    expect(flat).toBeCloseTo(((2 * Math.PI * (6_378_140 + 1000)) / 360) * 1, 6);
    const rising = pointDistance(pt(WGS_84_3D, 0, 0, 0), pt(WGS_84_3D, 1, 0, 2000)) as number;
    const alongSurface = ((2 * Math.PI * (6_378_140 + 1000)) / 360) * 1;
    expect(rising).toBeCloseTo(Math.sqrt(alongSurface ** 2 + 2000 ** 2), 6);
  });

  it('is null across CRSs, 2D against 3D included', () => {
    expect(pointDistance(pt(WGS_84, 0, 0), pt(CARTESIAN, 0, 0))).toBe(null);
    expect(pointDistance(pt(WGS_84, 0, 0), pt(WGS_84_3D, 0, 0, 0))).toBe(null);
  });
});

describe('point.withinBBox', () => {
  it('includes the bounds of a Cartesian box and is false for an inverted one', () => {
    const [ll, ur] = [pt(CARTESIAN, 0, 0), pt(CARTESIAN, 10, 10)];
    expect(withinBBox(pt(CARTESIAN, 5, 5), ll, ur)).toBe(true);
    expect(withinBBox(pt(CARTESIAN, 10, 0), ll, ur)).toBe(true);
    expect(withinBBox(pt(CARTESIAN, 10.5, 0), ll, ur)).toBe(false);
    expect(withinBBox(pt(CARTESIAN, 5, 5), ur, ll)).toBe(false);
  });

  it('checks the height in 3D', () => {
    const [ll, ur] = [pt(CARTESIAN_3D, 0, 0, 0), pt(CARTESIAN_3D, 10, 10, 10)];
    expect(withinBBox(pt(CARTESIAN_3D, 5, 5, 5), ll, ur)).toBe(true);
    expect(withinBBox(pt(CARTESIAN_3D, 5, 5, 11), ll, ur)).toBe(false);
  });

  it('crosses the 180th meridian in WGS-84 when the lower-left longitude is east of the upper-right one', () => {
    const [ll, ur] = [pt(WGS_84, 179, 55), pt(WGS_84, -179, 56)];
    expect(withinBBox(pt(WGS_84, 180, 55.5), ll, ur)).toBe(true);
    expect(withinBBox(pt(WGS_84, -179.5, 55.5), ll, ur)).toBe(true);
    expect(withinBBox(pt(WGS_84, 0, 55.5), ll, ur)).toBe(false);
    // The same corners the other way round are the box the long way round.
    expect(withinBBox(pt(WGS_84, 0, 55.5), pt(WGS_84, -179, 55), pt(WGS_84, 179, 56))).toBe(true);
    // A lower-left latitude north of the upper-right one is an empty box.
    expect(withinBBox(pt(WGS_84, 180, 55.5), pt(WGS_84, 179, 56), pt(WGS_84, -179, 55))).toBe(false);
  });

  it('is null across CRSs', () => {
    expect(withinBBox(pt(WGS_84, 0, 0), pt(CARTESIAN, -1, -1), pt(CARTESIAN, 1, 1))).toBe(null);
  });
});

describe('spatial values: order, equivalence, hash and the codec agree on random points', () => {
  it('over 400 points drawn from a few coordinates in every CRS (the seed is printed; WEFT_SEED replays it)', () => {
    const random = prng(testSeed('spatial-values'));
    const systems = [CARTESIAN, CARTESIAN_3D, WGS_84, WGS_84_3D];
    // Few distinct coordinates, so that equal points are drawn often; -0.0 and NaN among them (NaN only
    // where a CRS allows it: not as a longitude or latitude).
    const values = [0, -0, 1, -1.5, 90, 1e-300, NaN];
    const coordinate = (nanAllowed: boolean): number => values[Math.floor(random() * (nanAllowed ? 7 : 6))] as number;
    const points = Array.from({ length: 400 }, () => {
      const crs = systems[Math.floor(random() * 4)]!;
      return pt(crs, ...Array.from({ length: crs.dimensions }, (_, k) => coordinate(!crs.geographic || k === 2)));
    });
    for (let i = 0; i < points.length; i++) {
      const a = points[i]!;
      const b = points[(i * 7 + 3) % points.length]!;
      const same = equivalent(a, b);
      // ORDER BY ties exactly the equivalent points, and equivalent points hash alike.
      expect(orderCompare(a, b) === 0).toBe(same);
      expect(Math.sign(orderCompare(a, b)) + Math.sign(orderCompare(b, a))).toBe(0);
      if (same) expect(hashValue(a)).toBe(hashValue(b));
      // = is equivalence except where a NaN coordinate makes it false.
      expect(equals(a, b)).toBe(same && !a.coordinates.some((c) => c !== c));
      const back = decodeState(encodeState(a)) as PointValue;
      expect(back.crs).toBe(a.crs);
      back.coordinates.forEach((c, k) => expect(Object.is(c, a.coordinates[k])).toBe(true));
    }
    // Sorting gives a sequence in which every neighbour pair is in order (the order is consistent).
    const sorted = [...points].sort(orderCompare);
    for (let i = 1; i < sorted.length; i++) expect(orderCompare(sorted[i - 1]!, sorted[i]!)).toBeLessThanOrEqual(0);
  });
});
