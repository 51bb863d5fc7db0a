/**
 * The error catalog: the one place that decides how a failure looks on every transport. A thrown
 * WeftError keeps its status name, reason and metadata; it becomes a numeric gRPC status with a
 * `grpc-status-details-bin` trailer (google.rpc.Status carrying a google.rpc.ErrorInfo in domain
 * "weft"), and over REST an HTTP status and the JSON body `{code, message, reason, metadata}`.
 * Anything else thrown is a bug or an unexpected fault: it is logged under a fresh error id and the
 * client sees only INTERNAL with that id, never a stack trace.
 */
import { randomUUID } from 'node:crypto';
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { anyPack, anyUnpack } from '@bufbuild/protobuf/wkt';
import { WeftError, isWeftError, type StatusCode } from '../common/errors.js';
import { ErrorInfoSchema } from '../gen/google/rpc/error_details_pb.js';
import { StatusSchema } from '../gen/google/rpc/status_pb.js';

/** The ErrorInfo domain of every error Weft sends. */
export const error_domain = 'weft';

/** Numeric gRPC status codes, by name. */
export const grpc_codes: Readonly<Record<StatusCode | 'OK', number>> = {
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  OUT_OF_RANGE: 11,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  DATA_LOSS: 15,
  UNAUTHENTICATED: 16,
};

/** The standard gRPC-to-HTTP mapping of HTTP/JSON transcoding. */
export const http_statuses: Readonly<Record<StatusCode, number>> = {
  CANCELLED: 499,
  UNKNOWN: 500,
  INVALID_ARGUMENT: 400,
  DEADLINE_EXCEEDED: 504,
  NOT_FOUND: 404,
  ALREADY_EXISTS: 409,
  PERMISSION_DENIED: 403,
  RESOURCE_EXHAUSTED: 429,
  FAILED_PRECONDITION: 400,
  ABORTED: 409,
  OUT_OF_RANGE: 400,
  UNIMPLEMENTED: 501,
  INTERNAL: 500,
  UNAVAILABLE: 503,
  DATA_LOSS: 500,
  UNAUTHENTICATED: 401,
};

export interface ReasonEntry {
  readonly code: StatusCode;
  /** Metadata keys the error carries (the condition decides which are present). */
  readonly metadata_keys: readonly string[];
  readonly condition: string;
  /** Overrides the code's HTTP status where the standard mapping would mislead an HTTP client. */
  readonly http_status?: number;
}

/**
 * Every named reason Weft sends, with its status code. SPEC section 7 fixes the first five; the rest
 * are the API layer's own. docs/errors.md lists the same table for clients.
 */
