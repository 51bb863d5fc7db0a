import { resolveWriteConcern } from '../log/write-concern.js';
import { ENGINE_FORMAT, SERVER_HOST_EPOCH } from '../log/engine-format.js';
import { startGrpcServer, type GrpcServerHandle } from '../api/grpc-server.js';
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
import { memberQueryBackend } from './query-backend.js';
import { Transactions } from './transactions.js';
import { backupStream } from './backup/backup-source.js';
import { consolePages } from './console-pages.js';

/**
 * The composition root of one member: opens the database, serves the API on the gRPC, REST and ops
 * ports, and stops in the reverse order, draining writes under way.
 */
export interface RunningServer {
  readonly config: ServerConfig;
  readonly db: Database;
  readonly ports: { readonly grpc: number; readonly rest: number; readonly ops: number };
  stop(): Promise<void>;
}

export type ServerLog = (line: string) => void;

export async function startServer(config: ServerConfig, log: ServerLog = (l) => process.stderr.write(`${l}\n`)): Promise<RunningServer> {
  const db = await Database.open({
    data_dir: config.data_dir,
    node_id: config.node_id,
    mvcc_retention_secs: config.mvcc_retention_secs,
    scan_cache_mb: config.scan_cache_mb,
    checkpoint_interval_entries: config.checkpoint_interval_entries,
    checkpoint_interval_secs: config.checkpoint_interval_secs,
    log_segment_bytes_max: config.log_segment_bytes_max,
  });
  const metrics = new ServerMetrics(db);
  const members = 1;
  const concernDefaults = {
    acks: config.default_write_acks,
    journal: config.default_write_journal,
    timeout_ms: config.default_write_timeout_ms,
  };
  const backend: GraphBackend = {
    deployment: db.deployment,
    write: (build, options) => db.write(build, options),
    enrollIssuer: (issuer, concern) => db.enrollIssuer(issuer, concern),
    latestCommitted: () => db.latestCommitted(),
    viewAtIndex: (index) => db.viewAtIndex(index),
    defaultConcern: () => resolveWriteConcern(undefined, concernDefaults, members),
  };
  const txs = new Transactions(db, { idle_timeout_ms: config.transaction_idle_timeout_secs * 1000, open_max: config.transactions_max });
  // Index builds and checks are server-owned: taken up again here after a restart.
  const schema = startSchemaRuntime(db, {
    index_build_max_running: config.index_build_max_running,
    index_build_statement_wait_secs: config.index_build_statement_wait_secs,
    concern: backend.defaultConcern,
    oldestOpenReadIndex: () => txs.oldestPinnedIndex(),
    log,
  });
  const query = memberQueryBackend(db, txs, {
    read_concern: config.default_read_concern,
    concern: concernDefaults,
    query_memory_limit_mb: config.query_memory_limit_mb,
    vector_build_wait_ms: config.vector_build_wait_ms,
    schema: schemaStatementHandler(schema.admin),
  });
  const services: RegisteredService[] = [graphService(backend), queryService(query), schemaService(schema.backend)];
  let grpc: GrpcServerHandle | undefined;
  let rest: RestServerHandle | undefined;
  let ops: OpsServerHandle | undefined;
  let stopping = false;
  try {
    const observe = metrics.observeCall;
    grpc = await startGrpcServer({ host: config.host, port: config.grpc_port, services, message_bytes_max: config.request_bytes_max, observe });
    const pages = config.console === 'ON' ? consolePages() : {};
    rest = await startRestServer({ host: config.host, port: config.rest_port, services, body_bytes_max: config.request_bytes_max, observe, pages });
    ops = await startOpsServer({
      host: config.host,
      port: config.ops_port,
      answers: {
        health: () => ({ status: stopping ? 'STOPPING' : 'SERVING' }),
        ready: () => (stopping ? { ready: false, reason: 'the server is stopping' } : { ready: true }),
        metrics: () => metrics.expose(),
        version: () => versionReport(config.node_id),
      },
      // An online backup (docs/backup.md): the newest checkpoint and the committed log after it.
      streams: config.ops_backup === 'ON' ? { '/backup': { content_type: 'application/octet-stream', open: (signal) => backupStream(db, signal) } } : {},
    });
  } catch (e) {
    await Promise.allSettled([grpc?.stop(), rest?.stop(), ops?.stop()]);
    schema.stop();
    txs.close();
    await db.close();
    throw e;
  }
  const ports = { grpc: grpc.port, rest: rest.port, ops: ops.port };
  log(
    `weft: serving data directory ${db.dataDir.path} (deployment ${Buffer.from(db.deployment).toString('hex')}) ` +
      `on ${config.host}: gRPC ${ports.grpc}, REST ${ports.rest}, ops ${ports.ops}`,
  );
  let stopped: Promise<void> | undefined;
  return {
    config,
    db,
    ports,
    stop() {
      stopped ??= (async () => {
        stopping = true;
        // Refuse new calls, let the ones in flight finish, then close the log after a checkpoint.
        await Promise.all([grpc.stop(config.shutdown_drain_ms), rest.stop(config.shutdown_drain_ms)]);
        schema.stop();
        txs.close();
        await db.close(config.shutdown_drain_ms);
        await ops.stop();
        log('weft: stopped');
      })();
      return stopped;
    },
  };
}

/** SPEC 2.7 for a member of one: it always runs its group's version. */
function versionReport(node_id: number): object {
  const pair = { engine: ENGINE_FORMAT, host_epoch: SERVER_HOST_EPOCH };
  return {
    node_id,
    pair,
    group_pair: { pair, seq: 1 },
    read_only: null,
    voters: [{ node_id, pair, live: true }],
    majority_pair: pair,
    pause_ms: null,
  };
}
