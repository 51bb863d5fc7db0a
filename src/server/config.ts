import { readFileSync } from 'node:fs';
import { invalidArgument } from '../common/errors.js';

/**
 * Every server setting, typed, with its documented default (docs/configuration.md). Sources, later
 * ones winning: defaults, a JSON file (`--config` or WEFT_CONFIG), environment `WEFT_<NAME>`, flags
 * `--<name-with-dashes>`.
 */
export interface ServerConfig {
  readonly data_dir: string;
  readonly host: string;
  readonly grpc_port: number;
  readonly rest_port: number;
  readonly ops_port: number;
  readonly peer_port: number;
  /** host:port peers dial to reach this member's peer port; '' means host:peer_port. */
  readonly peer_advertise_address: string;
  /** PEM files of the peer transport's mutual TLS (docs/cluster.md): the group's CA, this member's certificate and key. */
  readonly tls_ca_file: string;
  readonly tls_cert_file: string;
  readonly tls_key_file: string;
  /**
   * PEM files of TLS on the gRPC client port (docs/configuration.md): this member's certificate and
   * key, both or neither; with them the port speaks TLS only. With `grpc_tls_ca_file` too, a client
   * must present a certificate that CA issued (mutual TLS).
   */
  readonly grpc_tls_cert_file: string;
  readonly grpc_tls_key_file: string;
  readonly grpc_tls_ca_file: string;
  /** 'address=dial,...': dial a peer whose membership address is `address` at `dial` instead (a proxy or tunnel). */
  readonly peer_dial_overrides: string;
  /** host:port clients dial to reach this member's gRPC / REST API, reported in the group's status; '' means host:port as bound. */
  readonly grpc_advertise_address: string;
  readonly rest_advertise_address: string;
  /** Form no group on a fresh data directory: wait to be joined by a group's leader (JoinNode). */
  readonly join_wait: boolean;
  readonly node_id: number;
  readonly index_build_max_running: number;
  readonly index_build_statement_wait_secs: number;
  readonly vector_build_wait_ms: number;
  /** Memory all vector indexes may hold together; a build that would pass it is refused. 0: no limit. */
  readonly vector_index_memory_mb: number;
  readonly query_memory_limit_mb: number;
  readonly default_read_preference: 'PRIMARY' | 'PRIMARY_PREFERRED' | 'SECONDARY' | 'SECONDARY_PREFERRED' | 'NEAREST';
  readonly default_read_concern: 'LOCAL' | 'MAJORITY' | 'LINEARIZABLE' | 'SNAPSHOT';
  /** 0 means a majority of the group. */
  readonly default_write_acks: number;
  readonly default_write_journal: 'JOURNAL' | 'CACHE' | 'MEMORY';
  readonly default_write_timeout_ms: number;
  readonly mvcc_retention_secs: number;
  /** What the forms built for scanning may hold together; -1: sized by the graph (at least 256 MiB). */
  readonly scan_cache_mb: number;
  readonly checkpoint_interval_entries: number;
  readonly checkpoint_interval_secs: number;
  readonly election_ticks: number;
  readonly heartbeat_ticks: number;
  readonly tick_ms: number;
  readonly transaction_idle_timeout_secs: number;
  readonly transactions_max: number;
  readonly request_bytes_max: number;
  readonly log_segment_bytes_max: number;
  /** Log batches of at most this many entries are fsynced on the event loop's thread; 0: none (docs/storage.md). */
  readonly log_inline_fsync_entries_max: number;
  /** The same bound on a member while it does not lead; the larger applies there (docs/storage.md). */
  readonly log_follower_inline_fsync_entries_max: number;
  /** The same bound while the member leads a group of one (docs/storage.md, "One write at concurrency 1"). */
  readonly log_single_member_inline_fsync_entries_max: number;
  readonly shutdown_drain_ms: number;
  /** Deadline of a Cypher statement whose call sets none, in ms; 0 for none. */
  readonly statement_timeout_ms: number;
  /** Largest interval between fsyncs of a snapshot being received; the first comes after 1 MiB, then they double up to this (docs/cluster.md). */
  readonly snapshot_sync_bytes_max: number;
  /** HTTP/2 flow-control window of every peer stream and connection: a stream moves at most this per round trip. */
  readonly peer_stream_window_bytes: number;
  /** The peer port's HTTP/2 implementation: Weft's own engine, or node:http2 as a fallback (docs/cluster.md, "How the transport is built"). */
  readonly peer_http2_engine: 'WEFT' | 'NODE';
  /** How long a leader holds a commit notice to a follower for the next message to it to carry (docs/cluster.md, "Frames per write"); 0 sends each at once. */
  readonly peer_commit_notice_hold_ms: number;
  /** Cypher statements running at once on the member; one more is refused (TOO_MANY_RUNNING_STATEMENTS). */
  readonly statement_running_max: number;
  /** What one statement's (or transaction's) write set may hold, in MiB at WRITE_ENTRY_BYTES per entity; a call cannot raise it. */
  readonly write_set_limit_mb: number;
  /** Chunk writes (into the upload's pack; the fsync comes at the seal) one blob upload keeps in flight; also bounds its memory, 256 KiB each. */
  readonly blob_chunk_writes_in_flight_max: number;
  /** Bytes of chunk data in one blob pack; an upload past it seals the pack and begins another (docs/blobs.md "Packs"). */
  readonly blob_pack_bytes_max: number;
  /** An unreferenced chunk file younger than this is not collected (an upload may still be writing it). */
  readonly blob_orphan_grace_secs: number;
  /** Seconds between orphan chunk collections while serving; 0: only at start. */
  readonly blob_orphan_sweep_secs: number;
  /** Milliseconds between TTL sweeps (expired data is hidden from reads before its sweep). */
  readonly ttl_sweep_ms: number;
  /** Most TTL expirations one log entry carries. */
  readonly ttl_expire_batch_max: number;
  /** Whether the ops port serves GET /backup (docs/backup.md): anyone who reaches the port can read every record. */
  readonly ops_backup: 'ON' | 'OFF';
  /** Whether the REST port serves the web console under /console/ (docs/console.md). */
  readonly console: 'ON' | 'OFF';
  /** The gRPC port's HTTP/2 implementation: Weft's own engine, or node:http2 as a fallback (docs/api.md, "The gRPC server"). */
  readonly grpc_http2_engine: 'WEFT' | 'NODE';
  /**
   * The directory LOAD CSV resolves `file:///` URLs in, like a chroot (Neo4j's `server.directories.import`);
   * a relative path is under the data directory. Paths that lead out of it are refused.
   */
  readonly load_csv_import_dir: string;
  /** Whether LOAD CSV reads `file:///` URLs at all (Neo4j's `dbms.security.allow_csv_import_from_file_urls`). */
  readonly load_csv_file_urls: 'ON' | 'OFF';
  /** Whether LOAD CSV reads `http://` and `https://` URLs. */
  readonly load_csv_remote: 'ON' | 'OFF';
  /** Test only: run this engine format instead of the release's own; 0 for the release's. Refused unless WEFT_TEST_FORMATS=1 (docs/upgrades.md). */
  readonly engine_format_override: number;
}

