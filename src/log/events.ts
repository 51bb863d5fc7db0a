import type { PropertyValue } from '../common/property-value.js';

/**
 * Every change to Weft is one log entry holding one event. Apply is deterministic, so an event carries
 * everything a member needs to reach the same state: the ids the proposer allocated, any random suffix
 * it chose, and the checks to make. Nothing in an event depends on the member applying it.
 */
export type Event =
  | DeploymentFormed
  | LeaderNoop
  | IssuerEnrolled
  | GraphWrite
  | SchemaEvent
  | MembershipChanged
  | BlobEvent
  | TtlExpired
  | GroupVersionRecorded
  | BulkLoad
  | GraphWritePart;

/** The first entry of a new deployment: its identity, chosen once. */
export interface DeploymentFormed {
  readonly kind: 'deployment_formed';
  /** 16 random bytes, shown as 32 hex digits. */
  readonly deployment: Uint8Array;
  readonly engine_format: number;
}

/**
 * The group moved to a new version pair (SPEC 9.4, 9.5): proposed by a leader as the first entry
 * after its term's no-op, when its pair differs from the last one recorded and a majority of the
 * voters runs it. The entry that formed the deployment is record 1.
 */
export interface GroupVersionRecorded {
  readonly kind: 'group_version';
  readonly engine_format: number;
  readonly host_epoch: number;
  /** Invariant: one more than the seq of the record before it. */
  readonly seq: number;
}

/** A new leader's first entry of its term; it accepts writes only after applying it (DESIGN 3.3). */
export interface LeaderNoop {
  readonly kind: 'leader_noop';
}

/**
 * A change of the group's membership (the payload of a Raft membership change entry). The member
 * driver keeps the directory of members from these; the projections only record the index.
 */
export interface MembershipChanged {
  readonly kind: 'membership_changed';
  readonly change: 'add_voter' | 'add_learner' | 'remove';
  readonly node_id: number;
  /** host:port of the member's peer transport; empty when it has none (a member of one). */
  readonly address: string;
  /** The SPIFFE ID the member proves; empty when peers run without TLS. */
  readonly identity: string;
}

export interface IssuerEnrolled {
  readonly kind: 'issuer_enrolled';
  /** 16 bytes chosen by the logical client. */
  readonly issuer: Uint8Array;
  /** Invariant: greater than every incarnation this issuer was enrolled with before. */
  readonly incarnation: number;
}

/** A client operation identity (SPEC OperationRef), resolved by the proposer to a key. */
export interface OperationClaim {
  readonly issuer: Uint8Array;
  readonly incarnation: number;
  readonly sequence: number;
}

/** A version a node must have (or, with `version` absent, a node that must not exist) at apply. */
export interface ExpectedVersion {
  readonly node_id: number;
  readonly version?: number;
}

/**
 * A batch of graph changes that applies atomically or not at all. Writes from the Graph service,
 * auto-committed Cypher statements and interactive transaction commits all take this form.
 */
export interface GraphWrite {
  readonly kind: 'graph_write';
  readonly ops: readonly GraphOp[];
  /** At-most-once identity of the creation; a settled claim refuses the whole write. */
  readonly operation?: OperationClaim;
  /** Conditional commit: every expectation must hold at apply, else the write is refused. */
  readonly expect?: readonly ExpectedVersion[];
  /**
   * Optimistic read validation for transactions: a node or edge read at the snapshot must not have
   * been written after `read_ts`.
   */
  readonly read_check?: ReadCheck;
}

export interface ReadCheck {
  readonly read_ts: number;
  readonly node_ids: readonly number[];
  readonly edge_ids: readonly number[];
}

export type PropertyEntries = readonly (readonly [string, PropertyValue])[];

