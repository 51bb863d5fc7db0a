import { TerminalNode } from 'antlr4ng';
import type { BinaryOperator, Expression, LiteralValue, MapProjectionItem, QuantifierKind } from '../ast/expression.js';
import type { DynamicNames } from '../ast/pattern.js';
import type { Span } from '../ast/span.js';
import { joinSpans } from '../ast/span.js';
import { assert, assertNever } from '../../common/assert.js';
import {
  AtomContext,
  CaseComparisonOperandContext,
  CasePlainOperandContext,
  CaseSuffixOperandContext,
  ContainsPredicateContext,
  EndsWithPredicateContext,
  IndexOperatorContext,
  InPredicateContext,
  IsNotNullPredicateContext,
  IsNullPredicateContext,
  ListOperatorContext,
  MapProjectionAllContext,
  MapProjectionLiteralContext,
  MapProjectionPropertyContext,
  MapProjectionVariableContext,
  NormalizedPredicateContext,
  PropertyLookupContext,
  RegexPredicateContext,
  SliceOperatorContext,
  StartsWithPredicateContext,
  TypePredicateContext,
  type DynamicNameContext,
  type AddOrSubtractExpressionContext,
  type TrimFromExpressionContext,
  type AndExpressionContext,
  type CaseExpressionContext,
  type CaseWhenOperandContext,
  type LabelConjunctionContext,
  type LabelDisjunctionContext,
  type LabelNegationContext,
  type XorExpressionContext,
  type ComparisonExpressionContext,
  type ExpressionContext,
  type IntegerLiteralContext,
  type LiteralContext,
  type MapLiteralContext,
  type MultiplyDivideModuloExpressionContext,
  type NodeLabelsContext,
  type NonArithmeticOperatorExpressionContext,
  type NotExpressionContext,
  type ParameterContext,
  type SessionValueContext,
  type PowerOfExpressionContext,
  type PredicateExpressionContext,
  type PredicateSuffixContext,
  type UnaryAddOrSubtractExpressionContext,
} from '../grammar/gen/CypherParser.js';
import { expression_depth_max, schemaName, symbolicName, variableName, type Builder } from './builder.js';
import { floatValue, integerMagnitude, signedInteger, stringValue } from './literals.js';
import { isNormalForm } from '../functions/trim-normalize-functions.js';
import { resolveWrittenType, typeText } from '../functions/value-types.js';
import { writtenValueType } from './value-type-syntax.js';

/** Builds expressions; tracks every node's depth so that a long operator chain is refused, not overflowed. */
export class ExpressionBuilder {
  private readonly depth = new WeakMap<Expression, number>();

  constructor(private readonly b: Builder) {}

  private made<T extends Expression>(e: T, children: readonly (Expression | undefined)[]): T {
    let max = 0;
    for (const c of children) if (c !== undefined) max = Math.max(max, this.depth.get(c) ?? 1);
    const d = max + 1;
    if (d > expression_depth_max) {
      throw this.b.source.error(
        'UnexpectedSyntax',
        `expression nests deeper than ${expression_depth_max} levels`,
        e.span,
      );
    }
    this.depth.set(e, d);
    return e;
  }

  private binary(op: BinaryOperator, left: Expression, right: Expression): Expression {
    return this.made({ kind: 'binary', op, left, right, span: joinSpans(left.span, right.span) }, [left, right]);
  }

  expression(ctx: ExpressionContext): Expression {
    const or = ctx.orExpression();
    let left = this.xor(or.xorExpression(0)!);
    for (let i = 1; i < or.xorExpression().length; i++) left = this.binary('or', left, this.xor(or.xorExpression(i)!));
    return left;
  }

  private xor(ctx: XorExpressionContext): Expression {
    let left = this.and(ctx.andExpression(0)!);
    for (let i = 1; i < ctx.andExpression().length; i++) left = this.binary('xor', left, this.and(ctx.andExpression(i)!));
    return left;
  }

  private and(ctx: AndExpressionContext): Expression {
    let left = this.not(ctx.notExpression(0)!);
    for (let i = 1; i < ctx.notExpression().length; i++) left = this.binary('and', left, this.not(ctx.notExpression(i)!));
    return left;
  }

