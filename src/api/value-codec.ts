import { create, type MessageInitShape } from '@bufbuild/protobuf';
import { NullValue } from '@bufbuild/protobuf/wkt';
import { edgeElementId, encodeElementId } from '../common/element-id.js';
import { invalidArgument } from '../common/errors.js';
import type { PropertyMap, PropertyValue } from '../common/property-value.js';
import { NANOS_PER_DAY, NANOS_PER_SECOND } from '../common/values/calendar.js';
import {
  DateTimeValue,
  DateValue,
  DurationValue,
  LocalDateTimeValue,
  LocalTimeValue,
  TimeValue,
  PointValue,
  crsBySrid,
  daysFromCivil,
  pointValue,
  isStorableProperty,
  kindOf,
  type Value,
} from '../common/values/index.js';
import type { EdgeState, NodeState } from '../projections/graph/records.js';
import {
  EdgeSchema,
  NodeSchema,
  PropertyValueSchema,
  type Edge,
  type Node,
  type PropertyValue as WireValue,
} from '../gen/weft/v1/values_pb.js';

/**
 * Between wire values (weft.v1.PropertyValue) and the value model. Inbound values become stored
 * properties and are checked to be storable; outbound values are whatever a query returns, graph
 * references included, resolved through a reader.
 */
export interface RefResolver {
  node(id: number): NodeState | undefined;
  edge(id: number): EdgeState | undefined;
}

/** A property map from a request; a null value means "absent" and is dropped. */
export function propertiesFromWire(props: Readonly<Record<string, WireValue>>, what: string): Map<string, PropertyValue> {
  const out = new Map<string, PropertyValue>();
  for (const [key, wire] of Object.entries(props)) {
    if (key === '') throw invalidArgument(`${what}: a property name must not be empty`);
    const value = valueFromWire(wire, `${what}.${key}`);
    if (value === null) continue;
    // A map is taken here for a property declared MAP, DOCUMENT or GEO; whether this one is, the
    // catalog decides when the write is checked (src/projections/catalog/map-values.ts).
    if (!isStorableProperty(value) && !(holdsMap(value) && isStorableProperty(value, { allowMaps: true }))) {
      throw invalidArgument(`${what}.${key}: a ${kindOf(value)} value cannot be stored as a property`, 'INVALID_PROPERTY_VALUE', { property: key });
    }
    out.set(key, value as PropertyValue);
  }
  return out;
}

/** A map, or a list holding one: the values only a MAP, DOCUMENT or GEO property takes. */
function holdsMap(value: Value): boolean {
  return value instanceof Map || (Array.isArray(value) && value.some((v: Value) => v instanceof Map));
}

export function valueFromWire(wire: WireValue, where: string): Value {
  const k = wire.kind;
  switch (k.case) {
    case 'stringValue':
    case 'boolValue':
    case 'floatValue':
      return k.value;
    case 'intValue':
      return k.value;
    case 'bytesValue':
      return k.value;
    case 'vectorValue':
      return Float32Array.from(k.value.values);
    case 'listValue':
      return k.value.values.map((v, i) => valueFromWire(v, `${where}[${i}]`));
    case 'nullValue':
    case undefined:
      return null;
    case 'mapValue':
      return new Map(Object.entries(k.value.fields).map(([key, v]) => [key, valueFromWire(v, `${where}.${key}`)]));
    case 'timestampValue':
      return dateTimeFromMicros(k.value.unixMicros);
    case 'dateValue':
      return new DateValue(checkedDay(Number(k.value.year), k.value.month, k.value.day, where));
    case 'localTimeValue':
      return new LocalTimeValue(nanoOfDay(k.value.hour, k.value.minute, k.value.second, k.value.nanosecond, where));
    case 'timeValue':
      return new TimeValue(nanoOfDay(k.value.hour, k.value.minute, k.value.second, k.value.nanosecond, where), k.value.offsetSeconds);
    case 'localDatetimeValue':
      return new LocalDateTimeValue(
        checkedDay(Number(k.value.year), k.value.month, k.value.day, where),
        nanoOfDay(k.value.hour, k.value.minute, k.value.second, k.value.nanosecond, where),
      );
    case 'datetimeValue':
      return new DateTimeValue(
        checkedDay(Number(k.value.year), k.value.month, k.value.day, where),
        nanoOfDay(k.value.hour, k.value.minute, k.value.second, k.value.nanosecond, where),
        k.value.offsetSeconds,
        k.value.zoneId === '' ? null : k.value.zoneId,
      );
    case 'durationValue':
      return new DurationValue(Number(k.value.months), Number(k.value.days), k.value.seconds, k.value.nanoseconds);
    case 'pointValue':
      return pointFromWire(k.value.srid, k.value.x, k.value.y, k.value.z, where);
    case 'nodeValue':
    case 'edgeValue':
    case 'pathValue':
    case 'multiVectorValue':
      throw invalidArgument(`${where}: a ${k.case} is not accepted as an input value`);
  }
}