export const reasons = {
  OPERATION_SETTLED: {
    code: 'FAILED_PRECONDITION',
    metadata_keys: ['outcome', 'commit_ts', 'element_ids'],
    condition: 'retry of a creation that already took effect; metadata names its outcome',
  },
  FOREIGN_OPERATION: {
    code: 'INVALID_ARGUMENT',
    metadata_keys: ['deployment', 'operation_deployment'],
    condition: 'OperationRef from another deployment',
  },
  MEMBER_READ_ONLY: {
    code: 'FAILED_PRECONDITION',
    metadata_keys: [
      'member_engine_format',
      'member_host_epoch',
      'group_engine_format',
      'group_host_epoch',
      'behind',
      'as_of_ts',
      'leader_id',
      'leader_addr',
    ],
    condition: 'write (or read that must be current) on a member that does not run its group version',
  },
  REVISION_MISMATCH: {
    code: 'ABORTED',
    metadata_keys: ['node_id', 'expected_version', 'current_version'],
    condition: 'CommitTransaction expect list does not match; the whole transaction is refused',
  },
  EXCEEDS_MEMORY_BUDGET: {
    code: 'RESOURCE_EXHAUSTED',
    metadata_keys: ['limit_mb'],
    condition: 'statement needs more memory than its limit; no partial result',
  },
  EXCEEDS_WRITE_SET_LIMIT: {
    code: 'RESOURCE_EXHAUSTED',
    metadata_keys: ['limit_mb'],
    condition: "a statement's (or transaction's) write set would hold more than write_set_limit_mb; nothing is applied",
  },
  TOO_MANY_RUNNING_STATEMENTS: {
    code: 'RESOURCE_EXHAUSTED',
    metadata_keys: ['limit'],
    condition: 'as many Cypher statements as statement_running_max are already running on the member; retry later',
  },
  MALFORMED_REQUEST: {
    code: 'INVALID_ARGUMENT',
    metadata_keys: ['detail'],
    condition: 'the request body is not a decodable protobuf message or not JSON',
  },
  INVALID_REQUEST_FIELD: {
    code: 'INVALID_ARGUMENT',
    metadata_keys: ['detail', 'field'],
    condition: 'a request field is unknown, has the wrong JSON type, or a path or query value does not fit its field',
  },
  MESSAGE_TOO_LARGE: {
    code: 'RESOURCE_EXHAUSTED',
    metadata_keys: ['limit_bytes'],
    condition: 'a request body or message is larger than the server accepts',
    http_status: 413,
  },
  BACKUP_OVERTAKEN: {
    code: 'ABORTED',
    metadata_keys: ['needed_index', 'first_index'],
    condition: 'an online backup read too slowly: the log was compacted past the entries it still had to send; retry',
  },
  BACKUP_DAMAGED: {
    code: 'DATA_LOSS',
    metadata_keys: ['file', 'detail'],
    condition: 'a backup being restored is incomplete or a file of it does not match its manifest',
  },
  LOG_DAMAGED: {
    code: 'DATA_LOSS',
    metadata_keys: ['segment', 'offset', 'index', 'detail'],
    condition: 'a log record that was durable fails its checksum (at open or on a read); nothing is cut',
  },
  LOG_FAILED: {
    code: 'UNAVAILABLE',
    metadata_keys: ['detail'],
    condition: 'a write or fsync of the log failed; the member takes no more writes until restarted',
  },
  DISK_FULL: {
    code: 'RESOURCE_EXHAUSTED',
    metadata_keys: ['path', 'detail'],
    condition: "the member's disk is full: it proposes nothing until space returns (nothing was written); retry, or on another member",
  },
  LOG_FORMAT_UNSUPPORTED: {
    code: 'FAILED_PRECONDITION',
    metadata_keys: ['segment'],
    condition: 'a log segment was written in another format version (or is not a segment)',
  },
  NOT_LEADER: {
    code: 'UNAVAILABLE',
    metadata_keys: ['leader_id', 'leader_addr'],
    condition: 'a call that only the leader answers reached a member that does not lead and could not forward it',
  },
  LEADERSHIP_LOST: {
    code: 'UNAVAILABLE',
    metadata_keys: [],
    condition: 'the leader stopped leading before the write concern held; the write may or may not have committed',
  },
  CONF_CHANGE_PENDING: {
    code: 'UNAVAILABLE',
    metadata_keys: [],
    condition: 'another membership change is under way; retry when it completes',
  },
  NODE_ID_IN_USE: {
    code: 'ALREADY_EXISTS',
    metadata_keys: ['node_id'],
    condition: 'JoinNode names a node_id that is already a member',
  },
  IDENTITY_IN_USE: {
    code: 'ALREADY_EXISTS',
    metadata_keys: ['node_id'],
    condition: 'JoinNode names an identity already bound to another member',
  },
  IDENTITY_DEPARTED: {
    code: 'FAILED_PRECONDITION',
    metadata_keys: [],
    condition: 'JoinNode names an identity that already left the deployment; a returning member joins under a new one',
  },
  JOIN_NOT_FOUND: {
    code: 'NOT_FOUND',
    metadata_keys: [],
    condition: 'JoinProgress for a member whose join was never started here or has completed',
  },
  NOT_JOINED: {
    code: 'UNAVAILABLE',
    metadata_keys: [],
    condition: 'a member started with join_wait has not been joined to a group yet',
  },
  NOT_A_VOTER: {
    code: 'FAILED_PRECONDITION',
    metadata_keys: ['node_id'],
    condition: 'DecommissionNode names a member that is not a voter of the group',
  },
  QUORUM_GATE: {
    code: 'FAILED_PRECONDITION',
    metadata_keys: ['voters'],
    condition: 'DecommissionNode would leave fewer than 2 voters (force skips the gate)',
  },
  MEMBER_NOT_FOUND: {
    code: 'NOT_FOUND',
    metadata_keys: ['node_id'],
    condition: 'RemoveNode names a member that is not in the group',
  },
  LEADER_SELF_REMOVE: {
    code: 'FAILED_PRECONDITION',
    metadata_keys: [],
    condition: 'RemoveNode names the leader itself; DecommissionNode moves leadership first',
  },
  MEMBER_REMOVED: {
    code: 'FAILED_PRECONDITION',
    metadata_keys: [],
    condition: 'a call reached a member that was removed from its group; it serves nothing but its status',
  },
  LEADER_TRANSFER_TIMEOUT: {
    code: 'UNAVAILABLE',
    metadata_keys: [],
    condition: 'a decommission of the leader could not move leadership in time; nothing was removed',
  },
  NO_PEER_TRANSPORT: {
    code: 'UNAVAILABLE',
    metadata_keys: [],
    condition: 'a call that needs other members reached a member started without a peer transport',
  },
  READ_INDEX_TIMEOUT: {
    code: 'UNAVAILABLE',
    metadata_keys: [],
    condition: 'the leader could not confirm its leadership for a LINEARIZABLE read in time',
  },
  ROUTE_NOT_FOUND: {
    code: 'NOT_FOUND',
    metadata_keys: ['method', 'path'],
    condition: 'no REST route has this method and path',
  },
  VERSION_MISMATCH: {
    code: 'FAILED_PRECONDITION',
    metadata_keys: ['engine_format', 'host_epoch', 'deployment'],
    condition: 'an inter-node call from a member of another version pair or deployment; only the version handshake is answered',
  },
  ENGINE_FORMAT_MISMATCH: {
    code: 'FAILED_PRECONDITION',
    metadata_keys: ['directory_engine_format', 'engine_format'],
    condition: 'the data directory was written in an engine format this release does not open; it is left untouched',
  },
  ENGINE_FORMAT_MISSING: {
    code: 'FAILED_PRECONDITION',
    metadata_keys: ['engine_format'],
    condition: 'the data directory holds data but no ENGINE_FORMAT file; it is left untouched',
  },
  INTERNAL_ERROR: {
    code: 'INTERNAL',
    metadata_keys: ['error_id'],
    condition: 'an unexpected fault; the server log holds the details under error_id',
  },
  IMPLICIT_TRANSACTION_REQUIRED: {
    code: 'FAILED_PRECONDITION',
    metadata_keys: ['neo4j_code', 'gql_status'],
    condition: 'a statement with CALL { ... } IN TRANSACTIONS was run inside an explicit transaction; send it auto-committed',
  },
  TRANSACTION_TERMINATED: {
    code: 'ABORTED',
    metadata_keys: ['neo4j_code', 'transaction_id'],
    condition: 'TERMINATE TRANSACTIONS ended the statement or transaction; nothing of it was applied; send it again in a new transaction',
  },
} as const satisfies Record<string, ReasonEntry>;

