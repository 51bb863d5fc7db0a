/**
 * HTTP/JSON transcoding of one call: path parameters, query parameters and the JSON body become one
 * proto3 JSON object, read with protobuf-es `fromJson` (unknown fields refused); a reply becomes proto3
 * JSON with `toJson`. Every failure to read the request is INVALID_ARGUMENT with reason
 * MALFORMED_REQUEST (not JSON) or INVALID_REQUEST_FIELD (JSON that does not fit the message).
 */
import { fromJson, toJson, ScalarType, type DescField, type DescMessage, type JsonObject, type JsonValue, type Message } from '@bufbuild/protobuf';
import { reasonError } from './error-catalog.js';
import type { RestRoute } from './rest-routes.js';

/**
 * Response JSON emits fields holding their default value (zero, "", false, empty list) instead of
 * dropping them, so clients read `"nodesCreated": "0"` rather than testing for a missing key.
 * Fields with explicit presence (messages, `optional`, oneof members) still appear only when set.
 */
export const json_write_options = { alwaysEmitImplicit: true } as const;

/** Well-known message types whose proto3 JSON form is a string, so a query parameter can carry them. */
const string_json_messages = new Set([
  'google.protobuf.Duration',
  'google.protobuf.Timestamp',
  'google.protobuf.FieldMask',
  'google.protobuf.StringValue',
  'google.protobuf.BytesValue',
  'google.protobuf.Int64Value',
  'google.protobuf.UInt64Value',
  'google.protobuf.Int32Value',
  'google.protobuf.UInt32Value',
  'google.protobuf.DoubleValue',
  'google.protobuf.FloatValue',
]);

function fieldError(field: string, detail: string): Error {
  return reasonError('INVALID_REQUEST_FIELD', `${field}: ${detail}`, { field, detail });
}

/** One textual value (a path segment or a query value) as the JSON value its field takes. */
function textAsJson(field: DescField, name: string, text: string): JsonValue {
  switch (field.fieldKind) {
    case 'enum':
      return /^-?\d+$/.test(text) ? Number(text) : text;
    case 'scalar':
      return scalarText('scalar', field, name, text);
    case 'list':
      return scalarText(field.listKind, field, name, text);
    case 'message':
      if (string_json_messages.has(field.message.typeName)) return text;
      if (field.message.typeName === 'google.protobuf.BoolValue') return boolText(name, text);
      throw fieldError(name, `a ${field.message.typeName} cannot be given as text; send it in a JSON body`);
    case 'map':
      throw fieldError(name, 'a map cannot be given as text; send it in a JSON body');
  }
}

function boolText(name: string, text: string): boolean {
  if (text === 'true') return true;
  if (text === 'false') return false;
  throw fieldError(name, `"${text}" is not true or false`);
}

function scalarText(kind: 'scalar' | 'enum' | 'message', field: DescField, name: string, text: string): JsonValue {
  if (kind === 'enum') return /^-?\d+$/.test(text) ? Number(text) : text;
  if (kind === 'message') throw fieldError(name, 'a repeated message cannot be given as text; send it in a JSON body');
  const scalar = field.scalar;
  // Numbers stay strings: proto3 JSON accepts decimal strings for every numeric type, and a 64-bit
  // value must not pass through a double.
  return scalar === ScalarType.BOOL ? boolText(name, text) : text;
}

function jsonKeyOf(obj: JsonObject, field: DescField): string {
  return obj[field.jsonName] === undefined && obj[field.name] !== undefined ? field.name : field.jsonName;
}

/** Sets a (possibly nested) field in a proto3 JSON object, replacing whichever spelling was there. */
function setField(obj: JsonObject, fields: readonly DescField[], value: JsonValue): void {
  let at = obj;
  for (const [i, field] of fields.entries()) {
    if (i === fields.length - 1) {
      delete at[field.name];
      at[field.jsonName] = value;
      return;
    }
    const key = jsonKeyOf(at, field);
    const next = at[key];
    if (typeof next === 'object' && next !== null && !Array.isArray(next)) at = next;
    else {
      const created: JsonObject = {};
      at[key] = created;
      at = created;
    }
  }
}