export const defaultConfig: ServerConfig = {
  data_dir: './data',
  host: '127.0.0.1',
  grpc_port: 7080,
  rest_port: 7081,
  ops_port: 7084,
  peer_port: 7082,
  peer_advertise_address: '',
  tls_ca_file: '',
  tls_cert_file: '',
  tls_key_file: '',
  grpc_tls_cert_file: '',
  grpc_tls_key_file: '',
  grpc_tls_ca_file: '',
  peer_dial_overrides: '',
  grpc_advertise_address: '',
  rest_advertise_address: '',
  join_wait: false,
  node_id: 1,
  index_build_max_running: 2,
  index_build_statement_wait_secs: 10,
  vector_build_wait_ms: 5000,
  vector_index_memory_mb: 2048,
  query_memory_limit_mb: 512,
  default_read_preference: 'PRIMARY',
  default_read_concern: 'LOCAL',
  default_write_acks: 0,
  default_write_journal: 'JOURNAL',
  default_write_timeout_ms: 0,
  mvcc_retention_secs: 300,
  scan_cache_mb: -1,
  checkpoint_interval_entries: 50_000,
  checkpoint_interval_secs: 300,
  election_ticks: 10,
  heartbeat_ticks: 1,
  tick_ms: 100,
  transaction_idle_timeout_secs: 60,
  transactions_max: 1000,
  request_bytes_max: 16 * 1024 * 1024,
  log_segment_bytes_max: 64 * 1024 * 1024,
  log_inline_fsync_entries_max: 0,
  log_follower_inline_fsync_entries_max: 1,
  log_single_member_inline_fsync_entries_max: 0,
  shutdown_drain_ms: 10_000,
  statement_timeout_ms: 300_000,
  snapshot_sync_bytes_max: 16 * 1024 * 1024,
  peer_stream_window_bytes: 16 * 1024 * 1024,
  peer_http2_engine: 'WEFT',
  peer_commit_notice_hold_ms: 5,
  statement_running_max: 64,
  write_set_limit_mb: 512,
  blob_chunk_writes_in_flight_max: 8,
  blob_pack_bytes_max: 256 * 1024 * 1024,
  blob_orphan_grace_secs: 3600,
  blob_orphan_sweep_secs: 600,
  ttl_sweep_ms: 1000,
  ttl_expire_batch_max: 1000,
  ops_backup: 'ON',
  console: 'ON',
  grpc_http2_engine: 'WEFT',
  load_csv_import_dir: 'import',
  load_csv_file_urls: 'ON',
  load_csv_remote: 'ON',
  engine_format_override: 0,
};

