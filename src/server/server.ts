import { resolveWriteConcern } from '../log/write-concern.js';
import { ServerCsvSources, loadCsvSettings } from './load-csv/csv-sources.js';
import { startGrpcServer, type GrpcServerHandle } from '../api/grpc-server.js';
import { grpcTlsOf } from './grpc-tls.js';
import { startRestServer, type RestServerHandle } from '../api/rest-server.js';
import { startOpsServer, type OpsServerHandle } from '../api/ops-server.js';
import { graphService, type GraphBackend } from '../api/graph-service.js';
import { queryService } from '../api/query-service.js';
import { schemaService } from '../api/schema-service.js';
import { startSchemaRuntime } from './index-builds/schema-runtime.js';
import { schemaStatementHandler } from './index-builds/cypher-ddl.js';
import type { RegisteredService } from '../api/handlers.js';
import type { ServerConfig } from './config.js';
import { Database } from './database.js';
import { ServerMetrics } from './metrics.js';
import { reportDiskSpace, storageReadiness } from './disk-health.js';
import { memberQueryBackend } from './query-backend.js';
import { Transactions } from './transactions.js';
import { clusterService } from '../api/cluster-service.js';
import { clusterBackend } from './cluster/cluster-backend.js';
import { ClientAddresses, leader_address_poll_ms } from './cluster/client-addresses.js';
import { forwardingServices } from './cluster/forwarding.js';
import { MembershipAdmin, PROMOTE_LAG_ENTRIES } from './cluster/membership-admin.js';
import { openPeerMember, type PeerMember } from './cluster/peer-member.js';
import { QueryEngine } from '../query/engine.js';
import { indexCatalogOf } from './cypher-runner.js';
import { StatementGate } from './statement-gate.js';
import { blobService } from '../api/blob-service.js';
import { startBlobs } from './blobs/blob-runtime.js';
import { computedNode, readWithComputed, wallClockMicros, type ReadClock } from './computed/read-views.js';
import { startTtlSweeps } from './computed/ttl-runtime.js';
import type { TtlSweeper } from './computed/ttl-sweeper.js';
import { backupStream } from './backup/backup-source.js';
import { consolePages } from './console-pages.js';
import { runningPair } from './version/running-pair.js';
import { VersionMonitor, version_probe_ms } from './version/version-monitor.js';
import { versionReport } from './version/version-report.js';
import { readOnlyAwareQueries } from './version/read-only-queries.js';
import { GrpcPeerTransport } from '../log/transport/grpc-peer-transport.js';

/**
 * The composition root of one member: opens the database, serves the API on the gRPC, REST and ops
 * ports, and stops in the reverse order, draining writes under way.
 */
export interface RunningServer {
  readonly config: ServerConfig;
  readonly db: Database;
  readonly ports: { readonly grpc: number; readonly rest: number; readonly ops: number };
  /** The TTL sweeper, so a test driving the clock can sweep at a moment of its choosing. */
  readonly ttl: TtlSweeper;
  stop(): Promise<void>;
}

export type ServerLog = (line: string) => void;

/** Effects a test may replace; the real ones otherwise. */
export interface ServerEffects {
  /** Epoch microseconds: the read time of computed properties and the TTL sweeper's clock. */
  readonly clock_us?: ReadClock;
  /** The member's peer transport and identity; made from the tls settings when absent. */
  readonly peer?: PeerMember;
}

