import type { CallClause, Clause, RemoveItem, SetItem } from '../ast/clause.js';
import type { Expression, PropertyExpr } from '../ast/expression.js';
import type { DynamicNames } from '../ast/pattern.js';
import type { Span } from '../ast/span.js';
import { assertNever } from '../../common/assert.js';
import type { BoundClause, BoundRemoveItem, BoundSetItem, BoundYield } from './bound-clause.js';
import type { BoundExpression, BoundVariable } from './bound-expression.js';
import { bindError, type BindContext, type ExpressionEnv } from './context.js';
import type { ExpressionBinder } from './bind-expression.js';
import type { ProjectionBinder } from './bind-projection.js';
import { acceptsArgument, no_procedures } from './procedures.js';
import { SubqueryCallBinder } from './bind-subquery-call.js';
import { Scope, csv_file_name, csv_line_name, kindOfType } from './scope.js';
import { describeType, elementOf, integer_type, listOf, map_type, mayBe, string_type } from './static-type.js';

/** Binds one clause against the current scope; returns the clause and the scope after it. */
export class ClauseBinder {
  private readonly subqueries: SubqueryCallBinder;

  constructor(
    private readonly c: BindContext,
    private readonly expressions: ExpressionBinder,
    private readonly projections: ProjectionBinder,
  ) {
    this.subqueries = new SubqueryCallBinder(c, expressions, (clause, scope) => this.bind(clause, scope, false).clause);
  }

  bind(clause: Clause, scope: Scope, standalone: boolean): { clause: BoundClause; scope: Scope } {
    const span = clause.span;
    const env = (s: Scope): ExpressionEnv => ({ scope: s, aggregation: 'forbidden', predicate: false });
    switch (clause.kind) {
      case 'match': {
        const { paths, introduced } = this.c.paths(clause.pattern, scope, 'match');
        const where = clause.where ? this.expressions.predicate(clause.where, env(scope)) : undefined;
        return { clause: { kind: 'match', optional: clause.optional, pattern: paths, ...(where && { where }), introduced, span }, scope };
      }
      case 'unwind': {
        const expression = this.expressions.bind(clause.expression, env(scope));
        if (scope.lookup(clause.variable) !== undefined) {
          throw bindError('VariableAlreadyBound', `variable \`${clause.variable}\` is already bound`, clause.variable_span);
        }
        const type = expression.type.kind === 'list' ? elementOf(expression.type) : expression.type;
        const variable = this.c.variables.make(clause.variable, kindOfType(type), type);
        scope.declare(variable);
        return { clause: { kind: 'unwind', expression, variable, span }, scope };
      }
      case 'load_csv': {
        const url = this.expressions.bind(clause.url, env(scope));
        if (!mayBe(url.type, 'string')) {
          throw bindError('InvalidArgumentType', `LOAD CSV FROM needs a STRING URL, not a ${describeType(url.type)}`, clause.url.span);
        }
        if (scope.lookup(clause.variable) !== undefined) {
          throw bindError('VariableAlreadyBound', `variable \`${clause.variable}\` is already bound`, clause.variable_span);
        }
        const variable = this.c.variables.make(clause.variable, 'value', clause.headers ? map_type : listOf(string_type));
        scope.declare(variable);
        // A later LOAD CSV declares them again: linenumber() and file() answer for the nearest one.
        const line = this.c.variables.make(csv_line_name, 'value', integer_type);
        const file = this.c.variables.make(csv_file_name, 'value', string_type);
        scope.declare(line);
        scope.declare(file);
        const terminator = clause.terminator;
        return { clause: { kind: 'load_csv', headers: clause.headers, url, variable, line, file, ...(terminator !== undefined && { terminator }), span }, scope };
      }
      case 'call':
        return { clause: this.call(clause, scope, standalone), scope };
      case 'create': {
        const { paths } = this.c.paths(clause.pattern, scope, 'create');
        return { clause: { kind: 'create', pattern: paths, span }, scope };
      }
      case 'merge': {
        const { paths } = this.c.paths([clause.path], scope, 'merge');
        const on_create = clause.on_create.map((i) => this.setItem(i, scope));
        const on_match = clause.on_match.map((i) => this.setItem(i, scope));
        return { clause: { kind: 'merge', path: paths[0]!, on_create, on_match, span }, scope };
      }
      case 'set':
        return { clause: { kind: 'set', items: clause.items.map((i) => this.setItem(i, scope)), span }, scope };
      case 'remove':
        return { clause: { kind: 'remove', items: clause.items.map((i) => this.removeItem(i, scope)), span }, scope };
      case 'delete': {
        const expressions = clause.expressions.map((e) => {
          if (e.kind === 'has_labels') {
            throw bindError('InvalidDelete', 'DELETE removes nodes, relationships and paths; use REMOVE to remove a label', e.span);
          }
          const bound = this.expressions.bind(e, env(scope));
          if (!mayBe(bound.type, 'node', 'relationship', 'path', 'list')) {
            throw bindError('InvalidArgumentType', `DELETE needs a node, relationship or path, not a ${describeType(bound.type)}`, e.span);
          }
          return bound;
        });
        return { clause: { kind: 'delete', detach: clause.detach, expressions, span }, scope };
      }
      case 'with': {
        const { projection, post } = this.projections.bind(clause.projection, 'WITH', scope, clause.where);
        return { clause: { kind: 'with', projection, span }, scope: post };
      }
      case 'return': {
        const { projection, post } = this.projections.bind(clause.projection, 'RETURN', scope, undefined);
        return { clause: { kind: 'return', projection, span }, scope: post };
      }
      case 'call_subquery':
        return { clause: this.subqueries.call(clause, scope), scope };
      case 'foreach':
        return { clause: this.subqueries.foreach(clause, scope), scope };
      case 'finish':
        return { clause: { kind: 'finish', span }, scope };
      default:
        return assertNever(clause, 'clause');
    }
  }

