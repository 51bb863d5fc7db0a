/**
 * The Weft client: queries with plain JavaScript values, transactions retried on ABORTED, the change
 * feed as an async iterator, and creations that take effect at most once however often they are
 * retried. Given several members it finds the one that leads and follows it through failovers.
 * docs/sdk.md shows it in use.
 */
import type { ClientHttp2Engine } from '../common/grpc/client-stream.js';
import type { ClientTls } from '../common/grpc/client-tls.js';
import { WeftError, isWeftError } from '../common/errors.js';
import { GraphService } from '../gen/weft/v1/graph_pb.js';
import { ChangeOperation, QueryService, type ChangeEvent, type ExecuteCypherResponse } from '../gen/weft/v1/query_pb.js';
import { OperationIssuer, fileIssuerStore, memoryIssuerStore, type IssuerStore, type OperationRefInit } from './issuer.js';
import { Members, isMemberFailure, type LeaderView, type Route } from './members.js';
import { ReadPreference } from '../gen/weft/v1/consistency_pb.js';
import type { CallOptions, Transport } from './transport.js';
import { fromWire, nodeOf, paramsToWire, relationshipOf, type Id, type Node, type Param, type Relationship, type Value } from './values.js';

export interface ConnectOptions {
  /** Where the at-most-once issuer is kept: a file path, a store of your own, or memory (the default). */
  readonly issuer?: string | IssuerStore;
  /** Attempts of a transaction before its ABORTED reaches the caller. */
  readonly transaction_attempts_max?: number;
  /** Attempts of an at-most-once creation whose answer was lost (UNAVAILABLE, DEADLINE_EXCEEDED). */
  readonly create_attempts_max?: number;
  /** Reconnections of a change feed in a row, without a change between them, before it fails. */
  readonly feed_reconnect_attempts_max?: number;
  /** First wait between attempts; doubled each time, with jitter. */
  readonly retry_wait_ms?: number;
  readonly message_bytes_max?: number;
  /**
   * How long a call that is safe to repeat (a read, an at-most-once creation) keeps trying other
   * members after UNAVAILABLE, NOT_LEADER or LEADERSHIP_LOST: long enough for an election.
   */
  readonly failover_ms_max?: number;
  /**
   * The HTTP/2 implementation under the calls: Weft's own (`weft`, the default) or node:http2
   * (`node`, a fallback). Absent: the environment variable WEFT_GRPC_CLIENT_HTTP2_ENGINE, else `weft`.
   */
  readonly http2_engine?: ClientHttp2Engine;
  /**
   * TLS to the members' gRPC ports (a server with `grpc_tls_cert_file`): `ca` is the authority their
   * certificates must be issued by (absent: Node's default roots), `cert` and `key` this client's own
   * for a server that asks for one. Given, every address is dialed over TLS (also the leader addresses
   * the group announces); without it only `https://` addresses are.
   */
  readonly tls?: ClientTls;
}

/**
 * Options of `query`. A statement that names a read preference is taken to be a read, and so safe
 * to repeat after a failover: name one only on statements that do not write.
 */
export interface QueryOptions extends CallOptions {
  /** PRIMARY reads at the leader; SECONDARY_PREFERRED may be answered by any member. */
  readonly readPreference?: 'PRIMARY' | 'SECONDARY_PREFERRED';
}

export const transaction_attempts_max_default = 5;
export const create_attempts_max_default = 5;
export const retry_wait_ms_default = 20;
export const feed_reconnect_attempts_max_default = 50;
export const message_bytes_max_default = 16 * 1024 * 1024;
export const failover_ms_max_default = 15_000;

export type Row = Record<string, Value>;

export interface QueryStats {
  readonly nodesCreated: number;
  readonly nodesDeleted: number;
  readonly relationshipsCreated: number;
  readonly relationshipsDeleted: number;
  readonly propertiesSet: number;
  /** HLC microseconds of an auto-committed write; 0n for reads and inside a transaction. */
  readonly commitTs: bigint;
}

export interface QueryResult<R extends Row = Row> {
  readonly columns: readonly string[];
  /** One object per row, keyed by column name. */
  readonly rows: R[];
  readonly stats: QueryStats;
}

export type ChangeKind = 'node_created' | 'node_updated' | 'node_deleted' | 'relationship_created' | 'relationship_updated' | 'relationship_deleted' | 'schema_changed';