  private not(ctx: NotExpressionContext): Expression {
    let e = this.comparison(ctx.comparisonExpression());
    const nots = ctx.NOT();
    for (let i = nots.length - 1; i >= 0; i--) {
      const span = joinSpans(this.b.source.tokenSpan(nots[i]!.symbol), e.span);
      e = this.made({ kind: 'unary', op: 'not', operand: e, span }, [e]);
    }
    return e;
  }

  /** `a < b <= c` means `a < b AND b <= c`; the shared operand is the same node in both comparisons. */
  private comparison(ctx: ComparisonExpressionContext): Expression {
    const operands = ctx.predicateExpression().map((p) => this.predicate(p));
    const ops = ctx.comparisonOperator();
    if (ops.length === 0) return operands[0]!;
    let result: Expression | undefined;
    for (let i = 0; i < ops.length; i++) {
      const op = comparisonOperator(ops[i]!.getText());
      const cmp = this.binary(op, operands[i]!, operands[i + 1]!);
      result = result === undefined ? cmp : this.binary('and', result, cmp);
    }
    return result!;
  }

  private predicate(ctx: PredicateExpressionContext): Expression {
    let e = this.addSub(ctx.addOrSubtractExpression());
    for (const suffix of ctx.predicateSuffix()) e = this.suffix(e, suffix);
    return e;
  }

  private suffix(left: Expression, ctx: PredicateSuffixContext): Expression {
    const span = joinSpans(left.span, this.b.source.span(ctx));
    if (ctx instanceof IsNullPredicateContext) return this.made({ kind: 'is_null', operand: left, negated: false, span }, [left]);
    if (ctx instanceof IsNotNullPredicateContext) return this.made({ kind: 'is_null', operand: left, negated: true, span }, [left]);
    if (ctx instanceof TypePredicateContext) return this.typePredicate(left, ctx, span);
    if (ctx instanceof NormalizedPredicateContext) return this.normalizedPredicate(left, ctx, span);
    const op: BinaryOperator | undefined =
      ctx instanceof StartsWithPredicateContext ? 'starts_with'
      : ctx instanceof EndsWithPredicateContext ? 'ends_with'
      : ctx instanceof ContainsPredicateContext ? 'contains'
      : ctx instanceof RegexPredicateContext ? 'regex'
      : ctx instanceof InPredicateContext ? 'in'
      : undefined;
    assert(op !== undefined, `unknown predicate suffix ${ctx.getText()}`);
    const operand = (ctx as StartsWithPredicateContext).addOrSubtractExpression();
    return this.binary(op, left, this.addSub(operand));
  }

  /**
   * `x IS [NOT] :: T` (also `IS TYPED T` and `x :: T`) becomes the call ('is type', x, text of T): the
   * predicate is a function of its operand and a constant, so it needs no evaluator of its own.
   */
  private typePredicate(left: Expression, ctx: TypePredicateContext, span: Span): Expression {
    const type = resolveWrittenType(writtenValueType(ctx.valueTypeExpression()));
    if (typeof type === 'string') throw this.b.source.error('UnexpectedSyntax', type, this.b.source.span(ctx.valueTypeExpression()));
    const text = this.made({ kind: 'literal', value: typeText(type), span }, []);
    const call = this.made({ kind: 'function', name: 'is type', distinct: false, args: [left, text], span }, [left, text]);
    return ctx.NOT() === null ? call : this.made({ kind: 'unary', op: 'not', operand: call, span }, [call]);
  }

  /** `s IS [NOT] [NFC | NFD | NFKC | NFKD] NORMALIZED` becomes the call ('is normalized', s, form). */
  private normalizedPredicate(left: Expression, ctx: NormalizedPredicateContext, span: Span): Expression {
    const written = ctx._normalForm === undefined ? 'NFC' : symbolicName(ctx._normalForm);
    if (!isNormalForm(written)) {
      throw this.b.source.error('UnexpectedSyntax', `unknown normal form ${written}; one of NFC, NFD, NFKC, NFKD`, span);
    }
    const form = this.made({ kind: 'literal', value: written.toUpperCase(), span }, []);
    const call = this.made({ kind: 'function', name: 'is normalized', distinct: false, args: [left, form], span }, [left, form]);
    return ctx.NOT() === null ? call : this.made({ kind: 'unary', op: 'not', operand: call, span }, [call]);
  }

