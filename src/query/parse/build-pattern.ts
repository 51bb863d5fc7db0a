import type { Expression } from '../ast/expression.js';
import { generated_name_prefix, type Direction, type DynamicNames, type HopRange, type NodePattern, type Pattern, type PatternPath, type RelationshipPattern } from '../ast/pattern.js';
import {
  PatternPartContext,
  RangeBoundContext,
  type LabelDisjunctionContext,
  type ShortestPathPatternContext,
  type IntegerLiteralContext,
  type NodePatternContext,
  type PathQuantifierContext,
  type PatternElementChainContext,
  type QuantifiedPathContext,
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

  /**
   * Where the predicates of node patterns go while a MATCH pattern is built; undefined for every other
   * pattern, which refuses them.
   */
  private predicates: Expression[] | undefined;
  /** Names given to unnamed nodes that carry a predicate; generated names start with a space. */
  private generated = 0;

  pattern(ctx: PatternContext): Pattern {
    return ctx.patternPart().map((p) => this.path(p));
  }

  matchPattern(ctx: PatternContext): { pattern: Pattern; predicates: Expression[] } {
    const { value, predicates } = this.collectingPredicates(() => this.pattern(ctx));
    return { pattern: value, predicates };
  }

  /** A pattern comprehension's path, built as a MATCH path is: its node predicates come back apart. */
  matchPath(ctx: RelationshipsPatternContext): { path: PatternPath; predicates: Expression[] } {
    const { value, predicates } = this.collectingPredicates(() => this.path(ctx));
    return { path: value, predicates };
  }

  private collectingPredicates<T>(build: () => T): { value: T; predicates: Expression[] } {
    const outer = this.predicates;
    const predicates: Expression[] = [];
    this.predicates = predicates;
    try {
      return { value: build(), predicates };
    } finally {
      this.predicates = outer;
    }
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

  private chain(first: NodePatternContext, links: readonly PatternElementChainContext[], span: PatternPath['span']): PatternPath {
    const nodes: NodePattern[] = [this.node(first)];
    const relationships: RelationshipPattern[] = [];
    for (const link of links) {
      const rel = link.relationshipPattern();
      const quantifier = link.pathQuantifier();
      if (rel !== null) relationships.push(quantifier === null ? this.relationship(rel) : this.quantifiedRelationship(rel, quantifier));
      else relationships.push(this.quantifiedPath(link.quantifiedPath()!));
      nodes.push(this.node(link.nodePattern()));
    }
    return { kind: 'path', nodes, relationships, span };
  }

  /** `-[r:T]->{1,3}` (Neo4j 5): the variable-length relationship `-[r:T*1..3]->`; `r` is the list of its relationships. */
  private quantifiedRelationship(rel: RelationshipPatternContext, q: PathQuantifierContext): RelationshipPattern {
    const r = this.relationship(rel);
    if (r.range !== undefined) {
      throw this.b.source.error('InvalidRelationshipPattern', 'a quantified relationship cannot also have a variable length (*)', this.b.source.span(rel));
    }
    if (r.dynamic_type !== undefined) {
      throw this.b.source.error('UnexpectedSyntax', 'a quantified relationship cannot have a dynamic type', this.b.source.span(rel));
    }
    return { ...r, range: this.quantifier(q) };
  }

  /**
   * `((:A)-[r:T]->(:B {k: v}) WHERE r.w > 1){1,3}`: the variable-length relationship `-[r:T*1..3]->`,
   * with what the inner path asks of each hop (its nodes' labels and properties, its WHERE) as
   * `all(r IN r WHERE ...)` in the MATCH's WHERE. Named inner nodes (group variables of nodes), label
   * expressions, inner paths of more hops and undirected hops with decorated nodes need a search of
   * their own, which is not built: they are refused.
   */
  private quantifiedPath(ctx: QuantifiedPathContext): RelationshipPattern {
    const span = this.b.source.span(ctx);
    const refuse = (what: string): never => {
      throw this.b.source.error(
        'UnexpectedSyntax',
        `quantified path patterns are supported as one relationship between unnamed nodes (((:A)-[r:T]->(:B)){1,3}); ${what} is not supported yet`,
        span,
      );
    };
    const inner = ctx.nodePattern();
    for (const n of inner) {
      if (n.variable() !== null) refuse('a named inner node (a group variable)');
      if (n.labelExpression() !== null || n._nodeWhere !== undefined) refuse('a label expression or WHERE on an inner node');
      const labels = n.nodeLabels();
      if (labels !== null && labels.nodeLabel().some((l) => l.dynamicName() !== null)) refuse('a dynamic label on an inner node');
      if (n.properties()?.parameter() != null) refuse('a parameter as an inner node\'s properties');
    }
    const where = ctx.expression();
    const decorated = where !== null || inner.some((n) => n.nodeLabels() !== null || n.properties() !== null);
    let r = this.quantifiedRelationship(ctx.relationshipPattern(), ctx.pathQuantifier());
    if (!decorated) return r;
    const predicates = this.predicates;
    if (predicates === undefined) refuse('a decorated quantified path outside MATCH');
    if (r.direction === 'both') refuse('an undirected hop between decorated nodes');
    const rels = r.variable ?? `${generated_name_prefix}rel${this.generated++}`;
    r = { ...r, variable: rels };
    const [first, second] = r.direction === 'out' ? (['startNode', 'endNode'] as const) : (['endNode', 'startNode'] as const);
    const ends = inner.map((n, i) => {
      const labels = n.nodeLabels();
      const properties = this.outsideMatch(() => this.properties(n.properties()));
      return { end: i === 0 ? first : second, labels: labels !== null ? labelNames(labels) : [], ...(properties && { properties }) };
    });
    const condition = this.outsideMatch(() => (where !== null ? this.b.expression(where) : undefined));
    predicates!.push(this.expressions.everyHop(rels, rels, ends, condition, span));
    return r;
  }

  /** `{n}`, `{n,m}`, `{n,}`, `{,m}`, `+`, `*` as a hop range. */
  private quantifier(ctx: PathQuantifierContext): HopRange {
    if (ctx.PLUS() !== null) return { min: 1 };
    if (ctx.STAR() !== null) return { min: 0 };
    const span = this.b.source.span(ctx);
    const value = (i: IntegerLiteralContext | undefined): number | undefined => {
      if (i === undefined) return undefined;
      const v = integerMagnitude(i.getText(), span, this.b.source.error.bind(this.b.source));
      if (v > BigInt(hop_bound_max)) throw this.b.source.error('InvalidRelationshipPattern', `quantifier bound ${v} exceeds ${hop_bound_max}`, span);
      return Number(v);
    };
    const lo = value(ctx._lo);
    const hi = value(ctx._hi);
    const comma = ctx.COMMA() !== null;
    if (!comma && lo === undefined) throw this.b.source.error('InvalidRelationshipPattern', 'a quantifier needs a bound: {n}, {n,m}, {n,} or {,m}', span);
    if (!comma) return { min: lo as number, max: lo as number };
    if (lo !== undefined && hi !== undefined && hi < lo) {
      throw this.b.source.error('InvalidRelationshipPattern', `quantifier {${lo},${hi}}: the upper bound is below the lower`, span);
    }
    return { min: lo ?? 0, ...(hi !== undefined && { max: hi }) };
  }

  private outsideMatch<T>(build: () => T): T {
    const outer = this.predicates;
    this.predicates = undefined;
    try {
      return build();
    } finally {
      this.predicates = outer;
    }
  }

  private node(ctx: NodePatternContext): NodePattern {
    const v = ctx.variable();
    const labels = ctx.nodeLabels();
    const properties = this.outsideMatch(() => this.properties(ctx.properties()));
    const span = this.b.source.span(ctx);
    let variable = v !== null ? symbolicName(v.symbolicName()) : undefined;
    const dynamic = labels !== null ? this.outsideMatch(() => this.expressions.dynamicNames(labels)) : [];
    if (dynamic.length > 0 && this.predicates !== undefined) {
      // In MATCH, `(n:$(x))` is `(n) WHERE n has the labels x names`.
      variable ??= `${generated_name_prefix}node${this.generated++}`;
      const subject: Expression = { kind: 'variable', name: variable, span };
      for (const d of dynamic) this.predicates.push(this.expressions.hasDynamicLabels(subject, d));
    }
    const labelExpression = ctx.labelExpression();
    // Outside MATCH, `:A&B` is another spelling of `:A:B` (Neo4j 5.18); any other label expression is refused below.
    const conjoined = labelExpression !== null && this.predicates === undefined ? plainConjunction(labelExpression.labelDisjunction()) : undefined;
    if ((labelExpression !== null && conjoined === undefined) || ctx._nodeWhere !== undefined) {
      const predicates = this.predicates;
      if (predicates === undefined) {
        throw this.b.source.error('UnexpectedSyntax', 'a label expression or a WHERE inside a node pattern is only allowed in MATCH', span);
      }
      // The expression builder reads the WHERE before this scope of names exists, so an unnamed node
      // gets a generated name that no query can write unquoted.
      variable ??= `${generated_name_prefix}node${this.generated++}`;
      const subject: Expression = { kind: 'variable', name: variable, span };
      if (labelExpression !== null) predicates.push(this.expressions.labelPredicate(subject, labelExpression.labelDisjunction(), span));
      const where = ctx._nodeWhere;
      // Patterns nested in the WHERE (a pattern comprehension, EXISTS { }) are not part of this MATCH.
      if (where !== undefined) predicates.push(this.outsideMatch(() => this.b.expression(where)));
    }
    return {
      kind: 'node',
      ...(variable !== undefined && { variable }),
      labels: conjoined ?? (labels !== null ? labelNames(labels) : []),
      ...(dynamic.length > 0 && this.predicates === undefined && { dynamic_labels: dynamic }),
      ...(properties && { properties }),
      span,
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
    const properties = this.outsideMatch(() => this.properties(detail.properties()));
    let variable = v !== null ? symbolicName(v.symbolicName()) : undefined;
    const dynamicCtx = detail.relationshipTypes()?.dynamicName() ?? null;
    let dynamic_type: DynamicNames | undefined;
    if (dynamicCtx !== null) {
      const d = this.outsideMatch(() => this.expressions.dynamicName(dynamicCtx));
      if (range !== undefined) throw this.b.source.error('UnexpectedSyntax', 'a dynamic relationship type cannot have a variable length', span);
      if (this.predicates !== undefined) {
        // In MATCH, `[r:$(x)]` is `[r] WHERE type(r) is among the types x names`.
        variable ??= `${generated_name_prefix}rel${this.generated++}`;
        this.predicates.push(this.expressions.hasDynamicType({ kind: 'variable', name: variable, span }, d));
      } else dynamic_type = d;
    }
    const relWhere = detail._relWhere;
    if (relWhere !== undefined) {
      // `[r:T WHERE r.since < 2000]` (Neo4j 5): in MATCH, the WHERE joins the clause's; a variable-length
      // relationship has no one relationship for it to test.
      const predicates = this.predicates;
      if (predicates === undefined) {
        throw this.b.source.error('UnexpectedSyntax', 'a WHERE inside a relationship pattern is only allowed in MATCH', span);
      }
      if (range !== undefined) throw this.b.source.error('UnexpectedSyntax', 'a variable-length relationship cannot have a WHERE inside its pattern', span);
      variable ??= `${generated_name_prefix}rel${this.generated++}`;
      predicates.push(this.outsideMatch(() => this.b.expression(relWhere)));
    }
    const typeExpression = detail.labelExpression();
    if (typeExpression !== null) {
      // `[r:!A]`, `[r:A&B]`, `[:%]` (Neo4j 5): in MATCH, `[r] WHERE r:<expression>`, held by every hop of a
      // variable-length relationship. A relationship to create needs one plain type.
      const predicates = this.predicates;
      if (predicates === undefined) {
        throw this.b.source.error('UnexpectedSyntax', 'a relationship type expression other than A|B is only allowed in MATCH', span);
      }
      variable ??= `${generated_name_prefix}rel${this.generated++}`;
      const name = variable;
      const subject: Expression = { kind: 'variable', name, span };
      const test = this.outsideMatch(() => this.expressions.labelPredicate(subject, typeExpression.labelDisjunction(), span));
      predicates.push(range === undefined ? test : this.expressions.everyHop(name, name, [], test, span));
    }
    return {
      kind: 'relationship',
      ...(variable !== undefined && { variable }),
      types,
      ...(dynamic_type && { dynamic_type }),
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

/** The labels of `A&B&C` (plain names joined by `&` only); undefined for any other label expression. */
function plainConjunction(ctx: LabelDisjunctionContext): string[] | undefined {
  const [only, ...more] = ctx.labelConjunction();
  if (only === undefined || more.length > 0) return undefined;
  const names: string[] = [];
  for (const n of only.labelNegation()) {
    const name = n.labelAtom()?.labelName();
    if (name === null || name === undefined) return undefined;
    names.push(schemaName(name.schemaName()));
  }
  return names;
}
