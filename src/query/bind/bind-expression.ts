import type { BinaryOperator, Expression, LiteralValue } from '../ast/expression.js';
import type { Span } from '../ast/span.js';
import { assertNever } from '../../common/assert.js';
import { astKey } from './ast-walk.js';
import { callsNonDeterministic } from './bound-walk.js';
import type { BoundExpression, BoundMapProjectionItem, BoundVariable } from './bound-expression.js';
import { bindError, type BindContext, type ExpressionEnv } from './context.js';
import { checkFunctionArguments, functionResultType } from './function-types.js';
import { Scope, csv_file_name, csv_line_name, kindOfType } from './scope.js';
import {
  any_type,
  boolean_type,
  describeType,
  elementOf,
  float_type,
  integer_type,
  isInstant,
  isKnown,
  isNumeric,
  isTemporal,
  join,
  listOf,
  map_type,
  mayBe,
  mayBeBoolean,
  null_type,
  number_type,
  string_type,
  temporal_kinds,
  type StaticType,
} from './static-type.js';

export function literalType(value: LiteralValue): StaticType {
  if (value === null) return null_type;
  switch (typeof value) {
    case 'boolean':
      return boolean_type;
    case 'bigint':
      return integer_type;
    case 'number':
      return float_type;
    default:
      return string_type;
  }
}

/** Binds expressions: resolves variables, checks functions, aggregation placement and the types openCypher checks statically. */
export class ExpressionBinder {
  constructor(private readonly c: BindContext) {}