  /**
   * The extended simple CASE (`CASE x WHEN 1, 2 THEN ... WHEN > 5 THEN ... WHEN IS NULL THEN ...`) as the
   * generic CASE it means: each WHEN is the OR of its operands, each a comparison of the subject
   * (equality when no operator is written) or a predicate on it.
   */
  private extendedCase(subject: Expression, kase: CaseExpressionContext, span: Span): Expression {
    const alternatives = kase.caseAlternative().map((a) => {
      const conditions = a.caseWhenOperand().map((o) => this.caseCondition(subject, o));
      const when = conditions.slice(1).reduce((acc, c) => this.binary('or', acc, c), conditions[0]!);
      return { when, then: this.expression(a.expression()) };
    });
    const otherwise = kase._elseExpr !== undefined ? this.expression(kase._elseExpr) : undefined;
    const children = [otherwise, ...alternatives.flatMap((a) => [a.when, a.then])];
    return this.made({ kind: 'case', alternatives, ...(otherwise && { otherwise }), span }, children);
  }

  private caseCondition(subject: Expression, ctx: CaseWhenOperandContext): Expression {
    if (ctx instanceof CaseComparisonOperandContext) {
      return this.binary(comparisonOperator(ctx.comparisonOperator().getText()), subject, this.expression(ctx.expression()));
    }
    if (ctx instanceof CaseSuffixOperandContext) return this.suffix(subject, ctx.predicateSuffix());
    assert(ctx instanceof CasePlainOperandContext, 'unknown CASE operand');
    return this.binary('eq', subject, this.expression(ctx.expression()));
  }

  /** `trim(side [c] FROM s)` becomes the call ('trim from', side, s [, c]); only trim has this form. */
  private trimFrom(ctx: TrimFromExpressionContext, span: Span): Expression {
    const fn = ctx.functionName();
    const name = [...fn.namespace().symbolicName(), fn.symbolicName()].map(symbolicName).join('.');
    if (name.toLowerCase() !== 'trim') {
      throw this.b.source.error('UnexpectedSyntax', `only trim() takes the form (... FROM ...), not ${name}()`, span);
    }
    const side = this.made({ kind: 'literal', value: (ctx._side?.text ?? 'BOTH').toUpperCase(), span }, []);
    const source = this.expression(ctx._source!);
    const character = ctx._character === undefined ? [] : [this.expression(ctx._character)];
    const args = [side, source, ...character];
    return this.made({ kind: 'function', name: 'trim from', distinct: false, args, span }, args);
  }

  private addSub(ctx: AddOrSubtractExpressionContext): Expression {
    let left = this.mulDiv(ctx.multiplyDivideModuloExpression(0)!);
    const ops = ctx.addOrSubtractOperator();
    for (let i = 0; i < ops.length; i++) {
      const right = this.mulDiv(ctx.multiplyDivideModuloExpression(i + 1)!);
      const op = ops[i]!.getText();
      if (op === '||') {
        // Concatenation is the internal call ('||', a, b): it needs no evaluator of its own.
        const span = joinSpans(left.span, right.span);
        left = this.made({ kind: 'function', name: '||', distinct: false, args: [left, right], span }, [left, right]);
        continue;
      }
      left = this.binary(op === '+' ? 'add' : 'sub', left, right);
    }
    return left;
  }

  private mulDiv(ctx: MultiplyDivideModuloExpressionContext): Expression {
    let left = this.power(ctx.powerOfExpression(0)!);
    const ops = ctx.multiplyDivideModuloOperator();
    for (let i = 0; i < ops.length; i++) {
      const right = this.power(ctx.powerOfExpression(i + 1)!);
      const t = ops[i]!.getText();
      left = this.binary(t === '*' ? 'mul' : t === '/' ? 'div' : 'mod', left, right);
    }
    return left;
  }