  private lookupVariable(name: string, scope: Scope, span: Span): BoundVariable {
    const v = scope.lookup(name);
    if (v === undefined) throw bindError('UndefinedVariable', `variable \`${name}\` is not defined`, span);
    return v;
  }

  private entity(name: string, scope: Scope, span: Span, what: string): BoundVariable {
    const v = this.lookupVariable(name, scope, span);
    if (!mayBe(v.type, 'node', 'relationship')) {
      throw bindError('InvalidArgumentType', `${what} needs a node or relationship, not a ${describeType(v.type)}`, span);
    }
    return v;
  }

  private property(target: PropertyExpr, scope: Scope): { object: BoundExpression; key: string } {
    const object = this.expressions.bind(target.object, { scope, aggregation: 'forbidden', predicate: false });
    if (!mayBe(object.type, 'node', 'relationship', 'map')) {
      throw bindError('InvalidArgumentType', `cannot write property \`${target.key}\` of a ${describeType(object.type)}`, target.span);
    }
    return { object, key: target.key };
  }

  /** `SET n:$(x)` / `REMOVE n:$(x)`: every label the value names; `$any` has no meaning for an update. */
  private dynamicLabels(d: DynamicNames, scope: Scope): BoundExpression {
    if (d.mode === 'any') throw bindError('UnexpectedSyntax', 'SET and REMOVE act on every label named: use $(...), not $any(...)', d.span);
    return this.expressions.bind(d.expression, { scope, aggregation: 'forbidden', predicate: false });
  }

  /** The entity of `x[key]` in SET or REMOVE: a node or relationship (null at run time is skipped). */
  private dynamicTarget(e: Expression, scope: Scope, what: string): BoundExpression {
    const object = this.expressions.bind(e, { scope, aggregation: 'forbidden', predicate: false });
    if (!mayBe(object.type, 'node', 'relationship')) {
      throw bindError('InvalidArgumentType', `${what} x[key] needs a node or relationship, not a ${describeType(object.type)}`, e.span);
    }
    return object;
  }

  private setItem(item: SetItem, scope: Scope): BoundSetItem {
    const env: ExpressionEnv = { scope, aggregation: 'forbidden', predicate: false };
    switch (item.kind) {
      case 'set_property': {
        const { object, key } = this.property(item.target, scope);
        return { kind: 'set_property', object, key, value: this.expressions.bind(item.value, env) };
      }
      case 'replace_properties':
        return { kind: 'replace_properties', variable: this.entity(item.variable, scope, item.span, 'SET ='), value: this.expressions.bind(item.value, env) };
      case 'merge_properties':
        return { kind: 'merge_properties', variable: this.entity(item.variable, scope, item.span, 'SET +='), value: this.expressions.bind(item.value, env) };
      case 'set_labels': {
        const v = this.lookupVariable(item.variable, scope, item.span);
        if (!mayBe(v.type, 'node')) throw bindError('InvalidArgumentType', `labels can only be set on a node, not a ${describeType(v.type)}`, item.span);
        const dynamic = item.dynamic?.map((d) => this.dynamicLabels(d, scope));
        return { kind: 'set_labels', variable: v, labels: item.labels, ...(dynamic && { dynamic }) };
      }
      case 'set_dynamic_property': {
        const object = this.dynamicTarget(item.object, scope, 'SET');
        return { kind: 'set_dynamic_property', object, key: this.expressions.bind(item.key, env), value: this.expressions.bind(item.value, env) };
      }
      default:
        return assertNever(item, 'SET item');
    }
  }

