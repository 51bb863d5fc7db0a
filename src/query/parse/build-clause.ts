import type {
  CallClause,
  Clause,
  ForeachClause,
  InTransactions,
  LoadCsvClause,
  OnErrorMode,
  OnErrorRetry,
  SubqueryCallClause,
  Projection,
  ProjectionItem,
  RemoveItem,
  SetItem,
  SortItem,
  YieldItem,
} from '../ast/clause.js';
import type { Expression, PropertyExpr } from '../ast/expression.js';
import { joinSpans, type Span } from '../ast/span.js';
import { isUpdatingClause } from '../ast/clause.js';
import { assert } from '../../common/assert.js';
import type { ParserRuleContext } from 'antlr4ng';
import {
  InTransactionsErrorContext,
  InTransactionsRowsContext,
  InTransactionsStatusContext,
  RemoveDynamicPropertyContext,
  RemoveLabelsContext,
  RemovePropertyContext,
  SetAllPropertiesContext,
  SetDynamicPropertyContext,
  SetLabelsContext,
  SetMergePropertiesContext,
  SetPropertyContext,
  type CallClauseContext,
  type ClauseContext,
  type ForeachClauseContext,
  type LoadCsvClauseContext,
  type InTransactionsContext,
  type InTransactionsRetryContext,
  type OrderSkipLimitClauseContext,
  type SubqueryCallClauseContext,
  type SymbolicNameContext,
  type ProjectionBodyContext,
  type PropertyExpressionContext,
  type SetClauseContext,
  type SetItemContext,
  type WhereContext,
} from '../grammar/gen/CypherParser.js';
import { schemaName, symbolicName, variableName, type Builder } from './builder.js';
import type { ExpressionBuilder } from './build-expression.js';
import { labelNames } from './build-expression.js';
import { stringValue } from './literals.js';

/** Builds one clause. Query options written after a MATCH pattern are handed to `onOption`. */
export class ClauseBuilder {
  constructor(
    private readonly b: Builder,
    private readonly expressions: ExpressionBuilder,
    private readonly onOptions: (ctx: ClauseContext) => void,
  ) {}

  /** The clauses one written clause stands for: itself, or for LET one `WITH *` per binding. */
  clauses(ctx: ClauseContext): Clause[] {
    const let_ = ctx.letClause();
    if (let_ === null) return [this.clause(ctx)];
    return let_.letItem().map((item): Clause => {
      const span = this.b.source.span(item);
      const exprCtx = item.expression();
      const projected: ProjectionItem = {
        expression: this.b.expression(exprCtx),
        alias: variableName(item.variable()),
        text: this.b.source.slice(this.b.source.span(exprCtx)),
        span,
      };
      return { kind: 'with', projection: { distinct: false, star: true, items: [projected], order: [], new_names: true, span }, span };
    });
  }