  /** `^` is left-associative in openCypher 9: `2^3^2` is `(2^3)^2`. */
  private power(ctx: PowerOfExpressionContext): Expression {
    let left = this.unary(ctx.unaryAddOrSubtractExpression(0)!);
    for (let i = 1; i < ctx.unaryAddOrSubtractExpression().length; i++) {
      left = this.binary('pow', left, this.unary(ctx.unaryAddOrSubtractExpression(i)!));
    }
    return left;
  }

  /**
   * A sign directly before an integer or float literal is folded into the literal, so that
   * `-9223372036854775808` is in range and `-0.0` is negative zero.
   */
  private unary(ctx: UnaryAddOrSubtractExpressionContext): Expression {
    const signs: { op: 'neg' | 'pos'; span: Span }[] = [];
    for (const child of ctx.children) {
      if (!(child instanceof TerminalNode)) break;
      signs.push({ op: child.getText() === '-' ? 'neg' : 'pos', span: this.b.source.tokenSpan(child.symbol) });
    }
    const inner = ctx.nonArithmeticOperatorExpression();
    let e: Expression;
    let remaining = signs.length;
    const last = signs[signs.length - 1];
    const literal = bareNumberLiteral(inner);
    if (last !== undefined && last.op === 'neg' && literal !== undefined) {
      e = this.number(literal.integer, literal.float, true, joinSpans(last.span, this.b.source.span(inner)));
      remaining -= 1;
    } else {
      e = this.nonArithmetic(inner);
    }
    for (let i = remaining - 1; i >= 0; i--) {
      const s = signs[i]!;
      e = this.made({ kind: 'unary', op: s.op, operand: e, span: joinSpans(s.span, e.span) }, [e]);
    }
    return e;
  }

  private number(integer: IntegerLiteralContext | null, float: string | null, negative: boolean, span: Span): Expression {
    const fail = this.b.source.error.bind(this.b.source);
    let value: LiteralValue;
    if (integer !== null) {
      const text = integer.getText();
      value = signedInteger(integerMagnitude(text, span, fail), negative, text, span, fail);
    } else {
      assert(float !== null, 'number literal without text');
      const v = floatValue(float, span, fail);
      value = negative ? -v : v;
    }
    return this.made({ kind: 'literal', value, span }, []);
  }

  private nonArithmetic(ctx: NonArithmeticOperatorExpressionContext): Expression {
    let e = this.atom(ctx.atom());
    for (const child of ctx.children) {
      if (child instanceof PropertyLookupContext) {
        const key = schemaName(child.propertyKeyName().schemaName());
        e = this.made({ kind: 'property', object: e, key, span: joinSpans(e.span, this.b.source.span(child)) }, [e]);
      } else if (child instanceof IndexOperatorContext) {
        const index = this.expression(child.expression());
        e = this.made({ kind: 'index', object: e, index, span: joinSpans(e.span, this.b.source.span(child)) }, [e, index]);
      } else if (child instanceof SliceOperatorContext) {
        const from = child._lo !== undefined ? this.expression(child._lo) : undefined;
        const to = child._hi !== undefined ? this.expression(child._hi) : undefined;
        const span = joinSpans(e.span, this.b.source.span(child));
        e = this.made({ kind: 'slice', object: e, ...(from && { from }), ...(to && { to }), span }, [e, from, to]);
      } else if (child instanceof ListOperatorContext) {
        assert(false, 'unlabelled list operator');
      }
    }
    const labels = ctx.nodeLabels();
    if (labels !== null) {
      const span = this.b.source.span(ctx);
      const subject = e;
      const written = labelNames(labels);
      const tests: Expression[] = written.length > 0 ? [this.made({ kind: 'has_labels', subject, labels: written, span }, [subject])] : [];
      for (const d of this.dynamicNames(labels)) tests.push(this.hasDynamicLabels(subject, d));
      e = tests.reduce((acc, x) => this.binary('and', acc, x));
    }
    const labelExpression = ctx.labelExpression();
    if (labelExpression !== null) e = this.labelPredicate(e, labelExpression.labelDisjunction(), this.b.source.span(ctx));
    return e;
  }