export type Reason = keyof typeof reasons;

/** A WeftError for a catalog reason: the code comes from the catalog so the two cannot disagree. */
export function reasonError(reason: Reason, message: string, metadata: Record<string, string> = {}): WeftError {
  return new WeftError(reasons[reason].code, message, reason, metadata);
}

/** A failure as every transport answers it. */
export interface WireError {
  readonly code: StatusCode;
  readonly grpc_code: number;
  readonly http_status: number;
  readonly message: string;
  readonly reason: string;
  readonly metadata: Readonly<Record<string, string>>;
}

/** Where unexpected faults go; the default writes one line to stderr. */
export type FaultLogger = (error_id: string, fault: unknown) => void;

export const logFaultToStderr: FaultLogger = (error_id, fault) => {
  const text = fault instanceof Error ? (fault.stack ?? fault.message) : String(fault);
  process.stderr.write(`weft: internal error ${error_id}: ${text}\n`);
};

/** Classifies anything thrown. A non-WeftError is logged and answered as a generic INTERNAL. */
export function toWireError(thrown: unknown, log: FaultLogger = logFaultToStderr): WireError {
  if (isWeftError(thrown)) {
    const entry: ReasonEntry | undefined = (reasons as Record<string, ReasonEntry>)[thrown.reason];
    const overridden = entry !== undefined && entry.code === thrown.code ? entry.http_status : undefined;
    return {
      code: thrown.code,
      grpc_code: grpc_codes[thrown.code],
      http_status: overridden ?? http_statuses[thrown.code],
      message: thrown.message,
      reason: thrown.reason,
      metadata: { ...thrown.metadata },
    };
  }
  const error_id = randomUUID();
  log(error_id, thrown);
  return toWireError(reasonError('INTERNAL_ERROR', `internal error (error id ${error_id})`, { error_id }), log);
}