/** Resolves a query parameter name (dotted; each part the proto name or the JSON name). */
function queryField(message: DescMessage, name: string): DescField[] | undefined {
  const fields: DescField[] = [];
  let at: DescMessage | undefined = message;
  for (const part of name.split('.')) {
    const field: DescField | undefined = at?.fields.find((f) => f.name === part || f.jsonName === part);
    if (field === undefined) return undefined;
    fields.push(field);
    at = field.fieldKind === 'message' ? field.message : undefined;
  }
  return fields;
}

export type QueryParams = Readonly<Record<string, string | readonly string[] | undefined>>;

/** The proto3 JSON object of a request, from its route, path and query parameters and parsed body. */
export function requestJson(route: RestRoute, params: Readonly<Record<string, string>>, query: QueryParams, body: JsonValue | undefined): JsonObject {
  let obj: JsonObject = {};
  const method = route.method;
  if (route.body === '*') {
    if (body !== undefined) {
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        throw fieldError('body', `expected a JSON object of ${method.input.typeName}`);
      }
      obj = body;
    }
  } else if (route.body !== '') {
    const field = method.input.fields.find((f) => f.name === route.body);
    if (field !== undefined && body !== undefined) obj[field.jsonName] = body;
  } else if (body !== undefined) {
    throw fieldError('body', `${route.http_method} ${route.template} takes no body`);
  }
  for (const [name, raw] of Object.entries(query)) {
    if (raw === undefined) continue;
    if (route.body === '*') {
      throw fieldError(name, `query parameters are not accepted by ${route.http_method} ${route.template}; the body carries the request`);
    }
    const fields = queryField(method.input, name);
    const last = fields?.[fields.length - 1];
    if (fields === undefined || last === undefined) throw fieldError(name, `unknown query parameter for ${method.input.typeName}`);
    if (route.body !== '' && fields[0]?.name === route.body) throw fieldError(name, 'this field is carried by the body');
    const values = typeof raw === 'string' ? [raw] : raw;
    if (last.fieldKind === 'list') setField(obj, fields, values.map((v) => textAsJson(last, name, v)));
    else if (values.length !== 1 || values[0] === undefined) throw fieldError(name, 'given more than once but not repeated');
    else setField(obj, fields, textAsJson(last, name, values[0]));
  }
  // Path parameters bind last: the path wins over a body or query value of the same field.
  for (const p of route.path_params) {
    const text = params[p.param];
    const last = p.fields[p.fields.length - 1];
    if (text === undefined || last === undefined) continue;
    const name = p.fields.map((f) => f.name).join('.');
    if (text === '') throw fieldError(name, 'the path segment is empty');
    setField(obj, p.fields, textAsJson(last, name, text));
  }
  return obj;
}

/** Reads the request message; INVALID_ARGUMENT naming the problem when the JSON does not fit. */
export function decodeJson(message: DescMessage, json: JsonValue): Message {
  try {
    return fromJson(message, json, { ignoreUnknownFields: false });
  } catch (e) {
    const detail = e instanceof Error ? e.message : String(e);
    throw reasonError('INVALID_REQUEST_FIELD', `request does not fit ${message.typeName}: ${detail}`, { detail });
  }
}

/** Parses JSON text; INVALID_ARGUMENT (MALFORMED_REQUEST) when it is not JSON. */
export function parseJson(text: string, what: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch (e) {
    const detail = e instanceof Error ? e.message : String(e);
    throw reasonError('MALFORMED_REQUEST', `${what} is not valid JSON: ${detail}`, { detail });
  }
}

export function responseJson(route: RestRoute, reply: Message): JsonValue {
  const json = toJson(route.method.output, reply, json_write_options);
  if (route.response_body === '') return json;
  const field = route.method.output.fields.find((f) => f.name === route.response_body);
  const obj = json as JsonObject;
  return field === undefined ? null : (obj[field.jsonName] ?? null);
}