export type GraphOp =
  | { readonly op: 'create_node'; readonly id: number; readonly labels: readonly string[]; readonly props: PropertyEntries }
  | {
      readonly op: 'update_node';
      readonly id: number;
      readonly add_labels: readonly string[];
      readonly remove_labels: readonly string[];
      /** Properties set; a null value removes the property. */
      readonly set: readonly (readonly [string, PropertyValue | null])[];
      /** When true, every property not in `set` is removed first (Cypher `SET n = {...}`). */
      readonly replace: boolean;
    }
  | { readonly op: 'delete_node'; readonly id: number }
  | {
      readonly op: 'create_edge';
      readonly id: number;
      readonly type: string;
      readonly source: number;
      readonly target: number;
      readonly props: PropertyEntries;
    }
  | {
      readonly op: 'update_edge';
      readonly id: number;
      readonly set: readonly (readonly [string, PropertyValue | null])[];
      readonly replace: boolean;
    }
  | { readonly op: 'delete_edge'; readonly id: number };

/** A committed (or proposed) log entry as the layers above see it. */
export interface Entry {
  readonly index: number;
  readonly term: number;
  /** HLC microseconds assigned by the leader; strictly increasing along the log. */
  readonly commit_ts: number;
  readonly event: Event;
}

// ---- schema: catalog changes, index builds and index checks (SPEC 2.4, 3.1-3.3) ----

/** SPEC PropertyType: exactly one of scalar, vector, array. */
export type PropertyTypeSpec =
  | { readonly kind: 'scalar'; readonly scalar: ScalarTypeName }
  | { readonly kind: 'vector'; readonly dimensions: number; readonly metric: 'COSINE' | 'L2' | 'DOT' | 'L1' }
  | { readonly kind: 'array'; readonly element: PropertyTypeSpec };

export type ScalarTypeName = 'STRING' | 'INT64' | 'FLOAT64' | 'BOOL' | 'TIMESTAMP' | 'BLOB' | 'BINARY' | 'MAP' | 'GEO' | 'DOCUMENT';

export interface PropertyDefinitionSpec {
  readonly name: string;
  readonly type: PropertyTypeSpec;
  readonly required: boolean;
  readonly default_value?: PropertyValue;
}

/** Stored and validated; evaluation belongs to a later change. Numbers as SPEC ComputedPropertyDefinition. */
export interface ComputedPropertySpec {
  readonly name: string;
  readonly computed_type: 'TTL' | 'DECAY' | 'VECTOR_DECAY';
  readonly formula_type: 'LINEAR' | 'EXPONENTIAL' | 'POWER_LAW' | 'STEP';
  readonly lambda: number;
  readonly tau: number;
  readonly alpha: number;
  readonly initial: number;
  readonly target: number;
  readonly duration_secs: number;
  readonly anchor_field: string;
  readonly scope: 'NODE' | 'FIELD' | 'SUBTREE';
  readonly target_field: string;
}

export type SchemaModeName = 'STRICT' | 'VALIDATED' | 'FLEXIBLE';
export type ConstraintKindName = 'UNIQUE' | 'NOT_NULL' | 'NODE_KEY' | 'PROPERTY_TYPE';

export type ConstraintScopeSpec =
  | { readonly property: string; readonly test: 'equals'; readonly value: string | bigint | boolean }
  | { readonly property: string; readonly test: 'present' };

/** An index and the build that fills it, admitted in the same entry as what asks for it. */
export interface IndexAdmission {
  /** Identity of the logical index; never reused. */
  readonly index_id: number;
  readonly name: string;
  /** Build operation number; also the generation the build fills. Never reused. */
  readonly operation: number;
  /** The string property a build may change to end a duplicate; empty: fail on the first one. */
  readonly rename_property: string;
}

/** A vector (HNSW) or full-text (inverted, BM25) index: what it holds is fixed by the log. */
export type SearchIndexSpec =
  | {
      readonly kind: 'vector';
      /** 1 to 65536: the index's own width, whatever the label's VectorType says. */
      readonly dimensions: number;
      readonly metric: 'COSINE' | 'L2' | 'DOT' | 'L1';
      /** HNSW graph degree and construction beam width. */
      readonly m: number;
      readonly ef_construction: number;
    }
  | { readonly kind: 'text'; readonly analyzer: TextAnalyzerName };

