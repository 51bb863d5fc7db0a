import type { Expression } from '../ast/expression.js';
import { generated_name_prefix, type Direction, type DynamicNames, type HopRange, type NodePattern, type Pattern, type PatternPath, type RelationshipPattern } from '../ast/pattern.js';
import { ParserRuleContext, type ParseTree } from 'antlr4ng';
import {
  ExpressionContext,
  PathQuantifierContext,
  PatternPartContext,
  PropertiesContext,
  RangeBoundContext,
  RangeLiteralContext,
  type LabelDisjunctionContext,
  type ShortestPathPatternContext,
  type IntegerLiteralContext,
  type NodePatternContext,
  type PatternElementChainContext,
  type QuantifiedPathContext,
  type PatternContext,
  type PatternElementContext,
  type VariableContext,
  type RelationshipPatternContext,
  type RelationshipsPatternContext,
} from '../grammar/gen/CypherParser.js';
import { schemaName, symbolicName, variableName, type Builder } from './builder.js';
import type { ExpressionBuilder } from './build-expression.js';
import { labelNames } from './build-expression.js';
import { integerMagnitude } from './literals.js';
import { pathSelector } from './path-selector.js';

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
    this.refuseMixedQuantifiers(ctx);
    return ctx.patternPart().map((p) => this.path(p));
  }

  /**
   * Neo4j 5 refuses a pattern that has both a variable-length relationship (`-[*]-`) and a quantified
   * relationship or quantified path pattern. The patterns inside its expressions are patterns of their own.
   */
  private refuseMixedQuantifiers(ctx: ParserRuleContext): void {
    const { varLength, quantified } = quantifierForms(ctx);
    if (varLength !== undefined && quantified !== undefined) {
      throw this.b.source.error(
        'InvalidQuantifiedPath',
        "mixing variable-length relationships ('-[*]-') with quantified relationships ('()-->*()') or quantified path patterns ('(()-->())*') is not allowed",
        this.b.source.span(varLength),
      );
    }
  }

  matchPattern(ctx: PatternContext): { pattern: Pattern; predicates: Expression[] } {
    const { value, predicates } = this.collectingPredicates(() => this.pattern(ctx));
    return { pattern: value, predicates };
  }

  /** A pattern comprehension's path, built as a MATCH path is: its node predicates come back apart. */
  matchPath(ctx: RelationshipsPatternContext): { path: PatternPath; predicates: Expression[] } {
    this.refuseMixedQuantifiers(ctx);
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
      const quantifiedInShortest = shortestCtx !== null ? quantifierForms(shortestCtx).quantified : undefined;
      if (quantifiedInShortest !== undefined) {
        throw this.b.source.error(
          'InvalidShortestPath',
          `${symbolicName(shortestCtx!.symbolicName())}(...) takes a variable-length relationship (-[*]-), not a quantified relationship or quantified path pattern`,
          this.b.source.span(quantifiedInShortest),
        );
      }
      let element: PatternElementContext = shortestCtx?.patternElement() ?? ctx.patternElement()!;
      // `(p = (a)-->+(b) WHERE length(p) > 2)`: a parenthesized path pattern, with a subpath variable
      // and a WHERE of its own at any depth of parentheses.
      const subpaths: VariableContext[] = [];
      const wheres: ExpressionContext[] = [];
      while (element.patternElement() !== null) {
        if (element._subpath !== undefined) subpaths.push(element._subpath);
        const w = element.expression();
        if (w !== null) wheres.push(w);
        element = element.patternElement()!;
      }
      const selectorCtx = ctx.pathSelector();
      const selector = selectorCtx !== null ? pathSelector(selectorCtx, this.b, (p) => this.expressions.parameter(p)) : undefined;
      const [v, ...also] = this.pathVariables(ctx.variable(), subpaths, selector !== undefined);
      if (wheres.length > 0 && this.predicates === undefined) {
        throw this.b.source.error('UnexpectedSyntax', 'a WHERE inside a parenthesized path pattern is only allowed in MATCH', span);
      }
      const lead = element.quantifiedPath();
      const build = (): PatternPath => {
        const built =
          lead === null
            ? this.chain(element.nodePattern(), null, null, element.patternElementChain(), span)
            : this.chain(null, lead, element.nodePattern(), element.patternElementChain(), span);
        for (const w of wheres) this.predicates!.push(this.outsideMatch(() => this.b.expression(w)));
        return built;
      };
      let path: PatternPath;
      if (selector !== undefined && this.predicates !== undefined) {
        // A selected path's own predicates (its nodes' WHEREs and label expressions, its quantified
        // relationships' hop conditions) filter before the selection, so they stay with the path.
        const { value, predicates } = this.collectingPredicates(build);
        const where = this.expressions.allOf(predicates);
        path = { ...value, selector, ...(where && { where }) };
      } else path = selector !== undefined ? { ...build(), selector } : build();
      if (shortestCtx !== null) path = { ...path, shortest: this.shortest(shortestCtx) };
      return v !== undefined ? { ...path, variable: v, ...(also.length > 0 && { also }) } : path;
    }
    return this.chain(ctx.nodePattern(), null, null, ctx.patternElementChain(), span);
  }

  /**
   * The names of a path: `p = ...` and the subpath variables of its parentheses (`(q = ...)`), which the
   * manual allows only under a selective path selector. A parenthesized path pattern is a whole path
   * pattern, so each of them names the same path.
   */
  private pathVariables(outer: VariableContext | null, subpaths: readonly VariableContext[], selective: boolean): string[] {
    const first = subpaths[0];
    if (first !== undefined && !selective) {
      throw this.b.source.error('InvalidPathSelector', 'a subpath variable can only be declared under a selective path selector (SHORTEST, ANY)', this.b.source.span(first));
    }
    return [...(outer !== null ? [outer] : []), ...subpaths].map((v) => variableName(v));
  }

  private shortest(ctx: ShortestPathPatternContext): 'one' | 'all' {
    const name = symbolicName(ctx.symbolicName()).toLowerCase();
    if (name === 'shortestpath') return 'one';
    if (name === 'allshortestpaths') return 'all';
    throw this.b.source.error('InvalidPattern', `\`${symbolicName(ctx.symbolicName())}(...)\` is not a pattern; shortestPath and allShortestPaths are`, this.b.source.span(ctx));
  }

  /**
   * The nodes and relationships of a path. A quantified path pattern with no node pattern written
   * next to it (at either end of the path, or between two of them) gets an unnamed node there: the
   * node its first or last iteration shares with the rest of the path.
   */
  private chain(
    first: NodePatternContext | null,
    lead: QuantifiedPathContext | null,
    leadNode: NodePatternContext | null,
    links: readonly PatternElementChainContext[],
    span: PatternPath['span'],
  ): PatternPath {
    const nodes: NodePattern[] = [];
    const relationships: RelationshipPattern[] = [];
    /** A quantified path pattern was added and waits for the node on its right. */
    let open = false;
    const gap = (at: ParserRuleContext): NodePattern => ({ kind: 'node', labels: [], span: this.b.source.span(at) });
    if (first !== null) nodes.push(this.node(first));
    else {
      nodes.push(gap(lead!));
      relationships.push(this.quantifiedPath(lead!));
      open = leadNode === null;
      if (leadNode !== null) nodes.push(this.node(leadNode));
    }
    for (const link of links) {
      const rel = link.relationshipPattern();
      const quantifier = link.pathQuantifier();
      const node = link.nodePattern();
      if (rel !== null) {
        if (open) throw this.b.source.error('UnexpectedSyntax', 'a relationship pattern must follow a node pattern', this.b.source.span(rel));
        relationships.push(quantifier === null ? this.relationship(rel) : this.quantifiedRelationship(rel, quantifier));
      } else {
        const qpp = link.quantifiedPath()!;
        if (open) nodes.push(gap(qpp));
        relationships.push(this.quantifiedPath(qpp));
      }
      open = node === null;
      if (node !== null) nodes.push(this.node(node));
    }
    if (open) nodes.push(gap(lead ?? links[links.length - 1]!));
    if (first === null && leadNode === null && links.every((l) => l.nodePattern() === null) && relationships.every((r) => (r.range?.min ?? 1) === 0)) {
      throw this.b.source.error('InvalidQuantifiedPath', 'a path pattern of quantified path patterns only needs one whose lower bound is above zero', span);
    }
    return { kind: 'path', nodes, relationships, span };
  }

  /** `-[r:T]->{1,3}` (Neo4j 5): the variable-length relationship `-[r:T*1..3]->`; `r` is the list of its relationships. */
  private quantifiedRelationship(rel: RelationshipPatternContext, q: PathQuantifierContext): RelationshipPattern {
    const r = this.relationship(rel, true);
    if (r.range !== undefined) {
      throw this.b.source.error('InvalidRelationshipPattern', 'a quantified relationship cannot also have a variable length (*)', this.b.source.span(rel));
    }
    if (r.dynamic_type !== undefined) {
      throw this.b.source.error('UnexpectedSyntax', 'a quantified relationship cannot have a dynamic type', this.b.source.span(rel));
    }
    const whereCtx = rel.relationshipDetail()?._relWhere;
    if (whereCtx === undefined) return { ...r, range: this.quantifier(q) };
    // `-[r:T WHERE r.w > 1]->+`: the WHERE reads one relationship, so it holds for every hop.
    const predicates = this.predicates;
    if (predicates === undefined) {
      throw this.b.source.error('UnexpectedSyntax', 'a WHERE inside a relationship pattern is only allowed in MATCH', this.b.source.span(rel));
    }
    const rels = r.variable ?? `${generated_name_prefix}rel${this.generated++}`;
    const condition = this.outsideMatch(() => this.b.expression(whereCtx));
    predicates.push(this.expressions.everyHop(rels, rels, [], condition, this.b.source.span(rel)));
    return { ...r, variable: rels, range: this.quantifier(q) };
  }

  /**
   * A quantified path pattern. The form of one relationship between unnamed nodes decorated only by
   * plain labels and properties is the variable-length relationship `-[r:T*1..3]->` with what the
   * inner path asks of each hop (its nodes' labels and properties, its WHERE) as
   * `all(r IN r WHERE ...)` in the MATCH's WHERE, which the planner searches fastest. Every other form
   * (named inner nodes, label expressions, inner paths of more hops) is a quantified path of its own,
   * repeated by the planner's repeat operator.
   */
  private quantifiedPath(ctx: QuantifiedPathContext): RelationshipPattern {
    if (ctx.relationshipPattern() === null && ctx.patternElementChain().length === 0) {
      throw this.b.source.error('InvalidQuantifiedPath', 'a quantified path pattern needs at least one relationship; a single node cannot be quantified', this.b.source.span(ctx));
    }
    return this.asVariableLength(ctx) ?? this.repeatedPath(ctx);
  }

  /** The variable-length form of a one-relationship quantified path, when it has one. */
  private asVariableLength(ctx: QuantifiedPathContext): RelationshipPattern | undefined {
    if (ctx.patternElementChain().length > 0) return undefined;
    const inner = ctx.nodePattern();
    for (const n of inner) {
      if (n.variable() !== null || n.labelExpression() !== null || n.isLabelExpression() !== null || n._nodeWhere !== undefined) return undefined;
      const labels = n.nodeLabels();
      if (labels !== null && labels.nodeLabel().some((l) => l.dynamicName() !== null)) return undefined;
      if (n.properties()?.parameter() != null) return undefined;
    }
    const relCtx = ctx.relationshipPattern()!;
    const detail = relCtx.relationshipDetail();
    if (detail?.rangeLiteral() != null || detail?.relationshipTypes()?.dynamicName() != null) return undefined;
    const where = ctx.expression();
    const decorated = where !== null || inner.some((n) => n.nodeLabels() !== null || n.properties() !== null);
    let r = this.quantifiedRelationship(relCtx, ctx.pathQuantifier());
    if (!decorated) return r;
    const predicates = this.predicates;
    if (predicates === undefined || r.direction === 'both') return undefined;
    const rels = r.variable ?? `${generated_name_prefix}rel${this.generated++}`;
    r = { ...r, variable: rels };
    const [first, second] = r.direction === 'out' ? (['startNode', 'endNode'] as const) : (['endNode', 'startNode'] as const);
    const ends = inner.map((n, i) => {
      const labels = n.nodeLabels();
      const properties = this.outsideMatch(() => this.properties(n.properties()));
      return { end: i === 0 ? first : second, labels: labels !== null ? labelNames(labels) : [], ...(properties && { properties }) };
    });
    const condition = this.outsideMatch(() => (where !== null ? this.b.expression(where) : undefined));
    predicates.push(this.expressions.everyHop(rels, rels, ends, condition, this.b.source.span(ctx)));
    return r;
  }

  /**
   * `((x)-[r:T]->(y:L WHERE y.k > 1)-[s]->(z) WHERE x.k < z.k){1,3}`: the inner path with its nodes'
   * predicates and the WHERE gathered into the quantified path's own condition (they read the inner
   * variables as singletons, so they cannot join the MATCH's WHERE). MATCH only.
   */
  private repeatedPath(ctx: QuantifiedPathContext): RelationshipPattern {
    const span = this.b.source.span(ctx);
    if (this.predicates === undefined) {
      throw this.b.source.error('InvalidQuantifiedPath', 'a quantified path pattern is only allowed in MATCH, OPTIONAL MATCH and pattern comprehensions', span);
    }
    const nested = (at: ParserRuleContext): never => {
      throw this.b.source.error('InvalidQuantifiedPath', 'quantified path patterns cannot be nested: no quantified or variable-length relationship inside one', this.b.source.span(at));
    };
    const { value: path, predicates } = this.collectingPredicates((): PatternPath => {
      const [head, tail] = ctx.nodePattern();
      const nodes: NodePattern[] = [this.node(head!)];
      const relationships: RelationshipPattern[] = [];
      const single = ctx.relationshipPattern();
      const steps: { rel: RelationshipPatternContext; node: NodePatternContext }[] =
        single !== null ? [{ rel: single, node: tail! }] : ctx.patternElementChain().map((l) => {
          if (l.relationshipPattern() === null || l.pathQuantifier() !== null || l.nodePattern() === null) nested(l);
          return { rel: l.relationshipPattern()!, node: l.nodePattern()! };
        });
      for (const step of steps) {
        const r = this.relationship(step.rel);
        if (r.range !== undefined) nested(step.rel);
        relationships.push(r);
        nodes.push(this.node(step.node));
      }
      return { kind: 'path', nodes, relationships, span };
    });
    const whereCtx = ctx.expression();
    const written = whereCtx !== null ? this.outsideMatch(() => this.b.expression(whereCtx)) : undefined;
    const where = this.expressions.allOf(written !== undefined ? [...predicates, written] : predicates);
    const range = this.quantifier(ctx.pathQuantifier());
    return {
      kind: 'relationship',
      types: [],
      direction: 'out',
      range,
      quantified: { path, ...(where && { where }), range, span },
      span,
    };
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
    let variable = v !== null ? variableName(v) : undefined;
    const dynamic = labels !== null ? this.outsideMatch(() => this.expressions.dynamicNames(labels)) : [];
    if (dynamic.length > 0 && this.predicates !== undefined) {
      // In MATCH, `(n:$(x))` is `(n) WHERE n has the labels x names`.
      variable ??= `${generated_name_prefix}node${this.generated++}`;
      const subject: Expression = { kind: 'variable', name: variable, span };
      for (const d of dynamic) this.predicates.push(this.expressions.hasDynamicLabels(subject, d));
    }
    // `(n IS A)` is `(n:A)` (Neo4j 5, from GQL).
    const labelExpression = ctx.labelExpression() ?? ctx.isLabelExpression();
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

  /** `quantified`: the caller applies the relationship's WHERE to every hop itself. */
  private relationship(ctx: RelationshipPatternContext, quantified = false): RelationshipPattern {
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
    let variable = v !== null ? variableName(v) : undefined;
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
    const whereCtx = detail._relWhere;
    if (whereCtx !== undefined && !quantified) {
      // In MATCH, `[r:T WHERE r.w > 1]` is `[r:T]` with the WHERE joining the MATCH's (or, inside a
      // quantified path pattern, that pattern's own).
      if (this.predicates === undefined) throw this.b.source.error('UnexpectedSyntax', 'a WHERE inside a relationship pattern is only allowed in MATCH', span);
      if (range !== undefined) {
        throw this.b.source.error('UnexpectedSyntax', 'a WHERE inside a relationship pattern is not allowed on a variable-length relationship', span);
      }
      variable ??= `${generated_name_prefix}rel${this.generated++}`;
      this.predicates.push(this.outsideMatch(() => this.b.expression(whereCtx)));
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
      predicates.push(range === undefined && !quantified ? test : this.expressions.everyHop(name, name, [], test, span));
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

/** The first variable-length range and the first quantifier of a pattern, outside the expressions in it. */
function quantifierForms(ctx: ParserRuleContext): { varLength?: ParserRuleContext; quantified?: ParserRuleContext } {
  let varLength: ParserRuleContext | undefined;
  let quantified: ParserRuleContext | undefined;
  const visit = (node: ParseTree): void => {
    if (!(node instanceof ParserRuleContext) || node instanceof ExpressionContext || node instanceof PropertiesContext) return;
    if (node instanceof RangeLiteralContext) varLength ??= node;
    if (node instanceof PathQuantifierContext) quantified ??= node;
    for (const child of node.children) visit(child);
  };
  visit(ctx);
  return { ...(varLength !== undefined && { varLength }), ...(quantified !== undefined && { quantified }) };
}
