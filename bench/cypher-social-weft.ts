/**
 * Weft as a `SocialEngine`, two ways: embedded (`open()` in this process) and over gRPC (a `weft serve`
 * child process on loopback, ExecuteCypher per statement). Both load through Cypher on the write path
 * and then build a B-tree index on Person.id, which the planner seeks for `{id: $id}`; Kùzu's
 * comparison point has `id` as its primary key.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MessageInitShape } from '@bufbuild/protobuf';
import { createGrpcClient, type GrpcClient } from '../src/api/grpc-client.js';
import { valueFromWire } from '../src/api/value-codec.js';
import type { Value } from '../src/common/values/value.js';
import { QueryService } from '../src/gen/weft/v1/query_pb.js';
import type { PropertyValueSchema } from '../src/gen/weft/v1/values_pb.js';
import { open, type Db } from '../src/index.js';
import { startServerProcess, type ServerProcess } from '../test/support/server-process.js';
import { sinceOf, type SocialEngine, type SocialGraph, type SocialParams, type SocialQuery } from './cypher-social-graph.js';

const person_batch = 10_000;
const edge_batch = 20_000;
const memory_limit_mb = 4096;
const create_persons = 'UNWIND $batch AS p CREATE (n:Person {id: p.id, name: p.name, age: p.age, city: p.city}) RETURN p.id, id(n)';
// Node ids are the database's; edges are matched by node id, which needs no property index.
const create_knows = 'UNWIND $batch AS e MATCH (a), (b) WHERE id(a) = e[0] AND id(b) = e[1] CREATE (a)-[:KNOWS {since: e[2]}]->(b)';
const create_index = 'CREATE INDEX person_id FOR (p:Person) ON (p.id)';

/** Loads through `exec`, which runs one statement and returns its rows; shared by both transports. */
async function loadThrough(graph: SocialGraph, exec: (cypher: string, params: Record<string, Value>) => Promise<readonly (readonly Value[])[]>): Promise<void> {
  const nodeOf = new Array<number>(graph.persons.length);
  for (let i = 0; i < graph.persons.length; i += person_batch) {
    const batch: Value[] = graph.persons
      .slice(i, i + person_batch)
      .map((p) => new Map<string, Value>([['id', BigInt(p.id)], ['name', p.name], ['age', BigInt(p.age)], ['city', p.city]]));
    for (const [pid, nid] of await exec(create_persons, { batch })) nodeOf[Number(pid)] = Number(nid);
  }
  for (let i = 0; i < graph.knows.length; i += edge_batch) {
    const batch: Value[] = graph.knows.slice(i, i + edge_batch).map(([a, b]) => [BigInt(nodeOf[a] as number), BigInt(nodeOf[b] as number), BigInt(sinceOf(a, b))]);
    await exec(create_knows, { batch });
  }
}

const asValue = (x: number | string): Value => (typeof x === 'number' ? BigInt(x) : x);
/** A run's parameters as Weft values: numbers become INTEGERs, lists element by element. */
export const bigints = (params: SocialParams): Record<string, Value> =>
  Object.fromEntries(Object.entries(params).map(([k, v]) => [k, typeof v === 'number' || typeof v === 'string' ? asValue(v) : v.map(asValue)]));

export class WeftEmbeddedEngine implements SocialEngine {
  readonly name = 'weft-embedded';
  private db: Db | undefined;
  private readonly dir = mkdtempSync(join(tmpdir(), 'weft-bench-'));

  async load(graph: SocialGraph): Promise<void> {
    const db = await open(this.dir, { memory_limit_bytes: memory_limit_mb * 1024 * 1024, checkpoint_interval_entries: 1_000_000, index_build_statement_wait_secs: 3600 });
    this.db = db;
    await loadThrough(graph, async (cypher, params) => (await db.query(cypher, params)).rows);
    await db.query(create_index);
    const plan = JSON.stringify(db.explain('MATCH (p:Person {id: $id}) RETURN p.name'));
    if (!plan.includes('NodeIndexSeek')) throw new Error(`the point lookup does not seek person_id: ${plan}`);
  }