/** The REST error body. */
export interface ErrorJson {
  code: StatusCode;
  message: string;
  reason: string;
  metadata: Record<string, string>;
}

export function errorJson(e: WireError): ErrorJson {
  return { code: e.code, message: e.message, reason: e.reason, metadata: { ...e.metadata } };
}

/** The `grpc-status-details-bin` trailer: google.rpc.Status with one ErrorInfo detail. */
export function statusDetails(e: WireError): Uint8Array {
  const info = create(ErrorInfoSchema, { reason: e.reason, domain: error_domain, metadata: { ...e.metadata } });
  const status = create(StatusSchema, {
    code: e.grpc_code,
    message: e.message,
    details: [anyPack(ErrorInfoSchema, info)],
  });
  return toBinary(StatusSchema, status);
}

const code_by_number: ReadonlyMap<number, StatusCode> = new Map(
  Object.entries(grpc_codes)
    .filter((entry): entry is [StatusCode, number] => entry[0] !== 'OK')
    .map(([name, n]) => [n, name]),
);

/** The status name of a numeric gRPC code; an unknown number reads as UNKNOWN. */
export function statusCodeName(n: number): StatusCode {
  return code_by_number.get(n) ?? 'UNKNOWN';
}

/**
 * Rebuilds the WeftError a server sent, from the numeric code, the status message and the
 * `grpc-status-details-bin` bytes when present. Undecodable details are ignored, not fatal: the
 * code and message still arrive.
 */
export function errorFromStatus(grpc_code: number, message: string, details_bin?: Uint8Array): WeftError {
  const code = statusCodeName(grpc_code);
  if (details_bin !== undefined && details_bin.length > 0) {
    try {
      const status = fromBinary(StatusSchema, details_bin);
      for (const detail of status.details) {
        const info = anyUnpack(detail, ErrorInfoSchema);
        if (info !== undefined) return new WeftError(code, status.message || message, info.reason, info.metadata);
      }
    } catch {
      // A peer that sends malformed details still sent a usable code and message.
    }
  }
  return new WeftError(code, message);
}

/** Rebuilds the WeftError of a REST error body (for clients and tests). */
export function errorFromJson(body: unknown, http_status: number): WeftError {
  if (typeof body === 'object' && body !== null) {
    const b = body as Partial<Record<keyof ErrorJson, unknown>>;
    if (typeof b.code === 'string' && b.code in http_statuses) {
      const metadata: Record<string, string> = {};
      if (typeof b.metadata === 'object' && b.metadata !== null) {
        for (const [k, v] of Object.entries(b.metadata)) if (typeof v === 'string') metadata[k] = v;
      }
      return new WeftError(
        b.code as StatusCode,
        typeof b.message === 'string' ? b.message : '',
        typeof b.reason === 'string' ? b.reason : '',
        metadata,
      );
    }
  }
  return new WeftError('UNKNOWN', `HTTP ${http_status} without a Weft error body`);
}