  bind(e: Expression, env: ExpressionEnv): BoundExpression {
    const substituted = env.substitutions?.get(astKey(e));
    if (substituted !== undefined) return { kind: 'variable', variable: substituted, type: substituted.type, span: e.span };
    const span = e.span;
    // Only boolean connectives keep a pattern in predicate position.
    const plain: ExpressionEnv = env.predicate ? { ...env, predicate: false } : env;
    switch (e.kind) {
      case 'literal':
        return { kind: 'literal', value: e.value, type: literalType(e.value), span };
      case 'list': {
        const items = e.items.map((i) => this.bind(i, plain));
        const element = items.reduce<StaticType>((t, i) => join(t, i.type), null_type);
        return { kind: 'list', items, type: listOf(items.length === 0 ? any_type : element), span };
      }
      case 'map':
        return { kind: 'map', entries: e.entries.map((x) => ({ key: x.key, value: this.bind(x.value, plain) })), type: map_type, span };
      case 'parameter':
        return this.parameter(e.name, span);
      case 'variable': {
        const v = env.scope.lookup(e.name);
        if (v === undefined) throw bindError('UndefinedVariable', `variable \`${e.name}\` is not defined`, span);
        return { kind: 'variable', variable: v, type: v.type, span };
      }
      case 'property': {
        const object = this.bind(e.object, plain);
        // Temporal values have fields (`date().year`, `d.days`).
        if (!mayBe(object.type, 'map', 'node', 'relationship', ...temporal_kinds)) {
          throw bindError('InvalidArgumentType', `cannot read property \`${e.key}\` of a ${describeType(object.type)}`, span);
        }
        return { kind: 'property', object, key: e.key, type: any_type, span };
      }
      case 'index': {
        const object = this.bind(e.object, plain);
        const index = this.bind(e.index, plain);
        return { kind: 'index', object, index, type: object.type.kind === 'list' ? elementOf(object.type) : any_type, span };
      }
      case 'slice': {
        const object = this.bind(e.object, plain);
        const from = e.from ? this.bind(e.from, plain) : undefined;
        const to = e.to ? this.bind(e.to, plain) : undefined;
        return { kind: 'slice', object, ...(from && { from }), ...(to && { to }), type: object.type.kind === 'list' ? object.type : listOf(any_type), span };
      }
      case 'has_labels': {
        const subject = this.bind(e.subject, plain);
        if (!mayBe(subject.type, 'node', 'relationship')) {
          throw bindError('InvalidArgumentType', `a label test needs a node or relationship, not a ${describeType(subject.type)}`, span);
        }
        return { kind: 'has_labels', subject, labels: e.labels, type: boolean_type, span };
      }
      case 'unary': {
        if (e.op === 'not') {
          const operand = this.bind(e.operand, env);
          this.requireBoolean(operand, 'NOT');
          return { kind: 'unary', op: 'not', operand, type: boolean_type, span };
        }
        const operand = this.bind(e.operand, plain);
        if (isKnown(operand.type) && !isNumeric(operand.type) && operand.type.kind !== 'duration') {
          throw bindError('InvalidArgumentType', `unary ${e.op === 'neg' ? '-' : '+'} needs a number or a duration, not a ${describeType(operand.type)}`, span);
        }
        return { kind: 'unary', op: e.op, operand, type: isNumeric(operand.type) || operand.type.kind === 'duration' ? operand.type : any_type, span };
      }
      case 'binary':
        return this.binary(e.op, e.left, e.right, env, span);
      case 'is_null':
        return { kind: 'is_null', operand: this.bind(e.operand, plain), negated: e.negated, type: boolean_type, span };
      case 'function':
        if (e.name.toLowerCase() === 'exists' && !e.distinct) return this.existsFunction(e.args, env, span);
        return this.functionCall(e.name, e.distinct, e.args, plain, span);
      case 'count_star':
        this.checkAggregationPlace('count(*)', plain, span, () => undefined);
        return { kind: 'aggregate', name: 'count', distinct: false, args: [], star: true, type: integer_type, span };
      case 'case': {
        const subject = e.subject ? this.bind(e.subject, plain) : undefined;
        const alternatives = e.alternatives.map((a) => ({ when: this.bind(a.when, plain), then: this.bind(a.then, plain) }));
        // A generic CASE's WHEN is a condition: one that can never be a boolean is refused, as in WHERE.
        if (subject === undefined) for (const a of alternatives) this.requireBoolean(a.when, 'CASE WHEN');
        const otherwise = e.otherwise ? this.bind(e.otherwise, plain) : undefined;
        let type = otherwise?.type ?? null_type;
        for (const a of alternatives) type = join(type, a.then.type);
        return { kind: 'case', ...(subject && { subject }), alternatives, ...(otherwise && { otherwise }), type, span };
      }
      case 'list_comprehension': {
        const source = this.iterated(e.source, plain, 'a list comprehension');
        const { scope, variable } = this.local(e.variable, elementOf(source.type), env.scope);
        const inner: ExpressionEnv = { scope, aggregation: 'forbidden', predicate: false };
        const where = e.where ? this.predicate(e.where, inner) : undefined;
        const projection = e.projection ? this.bind(e.projection, inner) : undefined;
        const type = listOf(projection ? projection.type : variable.type);
        return { kind: 'list_comprehension', variable, source, ...(where && { where }), ...(projection && { projection }), type, span };
      }
      case 'quantifier': {
        const source = this.iterated(e.source, plain, `${e.quantifier}()`);
        const { scope, variable } = this.local(e.variable, elementOf(source.type), env.scope);
        const inner: ExpressionEnv = { scope, aggregation: 'forbidden', predicate: false };
        const where = e.where ? this.predicate(e.where, inner) : undefined;
        return { kind: 'quantifier', quantifier: e.quantifier, variable, source, ...(where && { where }), type: boolean_type, span };
      }
      case 'reduce': {
        const initial = this.bind(e.initial, plain);
        const source = this.iterated(e.source, plain, 'reduce()');
        const scope = new Scope(env.scope);
        const accumulator = this.c.variables.make(e.accumulator, 'value', any_type);
        const variable = this.c.variables.make(e.variable, kindOfType(elementOf(source.type)), elementOf(source.type));
        scope.declare(accumulator);
        scope.declare(variable);
        const step = this.bind(e.step, { scope, aggregation: 'forbidden', predicate: false });
        return { kind: 'reduce', accumulator, initial, variable, source, step, type: join(initial.type, step.type), span };
      }
      case 'pattern_comprehension': {
        const scope = new Scope(env.scope);
        const { paths } = this.c.paths([e.path], scope, 'local');
        const inner: ExpressionEnv = { scope, aggregation: 'forbidden', predicate: false };
        const where = e.where ? this.predicate(e.where, inner) : undefined;
        const projection = this.bind(e.projection, inner);
        return { kind: 'pattern_comprehension', path: paths[0]!, ...(where && { where }), projection, type: listOf(projection.type), span };
      }
      case 'pattern_predicate': {
        if (!env.predicate) {
          throw bindError(
            'UnexpectedSyntax',
            'a pattern can only be used as a predicate (in WHERE); use a pattern comprehension or EXISTS { } to get a value',
            span,
          );
        }
        const { paths } = this.c.paths([e.path], env.scope, 'predicate');
        return { kind: 'pattern_predicate', path: paths[0]!, type: boolean_type, span };
      }
      case 'exists_subquery': {
        const resultType = e.measure === 'count' ? integer_type : e.measure === 'collect' ? listOf(any_type) : boolean_type;
        if (e.body.kind === 'query') {
          const query = this.c.subquery(e.body.query, env.scope);
          // COLLECT { } makes a list of one column: its body must end in a RETURN of exactly one.
          if (e.measure === 'collect' && query.columns.length !== 1) {
            throw bindError('InvalidClauseComposition', 'a COLLECT subquery must end with a RETURN of exactly one column', span);
          }
          // Parts without RETURN have no columns, so a UNION that removes duplicates would count all
          // their rows as one; EXISTS, asking only whether there is a row, may leave RETURN out.
          if (e.measure === 'count' && query.parts.length > 1 && !query.union_all && query.columns.length === 0) {
            throw bindError('InvalidClauseComposition', 'a COUNT subquery with UNION must end every part with RETURN (UNION ALL need not)', span);
          }
          return { kind: 'exists_subquery', measure: e.measure, body: { kind: 'query', query }, type: resultType, span };
        }
        if (e.measure === 'collect') throw bindError('InvalidClauseComposition', 'a COLLECT subquery must end with a RETURN of exactly one column', span);
        const scope = new Scope(env.scope);
        const { paths } = this.c.paths(e.body.pattern, scope, 'local');
        const where = e.body.where ? this.predicate(e.body.where, { scope, aggregation: 'forbidden', predicate: true }) : undefined;
        return { kind: 'exists_subquery', measure: e.measure, body: { kind: 'pattern', pattern: paths, ...(where && { where }) }, type: resultType, span };
      }
      case 'map_projection': {
        const subject = env.scope.lookup(e.variable);
        if (subject === undefined) throw bindError('UndefinedVariable', `variable \`${e.variable}\` is not defined`, e.variable_span);
        if (!mayBe(subject.type, 'map', 'node', 'relationship')) {
          throw bindError('InvalidArgumentType', `a map projection needs a node, relationship or map, not a ${describeType(subject.type)}`, span);
        }
        const items = e.items.map((i): BoundMapProjectionItem => {
          switch (i.kind) {
            case 'entry':
              return { kind: 'entry', key: i.key, value: this.bind(i.value, plain) };
            case 'property':
              return i;
            case 'all_properties':
              return i;
            case 'variable': {
              const v = env.scope.lookup(i.name);
              if (v === undefined) throw bindError('UndefinedVariable', `variable \`${i.name}\` is not defined`, i.span);
              return { kind: 'variable', key: i.name, variable: v };
            }
            default:
              return assertNever(i, 'map projection item');
          }
        });
        return { kind: 'map_projection', subject, items, type: map_type, span };
      }
      default:
        return assertNever(e, 'expression');
    }
  }