  clause(ctx: ClauseContext): Clause {
    const span = this.b.source.span(ctx);
    const match = ctx.matchClause();
    if (match !== null) {
      this.onOptions(ctx);
      const { pattern, predicates } = this.b.matchPattern(match.pattern());
      // Predicates from inside node patterns come first, then the clause's own WHERE.
      const where = [...predicates, this.where(match.where())]
        .filter((e): e is Expression => e !== undefined)
        .reduce<Expression | undefined>((acc, e) => (acc === undefined ? e : { kind: 'binary', op: 'and', left: acc, right: e, span: e.span }), undefined);
      return {
        kind: 'match',
        optional: match.OPTIONAL() !== null,
        pattern,
        ...(where && { where }),
        span,
      };
    }
    const unwind = ctx.unwindClause();
    if (unwind !== null) {
      const v = unwind.variable();
      return {
        kind: 'unwind',
        expression: this.b.expression(unwind.expression()),
        variable: variableName(v),
        variable_span: this.b.source.span(v),
        span,
      };
    }
    const load = ctx.loadCsvClause();
    if (load !== null) return this.loadCsv(load, span);
    const call = ctx.callClause();
    if (call !== null) return this.call(call);
    const subquery = ctx.subqueryCallClause();
    if (subquery !== null) return this.subqueryCall(subquery);
    const foreach = ctx.foreachClause();
    if (foreach !== null) return this.foreach(foreach);
    if (ctx.finishClause() !== null) return { kind: 'finish', span };
    const filter = ctx.filterClause();
    if (filter !== null) {
      const where = this.b.expression(filter.expression());
      return { kind: 'with', projection: { distinct: false, star: true, items: [], order: [], span }, where, span };
    }
    const osl = ctx.orderSkipLimitClause();
    if (osl !== null) {
      // The same as WITH * with these subclauses: every variable passes, sorted or cut.
      return { kind: 'with', projection: { distinct: false, star: true, items: [], ...this.orderSkipLimit(osl), span }, span };
    }
    const create = ctx.createClause();
    if (create !== null) return { kind: 'create', pattern: this.b.pattern(create.pattern()), span };
    const merge = ctx.mergeClause();
    if (merge !== null) {
      const on_create: SetItem[] = [];
      const on_match: SetItem[] = [];
      for (const action of merge.mergeAction()) {
        const items = this.setItems(action.setClause());
        (action.CREATE() !== null ? on_create : on_match).push(...items);
      }
      return { kind: 'merge', path: this.b.path(merge.patternPart()), on_create, on_match, span };
    }
    const set = ctx.setClause();
    if (set !== null) return { kind: 'set', items: this.setItems(set), span };
    const remove = ctx.removeClause();
    if (remove !== null) {
      const items = remove.removeItem().map((item): RemoveItem => {
        const item_span = this.b.source.span(item);
        if (item instanceof RemoveLabelsContext) {
          const dynamic = this.expressions.dynamicNames(item.nodeLabels());
          return {
            kind: 'remove_labels',
            variable: variableName(item.variable()),
            labels: labelNames(item.nodeLabels()),
            ...(dynamic.length > 0 && { dynamic }),
            span: item_span,
          };
        }
        if (item instanceof RemoveDynamicPropertyContext) {
          return { kind: 'remove_dynamic_property', object: this.expressions.atomOf(item.atom()), key: this.b.expression(item.expression()), span: item_span };
        }
        assert(item instanceof RemovePropertyContext, 'unknown REMOVE item');
        return { kind: 'remove_property', target: this.propertyTarget(item.propertyExpression()), span: item_span };
      });
      return { kind: 'remove', items, span };
    }
    const del = ctx.deleteClause();
    if (del !== null) {
      return { kind: 'delete', detach: del.DETACH() !== null, expressions: del.expression().map((e) => this.b.expression(e)), span };
    }
    const w = ctx.withClause();
    if (w !== null) {
      const where = this.where(w.where());
      return { kind: 'with', projection: this.projection(w.projectionBody()), ...(where && { where }), span };
    }
    const ret = ctx.returnClause();
    assert(ret !== null, `unknown clause ${ctx.getText()}`);
    return { kind: 'return', projection: this.projection(ret.projectionBody()), span };
  }

  private where(ctx: WhereContext | null): Expression | undefined {
    return ctx !== null ? this.b.expression(ctx.expression()) : undefined;
  }

  private call(ctx: CallClauseContext): CallClause {
    const name = ctx.procedureName();
    const procedure = name.schemaName().map(schemaName).join('.');
    const args = ctx.LPAREN() !== null ? ctx.expression().map((e) => this.b.expression(e)) : undefined;
    let yielded: CallClause['yield'];
    let where: Expression | undefined;
    if (ctx.YIELD() !== null) {
      const items = ctx.yieldItems();
      if (items === null) {
        yielded = 'star';
      } else {
        yielded = items.yieldItem().map((item): YieldItem => {
          const variable = variableName(item.variable());
          const field = item.symbolicName();
          return { field: field !== null ? symbolicName(field) : variable, variable, span: this.b.source.span(item) };
        });
        where = this.where(items.where());
      }
    }
    return {
      kind: 'call',
      optional: ctx.OPTIONAL() !== null,
      procedure,
      ...(args && { args }),
      ...(yielded !== undefined && { yield: yielded }),
      ...(where && { where }),
      span: this.b.source.span(ctx),
    };
  }

