/**
 * Plain JavaScript values to and from the wire's PropertyValue.
 *
 * Parameters: `null`/`undefined` → null; boolean; a whole `number` or a `bigint` → INTEGER; a
 * fractional `number` → FLOAT (wrap a whole number in `float(x)` to send a FLOAT); string;
 * `Uint8Array` → bytes; `Float32Array` → a vector; `Date` → a zoned DATETIME at its instant (UTC);
 * arrays → lists; plain objects → maps.
 *
 * Results: INTEGER → `number` when it is exact as a double, else `bigint`; FLOAT → number; lists →
 * arrays; maps → plain objects; nodes, relationships and paths → `Node`, `Relationship`, `Path`;
 * temporal values → `Temporal` (its ISO 8601 text; `toDate()` for instants); vectors → Float32Array;
 * points → `Point`, which is also how a point is sent as a parameter.
 */
import { create, type MessageInitShape } from '@bufbuild/protobuf';
import { invalidArgument } from '../common/errors.js';
import { PropertyValueSchema, type Edge as WireEdge, type Node as WireNode, type PropertyValue } from '../gen/weft/v1/values_pb.js';

/** A number sent as FLOAT even when it is whole. */
export class Float {
  constructor(readonly value: number) {}
}
export const float = (value: number): Float => new Float(value);

export type Param =
  | null
  | undefined
  | boolean
  | number
  | bigint
  | string
  | Uint8Array
  | Float32Array
  | Date
  | Float
  | Point
  | readonly Param[]
  | { readonly [key: string]: Param };

/** An integer id: a number while exact, a bigint beyond 2^53. */
export type Id = number | bigint;

export class Node {
  constructor(
    readonly id: Id,
    readonly elementId: string,
    readonly labels: readonly string[],
    readonly properties: Readonly<Record<string, Value>>,
  ) {}
}

export class Relationship {
  constructor(
    readonly id: Id,
    readonly elementId: string,
    readonly type: string,
    readonly start: Id,
    readonly end: Id,
    readonly properties: Readonly<Record<string, Value>>,
  ) {}
}

export class Path {
  constructor(
    /** Node ids, start to end. */
    readonly nodes: readonly Id[],
    /** Hop n joins nodes[n] and nodes[n + 1]. */
    readonly rels: readonly { readonly type: string; readonly start: Id; readonly end: Id }[],
  ) {}
}

export type TemporalKind = 'date' | 'localtime' | 'time' | 'localdatetime' | 'datetime' | 'duration';

export class Temporal {
  constructor(
    readonly kind: TemporalKind,
    readonly iso: string,
    /** Microseconds since the epoch, for kinds that name an instant. */
    private readonly micros: bigint | undefined,
  ) {}
  /** The instant as a Date (millisecond precision); undefined for kinds that are not instants. */
  toDate(): Date | undefined {
    return this.micros === undefined ? undefined : new Date(Number(this.micros / 1000n));
  }
  toString(): string {
    return this.iso;
  }
}

/**
 * A spatial point: srid 7203 (cartesian), 9157 (cartesian-3d), 4326 (wgs-84: x longitude, y latitude)
 * or 4979 (wgs-84-3d, z the height). `crs` is the system's name; the server fills it in results.
 */
export class Point {
  constructor(
    readonly srid: number,
    readonly x: number,
    readonly y: number,
    readonly z?: number,
    readonly crs = '',
  ) {}
}

export type Value =
  | null
  | boolean
  | number
  | bigint
  | string
  | Uint8Array
  | Float32Array
  | readonly Float32Array[]
  | readonly Value[]
  | { readonly [key: string]: Value }
  | Node
  | Relationship
  | Path
  | Temporal
  | Point;