type Key = keyof ServerConfig;

const choices: Partial<Record<Key, readonly string[]>> = {
  default_read_preference: ['PRIMARY', 'PRIMARY_PREFERRED', 'SECONDARY', 'SECONDARY_PREFERRED', 'NEAREST'],
  default_read_concern: ['LOCAL', 'MAJORITY', 'LINEARIZABLE', 'SNAPSHOT'],
  default_write_journal: ['JOURNAL', 'CACHE', 'MEMORY'],
  ops_backup: ['ON', 'OFF'],
  load_csv_file_urls: ['ON', 'OFF'],
  load_csv_remote: ['ON', 'OFF'],
  console: ['ON', 'OFF'],
  grpc_http2_engine: ['WEFT', 'NODE'],
  peer_http2_engine: ['WEFT', 'NODE'],
};

/** Inclusive bounds for numeric settings. */
const bounds: Partial<Record<Key, readonly [number, number]>> = {
  grpc_port: [0, 65535],
  rest_port: [0, 65535],
  ops_port: [0, 65535],
  peer_port: [0, 65535],
  node_id: [1, Number.MAX_SAFE_INTEGER],
  index_build_max_running: [1, 64],
  query_memory_limit_mb: [1, 4096],
  scan_cache_mb: [-1, 1024 * 1024],
  default_write_acks: [0, 64],
  transactions_max: [1, 1_000_000],
  request_bytes_max: [1024, 1024 * 1024 * 1024],
  log_segment_bytes_max: [4096, 1024 * 1024 * 1024],
  log_inline_fsync_entries_max: [0, 1024],
  log_follower_inline_fsync_entries_max: [0, 1024],
  log_single_member_inline_fsync_entries_max: [0, 1024],
  checkpoint_interval_entries: [1, Number.MAX_SAFE_INTEGER],
  statement_running_max: [1, 100_000],
  write_set_limit_mb: [1, 1024 * 1024],
  blob_chunk_writes_in_flight_max: [1, 256],
  blob_pack_bytes_max: [256 * 1024, 4 * 1024 * 1024 * 1024],
  ttl_sweep_ms: [10, 86_400_000],
  ttl_expire_batch_max: [1, 100_000],
  engine_format_override: [0, 1_000_000],
  snapshot_sync_bytes_max: [64 * 1024, 1024 * 1024 * 1024],
  // HTTP/2 allows windows of 64 KiB (its default) to 2^31 - 1 bytes.
  peer_stream_window_bytes: [64 * 1024, 2 ** 31 - 1],
  peer_commit_notice_hold_ms: [0, 1000],
};

