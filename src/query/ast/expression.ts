import type { PatternPath, Pattern } from './pattern.js';
import type { Query } from './query.js';
import type { Span } from './span.js';

/**
 * A literal scalar in the form the value model takes: integers are `bigint` (64-bit signed range,
 * checked by the parser), floats are `number`.
 */
export type LiteralValue = null | boolean | bigint | number | string;

export type BinaryOperator =
  | 'or'
  | 'xor'
  | 'and'
  | 'eq'
  | 'neq'
  | 'lt'
  | 'gt'
  | 'lte'
  | 'gte'
  | 'regex'
  | 'starts_with'
  | 'ends_with'
  | 'contains'
  | 'in'
  | 'add'
  | 'sub'
  | 'mul'
  | 'div'
  | 'mod'
  | 'pow';

export type UnaryOperator = 'not' | 'neg' | 'pos';

export type QuantifierKind = 'all' | 'any' | 'none' | 'single';

export interface LiteralExpr {
  readonly kind: 'literal';
  readonly value: LiteralValue;
  readonly span: Span;
}

export interface ListExpr {
  readonly kind: 'list';
  readonly items: readonly Expression[];
  readonly span: Span;
}

export interface MapEntry {
  readonly key: string;
  readonly value: Expression;
}

export interface MapExpr {
  readonly kind: 'map';
  /** In source order; a repeated key keeps its last value (as a map literal evaluates). */
  readonly entries: readonly MapEntry[];
  readonly span: Span;
}

export interface ParameterExpr {
  readonly kind: 'parameter';
  /** `$name` gives `name`; `$0` gives `0`. */
  readonly name: string;
  readonly span: Span;
}

export interface VariableExpr {
  readonly kind: 'variable';
  readonly name: string;
  readonly span: Span;
}

export interface PropertyExpr {
  readonly kind: 'property';
  readonly object: Expression;
  readonly key: string;
  readonly span: Span;
}

export interface IndexExpr {
  readonly kind: 'index';
  readonly object: Expression;
  readonly index: Expression;
  readonly span: Span;
}

export interface SliceExpr {
  readonly kind: 'slice';
  readonly object: Expression;
  readonly from?: Expression;
  readonly to?: Expression;
  readonly span: Span;
}

/** `n:A:B` as a predicate: true when the node carries every label (or the relationship has the type). */
export interface HasLabelsExpr {
  readonly kind: 'has_labels';
  readonly subject: Expression;
  readonly labels: readonly string[];
  readonly span: Span;
}

export interface UnaryExpr {
  readonly kind: 'unary';
  readonly op: UnaryOperator;
  readonly operand: Expression;
  readonly span: Span;
}

export interface BinaryExpr {
  readonly kind: 'binary';
  readonly op: BinaryOperator;
  readonly left: Expression;
  readonly right: Expression;
  readonly span: Span;
}

export interface IsNullExpr {
  readonly kind: 'is_null';
  readonly operand: Expression;
  /** True for `IS NOT NULL`. */
  readonly negated: boolean;
  readonly span: Span;
}

export interface FunctionCallExpr {
  readonly kind: 'function';
  /** As written, namespaces joined by '.', e.g. `toLower`, `date.truncate`. Lookup is case-insensitive. */
  readonly name: string;
  readonly distinct: boolean;
  readonly args: readonly Expression[];
  readonly span: Span;
}

export interface CountStarExpr {
  readonly kind: 'count_star';
  readonly span: Span;
}

export interface CaseAlternative {
  readonly when: Expression;
  readonly then: Expression;
}

export interface CaseExpr {
  readonly kind: 'case';
  /** Present for the simple form `CASE x WHEN 1 THEN ...`; absent for the generic form. */
  readonly subject?: Expression;
  readonly alternatives: readonly CaseAlternative[];
  readonly otherwise?: Expression;
  readonly span: Span;
}

export interface ListComprehensionExpr {
  readonly kind: 'list_comprehension';
  readonly variable: string;
  readonly source: Expression;
  readonly where?: Expression;
  readonly projection?: Expression;
  readonly span: Span;
}

export interface PatternComprehensionExpr {
  readonly kind: 'pattern_comprehension';
  readonly path: PatternPath;
  readonly where?: Expression;
  readonly projection: Expression;
  readonly span: Span;
}

export interface QuantifierExpr {
  readonly kind: 'quantifier';
  readonly quantifier: QuantifierKind;
  readonly variable: string;
  readonly source: Expression;
  readonly where?: Expression;
  readonly span: Span;
}

export interface ReduceExpr {
  readonly kind: 'reduce';
  readonly accumulator: string;
  readonly initial: Expression;
  readonly variable: string;
  readonly source: Expression;
  readonly step: Expression;
  readonly span: Span;
}

/** A relationship pattern used as a predicate, e.g. `WHERE (a)-[:KNOWS]->(b)`. */
export interface PatternPredicateExpr {
  readonly kind: 'pattern_predicate';
  readonly path: PatternPath;
  readonly span: Span;
}

export type SubqueryMeasure = 'exists' | 'count' | 'collect';

export type ExistsBody =
  | { readonly kind: 'pattern'; readonly pattern: Pattern; readonly where?: Expression }
  | { readonly kind: 'query'; readonly query: Query };

/** `EXISTS { body }` (whether the body has a row), `COUNT { body }` (how many rows it has) or `COLLECT { query }` (its one column as a list). */
export interface ExistsSubqueryExpr {
  readonly kind: 'exists_subquery';
  readonly measure: SubqueryMeasure;
  readonly body: ExistsBody;
  readonly span: Span;
}

export type MapProjectionItem =
  | { readonly kind: 'entry'; readonly key: string; readonly value: Expression }
  | { readonly kind: 'property'; readonly key: string }
  | { readonly kind: 'all_properties' }
  | { readonly kind: 'variable'; readonly name: string; readonly span: Span };

export interface MapProjectionExpr {
  readonly kind: 'map_projection';
  readonly variable: string;
  readonly variable_span: Span;
  readonly items: readonly MapProjectionItem[];
  readonly span: Span;
}

export type Expression =
  | LiteralExpr
  | ListExpr
  | MapExpr
  | ParameterExpr
  | VariableExpr
  | PropertyExpr
  | IndexExpr
  | SliceExpr
  | HasLabelsExpr
  | UnaryExpr
  | BinaryExpr
  | IsNullExpr
  | FunctionCallExpr
  | CountStarExpr
  | CaseExpr
  | ListComprehensionExpr
  | PatternComprehensionExpr
  | QuantifierExpr
  | ReduceExpr
  | PatternPredicateExpr
  | ExistsSubqueryExpr
  | MapProjectionExpr;
