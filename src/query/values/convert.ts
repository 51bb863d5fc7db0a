import {
  DateTimeValue,
  DateValue,
  DurationValue,
  LocalDateTimeValue,
  LocalTimeValue,
  TimeValue,
} from '../../common/values/temporal.js';
import {
  parseDate,
  parseDateTime,
  parseDuration,
  parseLocalDateTime,
  parseLocalTime,
  parseTime,
} from '../../common/values/temporal-parse.js';
import { crsBySrid, pointValue, type PointValue } from '../../common/values/spatial.js';
import { kindOf, type Value, type ValueMap } from '../../common/values/value.js';
import { assertNever } from '../../common/assert.js';
import { argumentError } from '../errors.js';

/**
 * A neutral, lossless JSON form of every runtime value, for tests, logs, the shell and any transport
 * that needs plain JSON. Strings, booleans, null and lists map to themselves; everything else is an
 * object with one tag key:
 *
 *   {"int": "42"}  {"float": 1.5}  {"float": "NaN" | "Infinity" | "-Infinity"}
 *   {"map": {...}}  {"bytes": "<base64>"}  {"vector": [0.5, ...]}
 *   {"date": "1984-10-11"}  {"localtime": "12:00"}  {"time": "12:00+01:00"}
 *   {"localdatetime": "..."}  {"datetime": "...+01:00[Europe/Stockholm]"}  {"duration": "P1D"}
 *   {"point": {"srid": 7203, "coordinates": [1, 2.5]}} (a coordinate that is not finite as text, like a float)
 *   {"node": 7}  {"relationship": 3}  {"path": {"nodes": [1, 2], "rels": [5]}}
 *
 * Integers are strings because JSON numbers lose precision beyond 2^53.
 */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export function toJsonValue(v: Value): JsonValue {
  const k = kindOf(v);
  switch (k) {
    case 'null':
    case 'boolean':
    case 'string':
      return v as null | boolean | string;
    case 'integer':
      return { int: (v as bigint).toString() };
    case 'float': {
      const f = v as number;
      return { float: Number.isFinite(f) ? f : String(f) };
    }
    case 'list':
      return (v as readonly Value[]).map(toJsonValue);
    case 'map': {
      const out: { [key: string]: JsonValue } = {};
      for (const [key, x] of v as ValueMap) out[key] = toJsonValue(x);
      return { map: out };
    }
    case 'bytes':
      return { bytes: Buffer.from(v as Uint8Array).toString('base64') };
    case 'vector':
      return { vector: Array.from(v as Float32Array) };
    case 'date':
    case 'localtime':
    case 'time':
    case 'localdatetime':
    case 'datetime':
    case 'duration':
      return { [k]: String(v) };
    case 'point': {
      const p = v as PointValue;
      return { point: { srid: p.srid, coordinates: p.coordinates.map((c) => (Number.isFinite(c) ? c : String(c))) } };
    }
    case 'node':
    case 'relationship':
      return { [k]: (v as { id: number }).id };
    case 'path': {
      const p = v as { nodes: readonly number[]; rels: readonly number[] };
      return { path: { nodes: [...p.nodes], rels: [...p.rels] } };
    }
    default:
      return assertNever(k, 'value kind');
  }
}

function bad(what: string): never {
  throw argumentError('InvalidArgumentValue', `malformed JSON value: ${what}`);
}

export function fromJsonValue(j: JsonValue): Value {
  if (j === null || typeof j === 'boolean' || typeof j === 'string') return j;
  if (typeof j === 'number') bad('bare number (use {"int": ...} or {"float": ...})');
  if (Array.isArray(j)) return j.map(fromJsonValue);
  const keys = Object.keys(j);
  if (keys.length !== 1) bad('tagged object must have exactly one key');
  const tag = keys[0] as string;
  const body = j[tag] as JsonValue;
  const text = (): string => (typeof body === 'string' ? body : bad(`${tag} must be a string`));
  const parsed = <T>(x: T | undefined): T => (x === undefined ? bad(`${tag} text`) : x);
  switch (tag) {
    case 'int': {
      const t = text();
      if (!/^-?\d+$/.test(t)) bad('int');
      return BigInt(t);
    }
    case 'float':
      if (typeof body === 'number') return body;
      if (body === 'NaN') return NaN;
      if (body === 'Infinity') return Infinity;
      if (body === '-Infinity') return -Infinity;
      return bad('float');
    case 'map': {
      if (body === null || typeof body !== 'object' || Array.isArray(body)) return bad('map');
      const m = new Map<string, Value>();
      for (const [k, x] of Object.entries(body)) m.set(k, fromJsonValue(x));
      return m;
    }
    case 'bytes':
      return new Uint8Array(Buffer.from(text(), 'base64'));
    case 'vector':
      if (!Array.isArray(body) || !body.every((x) => typeof x === 'number')) return bad('vector');
      return Float32Array.from(body as number[]);
    case 'date':
      return parsed<DateValue>(parseDate(text()));
    case 'localtime':
      return parsed<LocalTimeValue>(parseLocalTime(text()));
    case 'time':
      return parsed<TimeValue>(parseTime(text(), { offsetSeconds: 0 }, 0));
    case 'localdatetime':
      return parsed<LocalDateTimeValue>(parseLocalDateTime(text()));
    case 'datetime':
      return parsed<DateTimeValue>(parseDateTime(text(), { offsetSeconds: 0 }));
    case 'duration':
      return parsed<DurationValue>(parseDuration(text()));
    case 'point': {
      if (body === null || typeof body !== 'object' || Array.isArray(body)) return bad('point');
      const crs = typeof body['srid'] === 'number' ? crsBySrid(body['srid']) : undefined;
      const coordinates = body['coordinates'];
      if (crs === undefined || !Array.isArray(coordinates)) return bad('point');
      const numbers = coordinates.map((c) => (typeof c === 'number' ? c : ['NaN', 'Infinity', '-Infinity'].includes(c as string) ? Number(c) : bad('point coordinate')));
      const p = pointValue(crs, numbers);
      return typeof p === 'string' ? bad(p) : p;
    }
    case 'node':
    case 'relationship':
      if (typeof body !== 'number' || !Number.isSafeInteger(body)) return bad(tag);
      return { kind: tag, id: body };
    case 'path': {
      if (body === null || typeof body !== 'object' || Array.isArray(body)) return bad('path');
      const nodes = body['nodes'];
      const rels = body['rels'];
      if (!Array.isArray(nodes) || !Array.isArray(rels)) return bad('path');
      const ids = (xs: JsonValue[]): number[] => xs.map((x) => (typeof x === 'number' ? x : bad('path id')));
      const p = { kind: 'path' as const, nodes: ids(nodes), rels: ids(rels) };
      if (p.nodes.length !== p.rels.length + 1) bad('path shape');
      return p;
    }
    default:
      return bad(`unknown tag ${tag}`);
  }
}
