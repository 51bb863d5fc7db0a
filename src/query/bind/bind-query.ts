import type { Query, SingleQuery } from '../ast/query.js';
import { clauseUpdates } from '../ast/clause.js';
import type { BoundClause, BoundQuery, BoundSingleQuery } from './bound-clause.js';
import type { BoundVariable } from './bound-expression.js';
import { bindError } from './context.js';
import type { ClauseBinder } from './bind-clause.js';
import { Scope } from './scope.js';

/** Binds a query: each UNION part from the starting scope, then the parts' columns are compared. */
export class QueryBinder {
  constructor(private readonly clauses: ClauseBinder) {}

  /**
   * `outer` is the scope a subquery in an expression (EXISTS, COUNT, COLLECT) starts from; a top-level
   * query starts empty. The outer variables stay visible through the body's WITH clauses and may not
   * be shadowed by a projection there (Neo4j 5: "variables from the outside scope are visible for the
   * entire subquery").
   */
  bind(query: Query, outer: Scope | undefined): BoundQuery {
    const top = query.parts.length === 1 && outer === undefined;
    const start = (): Scope => (outer !== undefined ? outer.flatten() : new Scope());
    const sticky = outer !== undefined ? outer.visible() : [];
    return this.parts(query, (part) => {
      if (outer !== undefined) refuseShadowing(part, sticky);
      return this.single(part, start(), top, outer === undefined, sticky);
    });
  }

  /** A CALL subquery's body: each part from its own starting scope; unlike an expression's subquery it may update. */
  bindCallBody(query: Query, start: (part: SingleQuery) => { scope: Scope; sticky: readonly BoundVariable[] }): BoundQuery {
    return this.parts(query, (part) => {
      const { scope, sticky } = start(part);
      return this.single(part, scope, false, true, sticky);
    });
  }

  private parts(query: Query, bindPart: (part: SingleQuery) => BoundSingleQuery): BoundQuery {
    const parts = query.parts.map(bindPart);
    const columns = parts[0]!.columns.map((c) => c.name);
    parts.forEach((part, i) => {
      const names = part.columns.map((c) => c.name);
      if (names.length !== columns.length || names.some((n, j) => n !== columns[j])) {
        throw bindError(
          'DifferentColumnsInUnion',
          `all parts of a UNION must return the same columns: (${columns.join(', ')}) vs (${names.join(', ')})`,
          query.parts[i]!.span,
        );
      }
    });
    return { parts, union_all: query.union_all, columns };
  }

  private single(part: SingleQuery, start: Scope, top: boolean, writes: boolean, sticky: readonly BoundVariable[] = []): BoundSingleQuery {
    let scope = start;
    const standalone = top && part.clauses.length === 1 && part.clauses[0]!.kind === 'call';
    const bound: BoundClause[] = [];
    for (const clause of part.clauses) {
      if (!writes && clauseUpdates(clause)) {
        throw bindError('InvalidClauseComposition', 'a subquery in an expression cannot update the graph', clause.span);
      }
      const result = this.clauses.bind(clause, scope, standalone);
      bound.push(result.clause);
      scope = result.scope;
      // A WITH starts a new scope; imported variables a WITH neither kept nor replaced are still
      // visible (their slots stay in the rows, which keep their argument's slots).
      if (clause.kind === 'with') for (const v of sticky) if (scope.lookup(v.name) === undefined) scope.declare(v);
    }
    const last = bound[bound.length - 1]!;
    let columns: BoundSingleQuery['columns'] = [];
    if (last.kind === 'return') columns = last.projection.columns.map((c) => ({ name: c.name, variable: c.variable }));
    else if (last.kind === 'call' && last.standalone) columns = last.yields.map((y) => ({ name: y.variable.name, variable: y.variable }));
    return { clauses: bound, columns };
  }
}

/** A WITH or RETURN item of a subquery in an expression may pass an outer variable on, never rename to it. */
function refuseShadowing(part: SingleQuery, outer: readonly BoundVariable[]): void {
  const names = new Set(outer.map((v) => v.name));
  for (const clause of part.clauses) {
    if (clause.kind !== 'with' && clause.kind !== 'return') continue;
    for (const item of clause.projection.items) {
      const plain = item.expression.kind === 'variable' ? item.expression.name : undefined;
      const name = item.alias ?? plain;
      if (name === undefined || !names.has(name) || plain === name) continue;
      throw bindError('VariableAlreadyBound', `variable \`${name}\` shadows a variable of the enclosing query; rename it`, item.span);
    }
  }
}
