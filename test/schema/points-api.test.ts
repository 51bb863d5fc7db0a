import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScalarType, SchemaMode } from '../../src/gen/weft/v2/schema_pb.js';
import { failureOf, scalar, startHarness, str, transports, type SchemaHarness } from './harness.js';

/**
 * POINT values through GraphService and QueryService on both transports against a real server: the
 * `point_value` variant in and out (REST JSON `{"pointValue": {...}}`), Cypher results, a GEO-declared
 * property, and the points still there after a restart (replay of the log, or its checkpoint).
 */
let h: SchemaHarness;
beforeAll(async () => {
  h = await startHarness();
}, 60_000);
afterAll(async () => {
  await h?.close();
});

const point = (srid: number, x: number, y: number, z?: number) => ({
  kind: { case: 'pointValue' as const, value: { srid, x, y, ...(z !== undefined && { z }) } },
});
const list = (...values: ReturnType<typeof point>[]) => ({ kind: { case: 'listValue' as const, value: { values } } });

describe.each(transports)('points over %s', (t) => {
  const L = (name: string) => `${name}_${t}`;

  it('a node created with points reads back with the same points, the CRS name and the text filled in', async () => {
    const made = await h.graph(t, 'createNode', {
      labels: [L('Place')],
      properties: { home: point(4326, 12.994341, 55.611784), peak: point(4979, 86.925, 27.9881, 8848.86), route: list(point(7203, 1, 2), point(7203, 3, 4)) },
    });
    const read = await h.graph(t, 'getNode', { nodeId: made.nodeId });
    expect(read.properties['home']?.kind).toEqual({
      case: 'pointValue',
      value: expect.objectContaining({ srid: 4326, x: 12.994341, y: 55.611784, crs: 'wgs-84', text: "point({x: 12.994341, y: 55.611784, crs: 'wgs-84'})" }),
    });
    expect(read.properties['peak']?.kind).toMatchObject({ case: 'pointValue', value: { srid: 4979, z: 8848.86, crs: 'wgs-84-3d' } });
    const route = read.properties['route']?.kind;
    expect(route?.case).toBe('listValue');
    expect((route?.value as { values: { kind: { value: { text: string } } }[] }).values.map((v) => v.kind.value.text)).toEqual([
      "point({x: 1.0, y: 2.0, crs: 'cartesian'})",
      "point({x: 3.0, y: 4.0, crs: 'cartesian'})",
    ]);
  });

  it('Cypher finds a stored point by equality and returns points and distances as values', async () => {
    const res = await h.cypher(
      t,
      `MATCH (n:${L('Place')}) WHERE n.home = point({longitude: 12.994341, latitude: 55.611784})
       RETURN n.home AS home, round(point.distance(n.home, point({longitude: 12.564590, latitude: 55.672874}))) AS metres`,
    );
    expect(res.columns).toEqual(['home', 'metres']);
    expect(res.rows).toHaveLength(1);
    expect(res.rows[0]!.values[0]!.kind).toMatchObject({ case: 'pointValue', value: { srid: 4326, crs: 'wgs-84' } });
    expect(res.rows[0]!.values[1]!.kind).toEqual({ case: 'floatValue', value: 27842 });
  });

  it('a point that is not one is refused: an unknown SRID, a latitude past the pole, z missing in 3D', async () => {
    for (const bad of [point(1234, 0, 0), point(4326, 0, 91), point(9157, 1, 2)]) {
      expect(await failureOf(h.graph(t, 'createNode', { labels: [L('Bad')], properties: { p: bad } }))).toMatchObject({
        code: 'INVALID_ARGUMENT',
        reason: 'INVALID_PROPERTY_VALUE',
      });
    }
  });

  it('a property declared GEO takes a point, and a coordinate map as before, but no other value', async () => {
    await h.schema(t, 'createLabel', { name: L('Site'), properties: [{ name: 'loc', type: scalar(ScalarType.GEO) }], schemaMode: SchemaMode.VALIDATED });
    await h.graph(t, 'createNode', { labels: [L('Site')], properties: { loc: point(4326, 1, 2) } });
    const asMap = { kind: { case: 'mapValue' as const, value: { fields: { latitude: { kind: { case: 'floatValue' as const, value: 2 } }, longitude: { kind: { case: 'floatValue' as const, value: 1 } } } } } };
    await h.graph(t, 'createNode', { labels: [L('Site')], properties: { loc: asMap } });
    expect(await failureOf(h.graph(t, 'createNode', { labels: [L('Site')], properties: { loc: str('here') } }))).toMatchObject({ reason: 'PROPERTY_TYPE_MISMATCH' });
    const res = await h.cypher(t, `MATCH (s:${L('Site')}) WHERE s.loc IS :: POINT RETURN count(s) AS points`);
    expect(res.rows[0]!.values[0]!.kind).toEqual({ case: 'intValue', value: 1n });
  });
});

