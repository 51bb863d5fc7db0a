import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGrpcClient, type GrpcClient } from '../../src/api/grpc-client.js';
import { restCall } from '../../src/api/rest-client.js';
import { GraphService } from '../../src/gen/weft/v1/graph_pb.js';
import { QueryService } from '../../src/gen/weft/v1/query_pb.js';
import { ComputedType, DecayFormulaType, ScalarType, SchemaService, TtlScopeType } from '../../src/gen/weft/v2/schema_pb.js';
import { defaultConfig } from '../../src/server/config.js';
import { startServer, type RunningServer } from '../../src/server/server.js';
import { failure } from '../support/failure.js';
import { plainValue } from '../support/plain-value.js';

/**
 * Computed properties on a member whose clock the test moves: DECAY and VECTOR_DECAY evaluated on
 * read in Cypher, GetNode and Traverse on both transports; TTL hiding expired data before the sweep,
 * then the sweep's entry removing it for good.
 */
const T0_us = Date.UTC(2026, 0, 1) * 1000;
const secs = (s: number): number => T0_us + s * 1_000_000;
const transports = ['grpc', 'rest'] as const;
type Transport = (typeof transports)[number];

const scalar = (s: ScalarType) => ({ kind: { case: 'scalar' as const, value: s } });
const at = (us: number) => ({ kind: { case: 'timestampValue' as const, value: { unixMicros: BigInt(us) } } });
const decay = (name: string, formula: DecayFormulaType, extra: object = {}) => ({
  name,
  computedType: ComputedType.DECAY,
  formulaType: formula,
  initial: 100,
  target: 20,
  durationSecs: 100n,
  anchorField: 'at',
  ...extra,
});
const ttl = (name: string, scope: TtlScopeType, targetField = '') => ({ name, computedType: ComputedType.TTL, durationSecs: 60n, anchorField: 'at', scope, targetField });


