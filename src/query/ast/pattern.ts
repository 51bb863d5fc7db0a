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
  /**
   * Set when this element is a quantified path pattern `((x)-[r]->(y) WHERE ...){m,n}` standing
   * between nodes[i] and nodes[i + 1]; `range` then holds its quantifier, `types` is empty and
   * `direction` means nothing.
   */
  readonly quantified?: QuantifiedPath;
  readonly span: Span;
}

/**
 * A quantified path pattern: its inner path repeated `range` times, the last node of one iteration
 * being the first of the next. Variables named inside are singletons inside (in `where` and the inner
 * property maps) and lists (group variables) after the pattern.
 */
export interface QuantifiedPath {
  /** Invariant: at least one relationship, none of them variable-length or quantified (no nesting). */
  readonly path: PatternPath;
  /** The inner nodes' label expressions and WHEREs, and the pattern's own WHERE, together. */
  readonly where?: Expression;
  readonly range: HopRange;
  readonly span: Span;
}

/** The largest k a path selector may name: far beyond any need, and exact as a JS number. */
export const selector_count_max = 2 ** 31 - 1;

/**
 * A selective path selector in front of a path pattern. Matches are partitioned by their first and
 * last node; per partition, 'any' keeps `count` of them, 'shortest' the `count` shortest (SHORTEST k,
 * ANY SHORTEST), 'shortest_groups' every path of the `count` smallest lengths (SHORTEST k GROUPS,
 * ALL SHORTEST). `ALL` selects nothing away and is not recorded.
 */
export interface PathSelector {
  readonly kind: 'any' | 'shortest' | 'shortest_groups';
  /** Invariant: count >= 1. Read only when `count_parameter` is absent. */
  readonly count: number;
  /** `SHORTEST $k`: the count is the parameter's value, checked when the statement runs. */
  readonly count_parameter?: Expression;
  readonly span: Span;
}

/**
 * One comma-separated part of a pattern: a chain of nodes joined by relationships.
 * Invariant: nodes.length === relationships.length + 1; relationships[i] joins nodes[i] and nodes[i + 1].
 */
export interface PatternPath {
  readonly kind: 'path';
  /** The path variable of `p = (a)-->(b)`, or of `(p = (a)-->+(b))` (a subpath variable). */
  readonly variable?: string;
  /**
   * More names of the same path: `p = SHORTEST 1 (q = (a)-->+(b))` names it `p` and `q` (a parenthesized
   * path pattern is a whole path pattern, so its subpath variable names the whole path).
   */
  readonly also?: readonly string[];
  /**
   * `shortestPath(...)` ('one') or `allShortestPaths(...)` ('all'): the part matches only the
   * shortest paths between its two end nodes.
   */
  readonly shortest?: 'one' | 'all';
  readonly selector?: PathSelector;
  /**
   * With a selector: the path's own predicates (label expressions and WHEREs of its nodes), which
   * filter the matches before the selection; the MATCH's WHERE filters after it.
   */
  readonly where?: Expression;
  readonly nodes: readonly NodePattern[];
  readonly relationships: readonly RelationshipPattern[];
  readonly span: Span;
}

export type Pattern = readonly PatternPath[];