export function valueToWire(value: Value, refs: RefResolver): WireValue {
  return create(PropertyValueSchema, { kind: wireKind(value, refs) });
}

function wireKind(value: Value, refs: RefResolver): NonNullable<MessageInitShape<typeof PropertyValueSchema>['kind']> {
  if (value === null) return { case: 'nullValue', value: NullValue.NULL_VALUE };
  switch (typeof value) {
    case 'boolean':
      return { case: 'boolValue', value };
    case 'bigint':
      return { case: 'intValue', value };
    case 'number':
      return { case: 'floatValue', value };
    case 'string':
      return { case: 'stringValue', value };
    default:
      break;
  }
  if (value instanceof Float32Array) return { case: 'vectorValue', value: { values: Array.from(value) } };
  if (value instanceof Uint8Array) return { case: 'bytesValue', value };
  if (Array.isArray(value)) return { case: 'listValue', value: { values: value.map((v: Value) => valueToWire(v, refs)) } };
  if (value instanceof Map) {
    const fields: Record<string, WireValue> = {};
    for (const [k, v] of value as ReadonlyMap<string, Value>) fields[k] = valueToWire(v, refs);
    return { case: 'mapValue', value: { fields } };
  }
  if (value instanceof DateValue) return { case: 'dateValue', value: { year: BigInt(value.year), month: value.month, day: value.day, iso: String(value) } };
  if (value instanceof LocalTimeValue) return { case: 'localTimeValue', value: { ...clock(value.nanoOfDay), iso: String(value) } };
  if (value instanceof TimeValue) {
    return { case: 'timeValue', value: { ...clock(value.nanoOfDay), offsetSeconds: value.offsetSeconds, iso: String(value) } };
  }
  if (value instanceof LocalDateTimeValue) {
    const d = new DateValue(value.epochDay);
    return { case: 'localDatetimeValue', value: { year: BigInt(d.year), month: d.month, day: d.day, ...clock(value.nanoOfDay), iso: String(value) } };
  }
  if (value instanceof DateTimeValue) {
    const d = new DateValue(value.epochDay);
    return {
      case: 'datetimeValue',
      value: {
        year: BigInt(d.year),
        month: d.month,
        day: d.day,
        ...clock(value.nanoOfDay),
        offsetSeconds: value.offsetSeconds,
        zoneId: value.zone ?? '',
        iso: String(value),
      },
    };
  }
  if (value instanceof DurationValue) {
    return {
      case: 'durationValue',
      value: { months: BigInt(value.months), days: BigInt(value.days), seconds: value.seconds, nanoseconds: value.nanos, iso: String(value) },
    };
  }
  if (value instanceof PointValue) {
    return {
      case: 'pointValue',
      value: { srid: value.srid, x: value.x, y: value.y, ...(value.z !== undefined && { z: value.z }), crs: value.crs.name, text: String(value) },
    };
  }
  const ref = value as { kind: string; id?: number; nodes?: readonly number[]; rels?: readonly number[] };
  switch (ref.kind) {
    case 'node': {
      const n = refs.node(ref.id!);
      return { case: 'nodeValue', value: n === undefined ? create(NodeSchema, { nodeId: BigInt(ref.id!), elementId: encodeElementId(ref.id!) }) : nodeToWire(n) };
    }
    case 'relationship': {
      const e = refs.edge(ref.id!);
      return { case: 'edgeValue', value: e === undefined ? create(EdgeSchema, { edgeId: BigInt(ref.id!) }) : edgeToWire(e) };
    }
    case 'path': {
      const rels = (ref.rels ?? []).map((id) => {
        const e = refs.edge(id);
        return { edgeType: e?.type ?? '', source: BigInt(e?.source ?? 0), target: BigInt(e?.target ?? 0) };
      });
      return { case: 'pathValue', value: { nodes: (ref.nodes ?? []).map(BigInt), rels } };
    }
    default:
      throw invalidArgument(`a value of kind ${String(ref.kind)} has no wire form`);
  }
}

