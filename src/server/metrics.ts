import { MetricsRegistry, type Gauge } from '../common/metrics.js';
import type { CallRecord } from '../api/handlers.js';
import type { VersionMonitor } from './version/version-monitor.js';
import type { Database } from './database.js';
import type { PlanCacheStats } from '../query/engine.js';
import type { StatementGate } from './statement-gate.js';
import { searchIndexTotals, vectorIndexBytes } from './index-builds/vector-budget.js';
import type { TtlSweeper } from './computed/ttl-sweeper.js';
import type { PeerTransportCounters } from '../log/transport/grpc-peer-transport.js';

/**
 * The member's Prometheus metrics: SPEC 9's version metrics (prefix `graphdb_`), call counts and
 * latencies per method, and the log's group commit figures. Gauges that mirror state are read when
 * scraped rather than kept up to date on every write.
 */
export class ServerMetrics {
  private readonly registry = new MetricsRegistry();
  private readonly calls = this.registry.counter({ name: 'graphdb_calls_total', help: 'Finished API calls.', label_names: ['transport', 'method', 'code'] });
  private readonly latency = this.registry.histogram({
    name: 'graphdb_call_duration_seconds',
    help: 'API call latency.',
    label_names: ['transport', 'method'],
  });
  private readonly mirrored: [Gauge, () => number][] = [];
  private readonly scrapeHooks: (() => void)[] = [];

  constructor(db: Database) {
    const gauge = (name: string, help: string, read: () => number): void => {
      this.mirrored.push([this.registry.gauge({ name, help }), read]);
    };
    gauge('graphdb_log_committed_index', 'Last committed log index.', () => db.committedIndex);
    gauge('graphdb_log_fsyncs', 'fsyncs of the log since start.', () => db.log.storageStats.fsyncs);
    gauge('graphdb_log_fsyncs_on_loop', 'fsyncs of the log made on the event loop thread (the inline fsync bounds) since start.', () => db.log.storageStats.fsyncs_on_loop);
    gauge('graphdb_log_entries_synced', 'Log entries made durable since start.', () => db.log.storageStats.entries_synced);
    gauge('graphdb_log_bytes_written', 'Log bytes written since start.', () => db.log.storageStats.bytes_written);
    gauge('graphdb_disk_full', '1 while the log or hard state waits for space on a full disk (writes are refused DISK_FULL).', () => (db.log.diskFull === undefined ? 0 : 1));
    const counter = (name: string, help: string, read: () => number): void => {
      const metric = this.registry.counter({ name, help });
      this.scrapeHooks.push(() => metric.inc({}, read() - metric.get({})));
    };
    counter('graphdb_log_disk_full_waits_total', 'Times the log started waiting for space on a full disk, since start.', () => db.log.storageStats.no_space_waits);
    counter('graphdb_checkpoints_refused_total', 'Checkpoints not written because the disk was full, since start.', () => db.checkpointsRefused);
    counter('graphdb_disk_full_refusals_total', 'Writes refused for space since start: log, next segment, hard state, snapshot install, checkpoint.', () => db.log.diskFullRefusals + db.checkpointsRefused);
    gauge('graphdb_graph_nodes', 'Live nodes, pending writes included.', () => db.sm.graph.stats().nodes);
    gauge('graphdb_graph_edges', 'Live edges, pending writes included.', () => db.sm.graph.stats().edges);
    gauge('graphdb_vector_index_bytes', 'Estimated memory every vector index holds (vectors and HNSW graphs).', () => vectorIndexBytes(db));
    gauge('graphdb_vector_index_vectors', 'Vectors held by every vector index.', () => searchIndexTotals(db).vectors);
    gauge('graphdb_text_index_bytes', 'Estimated memory every text index holds (postings and documents).', () => searchIndexTotals(db).text_bytes);
  }

  /** The running-statements gauge, refusals by the cap, and the prepared-plan cache's counters. */
  watchStatements(gate: StatementGate, plans: () => PlanCacheStats): void {
    const gauge = (name: string, help: string, read: () => number): void => {
      this.mirrored.push([this.registry.gauge({ name, help }), read]);
    };
    gauge('graphdb_statements_running', 'Cypher statements running now, paused between time slices included.', () => gate.running);
    gauge('graphdb_statements_refused', 'Cypher statements refused since start because statement_running_max were running.', () => gate.refused);
    gauge('graphdb_query_plan_cache_hits', 'Executions that found their plan cached, since start.', () => plans().hits);
    gauge('graphdb_query_plan_cache_misses', 'Executions that planned their statement, since start.', () => plans().misses);
    gauge('graphdb_query_plan_cache_entries', 'Prepared statements in the cache.', () => plans().entries);
  }