export function toWire(v: Param, where: string): PropertyValue {
  const of = (kind: NonNullable<MessageInitShape<typeof PropertyValueSchema>['kind']>): PropertyValue => create(PropertyValueSchema, { kind });
  if (v === null || v === undefined) return of({ case: 'nullValue', value: 0 });
  if (typeof v === 'boolean') return of({ case: 'boolValue', value: v });
  if (typeof v === 'bigint') return of({ case: 'intValue', value: v });
  if (typeof v === 'number') return Number.isInteger(v) ? of({ case: 'intValue', value: BigInt(v) }) : of({ case: 'floatValue', value: v });
  if (typeof v === 'string') return of({ case: 'stringValue', value: v });
  if (v instanceof Float) return of({ case: 'floatValue', value: v.value });
  if (v instanceof Float32Array) return of({ case: 'vectorValue', value: { values: [...v] } });
  if (v instanceof Point) return of({ case: 'pointValue', value: { srid: v.srid, x: v.x, y: v.y, ...(v.z !== undefined && { z: v.z }) } });
  if (v instanceof Uint8Array) return of({ case: 'bytesValue', value: v });
  if (v instanceof Date) {
    if (Number.isNaN(v.getTime())) throw invalidArgument(`${where}: an invalid Date`);
    return of({ case: 'timestampValue', value: { unixMicros: BigInt(v.getTime()) * 1000n } });
  }
  if (Array.isArray(v)) return of({ case: 'listValue', value: { values: (v as readonly Param[]).map((x, i) => toWire(x, `${where}[${i}]`)) } });
  if (Object.getPrototypeOf(v) === Object.prototype) {
    const fields = Object.fromEntries(Object.entries(v as { readonly [key: string]: Param }).map(([k, x]) => [k, toWire(x, `${where}.${k}`)]));
    return of({ case: 'mapValue', value: { fields } });
  }
  throw invalidArgument(`${where}: a ${(v as object).constructor.name} cannot be sent as a value`);
}

export function paramsToWire(params: Readonly<Record<string, Param>>): Record<string, PropertyValue> {
  return Object.fromEntries(Object.entries(params).map(([k, v]) => [k, toWire(v, `$${k}`)]));
}

export function id(x: bigint): Id {
  return x <= BigInt(Number.MAX_SAFE_INTEGER) && x >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(x) : x;
}

function propsOf(fields: { readonly [key: string]: PropertyValue }): Record<string, Value> {
  return Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, fromWire(v)]));
}

export function nodeOf(n: WireNode): Node {
  return new Node(id(n.nodeId), n.elementId, n.labels, propsOf(n.properties));
}

export function relationshipOf(e: WireEdge): Relationship {
  return new Relationship(id(e.edgeId), e.elementId, e.edgeType, id(e.sourceNodeId), id(e.targetNodeId), propsOf(e.properties));
}

export function fromWire(v: PropertyValue | undefined): Value {
  const k = v?.kind;
  if (k === undefined) return null;
  switch (k.case) {
    case undefined:
    case 'nullValue':
      return null;
    case 'stringValue':
    case 'boolValue':
    case 'floatValue':
    case 'bytesValue':
      return k.value;
    case 'intValue':
      return id(k.value);
    case 'vectorValue':
      return Float32Array.from(k.value.values);
    case 'multiVectorValue':
      return k.value.rows.map((r) => Float32Array.from(r.values));
    case 'listValue':
      return k.value.values.map(fromWire);
    case 'mapValue':
      return propsOf(k.value.fields);
    case 'nodeValue':
      return nodeOf(k.value);
    case 'edgeValue':
      return relationshipOf(k.value);
    case 'pathValue':
      return new Path(k.value.nodes.map(id), k.value.rels.map((r) => ({ type: r.edgeType, start: id(r.source), end: id(r.target) })));
    case 'timestampValue':
      return new Temporal('datetime', new Date(Number(k.value.unixMicros / 1000n)).toISOString(), k.value.unixMicros);
    case 'dateValue':
      return new Temporal('date', k.value.iso, undefined);
    case 'localTimeValue':
      return new Temporal('localtime', k.value.iso, undefined);
    case 'timeValue':
      return new Temporal('time', k.value.iso, undefined);
    case 'localDatetimeValue':
      return new Temporal('localdatetime', k.value.iso, undefined);
    case 'datetimeValue': {
      const ms = Date.parse(k.value.iso.replace(/\[.*\]$/, ''));
      return new Temporal('datetime', k.value.iso, Number.isNaN(ms) ? undefined : BigInt(ms) * 1000n + BigInt(Math.floor(k.value.nanosecond / 1000) % 1000));
    }
    case 'durationValue':
      return new Temporal('duration', k.value.iso, undefined);
    case 'pointValue':
      return new Point(k.value.srid, k.value.x, k.value.y, k.value.z, k.value.crs);
  }
}
