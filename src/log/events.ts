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
  | GraphWrite;

/** The first entry of a new deployment: its identity, chosen once. */
export interface DeploymentFormed {
  readonly kind: 'deployment_formed';
  /** 16 random bytes, shown as 32 hex digits. */
  readonly deployment: Uint8Array;
  readonly engine_format: number;
}

/** A new leader's first entry of its term; it accepts writes only after applying it (DESIGN 3.3). */
export interface LeaderNoop {
  readonly kind: 'leader_noop';
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