export interface Change {
  readonly kind: ChangeKind;
  /** Resume a feed from `commitTs + 1n` to see only what came after this change's commit. */
  readonly commitTs: bigint;
  /** Position within its commit. */
  readonly ordinal: number;
  readonly before?: Node | Relationship;
  readonly after?: Node | Relationship;
  readonly schemaSubject?: string;
}

export interface ChangeOptions {
  /** Inclusive; 0n (the default) starts at the oldest change the member still has. */
  readonly fromCommitTs?: bigint;
  readonly labels?: readonly string[];
  readonly relationshipTypes?: readonly string[];
  /** Ends the iteration. Breaking out of `for await` ends it too. */
  readonly signal?: AbortSignal;
}

export interface Transaction {
  readonly id: bigint;
  query<R extends Row = Row>(text: string, params?: Readonly<Record<string, Param>>): Promise<QueryResult<R>>;
}

export interface CreateOptions {
  /** An operation identity of your own (from `newOperation`), e.g. one saved to retry after a restart. */
  readonly operation?: OperationRefInit;
}

function changeKind(op: ChangeOperation): ChangeKind {
  switch (op) {
    case ChangeOperation.NODE_CREATED:
      return 'node_created';
    case ChangeOperation.NODE_UPDATED:
      return 'node_updated';
    case ChangeOperation.NODE_DELETED:
      return 'node_deleted';
    case ChangeOperation.EDGE_CREATED:
      return 'relationship_created';
    case ChangeOperation.EDGE_UPDATED:
      return 'relationship_updated';
    case ChangeOperation.EDGE_DELETED:
      return 'relationship_deleted';
    case ChangeOperation.SCHEMA_CHANGED:
      return 'schema_changed';
    case ChangeOperation.UNSPECIFIED:
      throw new WeftError('INTERNAL', 'the server sent a change without an operation');
  }
}

function changeOf(e: ChangeEvent): Change {
  const before = e.nodeBefore !== undefined ? nodeOf(e.nodeBefore) : e.edgeBefore !== undefined ? relationshipOf(e.edgeBefore) : undefined;
  const after = e.nodeAfter !== undefined ? nodeOf(e.nodeAfter) : e.edgeAfter !== undefined ? relationshipOf(e.edgeAfter) : undefined;
  return {
    kind: changeKind(e.operation),
    commitTs: e.commitTs,
    ordinal: e.ordinal,
    ...(before !== undefined ? { before } : {}),
    ...(after !== undefined ? { after } : {}),
    ...(e.schemaSubject !== '' ? { schemaSubject: e.schemaSubject } : {}),
  };
}

