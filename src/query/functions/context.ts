import type { NodeRef, RelationshipRef, Value } from '../../common/values/value.js';

/** An instant as seconds and nanoseconds since 1970-01-01T00:00Z (nanos in [0, 1e9)). */
export interface EpochInstant {
  readonly epochSecond: number;
  readonly nano: number;
}

/**
 * The clocks of the temporal functions. `statement` is fixed for one statement and `transaction` for
 * one transaction (the engine reads the wall clock once and keeps it); `realtime` reads it on each call.
 * `date()`, `datetime()` and friends without arguments use `statement`.
 */
export interface TemporalClock {
  statement(): EpochInstant;
  transaction(): EpochInstant;
  realtime(): EpochInstant;
}

/**
 * What functions may ask of the engine. Graph access goes through it, so the library stays independent
 * of how the graph is stored; the evaluator supplies one context per statement.
 */
export interface FunctionContext {
  labelsOf(node: NodeRef): readonly string[];
  typeOf(rel: RelationshipRef): string;
  /** Properties of a node or relationship, in a stable order. */
  propertiesOf(entity: NodeRef | RelationshipRef): ReadonlyMap<string, Value>;
  startNodeOf(rel: RelationshipRef): NodeRef;
  endNodeOf(rel: RelationshipRef): NodeRef;
  /** Canonical element id of a node or relationship (SPEC 2.2). */
  elementIdOf(entity: NodeRef | RelationshipRef): string;
  readonly clock: TemporalClock;
  /** The session's default time zone: an IANA name or an offset such as `+01:00`; `UTC` when unset. */
  readonly defaultTimeZone: string;
  /** Uniform in [0, 1); injected so that tests and simulations can replay. */
  random(): number;
  /** The record LOAD CSV read last in the statement, which its operator updates. */
  readonly loadCsv: LoadCsvPosition;
}

/** Where LOAD CSV is in its source: null for both before it has read a record. */
export interface LoadCsvPosition {
  line: bigint | null;
  file: string | null;
}