describe('computed properties', () => {
  let dir: string;
  let server: RunningServer;
  let now_us = secs(0);
  let graph: GrpcClient<typeof GraphService>;
  let query: GrpcClient<typeof QueryService>;
  let rest: string;

  const cypher = async (t: Transport, text: string): Promise<unknown[][]> => {
    const res = t === 'grpc' ? await query.executeCypher({ query: text }) : await restCall(rest, QueryService.method.executeCypher, { query: text });
    return (res as Awaited<ReturnType<typeof query.executeCypher>>).rows.map((r) => r.values.map(plainValue));
  };
  const getNode = async (t: Transport, id: bigint) =>
    (t === 'grpc' ? await graph.getNode({ nodeId: id }) : await restCall(rest, GraphService.method.getNode, { nodeId: id })) as Awaited<ReturnType<typeof graph.getNode>>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'weft-computed-'));
    // Sweeps only when the test asks: the timer's period is a day.
    server = await startServer({ ...defaultConfig, data_dir: dir, grpc_port: 0, rest_port: 0, ops_port: 0, ttl_sweep_ms: 86_400_000 }, () => {}, { clock_us: () => now_us });
    const address = `127.0.0.1:${server.ports.grpc}`;
    graph = createGrpcClient(GraphService, address);
    query = createGrpcClient(QueryService, address);
    rest = `http://127.0.0.1:${server.ports.rest}`;
    const schema = createGrpcClient(SchemaService, address);
    await schema.createLabel({
      name: 'Signal',
      properties: [{ name: 'at', type: scalar(ScalarType.TIMESTAMP) }, { name: 'v', type: scalar(ScalarType.INT64) }],
      computedProperties: [
        decay('lin', DecayFormulaType.LINEAR),
        decay('expo', DecayFormulaType.EXPONENTIAL, { lambda: Math.LN2 / 0.5 }),
        decay('pow', DecayFormulaType.POWER_LAW, { tau: 0.5, alpha: 2 }),
        decay('step', DecayFormulaType.STEP),
        { name: 'fade', computedType: ComputedType.VECTOR_DECAY, formulaType: DecayFormulaType.LINEAR, durationSecs: 100n, anchorField: 'at' },
      ],
      schemaMode: 2,
    });
    await schema.createLabel({ name: 'Ephemeral', properties: [{ name: 'at', type: scalar(ScalarType.TIMESTAMP) }], computedProperties: [ttl('expires', TtlScopeType.NODE)], schemaMode: 2 });
    await schema.createLabel({ name: 'Badge', properties: [{ name: 'at', type: scalar(ScalarType.TIMESTAMP) }], computedProperties: [ttl('expires', TtlScopeType.FIELD)], schemaMode: 2 });
    await schema.createLabel({
      name: 'Cache',
      properties: [{ name: 'at', type: scalar(ScalarType.TIMESTAMP) }, { name: 'doc', type: scalar(ScalarType.DOCUMENT) }],
      computedProperties: [ttl('expires', TtlScopeType.SUBTREE, 'doc')],
      schemaMode: 2,
    });
    schema.close();
  });
  afterAll(async () => {
    graph.close();
    query.close();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('DECAY with every formula and VECTOR_DECAY read the same in Cypher and GetNode on both transports, as the clock moves', async () => {
    now_us = secs(0);
    const node = await graph.createNode({ labels: ['Signal'], properties: { at: at(secs(0)), v: { kind: { case: 'intValue', value: 1n } } } });
    const f = {
      expo: (t: number) => Math.exp((-Math.LN2 / 0.5) * t),
      pow: (t: number) => Math.pow(1 + t / 0.5, -2),
    };
    const expected = (t: number): number[] =>
      t >= 1 ? [20, 20, 20, 20, 0] : [20 + 80 * (1 - t), 20 + 80 * f.expo(t), 20 + 80 * f.pow(t), 100, 1 - t];
    for (const [elapsed, t] of [[0, 0], [25, 0.25], [50, 0.5], [99, 0.99], [150, 1]] as const) {
      now_us = secs(elapsed);
      for (const tr of transports) {
        const [row] = await cypher(tr, 'MATCH (s:Signal) RETURN s.lin, s.expo, s.pow, s.step, s.fade');
        const want = expected(t);
        (row as number[]).forEach((v, i) => expect(v, `${tr} t=${t} column ${i}`).toBeCloseTo(want[i]!, 9));
        const got = await getNode(tr, node.nodeId);
        expect(plainValue(got.properties['lin'])).toBeCloseTo(want[0]!, 9);
        expect(plainValue(got.properties['v'])).toBe('1');
      }
    }
    // The half-life: EXPONENTIAL with lambda = ln 2 / 0.5 is halfway at t = 0.5.
    now_us = secs(50);
    expect(((await cypher('grpc', 'MATCH (s:Signal) RETURN s.expo'))[0]![0] as number)).toBeCloseTo(60, 9);
    // A time-travel read evaluates at its own timestamp, not the clock.
    const ts = (await graph.getNode({ nodeId: node.nodeId })).version;
    const past = await query.executeCypher({ query: 'MATCH (s:Signal) RETURN s.lin', readConcern: { level: 4, atTimestamp: ts } });
    expect(plainValue(past.rows[0]!.values[0])).toBeCloseTo(100 - 80 * Math.min(1, (Number(ts) - T0_us) / 100e6), 6);
  });

  it('Traverse returns the nodes it reaches with their decayed values, on both transports', async () => {
    now_us = secs(0);
    const hub = await graph.createNode({ labels: ['Hub'], properties: {} });
    const node = await graph.createNode({ labels: ['Signal'], properties: { at: at(secs(0)) } });
    await graph.createEdge({ edgeType: 'FEEDS', sourceNodeId: hub.nodeId, targetNodeId: node.nodeId, properties: {} });
    now_us = secs(40);
    for (const tr of transports) {
      const req = { startNodeId: hub.nodeId, edgeType: 'FEEDS', maxDepth: 1 };
      const res = (tr === 'grpc' ? await graph.traverse(req) : await restCall(rest, GraphService.method.traverse, req)) as Awaited<ReturnType<typeof graph.traverse>>;
      const reached = res.nodes.find((n) => n.nodeId === node.nodeId);
      expect(plainValue(reached?.properties['lin']), tr).toBeCloseTo(100 - 80 * 0.4, 9);
      expect(plainValue(reached?.properties['fade']), tr).toBeCloseTo(0.6, 9);
    }
  });

  it('VECTOR_DECAY scales a similarity score where a query multiplies by it: a fresh, less similar node outranks a faded close one', async () => {
    const schema = createGrpcClient(SchemaService, `127.0.0.1:${server.ports.grpc}`);
    await schema.createLabel({
      name: 'Doc',
      properties: [{ name: 'at', type: scalar(ScalarType.TIMESTAMP) }],
      computedProperties: [{ name: 'fresh', computedType: ComputedType.VECTOR_DECAY, formulaType: DecayFormulaType.LINEAR, durationSecs: 100n, anchorField: 'at' }],
      schemaMode: 2,
    });
    schema.close();
    const vector = (values: number[]) => ({ kind: { case: 'vectorValue' as const, value: { values } } });
    now_us = secs(0);
    for (const [name, at_s, emb] of [['old-close', -80, [1, 0]], ['new-far', 0, [0.6, 0.8]]] as const) {
      await query.executeCypher({ query: 'CREATE (:Doc {name: $name, at: $at, emb: $emb})', parameters: { name: { kind: { case: 'stringValue', value: name } }, at: at(secs(at_s)), emb: vector([...emb]) } });
    }
    const q = { q: vector([1, 0]) };
    for (const tr of transports) {
      const run = async (text: string) => {
        const res = tr === 'grpc' ? await query.executeCypher({ query: text, parameters: q }) : await restCall(rest, QueryService.method.executeCypher, { query: text, parameters: q });
        return (res as Awaited<ReturnType<typeof query.executeCypher>>).rows.map((r) => r.values.map(plainValue));
      };
      // By distance alone the close one is first; scaled by its freshness (0.2 against 1.0) it is last.
      expect(await run('MATCH (d:Doc) RETURN d.name ORDER BY vector_distance(d.emb, $q) LIMIT 2')).toEqual([['old-close'], ['new-far']]);
      const scored = await run('MATCH (d:Doc) RETURN d.name, (1 - vector_distance(d.emb, $q)) * d.fresh AS score ORDER BY score DESC');
      expect(scored.map((r) => r[0])).toEqual(['new-far', 'old-close']);
      expect(scored[0]![1]).toBeCloseTo(0.6, 6); // vectors are float32
      expect(scored[1]![1]).toBeCloseTo(0.2, 6);
    }
  });

  it('writes to a computed property are refused on both transports', async () => {
    for (const tr of transports) {
      const e = await failure(cypher(tr, 'MATCH (s:Signal) SET s.lin = 1'));
      expect(e).toMatchObject({ code: 'FAILED_PRECONDITION', reason: 'COMPUTED_PROPERTY_WRITE' });
    }
    const direct = await failure(graph.createNode({ labels: ['Signal'], properties: { at: at(secs(0)), lin: { kind: { case: 'floatValue', value: 3 } } } }));
    expect(direct.reason).toBe('COMPUTED_PROPERTY_WRITE');
  });

  it('a statement that writes reads computed values as a read does, on both transports', async () => {
    now_us = secs(0);
    const node = await graph.createNode({ labels: ['Signal'], properties: { at: at(secs(0)), v: { kind: { case: 'intValue', value: 7n } } } });
    const id = { kind: { case: 'intValue' as const, value: node.nodeId } };
    for (const [tr, elapsed] of [['grpc', 25], ['rest', 50]] as const) {
      now_us = secs(elapsed);
      const t = elapsed / 100;
      const res = (tr === 'grpc'
        ? await query.executeCypher({ query: 'MATCH (s:Signal) WHERE id(s) = $id SET s.copy = s.lin RETURN s.copy', parameters: { id } })
        : await restCall(rest, QueryService.method.executeCypher, { query: 'MATCH (s:Signal) WHERE id(s) = $id SET s.copy = s.lin RETURN s.copy', parameters: { id } })) as Awaited<
        ReturnType<typeof query.executeCypher>
      >;
      expect(plainValue(res.rows[0]!.values[0])).toBeCloseTo(20 + 80 * (1 - t), 9);
      // What was written is the value at the write's clock, stored: it no longer decays.
      now_us = secs(90);
      expect((await cypher(tr, `MATCH (s:Signal) WHERE id(s) = ${node.nodeId} RETURN s.copy, s.lin`))[0]).toEqual([expect.closeTo(20 + 80 * (1 - t), 9), expect.closeTo(28, 9)]);
    }
    // The computed property itself is still not stored by the write.
    expect(server.db.latestCommitted().node(Number(node.nodeId))?.props.has('lin')).toBe(false);
  });

  it('TTL: expired data is hidden at once on both transports, then the sweep removes it through the log', async () => {
    now_us = secs(0);
    const eph = await graph.createNode({ labels: ['Ephemeral'], properties: { at: at(secs(0)) } });
    const friend = await graph.createNode({ labels: ['Friend'], properties: {} });
    await graph.createEdge({ edgeType: 'KNOWS', sourceNodeId: friend.nodeId, targetNodeId: eph.nodeId, properties: {} });
    const badge = await graph.createNode({ labels: ['Badge'], properties: { at: at(secs(0)) } });
    // The DOCUMENT property, a map over the wire: one node by each transport.
    const doc = { kind: { case: 'mapValue' as const, value: { fields: { k: { kind: { case: 'stringValue' as const, value: 'x' } } } } } };
    const cache = await graph.createNode({ labels: ['Cache'], properties: { at: at(secs(0)), doc } });
    const cacheRest = (await restCall(rest, GraphService.method.createNode, { labels: ['Cache'], properties: { at: at(secs(0)), doc } })) as typeof cache;
    expect(plainValue(cacheRest.properties['doc'])).toEqual({ fields: { k: { stringValue: 'x' } } });
    // A map anywhere else has no schema to say what it is: refused on both transports.
    for (const tr of transports) {
      const stray = { labels: ['Cache'], properties: { at: at(secs(0)), other: doc } };
      const refused = await failure(tr === 'grpc' ? graph.createNode(stray) : restCall(rest, GraphService.method.createNode, stray));
      expect(refused).toMatchObject({ code: 'INVALID_ARGUMENT', reason: 'INVALID_PROPERTY_VALUE', metadata: { property: 'other' } });
    }

    now_us = secs(30);
    for (const tr of transports) {
      expect(await cypher(tr, 'MATCH (e:Ephemeral) RETURN count(e)')).toEqual([['1']]);
      const traverse = tr === 'grpc' ? await graph.traverse({ startNodeId: friend.nodeId, maxDepth: 1 }) : await restCall(rest, GraphService.method.traverse, { startNodeId: friend.nodeId, maxDepth: 1 });
      expect((traverse as Awaited<ReturnType<typeof graph.traverse>>).nodes.map((n) => n.nodeId)).toContain(eph.nodeId);
    }
    // A TTL property reads as the instant it expires.
    expect((await getNode('grpc', eph.nodeId)).properties['expires']?.kind).toMatchObject({ case: 'datetimeValue', value: { iso: '2026-01-01T00:01Z' } });

    now_us = secs(61);
    for (const tr of transports) {
      expect(await cypher(tr, 'MATCH (e:Ephemeral) RETURN count(e)')).toEqual([['0']]);
      expect(await cypher(tr, 'MATCH (:Friend)-[r:KNOWS]->() RETURN count(r)')).toEqual([['0']]);
      expect(await failure(getNode(tr, eph.nodeId))).toMatchObject({ code: 'NOT_FOUND' });
      const traverse = tr === 'grpc' ? await graph.traverse({ startNodeId: friend.nodeId, maxDepth: 1 }) : await restCall(rest, GraphService.method.traverse, { startNodeId: friend.nodeId, maxDepth: 1 });
      expect((traverse as Awaited<ReturnType<typeof graph.traverse>>).nodes.map((n) => n.nodeId)).not.toContain(eph.nodeId);
      const b = await getNode(tr, badge.nodeId);
      expect(b.properties['at']).toBeUndefined();
      for (const node of [cache, cacheRest]) {
        const c = await getNode(tr, node.nodeId);
        expect(c.properties['doc']).toBeUndefined();
        expect(c.properties['at']).toBeDefined();
      }
    }
    // Nothing was written yet: the stored state still holds it all.
    expect(server.db.latestCommitted().node(Number(eph.nodeId))).toBeDefined();

    const swept = await server.ttl.sweep();
    expect(swept.expired).toBe(4);
    expect(swept.lag_secs).toBeCloseTo(1, 6);
    const stored = server.db.latestCommitted();
    expect(stored.node(Number(eph.nodeId))).toBeUndefined();
    expect([...stored.edgesOf(Number(friend.nodeId), 'out')]).toEqual([]);
    expect(stored.node(Number(badge.nodeId))?.props.has('at')).toBe(false);
    for (const node of [cache, cacheRest]) expect(stored.node(Number(node.nodeId))?.props.has('doc')).toBe(false);
    expect((await server.ttl.sweep()).expired).toBe(0);
    const metrics = await (await fetch(`http://127.0.0.1:${server.ports.ops}/metrics`)).text();
    expect(metrics).toMatch(/graphdb_ttl_expired_total\{scope="NODE"\} 1/);
    expect(metrics).toMatch(/graphdb_ttl_expired_total\{scope="FIELD"\} 1/);
    expect(metrics).toMatch(/graphdb_ttl_expired_total\{scope="SUBTREE"\} 2/);
    expect(metrics).toMatch(/graphdb_ttl_expiry_lag_seconds 1/);
  });
});