  private subqueryCall(ctx: SubqueryCallClauseContext): SubqueryCallClause {
    const scopeCtx = ctx.subqueryScope();
    let scope: SubqueryCallClause['scope'];
    if (scopeCtx !== null) {
      scope =
        scopeCtx.STAR() !== null
          ? 'all'
          : scopeCtx.variable().map((v) => ({ name: variableName(v), span: this.b.source.span(v) }));
    }
    const tx = ctx.inTransactions();
    return {
      kind: 'call_subquery',
      optional: ctx.OPTIONAL() !== null,
      ...(scope !== undefined && { scope }),
      query: this.b.callQuery(ctx.query()),
      ...(tx !== null && { in_transactions: this.inTransactions(tx) }),
      span: this.b.source.span(ctx),
    };
  }

  /**
   * The words of IN TRANSACTIONS are not reserved, so they are checked here; so is each parameter
   * (OF n ROWS, ON ERROR, REPORT STATUS) being given at most once, in whatever order.
   */
  private inTransactions(ctx: InTransactionsContext): InTransactions {
    const span = this.b.source.span(ctx);
    const word = (w: SymbolicNameContext | undefined): string =>
      w === undefined ? '' : symbolicName(w).toUpperCase();
    const expect = (ok: boolean, what: string): void => {
      if (!ok) throw this.b.source.error('UnexpectedSyntax', `IN TRANSACTIONS: expected ${what}`, span);
    };
    const once = (given: unknown, what: string, at: ParserRuleContext): void => {
      if (given !== undefined) throw this.b.source.error('UnexpectedSyntax', `IN TRANSACTIONS: duplicated ${what} parameter`, this.b.source.span(at));
    };
    expect(word(ctx._transactionsWord) === 'TRANSACTIONS', 'TRANSACTIONS after IN');
    if (ctx._concurrentWord !== undefined) expect(word(ctx._concurrentWord) === 'CONCURRENT', 'CONCURRENT TRANSACTIONS');
    let rows: Expression | undefined;
    let on_error: OnErrorMode | undefined;
    let retry: OnErrorRetry | undefined;
    let report: { name: string; span: Span } | undefined;
    for (const p of ctx.inTransactionsParameter()) {
      if (p instanceof InTransactionsRowsContext) {
        once(rows, 'OF ROWS', p);
        expect(['ROW', 'ROWS'].includes(word(p._rowsWord)), 'ROWS after OF n');
        rows = this.b.expression(p._batchSize!);
      } else if (p instanceof InTransactionsErrorContext) {
        once(on_error, 'ON ERROR', p);
        expect(word(p._errorWord) === 'ERROR', 'ERROR after ON');
        const mode = word(p._errorMode);
        const r = p.inTransactionsRetry();
        if (mode === 'RETRY') {
          ({ on_error, retry } = this.onErrorRetry(r, p));
        } else {
          expect(r === null && (mode === 'FAIL' || mode === 'CONTINUE' || mode === 'BREAK'), 'CONTINUE, BREAK, FAIL or RETRY after ON ERROR');
          on_error = mode.toLowerCase() as OnErrorMode;
        }
      } else if (p instanceof InTransactionsStatusContext) {
        once(report, 'REPORT STATUS', p);
        const r = p.inTransactionsReport();
        expect(word(r._reportWord) === 'REPORT' && word(r._statusWord) === 'STATUS', 'REPORT STATUS AS');
        report = { name: variableName(r.variable()), span: this.b.source.span(r.variable()) };
      }
    }
    return {
      ...(rows !== undefined && { rows }),
      on_error: on_error ?? 'fail',
      ...(retry !== undefined && { retry }),
      ...(report !== undefined && { report }),
      ...(ctx._concurrency !== undefined && { concurrency: this.b.expression(ctx._concurrency) }),
      concurrent: ctx._concurrentWord !== undefined,
      span,
    };
  }

