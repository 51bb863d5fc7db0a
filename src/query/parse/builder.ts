import type { Expression } from '../ast/expression.js';
import type { Pattern, PatternPath } from '../ast/pattern.js';
import type { Query } from '../ast/query.js';
import type { Hint } from '../ast/statement.js';
import type {
  ExpressionContext,
  PatternContext,
  PatternPartContext,
  QueryContext,
  RelationshipsPatternContext,
  SchemaNameContext,
  SymbolicNameContext,
  VariableContext,
} from '../grammar/gen/CypherParser.js';
import { escapedName } from './literals.js';
import type { SourceText } from './source-text.js';

/**
 * How deep an expression tree may grow. The parse tree is bounded by the nesting guard before
 * parsing, but a long operator chain (`1+1+...`) builds a deep left-leaning tree; every later
 * stage recurses over it, so the builder refuses it here.
 */
export const expression_depth_max = 400;

/** Query-level options found while building, wherever they were written. */
export interface StatementOptions {
  as_of: Expression | undefined;
  readonly hints: Hint[];
}

/**
 * The builder's shared state and its mutually recursive entry points. The build-* modules each
 * take a Builder, and parse.ts wires them together, so the modules do not import each other.
 */
export interface Builder {
  readonly source: SourceText;
  /** Undefined inside an EXISTS subquery, where statement options are refused. */
  readonly options: StatementOptions | undefined;
  expression(ctx: ExpressionContext): Expression;
  pattern(ctx: PatternContext): Pattern;
  /**
   * A MATCH pattern, with the predicates its node patterns carry (label expressions, a WHERE inside a
   * node) as expressions for the MATCH's WHERE; other patterns refuse such nodes.
   */
  matchPattern(ctx: PatternContext): { pattern: Pattern; predicates: Expression[] };
  path(ctx: PatternPartContext | RelationshipsPatternContext): PatternPath;
  /** A pattern comprehension's path with its node predicates apart, as `matchPattern` gives them. */
  matchPath(ctx: RelationshipsPatternContext): { path: PatternPath; predicates: Expression[] };
  /** A query nested in an expression (EXISTS { ... }). */
  nestedQuery(ctx: QueryContext): Query;
  /** The body of a CALL subquery: composed like a whole query, without statement options. */
  callQuery(ctx: QueryContext): Query;
}

export function symbolicName(ctx: SymbolicNameContext): string {
  const escaped = ctx.EscapedSymbolicName();
  if (escaped !== null) return escapedName(escaped.getText());
  return ctx.getText();
}

/** A variable's name: a symbolic name, or a keyword written as one (`end`, `asc`), as written. */
export function variableName(ctx: VariableContext): string {
  const symbolic = ctx.symbolicName();
  return symbolic !== null ? symbolicName(symbolic) : ctx.getText();
}

export function schemaName(ctx: SchemaNameContext): string {
  const symbolic = ctx.symbolicName();
  return symbolic !== null ? symbolicName(symbolic) : ctx.getText();
}

/** Depth of an expression node given its children's depths; used to enforce expression_depth_max. */
export function depthOf(children: readonly number[]): number {
  let max = 0;
  for (const d of children) if (d > max) max = d;
  return max + 1;
}
