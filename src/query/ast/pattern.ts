import type { Expression } from './expression.js';
import type { Span } from './span.js';

/**
 * Names the parser gives to unnamed pattern elements it must refer to (a node with a label expression)
 * start with this; a query cannot write them unquoted, and `RETURN *` does not list them.
 */
export const generated_name_prefix = ' ';

export function isGeneratedName(name: string): boolean {
  return name.startsWith(generated_name_prefix);
}

/** `$(expr)` / `$all(expr)` / `$any(expr)`: names (labels or types) given by a STRING or LIST<STRING> value. */
export interface DynamicNames {
  readonly mode: 'all' | 'any';
  readonly expression: Expression;
  readonly span: Span;
}

export interface NodePattern {
  readonly kind: 'node';
  readonly variable?: string;
  readonly labels: readonly string[];
  /** Labels computed per row, in CREATE and MERGE (a MATCH turns them into WHERE predicates). */
  readonly dynamic_labels?: readonly DynamicNames[];
  /** A map literal or a parameter. */
  readonly properties?: Expression;
  readonly span: Span;
}

/** 'out' is `-->`, 'in' is `<--`, 'both' is `--` (and `<-->`). */
export type Direction = 'out' | 'in' | 'both';

/**
 * The hop range of a variable-length relationship. `*` gives neither bound, `*2` gives min = max = 2.
 * Invariant: bounds are non-negative (the parser refuses signs).
 */
export interface HopRange {
  readonly min?: number;
  readonly max?: number;
}

export interface RelationshipPattern {
  readonly kind: 'relationship';
  readonly variable?: string;
  /** Alternatives: `[:A|B]` matches either type; empty matches any type. */
  readonly types: readonly string[];
  /** A type computed per row, in CREATE and MERGE (a MATCH turns it into a WHERE predicate). */
  readonly dynamic_type?: DynamicNames;
  readonly direction: Direction;
  /** Present only for variable-length relationships. */
  readonly range?: HopRange;
  readonly properties?: Expression;
  readonly span: Span;
}

/**
 * One comma-separated part of a pattern: a chain of nodes joined by relationships.
 * Invariant: nodes.length === relationships.length + 1; relationships[i] joins nodes[i] and nodes[i + 1].
 */
export interface PatternPath {
  readonly kind: 'path';
  /** The path variable of `p = (a)-->(b)`. */
  readonly variable?: string;
  /**
   * `shortestPath(...)` ('one') or `allShortestPaths(...)` ('all'): the part matches only the
   * shortest paths between its two end nodes.
   */
  readonly shortest?: 'one' | 'all';
  readonly nodes: readonly NodePattern[];
  readonly relationships: readonly RelationshipPattern[];
  readonly span: Span;
}

export type Pattern = readonly PatternPath[];