  /**
   * A label expression as a predicate on `subject`: `A` is `subject:A`, `%` is "has some label",
   * and `|`, `&`, `!` are OR, AND and NOT over those.
   */
  labelPredicate(subject: Expression, ctx: LabelDisjunctionContext, span: Span): Expression {
    const conjunction = (c: LabelConjunctionContext): Expression =>
      c.labelNegation().map(negation).reduce((acc, x) => this.binary('and', acc, x));
    const negation = (n: LabelNegationContext): Expression => {
      const inner = n.labelNegation();
      if (inner !== null) {
        const operand = negation(inner);
        return this.made({ kind: 'unary', op: 'not', operand, span }, [operand]);
      }
      const atom = n.labelAtom()!;
      const name = atom.labelName();
      if (name !== null) return this.made({ kind: 'has_labels', subject, labels: [schemaName(name.schemaName())], span }, [subject]);
      const group = atom.labelDisjunction();
      if (group !== null) return this.labelPredicate(subject, group, span);
      const labels = this.made({ kind: 'function', name: 'names of', distinct: false, args: [subject], span }, [subject]);
      const count = this.made({ kind: 'function', name: 'size', distinct: false, args: [labels], span }, [labels]);
      const zero = this.made({ kind: 'literal', value: 0n, span }, []);
      return this.binary('gt', count, zero);
    };
    return ctx.labelConjunction().map(conjunction).reduce((acc, x) => this.binary('or', acc, x));
  }

  /**
   * What a one-relationship quantified path pattern asks of every hop, as `all(hop IN rels WHERE ...)`:
   * the labels and properties of the inner nodes, read at the hop's start or end node, and the
   * pattern's own WHERE, in which `hop` is the name the inner relationship was given (it then names one
   * relationship of the list, as it does inside the pattern).
   */
  everyHop(
    rels: string,
    hop: string,
    ends: readonly { readonly end: 'startNode' | 'endNode'; readonly labels: readonly string[]; readonly properties?: Expression }[],
    where: Expression | undefined,
    span: Span,
  ): Expression {
    const tests: Expression[] = [];
    for (const e of ends) {
      const rel = this.made({ kind: 'variable', name: hop, span }, []);
      const node = this.made({ kind: 'function', name: e.end, distinct: false, args: [rel], span }, [rel]);
      if (e.labels.length > 0) tests.push(this.made({ kind: 'has_labels', subject: node, labels: e.labels, span }, [node]));
      if (e.properties?.kind === 'map') {
        for (const entry of e.properties.entries) {
          const read = this.made({ kind: 'property', object: node, key: entry.key, span }, [node]);
          tests.push(this.binary('eq', read, entry.value));
        }
      }
    }
    if (where !== undefined) tests.push(where);
    const source = this.made({ kind: 'variable', name: rels, span }, []);
    const condition = tests.reduce((acc, x) => this.binary('and', acc, x));
    return this.made({ kind: 'quantifier', quantifier: 'all', variable: hop, source, where: condition, span }, [source, condition]);
  }

  /** The conjunction of `conditions`; undefined for none. */
  allOf(conditions: readonly Expression[]): Expression | undefined {
    if (conditions.length === 0) return undefined;
    return conditions.reduce((acc, x) => this.binary('and', acc, x));
  }

  /** The `$(expr)` labels of `:A:$(x)`, in order. */
  dynamicNames(ctx: NodeLabelsContext): DynamicNames[] {
    return ctx.nodeLabel().flatMap((l) => {
      const d = l.dynamicName();
      return d === null ? [] : [this.dynamicName(d)];
    });
  }

  dynamicName(ctx: DynamicNameContext): DynamicNames {
    return { mode: ctx.ANY() !== null ? 'any' : 'all', expression: this.expression(ctx.expression()), span: this.b.source.span(ctx) };
  }

  /**
   * `subject:$(names)` as a predicate: the internal call ('has names', 'names of'(subject), names, mode),
   * true when the node has all (or, for `$any`, any) of the labels the value names.
   */
  hasDynamicLabels(subject: Expression, d: DynamicNames): Expression {
    const span = d.span;
    const have = this.made({ kind: 'function', name: 'names of', distinct: false, args: [subject], span }, [subject]);
    return this.namesPredicate(have, d);
  }