  /** The open database, once loaded. */
  get database(): Db {
    if (this.db === undefined) throw new Error('not loaded');
    return this.db;
  }

  async run(query: SocialQuery, params: SocialParams): Promise<readonly (readonly unknown[])[]> {
    return (await this.db!.query(query.cypher, bigints(params))).rows;
  }

  /** The scan cache's forms by kind, each with the forms derived from it: how many and their bytes. */
  cacheReport(): string {
    const cache = this.database.database.sm.graph.scanCache;
    const kinds = new Map<string, { count: number; bytes: number }>();
    const add = (kind: string, count: number, bytes: number): void => {
      const k = kinds.get(kind) ?? { count: 0, bytes: 0 };
      kinds.set(kind, { count: k.count + count, bytes: k.bytes + bytes });
    };
    for (const f of cache.kept()) {
      let derived = 0;
      for (const [kind, d] of f.derived) {
        add(kind, d.count, d.bytes);
        derived += d.bytes;
      }
      add(f.kind, 1, f.bytes - derived);
    }
    const mib = (b: number): string => (b / 1024 / 1024).toFixed(2);
    const lines = [...kinds].map(([kind, k]) => `  ${kind.padEnd(28)} ${String(k.count).padStart(5)} ${mib(k.bytes).padStart(9)} MiB`);
    return [`scan cache: ${mib(cache.used)} of ${mib(cache.limit_bytes)} MiB, ${cache.evictions} evicted`, ...lines].join('\n');
  }

  async close(): Promise<void> {
    await this.db?.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

type WireValue = MessageInitShape<typeof PropertyValueSchema>;

/** The parameter values the load and the queries send: integers, strings, lists and maps of them. */
function toWire(v: Value): WireValue {
  if (typeof v === 'bigint') return { kind: { case: 'intValue', value: v } };
  if (typeof v === 'string') return { kind: { case: 'stringValue', value: v } };
  if (Array.isArray(v)) return { kind: { case: 'listValue', value: { values: v.map(toWire) } } };
  if (v instanceof Map) {
    const entries: Record<string, WireValue> = {};
    for (const [k, x] of v as Map<string, Value>) entries[k] = toWire(x);
    return { kind: { case: 'mapValue', value: { fields: entries } } };
  }
  throw new Error(`no wire form for parameter ${String(v)}`);
}

export class WeftGrpcEngine implements SocialEngine {
  readonly name = 'weft-grpc';
  private server: ServerProcess | undefined;
  private client: GrpcClient<typeof QueryService> | undefined;
  private readonly dir = mkdtempSync(join(tmpdir(), 'weft-bench-grpc-'));

  /** `node_args` go to the server's node (a CPU profile or GC trace of its read path). */
  constructor(private readonly node_args: readonly string[] = []) {}

  /** The server's gRPC address, once loaded. */
  get address(): string {
    if (this.server === undefined) throw new Error('not loaded');
    return this.server.grpc;
  }

  async load(graph: SocialGraph): Promise<void> {
    this.server = await startServerProcess(this.dir, ['--query-memory-limit-mb', String(memory_limit_mb), '--checkpoint-interval-entries', '1000000'], this.node_args);
    this.client = createGrpcClient(QueryService, this.server.grpc, { message_bytes_max: 64 * 1024 * 1024 });
    await loadThrough(graph, (cypher, params) => this.exec(cypher, params));
    await this.exec(create_index, {});
  }

  private async exec(query: string, params: Record<string, Value>): Promise<Value[][]> {
    const parameters: Record<string, WireValue> = {};
    for (const [k, v] of Object.entries(params)) parameters[k] = toWire(v);
    const r = await this.client!.executeCypher({ query, parameters });
    return r.rows.map((row) => row.values.map((v) => valueFromWire(v, 'row')));
  }

  async run(query: SocialQuery, params: SocialParams): Promise<readonly (readonly unknown[])[]> {
    return this.exec(query.cypher, bigints(params));
  }

  async close(): Promise<void> {
    this.client?.close();
    await this.server?.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
