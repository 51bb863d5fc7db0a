import type { Projection } from '../ast/clause.js';
import type { Expression } from '../ast/expression.js';
import type { Span } from '../ast/span.js';
import { astKey, containsAggregate, implicitGroupingLeaves, mentionedNames, referencesVariables } from './ast-walk.js';
import type { BoundAggregation, BoundColumn, BoundProjection, BoundSortItem } from './bound-clause.js';
import type { BoundExpression, BoundVariable } from './bound-expression.js';
import { boundKey, rewrite } from './bound-walk.js';
import { bindError, type BindContext, type ExpressionEnv } from './context.js';
import type { ExpressionBinder } from './bind-expression.js';
import { Scope, kindOfType } from './scope.js';
import { describeType, isKnown } from './static-type.js';

interface Item {
  readonly name: string;
  readonly ast: Expression;
  readonly span: Span;
  /** Items from `*` pass a variable through. */
  readonly from_star: boolean;
}

/**
 * Binds a WITH or RETURN: columns, grouping, aggregates, ORDER BY, SKIP, LIMIT and (for WITH)
 * WHERE. Returns the scope after the projection: exactly its columns.
 */
export class ProjectionBinder {
  constructor(
    private readonly c: BindContext,
    private readonly expressions: ExpressionBinder,
  ) {}

  bind(p: Projection, clause: 'WITH' | 'RETURN', pre: Scope, where: Expression | undefined): { projection: BoundProjection; post: Scope } {
    const items = this.items(p, clause, pre);
    const isAggregate = (name: string): boolean => this.c.lookupFunction(name)?.kind === 'aggregate';
    // LET binds one value per row: an aggregate there is refused as it is in WHERE.
    const env: ExpressionEnv = { scope: pre, aggregation: p.new_names === true ? 'forbidden' : 'allowed', predicate: false };
    const bound = items.map((i) => this.expressions.bind(i.ast, env));
    const aggregating = bound.some(hasAggregate);

    const keyAsts = new Set(items.filter((_, i) => !hasAggregate(bound[i]!)).map((i) => astKey(i.ast)));
    if (aggregating) {
      items.forEach((item, i) => {
        if (hasAggregate(bound[i]!)) this.checkAmbiguity(item.ast, keyAsts, isAggregate);
      });
    }

    const columns: BoundColumn[] = [];
    const variables: BoundVariable[] = [];
    items.forEach((item, i) => {
      const expr = bound[i]!;
      const v = this.c.variables.make(item.name, kindOfType(expr.type), expr.type);
      variables.push(v);
      columns.push({ name: item.name, variable: v, expression: expr });
    });

    let aggregation: BoundAggregation | undefined;
    let finalColumns: BoundColumn[] = columns;
    if (aggregating) {
      const keys = columns.filter((col) => !hasAggregate(col.expression)).map((col) => ({ variable: col.variable, expression: col.expression }));
      const keyByExpr = new Map(keys.map((k) => [boundKey(k.expression), k.variable] as const));
      const aggregates: { variable: BoundVariable; call: BoundExpression & { kind: 'aggregate' } }[] = [];
      const aggregateByExpr = new Map<string, BoundVariable>();
      finalColumns = columns.map((col) => {
        if (!hasAggregate(col.expression)) return { ...col, expression: ref(col.variable, col.expression.span) };
        const expression = rewrite(col.expression, (e) => {
          if (e.kind === 'aggregate') {
            const key = boundKey(e);
            let slot = aggregateByExpr.get(key);
            if (slot === undefined) {
              slot = this.c.variables.hidden('agg', kindOfType(e.type), e.type);
              aggregateByExpr.set(key, slot);
              aggregates.push({ variable: slot, call: e });
            }
            return ref(slot, e.span);
          }
          const keyVar = keyByExpr.get(boundKey(e));
          return keyVar !== undefined ? ref(keyVar, e.span) : undefined;
        });
        return { ...col, expression };
      });
      aggregation = { keys, aggregates };
    }

    const post = new Scope();
    for (const v of variables) post.declare(v);

    const order = this.order(p, items, variables, pre, post, aggregating, keyAsts, isAggregate);
    const skip = p.skip ? this.constant(p.skip, 'SKIP') : undefined;
    const limit = p.limit ? this.constant(p.limit, 'LIMIT') : undefined;
    const { boundWhere, where_reads_input } = this.where(where, p, pre, post, aggregating);
    return {
      projection: {
        columns: finalColumns,
        distinct: p.distinct,
        ...(aggregation && { aggregation }),
        order,
        ...(skip && { skip }),
        ...(limit && { limit }),
        ...(boundWhere && { where: boundWhere, where_reads_input }),
      },
      post,
    };
  }

  /**
   * WITH ... WHERE sees the columns and, when the projection does not aggregate, the variables it
   * dropped too (openCypher: "WHERE sees a variable bound before but not after WITH").
   */
  private where(
    where: Expression | undefined,
    p: Projection,
    pre: Scope,
    post: Scope,
    aggregating: boolean,
  ): { boundWhere: BoundExpression | undefined; where_reads_input: boolean } {
    if (where === undefined) return { boundWhere: undefined, where_reads_input: false };
    const columns = new Set(post.visible().map((v) => v.name));
    const reads_input = !aggregating && [...mentionedNames(where)].some((n) => !columns.has(n) && pre.lookup(n) !== undefined);
    if (reads_input && p.distinct && (p.skip !== undefined || p.limit !== undefined)) {
      throw bindError(
        'UndefinedVariable',
        'after DISTINCT with SKIP or LIMIT, WHERE can only use the projected columns',
        where.span,
      );
    }
    let scope = post;
    if (reads_input) {
      scope = new Scope(pre);
      for (const v of post.visible()) scope.declare(v);
    }
    return { boundWhere: this.expressions.predicate(where, { scope, aggregation: 'forbidden', predicate: true }), where_reads_input: reads_input };
  }