export async function startServer(
  config: ServerConfig,
  log: ServerLog = (l) => process.stderr.write(`${l}\n`),
  effects: ServerEffects = {},
): Promise<RunningServer> {
  // The version pair (SPEC 9.2) every peer frame carries; the deployment is read once the log holds it.
  const pair = runningPair(config);
  // Read before anything opens: a TLS setting that cannot work stops the start at once.
  const grpc_tls = grpcTlsOf(config);
  let opened: Database | undefined;
  // Read for every peer frame sent and received: the hex is made again only when the deployment's bytes change.
  let deployment_hex: { readonly bytes: Uint8Array; readonly hex: string } | undefined;
  const deployment = (): string => {
    const bytes = opened?.sm.deployment;
    if (bytes === undefined) return '';
    if (deployment_hex?.bytes !== bytes) deployment_hex = { bytes, hex: Buffer.from(bytes).toString('hex') };
    return deployment_hex.hex;
  };
  const member = await openPeerMember(config, log, effects.peer, { pair, deployment });
  const db = await Database.open({
    data_dir: config.data_dir,
    node_id: config.node_id,
    mvcc_retention_secs: config.mvcc_retention_secs,
    scan_cache_mb: config.scan_cache_mb,
    checkpoint_interval_entries: config.checkpoint_interval_entries,
    checkpoint_interval_secs: config.checkpoint_interval_secs,
    log_segment_bytes_max: config.log_segment_bytes_max,
    log_inline_fsync_entries_max: config.log_inline_fsync_entries_max,
    log_follower_inline_fsync_entries_max: config.log_follower_inline_fsync_entries_max,
    log_single_member_inline_fsync_entries_max: config.log_single_member_inline_fsync_entries_max,
    snapshot_sync_bytes_max: config.snapshot_sync_bytes_max,
    raft: { tick_ms: config.tick_ms, election_ticks: config.election_ticks, heartbeat_ticks: config.heartbeat_ticks },
    join_wait: config.join_wait,
    self: { address: member.transport?.address ?? '', identity: member.identity },
    ...(member.transport !== undefined ? { transport: member.transport } : {}),
    engine_format: pair.engine,
  }).catch(async (e: unknown) => {
    await member.transport?.close();
    throw e;
  });
  opened = db;
  const metrics = new ServerMetrics(db);
  const clock_us = effects.clock_us ?? wallClockMicros;
  const concernDefaults = {
    acks: config.default_write_acks,
    journal: config.default_write_journal,
    timeout_ms: config.default_write_timeout_ms,
  };
  const backend: GraphBackend = {
    get deployment() {
      return db.deployment;
    },
    // A write that reads (the endpoints of CreateEdge) sees computed properties as a read does: an
    // expired node not yet swept is not there.
    writeHeld: (build, options) => db.writeHeld(build, { ...options, computed_at_us: clock_us() }),
    asWritten: (node) => computedNode(db, node, clock_us()),
    enrollIssuer: (issuer, concern) => db.enrollIssuer(issuer, concern),
    latestCommitted: () => readWithComputed(db, db.latestCommitted(), clock_us()),
    viewAtIndex: (index) => readWithComputed(db, db.viewAtIndex(index), clock_us()),
    defaultConcern: () => resolveWriteConcern(undefined, concernDefaults, db.log.voterCount),
  };
  const versions = new VersionMonitor(db, {
    pair,
    transport: member.transport,
    election_timeout_ms: config.election_ticks * config.tick_ms,
    probe_ms: version_probe_ms,
    concern: backend.defaultConcern,
    log,
  });
  versions.start();
  metrics.watchVersion(versions, () => (member.transport instanceof GrpcPeerTransport ? member.transport.counters.version_refused_calls : 0));
  metrics.watchPeerFrames(() => (member.transport instanceof GrpcPeerTransport ? member.transport.counters.raft_frames_sent : 0));
  metrics.watchSnapshots(() => (member.transport instanceof GrpcPeerTransport ? member.transport.counters : undefined), { sync_bytes_max: config.snapshot_sync_bytes_max, stream_window_bytes: config.peer_stream_window_bytes });
  const txs = new Transactions(db, { idle_timeout_ms: config.transaction_idle_timeout_secs * 1000, open_max: config.transactions_max });
  // Index builds and checks are server-owned: taken up again here after a restart.
  const schema = startSchemaRuntime(db, {
    index_build_max_running: config.index_build_max_running,
    index_build_statement_wait_secs: config.index_build_statement_wait_secs,
    vector_index_memory_mb: config.vector_index_memory_mb,
    concern: backend.defaultConcern,
    oldestOpenReadIndex: () => txs.oldestPinnedIndex(),
    log,
  });
  const engine = new QueryEngine({ indexes: indexCatalogOf(db) });
  const statements = new StatementGate(config.statement_running_max);
  const memberQueries = memberQueryBackend(db, txs, {
    read_concern: config.default_read_concern,
    concern: concernDefaults,
    query_memory_limit_mb: config.query_memory_limit_mb,
    vector_build_wait_ms: config.vector_build_wait_ms,
    schema: schemaStatementHandler(schema.admin),
    engine,
    limits: { statement_timeout_ms: config.statement_timeout_ms, gate: statements, write_set_limit_mb: config.write_set_limit_mb },
    read_clock: clock_us,
    csv: new ServerCsvSources(loadCsvSettings(config)),
  });
  const query = readOnlyAwareQueries(memberQueries, versions);
  metrics.watchStatements(statements, () => engine.planCacheStats());
  const blobs = await startBlobs(
    db,
    config,
    backend.defaultConcern,
    log,
    member.transport === undefined
      ? undefined
      : { transport: member.transport, self: config.node_id, members: () => [db.log.leaderId, ...db.log.membership.members.map((m) => m.node_id)] },
  );
  const ttl = startTtlSweeps(db, config, backend.defaultConcern, clock_us, log);
  metrics.watchTtl(ttl.sweeper);
  reportDiskSpace(db, config.node_id);
  const admin = new MembershipAdmin(db, { poll_ms: 200, promote_lag_entries: PROMOTE_LAG_ENTRIES, concern: backend.defaultConcern, log });
  const client_addresses = new ClientAddresses(config.node_id, member.transport);
  // Refusals name the leader's client address, which a follower learns by asking the leader.
  db.log.clientAddressOf = (id) => client_addresses.of(id).grpc;
  const stopWatchingLeader = client_addresses.watchLeader(() => db.log.leaderId, leader_address_poll_ms);
  const cluster = clusterBackend(db, admin, { transport: member.transport, election_ticks: config.election_ticks, peer_call_timeout_ms: 5000, client_addresses });
  const services: RegisteredService[] = forwardingServices(
    [graphService(backend), queryService(query), schemaService(schema.backend), clusterService(cluster), blobService(blobs.backend)],
    {
      log: db.log,
      transport: member.transport,
      default_read_preference: config.default_read_preference,
      readOnly: () => (versions.readOnly ? versions.readOnlyError() : undefined),
    },
  );
  let grpc: GrpcServerHandle | undefined;
  let rest: RestServerHandle | undefined;
  let ops: OpsServerHandle | undefined;
  let stopping = false;
  try {
    const observe = metrics.observeCall;
    grpc = await startGrpcServer({ host: config.host, port: config.grpc_port, services, message_bytes_max: config.request_bytes_max, observe,
      tls: grpc_tls,
      http2_engine: config.grpc_http2_engine === 'NODE' ? 'node' : 'weft' });
    const pages = config.console === 'ON' ? consolePages() : {};
    rest = await startRestServer({ host: config.host, port: config.rest_port, services, body_bytes_max: config.request_bytes_max, observe, pages });
    ops = await startOpsServer({
      host: config.host,
      port: config.ops_port,
      answers: {
        health: () => ({ status: stopping ? 'STOPPING' : 'SERVING' }),
        ready: () => (stopping ? { ready: false, reason: 'the server is stopping' } : db.log.removed ? { ready: false, reason: 'removed from its group' } : (storageReadiness(db) ?? { ready: true })),
        metrics: () => metrics.expose(),
        version: () => versionReport(config.node_id, versions),
      },
      // An online backup (docs/backup.md): the newest checkpoint and the committed log after it.
      streams: config.ops_backup === 'ON' ? { '/backup': { content_type: 'application/octet-stream', open: (signal) => backupStream(db, signal, { hold: () => blobs.manager.holdReferenced(), read: (c) => blobs.manager.store.read(c) }) } } : {},
    });
  } catch (e) {
    await Promise.allSettled([grpc?.stop(), rest?.stop(), ops?.stop()]);
    blobs.stop();
    ttl.stop();
    schema.stop();
    txs.close();
    admin.stop();
    stopWatchingLeader();
    versions.stop();
    await db.close();
    await member.transport?.close();
    throw e;
  }
  const ports = { grpc: grpc.port, rest: rest.port, ops: ops.port };
  client_addresses.announce({
    grpc: config.grpc_advertise_address !== '' ? config.grpc_advertise_address : `${config.host}:${ports.grpc}`,
    rest: config.rest_advertise_address !== '' ? config.rest_advertise_address : `${config.host}:${ports.rest}`,
  });
  log(
    `weft: serving data directory ${db.dataDir.path} (deployment ${db.sm.deployment === undefined ? 'not joined yet' : Buffer.from(db.sm.deployment).toString('hex')}) ` +
      `on ${config.host}: gRPC ${ports.grpc}, REST ${ports.rest}, ops ${ports.ops}` +
      (member.transport !== undefined ? `, peer ${member.transport.address} as ${member.identity}` : ''),
  );
  let stopped: Promise<void> | undefined;
  return {
    config,
    db,
    ports,
    ttl: ttl.sweeper,
    stop() {
      stopped ??= (async () => {
        stopping = true;
        // Refuse new calls, let the ones in flight finish, then close the log after a checkpoint.
        await Promise.all([grpc.stop(config.shutdown_drain_ms), rest.stop(config.shutdown_drain_ms)]);
        blobs.stop();
        ttl.stop();
        schema.stop();
        txs.close();
        admin.stop();
        stopWatchingLeader();
        versions.stop();
        await db.close(config.shutdown_drain_ms);
        await member.transport?.close();
        await ops.stop();
        log('weft: stopped');
      })();
      return stopped;
    },
  };
}
