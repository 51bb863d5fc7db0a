import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type MessageInitShape } from '@bufbuild/protobuf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGrpcClient, type GrpcClient } from '../../src/api/grpc-client.js';
import { restCall } from '../../src/api/rest-client.js';
import { GraphService } from '../../src/gen/weft/v1/graph_pb.js';
import type { Node } from '../../src/gen/weft/v1/values_pb.js';
import { QueryService, type ExecuteCypherRequestSchema, type ExecuteCypherResponse } from '../../src/gen/weft/v1/query_pb.js';
import type { PropertyValueSchema } from '../../src/gen/weft/v1/values_pb.js';
import { ComputedType, DecayFormulaType, ScalarType, SchemaService, TtlScopeType } from '../../src/gen/weft/v2/schema_pb.js';
import { defaultConfig } from '../../src/server/config.js';
import { startServer, type RunningServer } from '../../src/server/server.js';
import { failure } from '../support/failure.js';
import { plainValue } from '../support/plain-value.js';

/**
 * Computed properties where a statement writes or runs inside an interactive transaction, and where
 * GraphService writes: reads see computed values (a transaction at the clock of its start), writes
 * never store one and a write naming one is refused, on every write path and both transports.
 * The member's clock is the test's: nothing sleeps.
 */
const T0_us = Date.UTC(2026, 0, 1) * 1000;
const secs = (s: number): number => T0_us + s * 1_000_000;
const transports = ['grpc', 'rest'] as const;
type Transport = (typeof transports)[number];
type Cypher = MessageInitShape<typeof ExecuteCypherRequestSchema>;

const scalar = (s: ScalarType) => ({ kind: { case: 'scalar' as const, value: s } });
const at = (us: number) => ({ kind: { case: 'timestampValue' as const, value: { unixMicros: BigInt(us) } } });
const int = (v: bigint) => ({ kind: { case: 'intValue' as const, value: v } });
const float = (v: number) => ({ kind: { case: 'floatValue' as const, value: v } });
/** LINEAR from 100 to 20 over 100 s: 100 - 80 t. */
const lin = (elapsed_secs: number): number => 100 - 80 * Math.min(1, elapsed_secs / 100);

/** What a call ended with: its error, or 'succeeded'. */
const outcome = (p: Promise<unknown>): Promise<unknown> => p.then(
  () => 'succeeded',
  (e: unknown) => e,
);