export function propertiesToWire(props: PropertyMap, refs: RefResolver): Record<string, WireValue> {
  const out: Record<string, WireValue> = {};
  for (const [k, v] of props) out[k] = valueToWire(v, refs);
  return out;
}

const noRefs: RefResolver = { node: () => undefined, edge: () => undefined };

export function nodeToWire(node: NodeState, version = node.ts): Node {
  return create(NodeSchema, {
    nodeId: BigInt(node.id),
    labels: [...node.labels],
    properties: propertiesToWire(node.props, noRefs),
    elementId: encodeElementId(node.id),
    version: BigInt(version),
  });
}

export function edgeToWire(edge: EdgeState): Edge {
  return create(EdgeSchema, {
    edgeId: BigInt(edge.id),
    edgeType: edge.type,
    sourceNodeId: BigInt(edge.source),
    targetNodeId: BigInt(edge.target),
    properties: propertiesToWire(edge.props, noRefs),
    elementId: edgeElementId(edge),
  });
}


function clock(nanoOfDayValue: number): { hour: number; minute: number; second: number; nanosecond: number } {
  const secs = Math.floor(nanoOfDayValue / NANOS_PER_SECOND);
  return { hour: Math.floor(secs / 3600), minute: Math.floor(secs / 60) % 60, second: secs % 60, nanosecond: nanoOfDayValue % NANOS_PER_SECOND };
}

function nanoOfDay(hour: number, minute: number, second: number, nanosecond: number, where: string): number {
  if (hour > 23 || minute > 59 || second > 59 || nanosecond >= NANOS_PER_SECOND) throw invalidArgument(`${where}: time of day out of range`);
  const n = ((hour * 60 + minute) * 60 + second) * NANOS_PER_SECOND + nanosecond;
  if (n >= NANOS_PER_DAY) throw invalidArgument(`${where}: time of day out of range`);
  return n;
}

function checkedDay(year: number, month: number, day: number, where: string): number {
  if (month < 1 || month > 12 || day < 1 || day > 31) throw invalidArgument(`${where}: ${year}-${month}-${day} is not a date`);
  const epochDay = daysFromCivil(year, month, day);
  const back = new DateValue(epochDay);
  if (back.month !== month || back.day !== day) throw invalidArgument(`${where}: ${year}-${month}-${day} is not a date`);
  return epochDay;
}

/** A point from the wire: the SRID decides the CRS, z must be there exactly in 3D (the crs and text fields are output only). */
function pointFromWire(srid: number, x: number, y: number, z: number | undefined, where: string): PointValue {
  const crs = crsBySrid(srid);
  if (crs === undefined) throw invalidArgument(`${where}: unknown SRID ${srid} (known: 7203, 9157, 4326, 4979)`, 'INVALID_PROPERTY_VALUE');
  const p = pointValue(crs, z === undefined ? [x, y] : [x, y, z]);
  if (typeof p === 'string') throw invalidArgument(`${where}: ${p}`, 'INVALID_PROPERTY_VALUE');
  return p;
}

function dateTimeFromMicros(micros: bigint): DateTimeValue {
  const day = micros >= 0n ? micros / 86_400_000_000n : -((-micros + 86_400_000_000n - 1n) / 86_400_000_000n);
  const rest = micros - day * 86_400_000_000n;
  return new DateTimeValue(Number(day), Number(rest) * 1000, 0, null);
}
