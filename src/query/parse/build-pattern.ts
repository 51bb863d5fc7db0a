import type { Expression } from '../ast/expression.js';
import type { Direction, HopRange, NodePattern, Pattern, PatternPath, RelationshipPattern } from '../ast/pattern.js';
import {
  PatternPartContext,
  RangeBoundContext,
  type ShortestPathPatternContext,
  type NodePatternContext,
  type PatternContext,
  type PatternElementContext,
  type PropertiesContext,
  type RangeLiteralContext,
  type RelationshipPatternContext,
  type RelationshipsPatternContext,
} from '../grammar/gen/CypherParser.js';
import { schemaName, symbolicName, type Builder } from './builder.js';
import type { ExpressionBuilder } from './build-expression.js';
import { labelNames } from './build-expression.js';
import { integerMagnitude } from './literals.js';

/** The largest hop bound written in a range; far beyond any graph, and exact as a JS number. */
export const hop_bound_max = 2 ** 31 - 1;

export class PatternBuilder {
  constructor(
    private readonly b: Builder,
    private readonly expressions: ExpressionBuilder,
  ) {}

  pattern(ctx: PatternContext): Pattern {
    return ctx.patternPart().map((p) => this.path(p));
  }

  path(ctx: PatternPartContext | RelationshipsPatternContext): PatternPath {
    const span = this.b.source.span(ctx);
    if (ctx instanceof PatternPartContext) {
      const shortestCtx = ctx.shortestPathPattern();
      let element: PatternElementContext = shortestCtx?.patternElement() ?? ctx.patternElement()!;
      while (element.patternElement() !== null) element = element.patternElement()!;
      const v = ctx.variable();
      let path = this.chain(element.nodePattern()!, element.patternElementChain(), span);
      if (shortestCtx !== null) path = { ...path, shortest: this.shortest(shortestCtx) };
      return v !== null ? { ...path, variable: symbolicName(v.symbolicName()) } : path;
    }
    return this.chain(ctx.nodePattern(), ctx.patternElementChain(), span);
  }

  private shortest(ctx: ShortestPathPatternContext): 'one' | 'all' {
    const name = symbolicName(ctx.symbolicName()).toLowerCase();
    if (name === 'shortestpath') return 'one';
    if (name === 'allshortestpaths') return 'all';
    throw this.b.source.error('InvalidPattern', `\`${symbolicName(ctx.symbolicName())}(...)\` is not a pattern; shortestPath and allShortestPaths are`, this.b.source.span(ctx));
  }

  private chain(
    first: NodePatternContext,
    links: readonly { relationshipPattern(): RelationshipPatternContext; nodePattern(): NodePatternContext }[],
    span: PatternPath['span'],
  ): PatternPath {
    const nodes: NodePattern[] = [this.node(first)];
    const relationships: RelationshipPattern[] = [];
    for (const link of links) {
      relationships.push(this.relationship(link.relationshipPattern()));
      nodes.push(this.node(link.nodePattern()));
    }
    return { kind: 'path', nodes, relationships, span };
  }

  private node(ctx: NodePatternContext): NodePattern {
    const v = ctx.variable();
    const labels = ctx.nodeLabels();
    const properties = this.properties(ctx.properties());
    return {
      kind: 'node',
      ...(v !== null && { variable: symbolicName(v.symbolicName()) }),
      labels: labels !== null ? labelNames(labels) : [],
      ...(properties && { properties }),
      span: this.b.source.span(ctx),
    };
  }

  private properties(ctx: PropertiesContext | null): Expression | undefined {
    if (ctx === null) return undefined;
    const map = ctx.mapLiteral();
    if (map !== null) return this.expressions.map(map);
    return this.expressions.parameter(ctx.parameter()!);
  }

  private relationship(ctx: RelationshipPatternContext): RelationshipPattern {
    const left = ctx.LT() !== null;
    const right = ctx.GT() !== null;
    const direction: Direction = left && !right ? 'in' : right && !left ? 'out' : 'both';
    const span = this.b.source.span(ctx);
    const detail = ctx.relationshipDetail();
    if (detail === null) return { kind: 'relationship', types: [], direction, span };
    const v = detail.variable();
    const types = detail.relationshipTypes()?.relTypeName().map((t) => schemaName(t.schemaName())) ?? [];
    const rangeCtx = detail.rangeLiteral();
    const range = rangeCtx !== null ? this.range(rangeCtx) : undefined;
    const properties = this.properties(detail.properties());
    return {
      kind: 'relationship',
      ...(v !== null && { variable: symbolicName(v.symbolicName()) }),
      types,
      direction,
      ...(range && { range }),
      ...(properties && { properties }),
      span,
    };
  }

  private range(ctx: RangeLiteralContext): HopRange {
    const span = this.b.source.span(ctx);
    if (ctx.STAR() === null) {
      throw this.b.source.error('InvalidRelationshipPattern', `a variable-length relationship needs '*' before its range`, span);
    }
    let min: number | undefined;
    let max: number | undefined;
    let seen_dots = false;
    for (const child of ctx.children) {
      if (child instanceof RangeBoundContext) {
        const value = this.bound(child);
        if (seen_dots) max = value;
        else min = value;
      } else if (child.getText() === '..') {
        seen_dots = true;
      }
    }
    if (!seen_dots && min !== undefined) max = min;
    return { ...(min !== undefined && { min }), ...(max !== undefined && { max }) };
  }

  private bound(ctx: RangeBoundContext): number {
    const span = this.b.source.span(ctx);
    if (ctx.MINUS() !== null) {
      throw this.b.source.error('InvalidRelationshipPattern', `a hop bound cannot be negative`, span);
    }
    const fail = this.b.source.error.bind(this.b.source);
    const value = integerMagnitude(ctx.integerLiteral().getText(), span, fail);
    if (value > BigInt(hop_bound_max)) {
      throw this.b.source.error('InvalidRelationshipPattern', `hop bound ${value} exceeds ${hop_bound_max}`, span);
    }
    return Number(value);
  }
}
