import type { ForeachClause, InTransactions, SubqueryCallClause, WithClause } from '../ast/clause.js';
import type { Expression } from '../ast/expression.js';
import type { SingleQuery } from '../ast/query.js';
import type { Span } from '../ast/span.js';
import { mentionedNames } from './ast-walk.js';
import { retrySeconds, type BoundClause, type BoundInTransactions, type BoundOnErrorRetry } from './bound-clause.js';
import type { BoundExpression, BoundVariable } from './bound-expression.js';
import { bindError, type BindContext } from './context.js';
import type { ExpressionBinder } from './bind-expression.js';
import { Scope, csv_file_name, csv_line_name, kindOfType } from './scope.js';
import { elementOf, mayBe, describeType, map_type } from './static-type.js';

/**
 * CALL subqueries and FOREACH: clauses that run a body once per incoming row (Neo4j 5 Cypher manual,
 * "CALL subqueries" and "FOREACH"). The body sees only what is imported into it; what it returns
 * joins the outer scope and may not reuse an outer name.
 */
export class SubqueryCallBinder {
  /** CALL bodies being bound around the current clause: IN TRANSACTIONS only at depth 0. */
  private depth = 0;

  constructor(
    private readonly c: BindContext,
    private readonly expressions: ExpressionBinder,
    /** Binds one clause of a FOREACH body in the given scope. */
    private readonly clause: (clause: ForeachClause['clauses'][number], scope: Scope) => BoundClause,
  ) {}

  call(clause: SubqueryCallClause, scope: Scope): BoundClause {
    const imported = new Map<number, BoundVariable>();
    const start = (part: SingleQuery): { scope: Scope; sticky: readonly BoundVariable[] } => {
      const vars = clause.scope === undefined ? this.importingWith(part, scope) : this.scopeClause(clause, scope);
      const s = new Scope();
      for (const v of vars) {
        s.declare(v);
        imported.set(v.id, v);
      }
      // linenumber() and file() in the body answer for the row it runs on, as they do outside it.
      const csv = [csv_line_name, csv_file_name].map((n) => scope.lookup(n)).filter((v): v is BoundVariable => v !== undefined);
      for (const v of csv) s.declare(v);
      // The manual: variables a scope clause imports are visible in the whole body, past any WITH.
      return { scope: s, sticky: clause.scope === undefined ? csv : [...vars, ...csv] };
    };
    if (clause.in_transactions !== undefined && this.depth > 0) {
      throw bindError('InvalidClauseComposition', 'CALL { ... } IN TRANSACTIONS cannot be nested in another subquery', clause.in_transactions.span);
    }
    this.depth++;
    let query;
    try {
      query = this.c.callBody(clause.query, start);
    } finally {
      this.depth--;
    }
    const unit = query.parts.every((p) => p.clauses[p.clauses.length - 1]?.kind !== 'return');
    const returns = unit ? [] : (query.parts[0]?.columns ?? []).map((col) => col.variable);
    if (!unit) this.checkReturns(clause, returns, scope);
    for (const v of returns) scope.declare(v);
    const in_transactions = clause.in_transactions === undefined ? undefined : this.inTransactions(clause.in_transactions, scope);
    return {
      kind: 'call_subquery',
      optional: clause.optional,
      query,
      imports: [...imported.values()],
      returns,
      ...(in_transactions !== undefined && { in_transactions }),
      span: clause.span,
    };
  }

  foreach(clause: ForeachClause, scope: Scope): BoundClause {
    const list = this.expressions.bind(clause.list, { scope, aggregation: 'forbidden', predicate: false });
    if (!mayBe(list.type, 'list')) {
      throw bindError('InvalidArgumentType', `FOREACH needs a list, not a ${describeType(list.type)}`, clause.list.span);
    }
    if (scope.lookup(clause.variable) !== undefined) {
      throw bindError('VariableAlreadyBound', `variable \`${clause.variable}\` is already bound`, clause.variable_span);
    }
    const type = list.type.kind === 'list' ? elementOf(list.type) : list.type;
    const variable = this.c.variables.make(clause.variable, kindOfType(type), type);
    // The body's own variables (a CREATE's new nodes, the element) stay inside it.
    const inner = new Scope(scope);
    inner.declare(variable);
    const clauses = clause.clauses.map((c) => this.clause(c, inner));
    return { kind: 'foreach', variable, list, clauses, span: clause.span };
  }

  /** `CALL (a, b)`, `CALL (*)`, `CALL ()`: exactly the named outer variables, each once. */
  private scopeClause(clause: SubqueryCallClause, scope: Scope): BoundVariable[] {
    if (clause.scope === 'all') return scope.visible();
    const seen = new Set<string>();
    return (clause.scope ?? []).map((s) => {
      if (seen.has(s.name)) throw bindError('VariableAlreadyBound', `variable \`${s.name}\` is imported twice`, s.span);
      seen.add(s.name);
      const v = scope.lookup(s.name);
      if (v === undefined) throw bindError('UndefinedVariable', `variable \`${s.name}\` is not defined`, s.span);
      return v;
    });
  }