  /** `[r:$(names)]` in MATCH as a predicate over `[type(r)]`. */
  hasDynamicType(subject: Expression, d: DynamicNames): Expression {
    const span = d.span;
    const type = this.made({ kind: 'function', name: 'type', distinct: false, args: [subject], span }, [subject]);
    const have = this.made({ kind: 'list', items: [type], span }, [type]);
    return this.namesPredicate(have, d);
  }

  private namesPredicate(have: Expression, d: DynamicNames): Expression {
    const mode = this.made({ kind: 'literal', value: d.mode, span: d.span }, []);
    const args = [have, d.expression, mode];
    return this.made({ kind: 'function', name: 'has names', distinct: false, args, span: d.span }, args);
  }

  /** An argument; the second of normalize() may be a normal form written as a bare word (`NFD`). */
  private functionArgument(name: string, i: number, ctx: ExpressionContext): Expression {
    const e = this.expression(ctx);
    if (i === 1 && name.toLowerCase() === 'normalize' && e.kind === 'variable' && isNormalForm(e.name)) {
      return this.made({ kind: 'literal', value: e.name.toUpperCase(), span: e.span }, []);
    }
    return e;
  }

  /** The atom a SET/REMOVE target starts from. */
  atomOf(ctx: AtomContext): Expression {
    return this.atom(ctx);
  }