  /** A WHERE-like condition: patterns may stand as predicates, and the value must be able to be boolean. */
  predicate(e: Expression, env: ExpressionEnv): BoundExpression {
    const bound = this.bind(e, { ...env, predicate: true });
    if (!mayBeBoolean(bound.type)) {
      throw bindError('InvalidArgumentType', `a predicate must be a boolean, not a ${describeType(bound.type)}`, e.span);
    }
    return bound;
  }

  private parameter(name: string, span: Span): BoundExpression {
    const supplied = this.c.options.parameters;
    if (supplied !== undefined && !supplied.has(name)) {
      throw bindError('MissingParameter', `expected parameter \`$${name}\``, span, 'ParameterMissing');
    }
    this.c.parameters.add(name);
    return { kind: 'parameter', name, type: any_type, span };
  }

  /** A parameter standing for a procedure's implicit argument. */
  implicitArgument(name: string, span: Span): BoundExpression {
    return this.parameter(name, span);
  }

  private local(name: string, type: StaticType, parent: Scope): { scope: Scope; variable: BoundVariable } {
    const scope = new Scope(parent);
    const variable = this.c.variables.make(name, kindOfType(type), type);
    scope.declare(variable);
    return { scope, variable };
  }

  /**
   * The list a comprehension, quantifier or reduce iterates. One known before running not to be a list
   * is refused; at run time any other value counts as a list of itself (execute/expression.ts).
   */
  private iterated(e: Expression, env: ExpressionEnv, what: string): BoundExpression {
    const source = this.bind(e, env);
    if (!mayBe(source.type, 'list')) {
      throw bindError('InvalidArgumentType', `${what} iterates a list, not a ${describeType(source.type)}`, source.span);
    }
    return source;
  }

  private requireBoolean(operand: BoundExpression, op: string): void {
    if (!mayBeBoolean(operand.type)) {
      throw bindError('InvalidArgumentType', `${op} needs boolean operands, not a ${describeType(operand.type)}`, operand.span);
    }
  }