describe('points as parameters and in the change feed', () => {
  it('a point parameter over gRPC is a point in the statement', async () => {
    const { createGrpcClient } = await import('../../src/api/grpc-client.js');
    const { QueryService } = await import('../../src/gen/weft/v1/query_pb.js');
    const q = createGrpcClient(QueryService, h.server.grpc);
    try {
      const out = await q.executeCypher({
        query: 'RETURN $p.crs AS crs, $p.z AS z, point.distance($p, point({x: 0, y: 0, z: 0})) AS d',
        parameters: { p: point(9157, 2, 3, 6) },
      });
      expect(out.rows[0]!.values.map((v) => v.kind.value)).toEqual(['cartesian-3d', 6, 7]);
    } finally {
      q.close();
    }
  });

  it('the change feed over REST carries a created point as pointValue', async () => {
    const made = await h.cypher('rest', "CREATE (n:FeedPlace {at: point({longitude: -0.1276, latitude: 51.5072})}) RETURN id(n) AS id");
    expect(made.rows).toHaveLength(1);
    const controller = new AbortController();
    const res = await fetch(`${h.server.rest}/v1/changes?fromCommitTs=0&labels=FeedPlace`, { signal: controller.signal });
    const reader = res.body!.getReader();
    let text = '';
    try {
      // Bounded: the one change is in the first lines; stop once it has arrived.
      for (let reads = 0; reads < 100 && !text.includes('pointValue'); reads++) {
        const { value, done } = await reader.read();
        if (done) break;
        text += new TextDecoder().decode(value);
      }
    } finally {
      controller.abort();
    }
    const line = text.split('\n').find((l) => l.includes('FeedPlace'));
    expect(line).toBeDefined();
    const event = JSON.parse(line!) as { operation: string; nodeAfter: { properties: Record<string, unknown> } };
    expect(event.operation).toBe('CHANGE_OPERATION_NODE_CREATED');
    expect(event.nodeAfter.properties['at']).toEqual({
      pointValue: { srid: 4326, x: -0.1276, y: 51.5072, crs: 'wgs-84', text: "point({x: -0.1276, y: 51.5072, crs: 'wgs-84'})" },
    });
  });
});

describe('points in REST JSON', () => {
  it('go in and come out as {"pointValue": {...}}, and survive a restart of the server', async () => {
    const body = { labels: ['RawPlace'], properties: { loc: { pointValue: { srid: 9157, x: 1.5, y: -2, z: 0.25 } } } };
    const created = await fetch(`${h.server.rest}/v1/graph/nodes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(created.status).toBe(200);
    const node = (await created.json()) as { nodeId: string; properties: Record<string, unknown> };
    expect(node.properties['loc']).toEqual({
      pointValue: { srid: 9157, x: 1.5, y: -2, z: 0.25, crs: 'cartesian-3d', text: "point({x: 1.5, y: -2.0, z: 0.25, crs: 'cartesian-3d'})" },
    });
    await h.restart(false);
    const read = await fetch(`${h.server.rest}/v1/graph/nodes/${node.nodeId}`);
    expect(((await read.json()) as { properties: Record<string, unknown> }).properties['loc']).toEqual(node.properties['loc']);
    const places = await h.cypher('grpc', "MATCH (n:Place_grpc) RETURN n.route[1].y AS y");
    expect(places.rows[0]!.values[0]!.kind).toEqual({ case: 'floatValue', value: 4 });
  }, 60_000);
});