  /** `RETRY [[FOR] d SEC[OND[S]]] [THEN CONTINUE | BREAK | FAIL]`: THEN CONTINUE is the manual's default. */
  private onErrorRetry(ctx: InTransactionsRetryContext | null, at: ParserRuleContext): { on_error: OnErrorMode; retry: OnErrorRetry } {
    const span = this.b.source.span(at);
    if (ctx === null) return { on_error: 'continue', retry: { span } };
    const word = (w: SymbolicNameContext | undefined): string => (w === undefined ? '' : symbolicName(w).toUpperCase());
    if (ctx._unitWord !== undefined && !['SEC', 'SECOND', 'SECONDS'].includes(word(ctx._unitWord))) {
      throw this.b.source.error('UnexpectedSyntax', 'ON ERROR RETRY: expected SEC, SECOND or SECONDS after the duration', this.b.source.span(ctx._unitWord));
    }
    let on_error: OnErrorMode = 'continue';
    if (ctx._thenMode !== undefined) {
      const mode = word(ctx._thenMode);
      if (mode !== 'FAIL' && mode !== 'CONTINUE' && mode !== 'BREAK') {
        throw this.b.source.error('UnexpectedSyntax', 'ON ERROR RETRY: expected CONTINUE, BREAK or FAIL after THEN', this.b.source.span(ctx._thenMode));
      }
      on_error = mode.toLowerCase() as OnErrorMode;
    }
    return { on_error, retry: { ...(ctx._duration !== undefined && { duration: this.b.expression(ctx._duration) }), span } };
  }

  /** LOAD CSV: FIELDTERMINATOR names one character, neither a quote nor a line break. */
  private loadCsv(ctx: LoadCsvClauseContext, span: Span): LoadCsvClause {
    const v = ctx.variable();
    const t = ctx.StringLiteral();
    let terminator: string | undefined;
    if (t !== null) {
      const tspan = span;
      terminator = stringValue(t.getText(), tspan, this.b.source.error.bind(this.b.source));
      if ([...terminator].length !== 1) {
        throw this.b.source.error('InvalidArgumentValue', `FIELDTERMINATOR needs one character, not '${terminator}'`, tspan);
      }
      if (terminator === '"' || terminator === '\n' || terminator === '\r') {
        throw this.b.source.error('InvalidArgumentValue', 'FIELDTERMINATOR cannot be a double quote or a line break', tspan);
      }
    }
    return {
      kind: 'load_csv',
      headers: ctx.HEADERS() !== null,
      url: this.b.expression(ctx.expression()),
      variable: variableName(v),
      variable_span: this.b.source.span(v),
      ...(terminator !== undefined && { terminator }),
      span,
    };
  }

  /** FOREACH holds updating clauses only (FOREACH among them): a read inside is refused here. */
  private foreach(ctx: ForeachClauseContext): ForeachClause {
    const clauses = ctx.clause().flatMap((c) => this.clauses(c));
    for (const c of clauses) {
      if (!isUpdatingClause(c)) {
        throw this.b.source.error('InvalidClauseComposition', 'FOREACH may only hold updating clauses (CREATE, MERGE, SET, REMOVE, DELETE, FOREACH)', c.span);
      }
    }
    const v = ctx.variable();
    return {
      kind: 'foreach',
      variable: variableName(v),
      variable_span: this.b.source.span(v),
      list: this.b.expression(ctx.expression()),
      clauses,
      span: this.b.source.span(ctx),
    };
  }