  private binary(op: BinaryOperator, l: Expression, r: Expression, env: ExpressionEnv, span: Span): BoundExpression {
    if (op === 'and' || op === 'or' || op === 'xor') {
      const left = this.bind(l, env);
      const right = this.bind(r, env);
      this.requireBoolean(left, op.toUpperCase());
      this.requireBoolean(right, op.toUpperCase());
      return { kind: 'binary', op, left, right, type: boolean_type, span };
    }
    const plain: ExpressionEnv = { ...env, predicate: false };
    const left = this.bind(l, plain);
    const right = this.bind(r, plain);
    const made = (type: StaticType): BoundExpression => ({ kind: 'binary', op, left, right, type, span });
    const refuse = (what: string): never => {
      throw bindError(
        'InvalidArgumentType',
        `${what} cannot be applied to ${describeType(left.type)} and ${describeType(right.type)}`,
        span,
      );
    };
    switch (op) {
      case 'eq':
      case 'neq':
      case 'lt':
      case 'gt':
      case 'lte':
      case 'gte':
      case 'regex':
      case 'starts_with':
      case 'ends_with':
      case 'contains':
        return made(boolean_type);
      case 'in':
        if (!mayBe(right.type, 'list')) refuse('IN');
        return made(boolean_type);
      case 'add': {
        if (left.type.kind === 'list' || right.type.kind === 'list') {
          const element = join(elementOf(left.type.kind === 'list' ? left.type : listOf(left.type)), elementOf(right.type.kind === 'list' ? right.type : listOf(right.type)));
          return made(listOf(element));
        }
        const unaddable = (t: StaticType): boolean => ['boolean', 'map', 'node', 'relationship', 'path'].includes(t.kind);
        if (unaddable(left.type) || unaddable(right.type)) refuse('+');
        if (isTemporal(left.type) || isTemporal(right.type)) return made(temporalArithmetic('add', left.type, right.type) ?? refuse('+'));
        if (left.type.kind === 'string' || right.type.kind === 'string') return made(isKnown(left.type) && isKnown(right.type) ? string_type : any_type);
        return made(numericResult(left.type, right.type));
      }
      case 'sub':
      case 'mul':
      case 'div':
      case 'mod':
      case 'pow': {
        if ((op === 'sub' || op === 'mul' || op === 'div') && (isTemporal(left.type) || isTemporal(right.type))) {
          return made(temporalArithmetic(op, left.type, right.type) ?? refuse(symbol(op)));
        }
        const arithmetic = (t: StaticType): boolean => !isKnown(t) || isNumeric(t);
        if (!arithmetic(left.type) || !arithmetic(right.type)) refuse(symbol(op));
        return made(op === 'pow' ? (isKnown(left.type) && isKnown(right.type) ? float_type : any_type) : numericResult(left.type, right.type));
      }
      default:
        return assertNever(op as never, 'binary operator');
    }
  }

  private checkAggregationPlace(name: string, env: ExpressionEnv, span: Span, bindArgs: () => void): void {
    if (env.aggregation === 'allowed') return;
    // Arguments first: an undefined variable inside a misplaced aggregate is reported as undefined.
    bindArgs();
    if (env.aggregation === 'nested') {
      throw bindError('NestedAggregation', `an aggregate (${name}) cannot be used inside another aggregate`, span);
    }
    throw bindError('InvalidAggregation', `an aggregate (${name}) can only be used in WITH and RETURN items`, span);
  }

  /**
   * openCypher 9's `exists(n.prop)` (the property is present: `n.prop IS NOT NULL`) and
   * `exists((n)-->())` (the pattern has a match). Anything else has no meaning for it.
   */
  private existsFunction(argExprs: readonly Expression[], env: ExpressionEnv, span: Span): BoundExpression {
    if (argExprs.length !== 1) throw bindError('InvalidNumberOfArguments', `exists() takes 1 argument, got ${argExprs.length}`, span);
    const a = argExprs[0]!;
    switch (a.kind) {
      case 'property':
        return { kind: 'is_null', operand: this.bind(a, { ...env, predicate: false }), negated: true, type: boolean_type, span };
      case 'pattern_predicate': {
        const { paths } = this.c.paths([a.path], env.scope, 'predicate');
        return { kind: 'pattern_predicate', path: paths[0]!, type: boolean_type, span };
      }
      default:
        throw bindError('InvalidArgumentType', 'exists() takes a property access (n.prop) or a pattern', span);
    }
  }

