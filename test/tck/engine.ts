import type { Value } from '../../src/common/values/value.js';

/**
 * What the TCK runner needs of an engine. The runner is engine-agnostic: an adapter over Weft's
 * embedded API (`open()` then `db.query(text, params)`) implements this once that API exists, and the
 * harness's own tests drive a small fake.
 *
 * Values crossing this interface use the shared value model (src/common/values): INTEGER as bigint,
 * FLOAT as number, maps as `Map`, temporal values as their classes, nodes and relationships as
 * references by id, paths as id lists.
 */
export interface TckEngine {
  /** Start from an empty graph: no nodes, relationships, labels, properties or procedures. */
  reset(): Promise<void>;
  /**
   * Run one statement. Throws a `CypherError` (src/query/errors.ts) for a failure the query language
   * defines; anything else thrown counts as an engine crash.
   */
  execute(query: string, params: ReadonlyMap<string, Value>): Promise<TckResult>;
  /**
   * The state of the graph now, for side-effect counting. Called just before the query under test and
   * after it.
   */
  graphState(): Promise<TckGraphState>;
  /**
   * Labels and properties of a node, and type, properties and endpoints of a relationship, as the last
   * executed statement left them. The runner calls these right after `execute`, before any other call,
   * to render the returned rows; an adapter keeps what it needs to describe entities that the
   * statement itself deleted.
   */
  describeNode(id: number): Promise<TckNodeDescription>;
  describeRelationship(id: number): Promise<TckRelationshipDescription>;
  /** Make a fake procedure callable with `CALL name(...)` until the next `reset`. */
  registerProcedure(procedure: TckProcedure): Promise<void>;
  /** Release resources at the end of a run. */
  close?(): Promise<void>;
}

export interface TckResult {
  readonly columns: readonly string[];
  readonly rows: readonly (readonly Value[])[];
}

export interface TckNodeDescription {
  readonly labels: readonly string[];
  readonly properties: ReadonlyMap<string, Value>;
}

export interface TckRelationshipDescription {
  readonly type: string;
  readonly properties: ReadonlyMap<string, Value>;
  readonly start: number;
  readonly end: number;
}

export interface TckGraphState {
  readonly nodes: ReadonlyMap<number, TckNodeDescription>;
  readonly relationships: ReadonlyMap<number, Omit<TckRelationshipDescription, 'start' | 'end'>>;
}

export interface TckProcedureParameter {
  readonly name: string;
  /** As written in the signature: `INTEGER?`, `FLOAT?`, `NUMBER?`, `STRING?`... */
  readonly type: string;
}

/**
 * A fake procedure: called with argument values equal to a row's inputs, it yields that row's outputs,
 * rows in table order. A procedure without inputs yields every row.
 */
export interface TckProcedure {
  readonly name: string;
  readonly inputs: readonly TckProcedureParameter[];
  readonly outputs: readonly TckProcedureParameter[];
  /** Each row: input values (in `inputs` order) followed by output values. */
  readonly rows: readonly (readonly Value[])[];
}
