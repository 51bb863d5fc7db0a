import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getOption, hasOption, type DescService } from '@bufbuild/protobuf';
import { implement } from '../../src/api/handlers.js';
import { restRoutes } from '../../src/api/rest-routes.js';
import { startRestServer, type RestServerHandle } from '../../src/api/rest-server.js';
import { http } from '../../src/gen/google/api/annotations_pb.js';
import { BlobService } from '../../src/gen/weft/v1/blob_pb.js';
import { ClusterService } from '../../src/gen/weft/v1/cluster_pb.js';
import { GraphService } from '../../src/gen/weft/v1/graph_pb.js';
import { QueryService } from '../../src/gen/weft/v1/query_pb.js';
import { SchemaService } from '../../src/gen/weft/v2/schema_pb.js';

const services: DescService[] = [QueryService, GraphService, BlobService, ClusterService, SchemaService];

/** SPEC section 4's endpoint tables, plus the bindings this contract adds (element ids, enrollment, changes, search indexes). */
const spec_routes = [
  'POST /v1/query/cypher', 'POST /v1/query/cypher/explain', 'POST /v1/query/transaction/begin',
  'POST /v1/query/transaction/commit', 'POST /v1/query/transaction/rollback', 'GET /v1/changes',
  'POST /v1/graph/nodes', 'POST /v1/graph/nodes:batch', 'GET /v1/graph/nodes/{node_id}', 'GET /v1/graph/elements/{element_id}',
  'POST /v1/graph/edges', 'POST /v1/graph/traverse', 'POST /v1/graph/issuers:enroll',
  'POST /v1/blobs', 'GET /v1/blobs/{blob_id}', 'DELETE /v1/blobs/{blob_id}', 'GET /v1/blobs/{blob_id}/meta',
  'GET /v1/admin/cluster/status', 'POST /v1/admin/cluster/join', 'POST /v1/admin/cluster/nodes',
  'DELETE /v1/admin/cluster/nodes/{node_id}', 'POST /v1/admin/cluster/decommission',
  'POST /v2/graph/schema/labels', 'GET /v2/graph/schema/labels', 'POST /v2/graph/schema/edge-types', 'GET /v2/graph/schema/edge-types',
  'POST /v2/graph/schema/constraints', 'GET /v2/graph/schema/constraints', 'DELETE /v2/graph/schema/constraints/{name}',
  'GET /v2/graph/schema/index-builds', 'GET /v2/graph/schema/index-builds/{operation}', 'POST /v2/graph/schema/index-builds/{operation}/cancel',
  'GET /v2/graph/schema/index-builds/{operation}/repairs', 'POST /v2/graph/schema/index-checks', 'GET /v2/graph/schema/index-checks',
  'GET /v2/graph/schema/index-checks/{operation}', 'POST /v2/graph/schema/index-checks/{operation}/cancel', 'POST /v2/graph/schema/index-rebuilds',
  'POST /v2/graph/schema/search-indexes', 'DELETE /v2/graph/schema/search-indexes/{name}',
];

describe('the REST route table follows the descriptors', () => {
  let server: RestServerHandle;
  beforeAll(async () => {
    // No handlers at all: every route must still exist and answer UNIMPLEMENTED.
    server = await startRestServer({ port: 0, services: services.map((s) => implement(s, {})) });
  });
  afterAll(() => server.stop());

  it('every binding of every annotated method has exactly one route, and nothing else does', () => {
    const expected: string[] = [];
    for (const service of services) {
      for (const method of service.methods) {
        if (!hasOption(method, http)) continue;
        const rule = getOption(method, http);
        for (const r of [rule, ...rule.additionalBindings]) {
          expect(r.pattern.case, method.name).toBeDefined();
          expected.push(`${method.parent.typeName}.${method.name} ${String(r.pattern.case).toUpperCase()} ${String(r.pattern.value)}`);
        }
      }
    }
    const actual = server.routes.map((r) => `${r.method.parent.typeName}.${r.method.name} ${r.http_method} ${r.template}`);
    expect(actual.sort()).toEqual(expected.sort());
  });

  it('the table matches SPEC section 4 path for path and verb for verb', () => {
    expect(server.routes.map((r) => `${r.http_method} ${r.template}`).sort()).toEqual([...spec_routes].sort());
  });

  it('every method but JoinProgress is annotated; JoinProgress has no route', () => {
    const unannotated = services.flatMap((s) => s.methods.filter((m) => !hasOption(m, http)).map((m) => m.name));
    expect(unannotated).toEqual(['JoinProgress']);
    expect(restRoutes(services).some((r) => r.method.name === 'JoinProgress')).toBe(false);
  });

  it('POST bindings carry the whole body; GET and DELETE carry none', () => {
    for (const r of server.routes) expect(r.body, `${r.http_method} ${r.template}`).toBe(r.http_method === 'POST' ? '*' : '');
  });

  it('every route is live: with no handlers each answers 501 UNIMPLEMENTED, never 404', async () => {
    for (const r of server.routes) {
      const path = r.template.replace(/\{[^}]+\}/g, '1');
      const res = await fetch(`http://127.0.0.1:${server.port}${path}`, {
        method: r.http_method,
        ...(r.http_method === 'POST' ? { body: '' } : {}),
      });
      const body = (await res.json()) as { code: string };
      expect([res.status, body.code], `${r.http_method} ${path}`).toEqual([501, 'UNIMPLEMENTED']);
    }
  });
});