  private functionCall(name: string, distinct: boolean, argExprs: readonly Expression[], env: ExpressionEnv, span: Span): BoundExpression {
    // The line or file of the row of the nearest LOAD CSV in scope; without one, the catalog's functions
    // answer for the record read last (null before any: the manual).
    const csv = argExprs.length === 0 && !distinct ? csvFunction(name) : undefined;
    const variable = csv === undefined ? undefined : env.scope.lookup(csv === 'line' ? csv_line_name : csv_file_name);
    if (variable !== undefined) return { kind: 'variable', variable, type: csv === 'line' ? integer_type : string_type, span };
    const signature = this.c.lookupFunction(name);
    if (signature === undefined) throw bindError('UnknownFunction', `unknown function '${name}'`, span);
    if (argExprs.length < signature.min_args || argExprs.length > signature.max_args) {
      const expected =
        signature.min_args === signature.max_args
          ? `${signature.min_args}`
          : signature.max_args === Infinity
            ? `at least ${signature.min_args}`
            : `${signature.min_args} to ${signature.max_args}`;
      throw bindError('InvalidNumberOfArguments', `${name}() takes ${expected} argument(s), got ${argExprs.length}`, span);
    }
    if (signature.kind === 'aggregate') {
      const inner: ExpressionEnv = { scope: env.scope, aggregation: 'nested', predicate: false };
      this.checkAggregationPlace(`${name}()`, env, span, () => argExprs.forEach((a) => this.bind(a, inner)));
      const args = argExprs.map((a) => this.bind(a, inner));
      checkFunctionArguments(signature.name, args, span, name);
      // An aggregate over values that change from call to call (rand(), a real-time clock) has no
      // meaning a second evaluation could reproduce.
      if (args.some(callsNonDeterministic)) {
        throw bindError('NonConstantExpression', `${name}() cannot aggregate a non-deterministic function such as rand()`, span);
      }
      return { kind: 'aggregate', name: signature.name, signature, distinct, args, star: false, type: functionResultType(signature.name, args), span };
    }
    if (distinct) {
      throw bindError('InvalidArgumentPassingMode', `DISTINCT can only be used with aggregate functions, not ${name}()`, span);
    }
    const args = argExprs.map((a) => this.bind(a, env));
    checkFunctionArguments(signature.name, args, span, name);
    return { kind: 'function', name: signature.name, signature, args, type: functionResultType(signature.name, args), span };
  }
}

/**
 * The type of `+`, `-`, `*` or `/` with a temporal operand (the manual's temporal arithmetic): an instant
 * plus or minus a duration is that instant, durations add and subtract, a string plus a temporal value
 * is a string (its text), a duration times or divided by a
 * number is a duration. Undefined when the operation can never succeed (`date() + 1`, `date() - date()`,
 * `2 / duration(...)`); ANY while an operand is unknown.
 */
function temporalArithmetic(op: 'add' | 'sub' | 'mul' | 'div', left: StaticType, right: StaticType): StaticType | undefined {
  if (!isKnown(left) || !isKnown(right)) return any_type;
  const duration = (t: StaticType): boolean => t.kind === 'duration';
  switch (op) {
    case 'add':
      // A temporal value joins a string as its text.
      if (left.kind === 'string' || right.kind === 'string') return string_type;
      if (isInstant(left) && duration(right)) return left;
      if (duration(left) && (isInstant(right) || duration(right))) return right;
      return undefined;
    case 'sub':
      if ((isInstant(left) || duration(left)) && duration(right)) return left;
      return undefined;
    case 'mul':
      if (duration(left) && isNumeric(right)) return left;
      if (isNumeric(left) && duration(right)) return right;
      return undefined;
    case 'div':
      return duration(left) && isNumeric(right) ? left : undefined;
  }
}

/** `linenumber()` and `file()`, which read the row of a LOAD CSV rather than compute. */
function csvFunction(name: string): 'line' | 'file' | undefined {
  const lower = name.toLowerCase();
  return lower === 'linenumber' ? 'line' : lower === 'file' ? 'file' : undefined;
}

function numericResult(a: StaticType, b: StaticType): StaticType {
  if (a.kind === 'integer' && b.kind === 'integer') return integer_type;
  if (isNumeric(a) && isNumeric(b)) return a.kind === 'float' || b.kind === 'float' ? float_type : number_type;
  return any_type;
}

function symbol(op: BinaryOperator): string {
  const symbols: Partial<Record<BinaryOperator, string>> = { sub: '-', mul: '*', div: '/', mod: '%', pow: '^' };
  return symbols[op] ?? op;
}