  /**
   * The older form: a leading WITH that names outer variables imports them. It must be only plain
   * references (`WITH a, b` or `WITH *`), without DISTINCT, ORDER BY, SKIP, LIMIT or WHERE; a body that
   * starts otherwise imports nothing, and an outer name used inside is a new variable there.
   */
  private importingWith(part: SingleQuery, scope: Scope): BoundVariable[] {
    const first = part.clauses[0];
    if (first?.kind !== 'with') return [];
    const p = first.projection;
    const names = new Set<string>();
    for (const item of p.items) mentionedNames(item.expression, names);
    const outerNames = [...names].filter((n) => scope.lookup(n) !== undefined);
    if (!p.star && outerNames.length === 0) return [];
    const refuse = (what: string, span: Span): never => {
      throw bindError('InvalidClauseComposition', `an importing WITH may only name outer variables (WITH a, b): ${what}`, span);
    };
    this.checkPlainImport(first, refuse);
    for (const item of p.items) {
      const e = item.expression;
      if (e.kind !== 'variable') return refuse('an expression needs its own WITH after the import', item.span);
      const name = e.name;
      if (item.alias !== undefined && item.alias !== name) refuse(`\`${name}\` cannot be renamed while imported`, item.span);
      if (scope.lookup(name) === undefined) refuse(`\`${name}\` is not an outer variable`, item.span);
    }
    if (p.star) return scope.visible();
    return outerNames.map((n) => scope.lookup(n) as BoundVariable);
  }

  private checkPlainImport(w: WithClause, refuse: (what: string, span: Span) => never): void {
    const p = w.projection;
    if (p.distinct) refuse('DISTINCT is not allowed', p.span);
    if (p.order.length > 0) refuse('ORDER BY is not allowed', p.span);
    if (p.skip !== undefined) refuse('SKIP is not allowed', p.span);
    if (p.limit !== undefined) refuse('LIMIT is not allowed', p.span);
    if (w.where !== undefined) refuse('WHERE is not allowed', w.where.span);
  }

  /** A returned column is a new outer variable: it needs a name (an alias) that the outer scope does not hold. */
  private checkReturns(clause: SubqueryCallClause, returns: readonly BoundVariable[], scope: Scope): void {
    for (const part of clause.query.parts) {
      const last = part.clauses[part.clauses.length - 1];
      if (last?.kind !== 'return') continue;
      for (const item of last.projection.items) {
        if (item.alias === undefined && item.expression.kind !== 'variable') {
          throw bindError('NoExpressionAlias', `a CALL subquery must name what it returns: \`${item.text}\` needs AS`, item.span);
        }
      }
    }
    for (const v of returns) {
      if (scope.lookup(v.name) !== undefined) {
        throw bindError('VariableAlreadyBound', `variable \`${v.name}\` is already declared in the outer scope; return it under another name`, clause.span);
      }
    }
  }

  /**
   * The batch size (and a concurrency) is constant, like LIMIT's: a literal must be a positive INTEGER,
   * anything else is checked when the statement runs. REPORT STATUS needs an ON ERROR that goes on
   * past a failed batch, and declares its variable after the clause.
   */
  private inTransactions(tx: InTransactions, scope: Scope): BoundInTransactions {
    const constant = (e: Expression, what: string): BoundExpression => {
      const bound = this.expressions.bind(e, { scope: new Scope(), aggregation: 'forbidden', predicate: false });
      if (bound.kind === 'literal' && !(typeof bound.value === 'bigint' && bound.value > 0n)) {
        throw bindError('InvalidArgumentType', `IN TRANSACTIONS: ${what} needs a positive INTEGER`, e.span);
      }
      return bound;
    };
    const rows = tx.rows === undefined ? undefined : constant(tx.rows, 'OF n ROWS');
    const concurrency = tx.concurrency === undefined ? undefined : constant(tx.concurrency, 'the concurrency');
    let retry: BoundOnErrorRetry | undefined;
    if (tx.retry !== undefined) {
      const d = tx.retry.duration;
      const duration = d === undefined ? undefined : this.expressions.bind(d, { scope: new Scope(), aggregation: 'forbidden', predicate: false });
      if (duration?.kind === 'literal' && !retrySeconds(duration.value)) {
        throw bindError('InvalidArgumentType', 'ON ERROR RETRY: the duration needs an INTEGER or FLOAT of at least 0 seconds', d!.span);
      }
      retry = duration === undefined ? {} : { duration };
    }
    let report: BoundVariable | undefined;
    if (tx.report !== undefined) {
      if (tx.on_error === 'fail') {
        throw bindError('InvalidClauseComposition', 'REPORT STATUS can only be used with ON ERROR CONTINUE, ON ERROR BREAK or ON ERROR RETRY THEN CONTINUE or BREAK', tx.report.span);
      }
      if (scope.lookup(tx.report.name) !== undefined) {
        throw bindError('VariableAlreadyBound', `variable \`${tx.report.name}\` is already declared`, tx.report.span);
      }
      report = this.c.variables.make(tx.report.name, kindOfType(map_type), map_type);
      scope.declare(report);
    }
    return {
      ...(rows !== undefined && { rows }),
      on_error: tx.on_error,
      ...(retry !== undefined && { retry }),
      ...(report !== undefined && { report }),
      concurrent: tx.concurrent,
      ...(concurrency !== undefined && { concurrency }),
    };
  }
}