function resultOf<R extends Row>(res: ExecuteCypherResponse): QueryResult<R> {
  const s = res.stats;
  return {
    columns: res.columns,
    rows: res.rows.map((r) => Object.fromEntries(res.columns.map((c, i) => [c, fromWire(r.values[i])])) as R),
    stats: {
      nodesCreated: Number(s?.nodesCreated ?? 0n),
      nodesDeleted: Number(s?.nodesDeleted ?? 0n),
      relationshipsCreated: Number(s?.edgesCreated ?? 0n),
      relationshipsDeleted: Number(s?.edgesDeleted ?? 0n),
      propertiesSet: Number(s?.propertiesSet ?? 0n),
      commitTs: s?.commitTs ?? 0n,
    },
  };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export class WeftClient {
  private readonly members: Members;
  private readonly issuer: OperationIssuer;
  private readonly transaction_attempts_max: number;
  private readonly create_attempts_max: number;
  private readonly retry_wait_ms: number;
  private readonly feed_reconnect_attempts_max: number;
  private readonly failover_ms_max: number;

  constructor(addresses: string | readonly string[], options: ConnectOptions = {}) {
    this.members = new Members(typeof addresses === 'string' ? [addresses] : addresses, options.message_bytes_max ?? message_bytes_max_default, options.http2_engine, options.tls);
    const store = options.issuer === undefined ? memoryIssuerStore() : typeof options.issuer === 'string' ? fileIssuerStore(options.issuer) : options.issuer;
    this.issuer = new OperationIssuer(store, async (issuer) => {
      // Safe to repeat: an enrollment whose answer was lost leaves only an incarnation nobody uses.
      const res = await this.routed('entry', true, (t) => t.unary(GraphService.method.enrollIssuer, { issuer }));
      return { deployment: res.deployment, incarnation: res.incarnation, next_sequence: res.nextSequence };
    });
    this.transaction_attempts_max = options.transaction_attempts_max ?? transaction_attempts_max_default;
    this.create_attempts_max = options.create_attempts_max ?? create_attempts_max_default;
    this.retry_wait_ms = options.retry_wait_ms ?? retry_wait_ms_default;
    this.feed_reconnect_attempts_max = options.feed_reconnect_attempts_max ?? feed_reconnect_attempts_max_default;
    this.failover_ms_max = options.failover_ms_max ?? failover_ms_max_default;
  }

  /** Asks the members which one leads (GetClusterStatus) and returns what was learned. */
  leader(): Promise<LeaderView> {
    return this.members.discover();
  }

  /**
   * Sends a call on `route`. A member failure makes the route stale so the next call re-discovers
   * the leader; a call that is `safe` to repeat is sent again, for up to `failover_ms_max`.
   */
  private async routed<T>(route: Route, safe: boolean, send: (t: Transport) => Promise<T>): Promise<T> {
    const started = Date.now();
    for (let attempt = 1; ; attempt++) {
      try {
        return await send(await this.members.pick(route));
      } catch (e) {
        if (!isMemberFailure(e)) throw e;
        this.members.failed(e);
        if (!safe || Date.now() - started >= this.failover_ms_max) throw e;
        await this.backoff(Math.min(attempt, 6));
      }
    }
  }

  /**
   * Runs one auto-committed statement through the member that reaches the leader. One that names a
   * `readPreference` is a read: it is repeated on another member after a failover, and a
   * SECONDARY_PREFERRED one may go to any member. Any other statement may write, so it is sent once.
   */
  async query<R extends Row = Row>(text: string, params: Readonly<Record<string, Param>> = {}, options: QueryOptions = {}): Promise<QueryResult<R>> {
    const { readPreference, ...call } = options;
    const preference = readPreference === undefined ? ReadPreference.UNSPECIFIED : ReadPreference[readPreference];
    const route: Route = readPreference === 'SECONDARY_PREFERRED' ? 'any' : 'entry';
    return resultOf<R>(
      await this.routed(route, readPreference !== undefined, (t) =>
        t.unary(QueryService.method.executeCypher, { query: text, parameters: paramsToWire(params), readPreference: preference }, call),
      ),
    );
  }

  /**
   * Runs `work` in a transaction and commits it. When a statement or the commit fails ABORTED (a
   * conflicting write committed first), the transaction is rolled back and `work` runs again, up to
   * `transaction_attempts_max` times: `work` must be safe to repeat.
   */
  async transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      // A transaction lives on the member that began it: every statement goes to that one.
      const member = await this.members.pick('entry');
      const begun = await this.routed('entry', false, () => member.unary(QueryService.method.beginTransaction, {}));
      const id = begun.transactionId;
      const tx: Transaction = {
        id,
        query: async <R extends Row = Row>(text: string, params: Readonly<Record<string, Param>> = {}) =>
          resultOf<R>(await this.routed('entry', false, () => member.unary(QueryService.method.executeCypher, { query: text, parameters: paramsToWire(params), transactionId: id }))),
      };
      let committed = false;
      try {
        const value = await work(tx);
        committed = true;
        await this.routed('entry', false, () => member.unary(QueryService.method.commitTransaction, { transactionId: id }));
        return value;
      } catch (e) {
        if (!committed) await member.unary(QueryService.method.rollbackTransaction, { transactionId: id }).catch(() => undefined);
        if (!isWeftError(e) || e.code !== 'ABORTED' || attempt >= this.transaction_attempts_max) throw e;
        await this.backoff(attempt);
      }
    }
  }

  /**
   * The change feed from `fromCommitTs`, in commit order; it waits for new changes until stopped.
   * When the member goes away (UNAVAILABLE: a restart, a dropped connection) the feed reconnects
   * and resumes from the last change it delivered, without repeating or skipping one, giving up
   * after `feed_reconnect_attempts_max` failed attempts in a row.
   */
  async *changes(options: ChangeOptions = {}): AsyncGenerator<Change> {
    // Resume point: the last change delivered. Its commit's later changes may not have arrived, so
    // a reconnect starts at that commit again and skips what was delivered of it.
    let lastTs = -1n;
    let lastOrdinal = -1;
    let failures = 0;
    for (;;) {
      const from = lastTs >= 0n ? lastTs : (options.fromCommitTs ?? 0n);
      const stream = (await this.members.pick('entry')).stream(
        QueryService.method.watchChanges,
        { fromCommitTs: from, labels: [...(options.labels ?? [])], edgeTypes: [...(options.relationshipTypes ?? [])] },
        options.signal !== undefined ? { signal: options.signal } : {},
      );
      try {
        for await (const e of stream) {
          if (e.commitTs === lastTs && e.ordinal <= lastOrdinal) continue;
          lastTs = e.commitTs;
          lastOrdinal = e.ordinal;
          failures = 0;
          yield changeOf(e);
        }
        return;
      } catch (e) {
        if (options.signal?.aborted === true || !isWeftError(e) || e.code !== 'UNAVAILABLE' || ++failures >= this.feed_reconnect_attempts_max) throw e;
        this.members.failed(e);
        await this.backoff(Math.min(failures, 6));
      }
    }
  }

  /** A fresh operation identity; pass it in `CreateOptions.operation` to retry one creation yourself. */
  newOperation(): Promise<OperationRefInit> {
    return this.issuer.newOperation();
  }

  /** Creates a node at most once: a retry after a lost answer returns the node the first attempt made. */
  async createNode(labels: readonly string[], properties: Readonly<Record<string, Param>> = {}, options: CreateOptions = {}): Promise<Node> {
    const created = await this.atMostOnce(options, (operation) =>
      this.routed('entry', true, (t) => t.unary(GraphService.method.createNode, { labels: [...labels], properties: paramsToWire(properties), operation })),
    );
    if (created.kind === 'made') return nodeOf(created.value);
    const id = created.node_ids[0];
    if (id === undefined) throw new WeftError('INTERNAL', 'a settled node creation names no node');
    return nodeOf(await this.routed('entry', true, (t) => t.unary(GraphService.method.getNode, { nodeId: BigInt(id) })));
  }

  /** Creates a relationship at most once, like `createNode`. */
  async createRelationship(type: string, start: Id, end: Id, properties: Readonly<Record<string, Param>> = {}, options: CreateOptions = {}): Promise<Relationship> {
    const created = await this.atMostOnce(options, (operation) =>
      this.routed('entry', true, (t) =>
        t.unary(GraphService.method.createEdge, { edgeType: type, sourceNodeId: BigInt(start), targetNodeId: BigInt(end), properties: paramsToWire(properties), operation }),
      ),
    );
    if (created.kind === 'made') return relationshipOf(created.value);
    const res = await this.query<{ r: Relationship }>('MATCH ()-[r]->() WHERE id(r) = $id RETURN r', { id: BigInt(created.edge_ids[0] ?? '0') }, { readPreference: 'PRIMARY' });
    const r = res.rows[0]?.r;
    if (r === undefined) throw new WeftError('NOT_FOUND', `relationship ${created.edge_ids[0] ?? ''} made by this operation is gone`);
    return r;
  }

  private async atMostOnce<T>(
    options: CreateOptions,
    send: (operation: OperationRefInit) => Promise<T>,
  ): Promise<{ kind: 'made'; value: T } | { kind: 'settled'; node_ids: string[]; edge_ids: string[] }> {
    let operation = options.operation ?? (await this.issuer.newOperation());
    for (let attempt = 1; ; attempt++) {
      try {
        return { kind: 'made', value: await send(operation) };
      } catch (e) {
        if (!isWeftError(e)) throw e;
        if (e.reason === 'OPERATION_SETTLED') {
          const ids = (key: string): string[] => (e.metadata[key] ?? '').split(',').filter((x) => x !== '');
          return { kind: 'settled', node_ids: ids('node_ids'), edge_ids: ids('edge_ids') };
        }
        // Refused before anything happened: enroll again and use a new identity.
        const refusedIdentity = (e.reason === 'FOREIGN_OPERATION' || e.reason === 'UNKNOWN_INCARNATION') && options.operation === undefined;
        const answerLost = e.code === 'UNAVAILABLE' || e.code === 'DEADLINE_EXCEEDED';
        if ((!refusedIdentity && !answerLost) || attempt >= this.create_attempts_max) throw e;
        if (refusedIdentity) {
          await this.issuer.reenroll();
          operation = await this.issuer.newOperation();
        } else await this.backoff(attempt);
      }
    }
  }

  private backoff(attempt: number): Promise<void> {
    const base = this.retry_wait_ms * 2 ** (attempt - 1);
    return sleep(base / 2 + Math.random() * base);
  }

  close(): void {
    this.members.close();
  }
}

/**
 * Connects to a member's gRPC address, e.g. `connect('127.0.0.1:7080')`, or to several members of a
 * group, `connect(['10.0.0.1:7080', '10.0.0.2:7080'])`: calls then follow the leader through failovers.
 */
export function connect(addresses: string | readonly string[], options: ConnectOptions = {}): WeftClient {
  return new WeftClient(addresses, options);
}