  /** SPEC 9.9: the member's pair, its group's, read-only, the write pause, and the refusals. */
  watchVersion(monitor: VersionMonitor, refused_calls: () => number): void {
    const gauge = (name: string, help: string, read: () => number): void => {
      this.mirrored.push([this.registry.gauge({ name, help }), read]);
    };
    gauge('graphdb_version_engine_format', 'Engine format version this member runs.', () => monitor.pair.engine);
    gauge('graphdb_version_host_epoch', 'Host format epoch this member runs.', () => monitor.pair.host_epoch);
    gauge('graphdb_version_group_engine_format', 'Engine format version the group last recorded.', () => (monitor.group ?? { pair: monitor.pair }).pair.engine);
    gauge('graphdb_version_group_host_epoch', 'Host format epoch the group last recorded.', () => (monitor.group ?? { pair: monitor.pair }).pair.host_epoch);
    gauge('graphdb_version_read_only', '1 while the member does not run its group version.', () => (monitor.readOnly ? 1 : 0));
    gauge('graphdb_version_pause_seconds', 'Length of the current write pause; 0 while the group writes.', () => (monitor.pause.current_ms ?? 0) / 1000);
    gauge('graphdb_version_last_pause_seconds', 'Length of the last write pause that ended.', () => monitor.pause.last_ms / 1000);
    const writes = this.registry.counter({ name: 'graphdb_version_refused_writes_total', help: 'Writes refused as read-only.' });
    const calls = this.registry.counter({ name: 'graphdb_version_refused_calls_total', help: 'Inter-node calls refused from another version or group.' });
    this.scrapeHooks.push(() => {
      writes.inc({}, monitor.refused_writes - writes.get({}));
      calls.inc({}, refused_calls() - calls.get({}));
    });
  }

  /** Raft frames this member wrote to its peers: with the log's counters, frames per write (bench/cluster-write.ts). */
  watchPeerFrames(sent: () => number): void {
    this.mirrored.push([this.registry.gauge({ name: 'graphdb_raft_frames_sent', help: 'Raft frames written to peers since start.' }), sent]);
  }

  /**
   * Snapshot transfers through the peer transport (docs/cluster.md, Snapshots from file to file), read
   * from its counters when scraped (none on a member without a peer transport), and the settings that
   * bound them.
   */
  watchSnapshots(counters: () => PeerTransportCounters | undefined, settings: { readonly sync_bytes_max: number; readonly stream_window_bytes: number }): void {
    const counter = (name: string, help: string, read: (c: PeerTransportCounters) => number): void => {
      const metric = this.registry.counter({ name, help });
      this.scrapeHooks.push(() => {
        const c = counters();
        if (c !== undefined) metric.inc({}, read(c) - metric.get({}));
      });
    };
    counter('graphdb_snapshot_sends_total', 'Snapshot sends this member started as leader.', (c) => c.snapshots_sent);
    counter('graphdb_snapshot_sends_delivered_total', 'Snapshot sends whose receiver handed the whole snapshot to Raft.', (c) => c.snapshots_delivered);
    counter('graphdb_snapshot_sends_resumed_total', 'Snapshot sends that resumed after the part the receiver already held.', (c) => c.snapshots_resumed);
    counter('graphdb_snapshot_sent_bytes_total', 'Snapshot data bytes written to peer streams.', (c) => c.snapshot_bytes_sent);
    counter('graphdb_snapshot_resumed_bytes_total', 'Snapshot data bytes not sent again because the receiver held them.', (c) => c.snapshot_bytes_not_resent);
    counter('graphdb_snapshot_received_bytes_total', 'Snapshot data bytes received and written to disk.', (c) => c.snapshot_bytes_received);
    const receives = this.registry.counter({ name: 'graphdb_snapshot_receives_total', help: 'Snapshot streams received, by how each ended.', label_names: ['outcome'] });
    this.scrapeHooks.push(() => {
      const c = counters();
      if (c === undefined) return;
      const by_outcome: [string, number][] = [
        ['complete', c.snapshots_received],
        ['refused', c.snapshot_receives_refused],
        ['broken', c.snapshot_receives_broken],
        ['resume_offered', c.snapshot_resumes_offered],
      ];
      for (const [outcome, n] of by_outcome) receives.inc({ outcome }, n - receives.get({ outcome }));
    });
    const gauge = (name: string, help: string, value: number): void => {
      this.mirrored.push([this.registry.gauge({ name, help }), () => value]);
    };
    gauge('graphdb_snapshot_sync_interval_max_bytes', 'Largest interval between fsyncs of a snapshot being received (setting snapshot_sync_bytes_max).', settings.sync_bytes_max);
    gauge('graphdb_peer_stream_window_bytes', 'HTTP/2 flow-control window of every peer stream and connection (setting peer_stream_window_bytes).', settings.stream_window_bytes);
  }

  /** TTL expiry figures read from the sweeper when scraped. */
  watchTtl(sweeper: TtlSweeper): void {
    const expired = this.registry.counter({ name: 'graphdb_ttl_expired_total', help: 'TTL expirations committed since start, by scope.', label_names: ['scope'] });
    const lag = this.registry.gauge({ name: 'graphdb_ttl_expiry_lag_seconds', help: 'Longest wait of an expiry for its sweep, in the last sweep that expired something.' });
    this.mirrored.push([lag, () => sweeper.lag_secs]);
    this.scrapeHooks.push(() => {
      for (const [scope, n] of sweeper.expired_total) expired.inc({ scope }, n - expired.get({ scope }));
    });
  }

  readonly observeCall = (call: CallRecord): void => {
    this.calls.inc({ transport: call.transport, method: call.method, code: call.code });
    this.latency.observe(call.duration_ms / 1000, { transport: call.transport, method: call.method });
  };

  expose(): string {
    for (const [gauge, read] of this.mirrored) gauge.set(read());
    for (const hook of this.scrapeHooks) hook();
    return this.registry.expose();
  }
}