  private items(p: Projection, clause: 'WITH' | 'RETURN', pre: Scope): Item[] {
    const items: Item[] = [];
    if (p.star) {
      const visible = pre.visible();
      if (visible.length === 0 && p.items.length === 0 && clause === 'RETURN') {
        throw bindError('NoVariablesInScope', `${clause} * is not allowed when there are no variables in scope`, p.span);
      }
      for (const v of visible) items.push({ name: v.name, ast: { kind: 'variable', name: v.name, span: p.span }, span: p.span, from_star: true });
    }
    for (const item of p.items) {
      let name = item.alias;
      if (name === undefined) {
        if (item.expression.kind === 'variable') name = item.expression.name;
        else if (clause === 'WITH') {
          throw bindError('NoExpressionAlias', `an expression in WITH must be aliased (use AS): ${item.text}`, item.span);
        } else name = item.text;
      }
      items.push({ name, ast: item.expression, span: item.span, from_star: false });
    }
    const seen = new Set<string>();
    for (const item of items) {
      if (seen.has(item.name)) {
        if (p.new_names === true) throw bindError('VariableAlreadyBound', `variable \`${item.name}\` is already bound`, item.span);
        throw bindError('ColumnNameConflict', `multiple columns named \`${item.name}\` in ${clause}`, item.span);
      }
      seen.add(item.name);
    }
    return items;
  }

  private checkAmbiguity(ast: Expression, keys: ReadonlySet<string>, isAggregate: (name: string) => boolean): void {
    const leaves = implicitGroupingLeaves(ast, keys, isAggregate);
    if (leaves.length > 0) {
      throw bindError(
        'AmbiguousAggregationExpression',
        'an expression mixing aggregates with values that are not grouping keys is ambiguous; project those values first',
        ast.span,
      );
    }
  }

  private order(
    p: Projection,
    items: readonly Item[],
    variables: readonly BoundVariable[],
    pre: Scope,
    post: Scope,
    aggregating: boolean,
    keyAsts: ReadonlySet<string>,
    isAggregate: (name: string) => boolean,
  ): BoundSortItem[] {
    if (p.order.length === 0) return [];
    if (!aggregating && !p.distinct) {
      // The sort runs before the input slots are dropped: columns shadow the variables they project.
      const scope = new Scope(pre);
      for (const v of variables) scope.declare(v);
      return p.order.map((s) => {
        if (containsAggregate(s.expression, isAggregate)) {
          throw bindError('InvalidAggregation', 'ORDER BY can use an aggregate only when the projection aggregates', s.span);
        }
        return { expression: this.expressions.bind(s.expression, { scope, aggregation: 'forbidden', predicate: false }), direction: s.direction };
      });
    }
    // After DISTINCT or aggregation only the columns exist; an expression equal to a column reads it.
    const substitutions = new Map<string, BoundVariable>();
    items.forEach((item, i) => substitutions.set(astKey(item.ast), variables[i]!));
    // In ORDER BY a grouping column may also be named by its alias.
    const orderKeys = new Set(keyAsts);
    items.forEach((item) => {
      if (keyAsts.has(astKey(item.ast))) orderKeys.add(astKey({ kind: 'variable', name: item.name, span: item.span }));
    });
    return p.order.map((s) => {
      const expression = this.expressions.bind(s.expression, { scope: post, aggregation: 'forbidden', predicate: false, substitutions });
      if (aggregating && containsAggregate(s.expression, isAggregate)) this.checkAmbiguity(s.expression, orderKeys, isAggregate);
      return { expression, direction: s.direction };
    });
  }

  /** SKIP and LIMIT: constant, and when literal a non-negative integer. */
  private constant(e: Expression, what: 'SKIP' | 'LIMIT'): BoundExpression {
    if (referencesVariables(e)) {
      throw bindError('NonConstantExpression', `${what} must not depend on variables`, e.span);
    }
    const bound = this.expressions.bind(e, { scope: new Scope(), aggregation: 'forbidden', predicate: false });
    if (isKnown(bound.type) && bound.type.kind !== 'integer') {
      throw bindError('InvalidArgumentType', `${what} needs an integer, not a ${describeType(bound.type)}`, e.span);
    }
    if (bound.kind === 'literal' && typeof bound.value === 'bigint' && bound.value < 0n) {
      throw bindError('NegativeIntegerArgument', `${what} cannot be negative (${bound.value})`, e.span);
    }
    return bound;
  }
}

function hasAggregate(e: BoundExpression): boolean {
  let found = false;
  rewrite(e, (x) => {
    if (x.kind === 'aggregate') found = true;
    return found ? x : undefined;
  });
  return found;
}

function ref(variable: BoundVariable, span: Span): BoundExpression {
  return { kind: 'variable', variable, type: variable.type, span };
}
