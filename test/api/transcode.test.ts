import { describe, expect, it } from 'vitest';
import { create, fromJson, toJson } from '@bufbuild/protobuf';
import { WeftError } from '../../src/common/errors.js';
import { restRoutes, type RestRoute } from '../../src/api/rest-routes.js';
import { decodeJson, requestJson, responseJson } from '../../src/api/rest-transcode.js';
import { restRequestOf } from '../../src/api/rest-client.js';
import { GraphService, GetNodeRequestSchema } from '../../src/gen/weft/v1/graph_pb.js';
import { ChangeOperation, QueryService } from '../../src/gen/weft/v1/query_pb.js';
import { PropertyValueSchema } from '../../src/gen/weft/v1/values_pb.js';
import { SchemaService } from '../../src/gen/weft/v2/schema_pb.js';

function route(template: string, verb: string): RestRoute {
  const r = restRoutes([GraphService, QueryService, SchemaService]).find((x) => x.template === template && x.http_method === verb);
  if (r === undefined) throw new Error(`no route ${verb} ${template}`);
  return r;
}

function refusal(f: () => unknown): WeftError {
  try {
    f();
  } catch (e) {
    if (e instanceof WeftError) return e;
    throw e;
  }
  throw new Error('expected a refusal');
}

describe('REST transcoding', () => {
  it('a uint64 path segment binds as a decimal string, exact beyond 2^53', () => {
    const r = route('/v1/graph/nodes/{node_id}', 'GET');
    const msg = decodeJson(r.method.input, requestJson(r, { p0: '18446744073709551615' }, {}, undefined));
    expect(msg).toMatchObject({ nodeId: 18446744073709551615n });
  });

  it('query parameters take both spellings, repeat for repeated fields, and read enums by name or number', () => {
    const r = route('/v1/changes', 'GET');
    const msg = decodeJson(
      r.method.input,
      requestJson(r, {}, { from_commit_ts: '7', edgeTypes: ['KNOWS', 'LIKES'], operations: ['CHANGE_OPERATION_NODE_CREATED', '6'] }, undefined),
    );
    expect(msg).toMatchObject({ fromCommitTs: 7n, edgeTypes: ['KNOWS', 'LIKES'], operations: [ChangeOperation.NODE_CREATED, ChangeOperation.EDGE_DELETED] });
  });

  it('a Duration query parameter and an optional uint64 path parameter bind together', () => {
    const r = route('/v2/graph/schema/index-builds/{operation}', 'GET');
    const msg = decodeJson(r.method.input, requestJson(r, { p0: '12' }, { wait: '1.5s' }, undefined));
    expect(msg).toMatchObject({ operation: 12n, wait: { seconds: 1n, nanos: 500_000_000 } });
  });

  it('bool query parameters are true or false, nothing else', () => {
    const r = route('/v2/graph/schema/constraints/{name}', 'DELETE');
    expect(decodeJson(r.method.input, requestJson(r, { p0: 'c1' }, { if_exists: 'true' }, undefined))).toMatchObject({ name: 'c1', ifExists: true });
    expect(refusal(() => requestJson(r, { p0: 'c1' }, { ifExists: 'yes' }, undefined)).reason).toBe('INVALID_REQUEST_FIELD');
  });

  it('the path wins over the body for the same field', () => {
    const r = route('/v2/graph/schema/index-builds/{operation}/cancel', 'POST');
    const msg = decodeJson(r.method.input, requestJson(r, { p0: '5' }, {}, { operation: '9' }));
    expect(msg).toMatchObject({ operation: 5n });
  });

  it('a GET route refuses a single value for a field given twice, and any body', () => {
    const r = route('/v1/graph/nodes/{node_id}', 'GET');
    expect(refusal(() => requestJson(r, { p0: '1' }, { element_id: ['a', 'b'] }, undefined)).code).toBe('INVALID_ARGUMENT');
    expect(refusal(() => requestJson(r, { p0: '1' }, {}, { nodeId: '1' })).code).toBe('INVALID_ARGUMENT');
  });

  it('responses emit default values, 64-bit integers as strings and enums by name', () => {
    const r = route('/v2/graph/schema/index-builds/{operation}', 'GET');
    const json = responseJson(r, create(r.method.output, { operation: 3n }));
    expect(json).toEqual({ operation: '3', index: '', label: '', state: 'INDEX_BUILD_STATE_UNSPECIFIED', phase: 'INDEX_BUILD_PHASE_UNSPECIFIED', indexed: '0', failure: '', renameProperty: '', repaired: '0' });
  });

  it('the client helper picks the binding whose path variables are set, and puts the rest in the query', () => {
    expect(restRequestOf(GraphService.method.getNode, create(GetNodeRequestSchema, { elementId: '0000000000001' }))).toEqual({
      http_method: 'GET', path: '/v1/graph/elements/0000000000001', body: undefined,
    });
    expect(restRequestOf(QueryService.method.watchChanges, create(QueryService.method.watchChanges.input, { fromCommitTs: 9n, labels: ['A', 'B'] })).path).toBe(
      '/v1/changes?fromCommitTs=9&labels=A&labels=B',
    );
  });
});

describe('PropertyValue JSON', () => {
  it('the SPEC variants use exactly the SPEC keys', () => {
    const cases: [unknown, string][] = [
      [{ stringValue: 's' }, 'stringValue'], [{ intValue: '-5' }, 'intValue'], [{ floatValue: 0.5 }, 'floatValue'],
      [{ boolValue: false }, 'boolValue'], [{ vectorValue: { values: [1, 2] } }, 'vectorValue'],
      [{ listValue: { values: [{ intValue: '1' }] } }, 'listValue'], [{ bytesValue: 'AAE=' }, 'bytesValue'],
    ];
    for (const [json, key] of cases) {
      const v = fromJson(PropertyValueSchema, json as never);
      expect(Object.keys(toJson(PropertyValueSchema, v) as object)).toEqual([key]);
      expect(toJson(PropertyValueSchema, v)).toEqual(json);
    }
  });

  it('the Cypher result variants round-trip: null, map, node, edge, path and temporal values with ISO text', () => {
    const json = {
      listValue: {
        values: [
          { nullValue: null },
          { mapValue: { fields: { a: { intValue: '1' } } } },
          { nodeValue: { nodeId: '1', labels: ['P'], elementId: '0000000000001' } },
          { edgeValue: { edgeId: '2', edgeType: 'KNOWS', sourceNodeId: '1', targetNodeId: '3' } },
          { pathValue: { nodes: ['1', '3'], rels: [{ edgeType: 'KNOWS', source: '1', target: '3' }] } },
          { timestampValue: { unixMicros: '-1' } },
          { dateValue: { year: '2024', month: 2, day: 29, iso: '2024-02-29' } },
          { datetimeValue: { year: '2024', month: 2, day: 29, hour: 12, offsetSeconds: 3600, zoneId: 'Europe/Paris', iso: '2024-02-29T12:00:00+01:00[Europe/Paris]' } },
          { durationValue: { months: '14', days: '3', seconds: '4', nanoseconds: 5, iso: 'P1Y2M3DT4.000000005S' } },
        ],
      },
    };
    expect(toJson(PropertyValueSchema, fromJson(PropertyValueSchema, json))).toEqual(json);
  });
});