  private atom(ctx: AtomContext): Expression {
    const span = this.b.source.span(ctx);
    const literal = ctx.literal();
    if (literal !== null) return this.literal(literal);
    const parameter = ctx.parameter();
    if (parameter !== null) return this.parameter(parameter);
    const variable = ctx.variable();
    if (variable !== null) return this.made({ kind: 'variable', name: variableName(variable), span }, []);
    if (ctx.countStar() !== null) return this.made({ kind: 'count_star', span }, []);
    const paren = ctx.parenthesizedExpression();
    if (paren !== null) return this.expression(paren.expression());
    const trimFrom = ctx.trimFromExpression();
    if (trimFrom !== null) return this.trimFrom(trimFrom, span);
    const fn = ctx.functionInvocation();
    if (fn !== null) {
      const name = [...fn.functionName().namespace().symbolicName(), fn.functionName().symbolicName()]
        .map(symbolicName)
        .join('.');
      const args = fn.expression().map((a, i) => this.functionArgument(name, i, a));
      return this.made({ kind: 'function', name, distinct: fn.DISTINCT() !== null, args, span }, args);
    }
    const kase = ctx.caseExpression();
    if (kase !== null) {
      const subject = kase._subject !== undefined ? this.expression(kase._subject) : undefined;
      const simple = kase.caseAlternative().every((a) => a.caseWhenOperand().length === 1 && a.caseWhenOperand(0) instanceof CasePlainOperandContext);
      if (subject !== undefined && !simple) return this.extendedCase(subject, kase, span);
      if (!simple) throw this.b.source.error('UnexpectedSyntax', 'a CASE without a subject takes one condition per WHEN', span);
      const alternatives = kase.caseAlternative().map((a) => ({
        when: this.expression((a.caseWhenOperand(0) as CasePlainOperandContext).expression()),
        then: this.expression(a.expression()),
      }));
      const otherwise = kase._elseExpr !== undefined ? this.expression(kase._elseExpr) : undefined;
      const children = [subject, otherwise, ...alternatives.flatMap((a) => [a.when, a.then])];
      return this.made(
        { kind: 'case', ...(subject && { subject }), alternatives, ...(otherwise && { otherwise }), span },
        children,
      );
    }
    const lc = ctx.listComprehension();
    if (lc !== null) {
      const f = lc.filterExpression();
      const source = this.expression(f.expression(0)!);
      const where = f.WHERE() !== null ? this.expression(f.expression(1)!) : undefined;
      const projection = lc.expression() !== null ? this.expression(lc.expression()!) : undefined;
      return this.made(
        {
          kind: 'list_comprehension',
          variable: variableName(f.variable()),
          source,
          ...(where && { where }),
          ...(projection && { projection }),
          span,
        },
        [source, where, projection],
      );
    }
    const pc = ctx.patternComprehension();
    if (pc !== null) {
      // Label expressions, dynamic labels and a WHERE inside a node become part of the comprehension's WHERE.
      const { path: inner, predicates } = this.b.matchPath(pc.relationshipsPattern());
      const v = pc.variable();
      const path = v !== null ? { ...inner, variable: variableName(v) } : inner;
      const exprs = pc.expression();
      const written = pc.WHERE() !== null ? this.expression(exprs[0]!) : undefined;
      const where = [...predicates, ...(written !== undefined ? [written] : [])].reduce<Expression | undefined>(
        (acc, e) => (acc === undefined ? e : this.binary('and', acc, e)),
        undefined,
      );
      const projection = this.expression(exprs[exprs.length - 1]!);
      return this.made(
        { kind: 'pattern_comprehension', path, ...(where && { where }), projection, span },
        [where, projection],
      );
    }
    const q = ctx.quantifierExpression();
    if (q !== null) {
      const f = q.filterExpression();
      const source = this.expression(f.expression(0)!);
      const where = f.WHERE() !== null ? this.expression(f.expression(1)!) : undefined;
      const quantifier = q.quantifier().getText().toLowerCase() as QuantifierKind;
      return this.made(
        {
          kind: 'quantifier',
          quantifier,
          variable: variableName(f.variable()),
          source,
          ...(where && { where }),
          span,
        },
        [source, where],
      );
    }
    const r = ctx.reduceExpression();
    if (r !== null) {
      const initial = this.expression(r._initial!);
      const source = this.expression(r._source!);
      const step = this.expression(r._step!);
      return this.made(
        {
          kind: 'reduce',
          accumulator: variableName(r._accumulator!),
          initial,
          variable: variableName(r.variable(1)!),
          source,
          step,
          span,
        },
        [initial, source, step],
      );
    }
    const ex = ctx.subqueryExpression();
    if (ex !== null) {
      const measure = ex.COUNT() !== null ? 'count' : ex.COLLECT() !== null ? 'collect' : 'exists';
      const query = ex.query();
      if (query !== null) return this.made({ kind: 'exists_subquery', measure, body: { kind: 'query', query: this.b.nestedQuery(query) }, span }, []);
      // Built as a MATCH pattern is: label expressions, dynamic labels and WHERE inside its node
      // patterns become predicates, joined before the body's own WHERE.
      const { pattern, predicates } = this.b.matchPattern(ex.pattern()!);
      const w = ex.where();
      const written = w !== null ? this.expression(w.expression()) : undefined;
      const where = [...predicates, ...(written !== undefined ? [written] : [])].reduce<Expression | undefined>(
        (acc, e) => (acc === undefined ? e : this.binary('and', acc, e)),
        undefined,
      );
      return this.made({ kind: 'exists_subquery', measure, body: { kind: 'pattern', pattern, ...(where && { where }) }, span }, [where]);
    }
    const rp = ctx.relationshipsPattern();
    if (rp !== null) return this.made({ kind: 'pattern_predicate', path: this.b.path(rp), span }, []);
    const mp = ctx.mapProjection();
    if (mp !== null) {
      const items: MapProjectionItem[] = [];
      const children: Expression[] = [];
      for (const item of mp.mapProjectionItem()) {
        if (item instanceof MapProjectionLiteralContext) {
          const value = this.expression(item.expression());
          children.push(value);
          items.push({ kind: 'entry', key: schemaName(item.propertyKeyName().schemaName()), value });
        } else if (item instanceof MapProjectionPropertyContext) {
          items.push({ kind: 'property', key: schemaName(item.propertyKeyName().schemaName()) });
        } else if (item instanceof MapProjectionAllContext) {
          items.push({ kind: 'all_properties' });
        } else if (item instanceof MapProjectionVariableContext) {
          items.push({ kind: 'variable', name: variableName(item.variable()), span: this.b.source.span(item) });
        }
      }
      const v = mp.variable();
      return this.made(
        { kind: 'map_projection', variable: variableName(v), variable_span: this.b.source.span(v), items, span },
        children,
      );
    }
    throw this.b.source.error('UnexpectedSyntax', `unsupported expression '${ctx.getText()}'`, span);
  }