export type TextAnalyzerName = 'standard' | 'whitespace' | 'keyword' | 'english';

export type SchemaEvent =
  | {
      readonly kind: 'label_defined';
      readonly name: string;
      readonly properties: readonly PropertyDefinitionSpec[];
      readonly computed: readonly ComputedPropertySpec[];
      readonly mode: SchemaModeName;
      readonly temporal: boolean;
    }
  | {
      readonly kind: 'edge_type_defined';
      readonly name: string;
      readonly properties: readonly PropertyDefinitionSpec[];
      readonly temporal: boolean;
      readonly discriminator: string;
    }
  | {
      readonly kind: 'constraint_created';
      readonly name: string;
      readonly label: string;
      readonly constraint: ConstraintKindName;
      readonly properties: readonly string[];
      readonly property_type?: PropertyTypeSpec;
      readonly scope?: ConstraintScopeSpec;
      /** UNIQUE and NODE_KEY: the backing index and its build. */
      readonly index?: IndexAdmission;
    }
  | { readonly kind: 'constraint_dropped'; readonly name: string }
  | {
      /** A free-standing B-tree index (Cypher CREATE INDEX) and its build. */
      readonly kind: 'index_created';
      readonly label: string;
      readonly properties: readonly string[];
      readonly index: IndexAdmission;
      /** Set for a vector or full-text index; absent for a B-tree index. */
      readonly search?: SearchIndexSpec;
    }
  | { readonly kind: 'index_dropped'; readonly name: string }
  /** Reindex: a fresh generation of an index, filled by its own build while the old one serves. */
  | { readonly kind: 'index_rebuild_admitted'; readonly index_id: number; readonly operation: number }
  /** Progress checkpoint; the first one moves the build from ACCEPTED to RUNNING. */
  | { readonly kind: 'index_build_progress'; readonly operation: number; readonly indexed: number }
  | { readonly kind: 'index_build_published'; readonly operation: number }
  | { readonly kind: 'index_build_failed'; readonly operation: number; readonly failure: string }
  | { readonly kind: 'index_build_cancelled'; readonly operation: number }
  /** One duplicate ended by a build: the node's value changes; kept whatever the build's outcome. */
  | {
      readonly kind: 'index_build_repair';
      readonly operation: number;
      readonly node_id: number;
      readonly property: string;
      readonly old_value: string;
      readonly new_value: string;
    }
  | { readonly kind: 'index_check_admitted'; readonly operation: number; readonly index_id: number }
  | {
      readonly kind: 'index_check_progress';
      readonly operation: number;
      readonly phase: 'RECORDS' | 'ENTRIES';
      readonly checked: number;
      readonly mismatches: number;
      /** Node groups holding one value of a unique index (no entry can represent them). */
      readonly conflicts: readonly (readonly number[])[];
    }
  /** Entries of these nodes disagreed with their records and are recomputed from the records. */
  | {
      readonly kind: 'index_check_repair';
      readonly operation: number;
      readonly node_ids: readonly number[];
      /** Entries naming a node under a key none of its versions holds; removed as they are. */
      readonly orphans: readonly (readonly [readonly PropertyValue[], number])[];
    }
  | {
      readonly kind: 'index_check_finished';
      readonly operation: number;
      readonly outcome: 'DONE' | 'FAILED' | 'CANCELLED';
      readonly failure: string;
      /** A complete pass found everything in agreement (or the rebuild finished). */
      readonly verified: boolean;
      /** Set when damage was too wide and a rebuild was admitted into this generation. */
      readonly rebuilt_into?: number;
    };

// ---- blobs: references to content-addressed chunks stored outside the log (SPEC 2.5, 4.4) ----

/**
 * A blob's existence and the chunk references it holds. The chunk bytes were written and fsynced
 * under their SHA-256 names before this entry was proposed; the log carries only the names.
 */