  private removeItem(item: RemoveItem, scope: Scope): BoundRemoveItem {
    switch (item.kind) {
      case 'remove_property': {
        const { object, key } = this.property(item.target, scope);
        return { kind: 'remove_property', object, key };
      }
      case 'remove_labels': {
        const v = this.lookupVariable(item.variable, scope, item.span);
        if (!mayBe(v.type, 'node')) throw bindError('InvalidArgumentType', `labels can only be removed from a node, not a ${describeType(v.type)}`, item.span);
        const dynamic = item.dynamic?.map((d) => this.dynamicLabels(d, scope));
        return { kind: 'remove_labels', variable: v, labels: item.labels, ...(dynamic && { dynamic }) };
      }
      case 'remove_dynamic_property': {
        const object = this.dynamicTarget(item.object, scope, 'REMOVE');
        return { kind: 'remove_dynamic_property', object, key: this.expressions.bind(item.key, { scope, aggregation: 'forbidden', predicate: false }) };
      }
      default:
        return assertNever(item, 'REMOVE item');
    }
  }

  private call(clause: CallClause, scope: Scope, standalone: boolean): BoundClause {
    const span = clause.span;
    const procedure = (this.c.options.procedures ?? no_procedures).lookup(clause.procedure);
    if (procedure === undefined) {
      throw bindError('ProcedureNotFound', `there is no procedure named \`${clause.procedure}\``, span, 'ProcedureError');
    }
    let args: BoundExpression[];
    if (clause.args === undefined) {
      // Arguments taken from same-named parameters are a standalone call's shorthand only.
      if (!standalone && procedure.inputs.length > 0) {
        throw bindError('InvalidArgumentPassingMode', `procedure ${procedure.name} called inside a query needs its arguments in parentheses`, span);
      }
      args = procedure.inputs.map((input) => this.expressions.implicitArgument(input.name, span));
    } else {
      if (clause.args.length !== procedure.inputs.length) {
        throw bindError(
          'InvalidNumberOfArguments',
          `procedure ${procedure.name} takes ${procedure.inputs.length} argument(s), got ${clause.args.length}`,
          span,
        );
      }
      args = clause.args.map((a) => this.expressions.bind(a, { scope, aggregation: 'forbidden', predicate: false }));
      procedure.inputs.forEach((input, i) => {
        const given = (args[i] as BoundExpression).type;
        if (!acceptsArgument(input.type, given)) {
          throw bindError(
            'InvalidArgumentType',
            `procedure ${procedure.name} takes a ${describeType(input.type)} as \`${input.name}\`, got a ${describeType(given)}`,
            span,
          );
        }
      });
    }
    let fields: { field: string; variable: string; span: Span }[];
    if (clause.yield === undefined || clause.yield === 'star') {
      // Without YIELD an in-query call binds nothing; a standalone call returns every output.
      fields = standalone ? procedure.outputs.map((o) => ({ field: o.name, variable: o.name, span })) : [];
    } else {
      fields = clause.yield.map((y) => ({ field: y.field, variable: y.variable, span: y.span }));
    }
    const yields: BoundYield[] = fields.map((f) => {
      const output = procedure.outputs.find((o) => o.name === f.field);
      if (output === undefined) {
        throw bindError('UndefinedVariable', `procedure ${procedure.name} has no output \`${f.field}\``, f.span);
      }
      if (scope.lookup(f.variable) !== undefined) {
        throw bindError('VariableAlreadyBound', `variable \`${f.variable}\` is already bound`, f.span);
      }
      const variable = this.c.variables.make(f.variable, kindOfType(output.type), output.type);
      scope.declare(variable);
      return { field: f.field, variable };
    });
    const where = clause.where ? this.expressions.predicate(clause.where, { scope, aggregation: 'forbidden', predicate: false }) : undefined;
    return { kind: 'call', optional: clause.optional, procedure, args, yields, ...(where && { where }), standalone, span };
  }
}