  literal(ctx: LiteralContext): Expression {
    const span = this.b.source.span(ctx);
    const fail = this.b.source.error.bind(this.b.source);
    const bool = ctx.booleanLiteral();
    if (bool !== null) return this.made({ kind: 'literal', value: bool.TRUE() !== null, span }, []);
    if (ctx.NULL() !== null) return this.made({ kind: 'literal', value: null, span }, []);
    const num = ctx.numberLiteral();
    if (num !== null) return this.number(num.integerLiteral(), num.FloatLiteral()?.getText() ?? null, false, span);
    const str = ctx.StringLiteral();
    if (str !== null) return this.made({ kind: 'literal', value: stringValue(str.getText(), span, fail), span }, []);
    const list = ctx.listLiteral();
    if (list !== null) {
      const items = list.expression().map((e) => this.expression(e));
      return this.made({ kind: 'list', items, span }, items);
    }
    const map = ctx.mapLiteral();
    assert(map !== null, `unknown literal ${ctx.getText()}`);
    return this.map(map);
  }

  /** The value of `SET name = <value>`: a string, number or boolean literal. */
  sessionValue(ctx: SessionValueContext): LiteralValue {
    const span = this.b.source.span(ctx);
    const str = ctx.StringLiteral();
    if (str !== null) return stringValue(str.getText(), span, this.b.source.error.bind(this.b.source));
    const bool = ctx.booleanLiteral();
    if (bool !== null) return bool.TRUE() !== null;
    const word = ctx.symbolicName();
    if (word !== null) return symbolicName(word);
    const num = ctx.numberLiteral()!;
    const lit = this.number(num.integerLiteral(), num.FloatLiteral()?.getText() ?? null, false, span);
    assert(lit.kind === 'literal', 'a number is a literal');
    return lit.value;
  }

  map(ctx: MapLiteralContext): Expression {
    const keys = ctx.propertyKeyName();
    const values = ctx.expression().map((e) => this.expression(e));
    const entries = keys.map((k, i) => ({ key: schemaName(k.schemaName()), value: values[i]! }));
    return this.made({ kind: 'map', entries, span: this.b.source.span(ctx) }, values);
  }

  parameter(ctx: ParameterContext): Expression {
    const span = this.b.source.span(ctx);
    const dollar = ctx.DOLLAR().symbol;
    const next = ctx.stop;
    if (next !== null && next.start !== dollar.stop + 1) {
      throw this.b.source.error('UnexpectedSyntax', `a parameter name must follow '$' directly`, span);
    }
    const word = ctx.schemaName();
    const name = word !== null ? schemaName(word) : ctx.DecimalInteger()!.getText();
    return this.made({ kind: 'parameter', name, span }, []);
  }
}

function comparisonOperator(text: string): BinaryOperator {
  switch (text) {
    case '=':
      return 'eq';
    case '<>':
      return 'neq';
    case '<':
      return 'lt';
    case '>':
      return 'gt';
    case '<=':
      return 'lte';
    case '>=':
      return 'gte';
    default:
      return assertNever(text as never, 'comparison operator');
  }
}

/** The written labels of `:A:B:$(expr)`; the dynamic ones are read with `dynamicNames`. */
export function labelNames(ctx: NodeLabelsContext): string[] {
  return ctx.nodeLabel().flatMap((l) => {
    const name = l.labelName();
    return name === null ? [] : [schemaName(name.schemaName())];
  });
}

/** The number literal an operand consists of, if it is nothing else (no parentheses, lookups or labels). */
function bareNumberLiteral(
  ctx: NonArithmeticOperatorExpressionContext,
): { integer: IntegerLiteralContext | null; float: string | null } | undefined {
  if (ctx.getChildCount() !== 1) return undefined;
  const num = ctx.atom().literal()?.numberLiteral();
  if (num === null || num === undefined) return undefined;
  return { integer: num.integerLiteral(), float: num.FloatLiteral()?.getText() ?? null };
}