describe('computed properties in writes and transactions', () => {
  let dir: string;
  let server: RunningServer;
  let now_us = secs(0);
  let graph: GrpcClient<typeof GraphService>;
  let query: GrpcClient<typeof QueryService>;
  let rest: string;

  const execute = async (t: Transport, req: Cypher): Promise<ExecuteCypherResponse> =>
    t === 'grpc' ? query.executeCypher(req) : ((await restCall(rest, QueryService.method.executeCypher, req)) as ExecuteCypherResponse);
  const rows = async (t: Transport, req: Cypher): Promise<unknown[][]> => (await execute(t, req)).rows.map((r) => r.values.map(plainValue));
  const begin = async (t: Transport): Promise<bigint> =>
    (t === 'grpc' ? await query.beginTransaction({}) : ((await restCall(rest, QueryService.method.beginTransaction, {})) as Awaited<ReturnType<typeof query.beginTransaction>>))
      .transactionId;
  const commit = async (t: Transport, transactionId: bigint): Promise<unknown> =>
    t === 'grpc' ? query.commitTransaction({ transactionId }) : restCall(rest, QueryService.method.commitTransaction, { transactionId });
  const createNode = async (t: Transport, labels: string[], properties: Record<string, MessageInitShape<typeof PropertyValueSchema>>): Promise<Node> =>
    t === 'grpc' ? graph.createNode({ labels, properties }) : ((await restCall(rest, GraphService.method.createNode, { labels, properties })) as Node);
  const stored = (id: bigint) => server.db.latestCommitted().node(Number(id));

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'weft-computed-writes-'));
    server = await startServer({ ...defaultConfig, data_dir: dir, grpc_port: 0, rest_port: 0, ops_port: 0, ttl_sweep_ms: 86_400_000 }, () => {}, { clock_us: () => now_us });
    const address = `127.0.0.1:${server.ports.grpc}`;
    graph = createGrpcClient(GraphService, address);
    query = createGrpcClient(QueryService, address);
    rest = `http://127.0.0.1:${server.ports.rest}`;
    const schema = createGrpcClient(SchemaService, address);
    const anchor = { name: 'at', type: scalar(ScalarType.TIMESTAMP) };
    await schema.createLabel({
      name: 'Signal',
      properties: [anchor],
      computedProperties: [{ name: 'lin', computedType: ComputedType.DECAY, formulaType: DecayFormulaType.LINEAR, initial: 100, target: 20, durationSecs: 100n, anchorField: 'at' }],
      schemaMode: 2,
    });
    await schema.createLabel({
      name: 'Ephemeral',
      properties: [anchor],
      computedProperties: [{ name: 'expires', computedType: ComputedType.TTL, durationSecs: 60n, anchorField: 'at', scope: TtlScopeType.NODE }],
      schemaMode: 2,
    });
    await schema.createLabel({
      name: 'Badge',
      properties: [anchor],
      computedProperties: [{ name: 'expires', computedType: ComputedType.TTL, durationSecs: 60n, anchorField: 'at', scope: TtlScopeType.FIELD }],
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

  it('a transaction reads decayed values at the clock of its start, repeatably, and its writes store none, on both transports', async () => {
    for (const t of transports) {
      now_us = secs(0);
      const node = await graph.createNode({ labels: ['Signal'], properties: { at: at(secs(0)) } });
      const id = { id: int(node.nodeId) };
      now_us = secs(25);
      const tx = await begin(t);
      // The clock moves on while the transaction is open; its statements still read at 25 s.
      now_us = secs(75);
      const read = { query: 'MATCH (s:Signal) WHERE id(s) = $id RETURN s.lin', parameters: id, transactionId: tx };
      expect(await rows(t, read)).toEqual([[lin(25)]]);
      expect(await rows(t, read)).toEqual([[lin(25)]]);
      const wrote = await execute(t, { query: 'MATCH (s:Signal) WHERE id(s) = $id SET s.copy = s.lin RETURN s', parameters: id, transactionId: tx });
      const returned = wrote.rows[0]!.values[0]!.kind;
      expect(returned.case).toBe('nodeValue');
      if (returned.case === 'nodeValue') expect(plainValue(returned.value.properties['lin'])).toBe(lin(25));
      // A conditional update decides on the same value: 80 is not above 80, but is below 81.
      const flag = (op: string) => ({ query: `MATCH (s:Signal) WHERE id(s) = $id AND s.lin ${op} SET s.flag = '${op}' RETURN count(s)`, parameters: id, transactionId: tx });
      expect(await rows(t, flag('> 80'))).toEqual([['0']]);
      expect(await rows(t, flag('< 81'))).toEqual([['1']]);
      await commit(t, tx);
      expect(stored(node.nodeId)?.props.get('flag')).toBe('< 81');
      // The copy was stored as read; the computed property itself never is, and keeps decaying.
      expect(stored(node.nodeId)?.props.has('lin')).toBe(false);
      expect(await rows(t, { query: 'MATCH (s:Signal) WHERE id(s) = $id RETURN s.copy, s.lin', parameters: id })).toEqual([[lin(25), lin(75)]]);
    }
  });

  it('a node created or re-anchored inside a statement reads its computed values there and in what it returns, on both transports', async () => {
    for (const t of transports) {
      now_us = secs(50);
      // Auto-committed, then inside a transaction.
      const created = await execute(t, { query: 'CREATE (s:Signal {at: $at}) RETURN s.lin, s', parameters: { at: at(secs(0)) } });
      expect(plainValue(created.rows[0]!.values[0])).toBe(lin(50));
      const node = created.rows[0]!.values[1]!.kind;
      if (node.case !== 'nodeValue') throw new Error(`RETURN s gave ${node.case}`);
      expect(plainValue(node.value.properties['lin'])).toBe(lin(50));
      const id = { id: int(node.value.nodeId) };
      const moved = await rows(t, { query: 'MATCH (s:Signal) WHERE id(s) = $id SET s.at = $at RETURN s.lin', parameters: { ...id, at: at(secs(40)) } });
      expect(moved).toEqual([[lin(10)]]);

      const tx = await begin(t);
      const anchor = { at: at(secs(t === 'grpc' ? 30 : 35)) };
      const elapsed = t === 'grpc' ? 20 : 15;
      expect(await rows(t, { query: 'CREATE (s:Signal {at: $at}) RETURN s.lin', parameters: anchor, transactionId: tx })).toEqual([[lin(elapsed)]]);
      expect(await rows(t, { query: 'MATCH (s:Signal) WHERE s.at = $at RETURN s.lin', parameters: anchor, transactionId: tx })).toEqual([[lin(elapsed)]]);
      await commit(t, tx);
    }
  });

  it('TTL inside a transaction: an expired node not yet swept is not matched, an expired field is absent, on both transports', async () => {
    for (const t of transports) {
      now_us = secs(0);
      const eph = await graph.createNode({ labels: ['Ephemeral'], properties: { at: at(secs(0)) } });
      const badge = await graph.createNode({ labels: ['Badge'], properties: { at: at(secs(0)) } });
      const ids = { e: int(eph.nodeId), b: int(badge.nodeId) };
      now_us = secs(30);
      const before = await begin(t);
      now_us = secs(61);
      const after = await begin(t);
      const count = { query: 'MATCH (e:Ephemeral) WHERE id(e) = $e RETURN count(e)', parameters: ids };
      // Begun before the expiry: the node is there for the whole transaction, as its snapshot says.
      expect(await rows(t, { ...count, transactionId: before })).toEqual([['1']]);
      expect(await rows(t, { ...count, transactionId: after })).toEqual([['0']]);
      expect(await rows(t, { query: 'MATCH (b:Badge) WHERE id(b) = $b RETURN b.at IS NULL, b.expires IS NULL', parameters: ids, transactionId: after })).toEqual([[true, true]]);
      // A write cannot reach it either: nothing matches, so nothing is written.
      expect(await rows(t, { query: 'MATCH (e:Ephemeral) WHERE id(e) = $e SET e.touched = true RETURN e', parameters: ids, transactionId: after })).toEqual([]);
      await commit(t, after);
      // Still stored: only the sweep removes it.
      expect(stored(eph.nodeId)?.props.has('touched')).toBe(false);
      expect(stored(badge.nodeId)?.props.has('at')).toBe(true);
      // The sweep lands while the older transaction is open: what it read changed, so its commit aborts.
      await execute(t, { query: 'CREATE (:Reading {v: 2.0})', transactionId: before });
      expect((await server.ttl.sweep()).expired).toBeGreaterThanOrEqual(2);
      expect(stored(eph.nodeId)).toBeUndefined();
      expect(await failure(commit(t, before))).toMatchObject({ code: 'ABORTED', reason: 'TRANSACTION_CONFLICT' });
    }
  });

  it("a transaction's own writes expire at its read time as committed data does, on both transports", async () => {
    const str = (v: string) => ({ kind: { case: 'stringValue' as const, value: v } });
    for (const t of transports) {
      const tag = { tag: str(`own-${t}`), old: at(secs(0)), fresh: at(secs(90)) };
      now_us = secs(100);
      // Committed data first: a node whose TTL (60 s) ran out at 60 s is not matched at 100 s.
      await execute(t, { query: 'CREATE (:Ephemeral {at: $old, tag: $tag, committed: true})', parameters: tag });
      const tx = await begin(t);
      now_us = secs(101);
      const match = { query: 'MATCH (e:Ephemeral {tag: $tag}) RETURN count(e)', parameters: tag, transactionId: tx };
      expect(await rows(t, match)).toEqual([['0']]);
      // The statement that creates an expired node reads what it wrote...
      const created = 'CREATE (e:Ephemeral {at: $old, tag: $tag})-[:LINKS]->(f:Friend {tag: $tag}), (b:Badge {at: $old, tag: $tag}) RETURN e.tag';
      expect(await rows(t, { query: created, parameters: tag, transactionId: tx })).toEqual([[`own-${t}`]]);
      // ...and the later ones see it as they see the committed one: not matched, its edge gone with it.
      expect(await rows(t, match)).toEqual([['0']]);
      expect(await rows(t, { query: 'MATCH (f:Friend {tag: $tag}) OPTIONAL MATCH (f)-[r]-() RETURN f.tag, count(r)', parameters: tag, transactionId: tx })).toEqual([[`own-${t}`, '0']]);
      expect(await rows(t, { query: 'MATCH ()-[r:LINKS]->(f:Friend {tag: $tag}) RETURN count(r)', parameters: tag, transactionId: tx })).toEqual([['0']]);
      // A FIELD TTL: the node stays, its anchor reads as absent.
      expect(await rows(t, { query: 'MATCH (b:Badge {tag: $tag}) RETURN b.at IS NULL, b.expires IS NULL', parameters: tag, transactionId: tx })).toEqual([[true, true]]);
      // A node written live and then moved past its expiry by a later statement goes the same way.
      await execute(t, { query: 'CREATE (:Ephemeral {at: $fresh, tag: $tag, moved: true})', parameters: tag, transactionId: tx });
      expect(await rows(t, match)).toEqual([['1']]);
      await execute(t, { query: 'MATCH (e:Ephemeral {tag: $tag}) SET e.at = $old', parameters: tag, transactionId: tx });
      expect(await rows(t, match)).toEqual([['0']]);
      await commit(t, tx);
      // The writes did happen; reads hide them until the sweep removes them.
      const all = server.db.latestCommitted();
      expect([...all.nodesWithLabel('Ephemeral')].filter((n) => n.props.get('tag') === `own-${t}`)).toHaveLength(3);
      expect(await rows(t, { query: 'MATCH (e:Ephemeral {tag: $tag}) RETURN count(e)', parameters: tag })).toEqual([['0']]);
    }
  });

  it("a transaction that read a computed value conflicts with a write of the value's anchor after its start, on both transports", async () => {
    for (const t of transports) {
      now_us = secs(0);
      const node = await graph.createNode({ labels: ['Signal'], properties: { at: at(secs(0)) } });
      const id = { id: int(node.nodeId) };
      const tx = await begin(t);
      expect(await rows(t, { query: 'MATCH (s:Signal) WHERE id(s) = $id RETURN s.lin', parameters: id, transactionId: tx })).toEqual([[100]]);
      await execute(t, { query: 'MATCH (s:Signal) WHERE id(s) = $id SET s.at = $at', parameters: { ...id, at: at(secs(-90)) } });
      await execute(t, { query: 'CREATE (:Reading {v: 1.0})', transactionId: tx });
      expect(await failure(commit(t, tx))).toMatchObject({ code: 'ABORTED', reason: 'TRANSACTION_CONFLICT' });
    }
  });

  it('a write naming a computed property is refused on every write path and both transports', async () => {
    now_us = secs(0);
    const target = await graph.createNode({ labels: ['Signal'], properties: { at: at(secs(0)) } });
    await graph.createNode({ labels: ['Reading'], properties: {} });
    const id = { id: int(target.nodeId) };
    const refused = { code: 'FAILED_PRECONDITION', reason: 'COMPUTED_PROPERTY_WRITE' };
    const statements: Cypher[] = [
      { query: 'MATCH (s:Signal) WHERE id(s) = $id SET s.lin = 1.0', parameters: id },
      { query: 'MATCH (s:Signal) WHERE id(s) = $id SET s += {lin: 1.0}', parameters: id },
      { query: 'CREATE (:Signal {at: $at, lin: 1.0})', parameters: { at: at(secs(0)) } },
      { query: 'MERGE (s:Signal {lin: 2.0}) ON CREATE SET s.at = $at', parameters: { at: at(secs(0)) } },
      { query: 'MATCH (s:Signal) WHERE id(s) = $id MERGE (s)-[:NEXT]->(n:Signal {at: $at}) SET n.lin = 3.0', parameters: { ...id, at: at(secs(0)) } },
      { query: 'MATCH (r:Reading) WITH r LIMIT 1 SET r:Signal, r.at = $at, r.lin = 4.0', parameters: { at: at(secs(0)) } },
    ];
    for (const t of transports) {
      for (const s of statements) {
        expect(await outcome(execute(t, s)), `${t}: ${String(s.query)}`).toMatchObject(refused);
        const tx = await begin(t);
        await execute(t, { ...s, transactionId: tx });
        expect(await outcome(commit(t, tx)), `${t} in a transaction: ${String(s.query)}`).toMatchObject(refused);
      }
      expect(await failure(createNode(t, ['Signal'], { at: at(secs(0)), lin: float(5) }))).toMatchObject(refused);
      const batch = { nodes: [{ labels: ['Signal'], properties: { at: at(secs(0)) } }, { labels: ['Signal'], properties: { at: at(secs(0)), lin: float(6) } }] };
      expect(await failure(t === 'grpc' ? graph.createNodesBatch(batch) : restCall(rest, GraphService.method.createNodesBatch, batch))).toMatchObject(refused);
    }
    // REMOVE has nothing stored to remove: the property still reads as computed.
    for (const t of transports) {
      expect(await rows(t, { query: 'MATCH (s:Signal) WHERE id(s) = $id REMOVE s.lin RETURN s.lin', parameters: id })).toEqual([[lin(0)]]);
    }
    // None of them stored anything.
    expect(await rows('grpc', { query: 'MATCH (s:Signal) WHERE s.lin IN [1.0, 2.0, 3.0, 4.0, 5.0, 6.0] RETURN count(s)' })).toEqual([['0']]);
    expect(stored(target.nodeId)?.props.has('lin')).toBe(false);
  });

  it('GraphService writes return computed values and do not reach an expired node, on both transports', async () => {
    for (const t of transports) {
      now_us = secs(50);
      const node = await createNode(t, ['Signal'], { at: at(secs(0)) });
      expect(plainValue(node.properties['lin'])).toBe(lin(50));
      const batch = { nodes: [{ labels: ['Signal'], properties: { at: at(secs(25)) } }] };
      const created = (t === 'grpc' ? await graph.createNodesBatch(batch) : await restCall(rest, GraphService.method.createNodesBatch, batch)) as Awaited<
        ReturnType<typeof graph.createNodesBatch>
      >;
      expect(plainValue(created.nodes[0]!.properties['lin'])).toBe(lin(25));
      expect(stored(node.nodeId)?.props.has('lin')).toBe(false);

      now_us = secs(0);
      const eph = await createNode(t, ['Ephemeral'], { at: at(secs(0)) });
      const friend = await createNode(t, ['Friend'], {});
      now_us = secs(61);
      const edge = { edgeType: 'KNOWS', sourceNodeId: friend.nodeId, targetNodeId: eph.nodeId, properties: {} };
      const e = await failure(t === 'grpc' ? graph.createEdge(edge) : restCall(rest, GraphService.method.createEdge, edge));
      expect(e).toMatchObject({ code: 'NOT_FOUND' });
    }
  });
});