export type BlobEvent =
  | {
      readonly kind: 'blob_put';
      /** Hex SHA-256 over the concatenated 32-byte chunk hashes (docs/blobs.md). */
      readonly blob_id: string;
      /** Hex SHA-256 of each chunk, in order; a chunk may appear more than once. */
      readonly chunk_ids: readonly string[];
      readonly total_size: number;
    }
  | { readonly kind: 'blob_deleted'; readonly blob_id: string };

// ---- TTL: expiry decided by the leader's clock, carried in the log so every member agrees ----

/**
 * Nodes whose TTL computed property expired by `as_of_us`. Apply re-checks each against its anchor
 * as it is then (a write may have moved it) and removes what the TTL's scope names: the node and its
 * edges (NODE), the anchor property (FIELD) or the DOCUMENT property (SUBTREE).
 */
export interface TtlExpired {
  readonly kind: 'ttl_expired';
  /** The proposer's clock, epoch microseconds; nothing expiring after it is removed. */
  readonly as_of_us: number;
  readonly expired: readonly { readonly node_id: number; readonly label: string; readonly property: string }[];
}

// ---- bulk import: many nodes and edges in few entries (docs/import.md) ----

/**
 * One part of a bulk import (`weft import`). The parts of one import are consecutive entries with
 * the same `load` and `part` counting from 0; nothing of them applies until the part with `last`
 * arrives, and then all apply at once. Any other entry between them abandons the import (its writer
 * died), so the import is one atomic unit in the log. The writer checked every row against the state
 * it holds exclusively (the data directory's lock), so apply does not repeat the schema checks.
 */
export interface BulkLoad {
  readonly kind: 'bulk_load';
  /** 16 random bytes naming the import. */
  readonly load: Uint8Array;
  /** Invariant: 0 for the first part, previous part + 1 after. */
  readonly part: number;
  readonly last: boolean;
  readonly nodes: BulkNodes;
  readonly edges: BulkEdges;
}

/** Nodes with consecutive ids, in columns. */
export interface BulkNodes {
  /** The nodes take ids first_id .. first_id + count - 1. */
  readonly first_id: number;
  readonly count: number;
  /** The distinct label lists of this part. */
  readonly label_sets: readonly (readonly string[])[];
  /** Per node, a little-endian u32 index into label_sets. */
  readonly label_set_of: Uint8Array;
  readonly columns: readonly BulkColumn[];
}

/** Edges with consecutive ids, in columns. */
export interface BulkEdges {
  readonly first_id: number;
  readonly count: number;
  readonly types: readonly string[];
  /** Per edge, a little-endian u32 index into types. */
  readonly type_of: Uint8Array;
  /** Per edge, the source and target node ids as little-endian f64 (node ids are below 2^53). */
  readonly sources: Uint8Array;
  readonly targets: Uint8Array;
  readonly columns: readonly BulkColumn[];
}

/** One property key over a part's rows: `values[i]` belongs to row i; null where the row has none. */
export interface BulkColumn {
  readonly key: string;
  readonly values: readonly (PropertyValue | null)[];
}

// ---- a large graph write in parts: encoded, appended and applied a part at a time ----

/**
 * One part of a graph write too large for one entry (docs/query-engine.md, Time slices). Parts are
 * held by every member without touching the graph; the part with `end: 'commit'` checks and applies
 * the ops of every part as one write at its own index, so a reader sees none or all of it. Other
 * entries may come between parts (they are ordered before the write). A part with `end: 'abandon'`
 * drops the write; a new term's first entry drops every write still open (its proposer lost its lead).
 */
export interface GraphWritePart {
  readonly kind: 'graph_write_part';
  /** The log index of the write's first part; 0 in the first part itself. */
  readonly first: number;
  /** Invariant: 0 for the first part, previous part + 1 after. */
  readonly part: number;
  readonly ops: readonly GraphOp[];
  /** Absent while parts follow. */
  readonly end?: 'commit' | 'abandon';
  /** With `end: 'commit'` only: as GraphWrite's. */
  readonly read_check?: ReadCheck;
}