  private setItems(ctx: SetClauseContext): SetItem[] {
    return ctx.setItem().map((item) => this.setItem(item));
  }

  private setItem(item: SetItemContext): SetItem {
    const span = this.b.source.span(item);
    if (item instanceof SetPropertyContext) {
      return {
        kind: 'set_property',
        target: this.propertyTarget(item.propertyExpression()),
        value: this.b.expression(item.expression()),
        span,
      };
    }
    if (item instanceof SetAllPropertiesContext) {
      return {
        kind: 'replace_properties',
        variable: variableName(item.variable()),
        value: this.b.expression(item.expression()),
        span,
      };
    }
    if (item instanceof SetMergePropertiesContext) {
      return {
        kind: 'merge_properties',
        variable: variableName(item.variable()),
        value: this.b.expression(item.expression()),
        span,
      };
    }
    if (item instanceof SetDynamicPropertyContext) {
      return {
        kind: 'set_dynamic_property',
        object: this.expressions.atomOf(item.atom()),
        key: this.b.expression(item._key!),
        value: this.b.expression(item._value!),
        span,
      };
    }
    assert(item instanceof SetLabelsContext, 'unknown SET item');
    const dynamic = this.expressions.dynamicNames(item.nodeLabels());
    return {
      kind: 'set_labels',
      variable: variableName(item.variable()),
      labels: labelNames(item.nodeLabels()),
      ...(dynamic.length > 0 && { dynamic }),
      span,
    };
  }

  /** `a.b.c` as the target of SET or REMOVE: the last lookup is the property written. */
  private propertyTarget(ctx: PropertyExpressionContext): PropertyExpr {
    let e: Expression = this.expressions.atomOf(ctx.atom());
    for (const lookup of ctx.propertyLookup()) {
      e = {
        kind: 'property',
        object: e,
        key: schemaName(lookup.propertyKeyName().schemaName()),
        span: joinSpans(e.span, this.b.source.span(lookup)),
      };
    }
    assert(e.kind === 'property', 'property expression without a lookup');
    return e;
  }

  projection(ctx: ProjectionBodyContext): Projection {
    const itemsCtx = ctx.projectionItems();
    const items = itemsCtx.projectionItem().map((item): ProjectionItem => {
      const exprCtx = item.expression();
      const expression = this.b.expression(exprCtx);
      const alias = item.variable();
      // `AS true`: the column is named as written, a name only backticks can read again.
      const literal = item.literalAlias()?.getText();
      const text = this.b.source.slice(this.b.source.span(exprCtx));
      return {
        expression,
        ...(alias !== null && { alias: variableName(alias) }),
        ...(literal !== undefined && { alias: literal }),
        text,
        span: this.b.source.span(item),
      };
    });
    return {
      distinct: ctx.DISTINCT() !== null,
      star: itemsCtx.STAR() !== null,
      items,
      ...this.orderSkipLimit(ctx),
      span: this.b.source.span(ctx),
    };
  }

  /** ORDER BY, SKIP and LIMIT of a projection, or of the clause that stands for `WITH *` with them. */
  private orderSkipLimit(ctx: ProjectionBodyContext | OrderSkipLimitClauseContext): Pick<Projection, 'order' | 'skip' | 'limit'> {
    const order = (ctx.order()?.sortItem() ?? []).map((s): SortItem => {
      const dir = (s.DESC() ?? s.DESCENDING()) !== null ? 'desc' : 'asc';
      return { expression: this.b.expression(s.expression()), direction: dir, span: this.b.source.span(s) };
    });
    const skip = ctx.skip();
    const limit = ctx.limit();
    return {
      order,
      ...(skip !== null && { skip: this.b.expression(skip.expression()) }),
      ...(limit !== null && { limit: this.b.expression(limit.expression()) }),
    };
  }
}
