/**
 * The OpenAPI 3.1 document of the REST API, built from the same route table the REST server serves
 * (src/api/rest-routes.ts), so the two cannot drift apart. Schemas follow the proto3 JSON mapping the
 * transcoder speaks: lowerCamelCase names, 64-bit integers as decimal strings, enums by name, bytes as
 * base64, well-known types in their JSON forms. docs/openapi.md describes it.
 */
import { ScalarType, type DescEnum, type DescField, type DescMessage } from '@bufbuild/protobuf';
import { assertNever } from '../common/assert.js';
import type { RestRoute } from './rest-routes.js';

export type JsonSchema = { readonly [key: string]: unknown };

export interface OpenApiDocument {
  readonly openapi: string;
  readonly info: { readonly title: string; readonly version: string; readonly description: string };
  readonly paths: Record<string, Record<string, unknown>>;
  readonly components: { readonly schemas: Record<string, JsonSchema> };
}

/** Where the REST server serves the document; it is itself no proto method. */
export const openapi_path = '/v1/openapi.json';

/** The contract's version as the document states it: the proto packages served are weft.v1 and weft.v2. */
export const openapi_contract_version = '1';

const error_schema = 'weft.Error';

/** The JSON forms of the well-known types (proto3 JSON mapping), which are not plain objects. */
const well_known: Readonly<Record<string, JsonSchema>> = {
  'google.protobuf.Duration': { type: 'string', description: 'seconds with an "s" suffix, e.g. "1.5s"', pattern: '^-?\\d+(\\.\\d{1,9})?s$' },
  'google.protobuf.Timestamp': { type: 'string', format: 'date-time' },
  'google.protobuf.Empty': { type: 'object', additionalProperties: false },
  'google.protobuf.Struct': { type: 'object', additionalProperties: true },
  'google.protobuf.Value': { description: 'any JSON value' },
  'google.protobuf.ListValue': { type: 'array', items: {} },
  'google.protobuf.FieldMask': { type: 'string' },
  'google.protobuf.StringValue': { type: 'string' },
  'google.protobuf.BytesValue': { type: 'string', format: 'byte' },
  'google.protobuf.BoolValue': { type: 'boolean' },
  'google.protobuf.Int64Value': { type: 'string', format: 'int64' },
  'google.protobuf.UInt64Value': { type: 'string', format: 'uint64' },
  'google.protobuf.Int32Value': { type: 'integer', format: 'int32' },
  'google.protobuf.UInt32Value': { type: 'integer', format: 'uint32' },
  'google.protobuf.DoubleValue': { type: 'number', format: 'double' },
  'google.protobuf.FloatValue': { type: 'number', format: 'float' },
};

function scalarSchema(scalar: ScalarType): JsonSchema {
  switch (scalar) {
    case ScalarType.DOUBLE:
      return { type: 'number', format: 'double' };
    case ScalarType.FLOAT:
      return { type: 'number', format: 'float' };
    // 64-bit integers travel as decimal strings: a double cannot hold every value.
    case ScalarType.INT64:
    case ScalarType.SINT64:
    case ScalarType.SFIXED64:
      return { type: 'string', format: 'int64', pattern: '^-?\\d+$' };
    case ScalarType.UINT64:
    case ScalarType.FIXED64:
      return { type: 'string', format: 'uint64', pattern: '^\\d+$' };
    case ScalarType.INT32:
    case ScalarType.SINT32:
    case ScalarType.SFIXED32:
      return { type: 'integer', format: 'int32' };
    case ScalarType.UINT32:
    case ScalarType.FIXED32:
      return { type: 'integer', format: 'uint32', minimum: 0 };
    case ScalarType.BOOL:
      return { type: 'boolean' };
    case ScalarType.STRING:
      return { type: 'string' };
    case ScalarType.BYTES:
      return { type: 'string', format: 'byte', description: 'base64' };
    default:
      return assertNever(scalar);
  }
}

/** Collects the named schemas (messages and enums) reachable from the routes. */
class SchemaSet {
  readonly schemas: Record<string, JsonSchema> = {};

  ref(typeName: string): JsonSchema {
    return { $ref: `#/components/schemas/${typeName}` };
  }

  enumRef(e: DescEnum): JsonSchema {
    if (this.schemas[e.typeName] === undefined) {
      // Output uses names; input also accepts the numbers.
      this.schemas[e.typeName] = { type: 'string', enum: e.values.map((v) => v.name) };
    }
    return this.ref(e.typeName);
  }

  messageRef(m: DescMessage): JsonSchema {
    const known = well_known[m.typeName];
    if (known !== undefined) return known;
    if (this.schemas[m.typeName] === undefined) {
      // Placeholder first: messages may refer to themselves (a map value holding maps).
      this.schemas[m.typeName] = {};
      this.schemas[m.typeName] = this.messageSchema(m);
    }
    return this.ref(m.typeName);
  }

  private messageSchema(m: DescMessage): JsonSchema {
    const properties: Record<string, JsonSchema> = {};
    for (const field of m.fields) properties[field.jsonName] = this.fieldSchema(field);
    const oneofs = m.oneofs.map((o) => `${o.name}: at most one of ${o.fields.map((f) => f.jsonName).join(', ')}`);
    return {
      type: 'object',
      properties,
      additionalProperties: false,
      ...(oneofs.length > 0 ? { description: `oneof ${oneofs.join('; ')}` } : {}),
    };
  }