export function loadConfig(argv: readonly string[], env: NodeJS.ProcessEnv): ServerConfig {
  const out: Record<string, unknown> = { ...defaultConfig };
  const flags = parseFlags(argv);
  const file = flags.get('config') ?? env['WEFT_CONFIG'];
  if (file !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(file, 'utf8'));
    } catch (e) {
      throw invalidArgument(`config file ${file}: ${(e as Error).message}`);
    }
    if (typeof parsed !== 'object' || parsed === null) throw invalidArgument(`config file ${file}: not a JSON object`);
    for (const [k, v] of Object.entries(parsed)) set(out, k, v, `config file ${file}`);
  }
  for (const key of Object.keys(defaultConfig)) {
    const v = env[`WEFT_${key.toUpperCase()}`];
    if (v !== undefined) set(out, key, v, `WEFT_${key.toUpperCase()}`);
  }
  for (const [k, v] of flags) if (k !== 'config') set(out, k.replaceAll('-', '_'), v, `--${k}`);
  return out as unknown as ServerConfig;
}

/**
 * Settings an earlier release had and this one no longer uses, with why: a config file written for
 * that release still starts this one, with a warning, instead of failing on an unknown setting.
 */
const retired_settings: Readonly<Record<string, string>> = {
  blob_chunk_syncs_in_flight_max: 'chunks are written into packs sealed with one fsync each (docs/blobs.md "Packs")',
};

function set(out: Record<string, unknown>, key: string, raw: unknown, source: string): void {
  const retired = retired_settings[key];
  if (retired !== undefined) {
    process.emitWarning(`${source}: setting '${key}' is no longer used and is ignored: ${retired}`);
    return;
  }
  if (!(key in defaultConfig)) throw invalidArgument(`${source}: unknown setting '${key}'`);
  const k = key as Key;
  const def = defaultConfig[k];
  if (typeof def === 'number') {
    const n = typeof raw === 'number' ? raw : Number(String(raw).trim());
    if (!Number.isFinite(n) || !Number.isInteger(n) || String(raw).trim() === '') {
      throw invalidArgument(`${source}: '${String(raw)}' is not a whole number for ${key}`);
    }
    const [lo, hi] = bounds[k] ?? [0, Number.MAX_SAFE_INTEGER];
    if (n < lo || n > hi) throw invalidArgument(`${source}: ${key} must lie in [${lo}, ${hi}], got ${n}`);
    out[k] = n;
    return;
  }
  if (typeof def === 'boolean') {
    const b = typeof raw === 'boolean' ? String(raw) : String(raw).trim().toLowerCase();
    if (b !== 'true' && b !== 'false') throw invalidArgument(`${source}: ${key} must be true or false, got '${String(raw)}'`);
    out[k] = b === 'true';
    return;
  }
  const s = String(raw);
  const allowed = choices[k];
  if (allowed !== undefined && !allowed.includes(s.toUpperCase())) {
    throw invalidArgument(`${source}: ${key} must be one of ${allowed.join(', ')}, got '${s}'`);
  }
  out[k] = allowed !== undefined ? s.toUpperCase() : s;
}

function parseFlags(argv: readonly string[]): Map<string, string> {
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('--')) throw invalidArgument(`unexpected argument '${a}'`);
    const eq = a.indexOf('=');
    if (eq > 0) {
      flags.set(a.slice(2, eq), a.slice(eq + 1));
      continue;
    }
    const value = argv[i + 1];
    const bare = a.slice(2).replaceAll('-', '_');
    if ((value === undefined || value.startsWith('--')) && typeof defaultConfig[bare as Key] === 'boolean') {
      // A switch given alone (`--join-wait`) turns its setting on.
      flags.set(a.slice(2), 'true');
      continue;
    }
    if (value === undefined || value.startsWith('--')) throw invalidArgument(`flag ${a} needs a value`);
    flags.set(a.slice(2), value);
    i++;
  }
  return flags;
}