  fieldSchema(field: DescField): JsonSchema {
    switch (field.fieldKind) {
      case 'scalar':
        return scalarSchema(field.scalar);
      case 'enum':
        return this.enumRef(field.enum);
      case 'message':
        return this.messageRef(field.message);
      case 'list':
        return { type: 'array', items: this.listItem(field) };
      case 'map':
        return { type: 'object', additionalProperties: this.mapValue(field) };
      default:
        return assertNever(field);
    }
  }

  private listItem(field: DescField & { fieldKind: 'list' }): JsonSchema {
    switch (field.listKind) {
      case 'scalar':
        return scalarSchema(field.scalar);
      case 'enum':
        return this.enumRef(field.enum);
      case 'message':
        return this.messageRef(field.message);
      default:
        return assertNever(field);
    }
  }

  private mapValue(field: DescField & { fieldKind: 'map' }): JsonSchema {
    switch (field.mapKind) {
      case 'scalar':
        return scalarSchema(field.scalar);
      case 'enum':
        return this.enumRef(field.enum);
      case 'message':
        return this.messageRef(field.message);
      default:
        return assertNever(field);
    }
  }
}

/** Top-level request fields neither the path nor the body carries: sent as query parameters. */
function queryFields(route: RestRoute): DescField[] {
  if (route.body === '*') return [];
  const bound = new Set(route.path_params.map((p) => p.fields[0]?.name));
  return route.method.input.fields.filter((f) => !bound.has(f.name) && f.name !== route.body);
}

function requestBody(route: RestRoute, set: SchemaSet): JsonSchema | undefined {
  if (route.body === '') return undefined;
  const schema =
    route.body === '*'
      ? set.messageRef(route.method.input)
      : set.fieldSchema(route.method.input.fields.find((f) => f.name === route.body)!);
  const streamed = route.method.methodKind === 'client_streaming' || route.method.methodKind === 'bidi_streaming';
  return {
    required: false,
    content: streamed ? { 'application/x-ndjson': { schema, description: 'one message per line' } } : { 'application/json': { schema } },
  };
}

function responseOf(route: RestRoute, set: SchemaSet): JsonSchema {
  const schema =
    route.response_body === ''
      ? set.messageRef(route.method.output)
      : set.fieldSchema(route.method.output.fields.find((f) => f.name === route.response_body)!);
  const streamed = route.method.methodKind === 'server_streaming' || route.method.methodKind === 'bidi_streaming';
  return streamed
    ? {
        description: 'newline-delimited JSON: one message per line; an error after the first line arrives as a last line {"error": {...}}',
        content: { 'application/x-ndjson': { schema } },
      }
    : { description: 'OK', content: { 'application/json': { schema } } };
}

function operation(route: RestRoute, set: SchemaSet): Record<string, unknown> {
  const method = route.method;
  const parameters = [
    ...route.path_params.map((p) => ({
      name: p.fields.map((f) => f.name).join('.'),
      in: 'path',
      required: true,
      schema: set.fieldSchema(p.fields[p.fields.length - 1]!),
    })),
    ...queryFields(route)
      .filter((f) => f.fieldKind !== 'map' && !(f.fieldKind === 'message' && well_known[f.message.typeName] === undefined))
      .map((f) => ({ name: f.jsonName, in: 'query', required: false, schema: set.fieldSchema(f) })),
  ];
  const body = requestBody(route, set);
  return {
    operationId: `${method.parent.name}_${method.name}`,
    tags: [method.parent.name],
    summary: `${method.parent.typeName}.${method.name}`,
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(body !== undefined ? { requestBody: body } : {}),
    responses: {
      '200': responseOf(route, set),
      default: { description: 'an error of the catalog (docs/errors.md)', content: { 'application/json': { schema: set.ref(error_schema) } } },
    },
  };
}

/** The document for exactly these routes (the ones a REST server registers), in route order. */
export function openApiDocument(routes: readonly RestRoute[]): OpenApiDocument {
  const set = new SchemaSet();
  set.schemas[error_schema] = {
    type: 'object',
    properties: {
      code: { type: 'string', description: 'the gRPC status name' },
      message: { type: 'string' },
      reason: { type: 'string' },
      metadata: { type: 'object', additionalProperties: { type: 'string' } },
    },
    required: ['code', 'message'],
  };
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = (paths[route.template] ??= {});
    path[route.http_method.toLowerCase()] = operation(route, set);
  }
  paths[openapi_path] = {
    get: {
      operationId: 'OpenApi',
      summary: 'this document',
      responses: { '200': { description: 'OK', content: { 'application/json': { schema: { type: 'object' } } } } },
    },
  };
  const schemas: Record<string, JsonSchema> = {};
  for (const name of Object.keys(set.schemas).sort()) schemas[name] = set.schemas[name]!;
  return {
    openapi: '3.1.0',
    info: {
      title: 'Weft REST API',
      version: openapi_contract_version,
      description: 'HTTP/JSON transcoding of the gRPC services of proto/, generated from their google.api.http options.',
    },
    paths,
    components: { schemas },
  };
}
