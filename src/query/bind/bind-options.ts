import type { Expression, LiteralValue } from '../ast/expression.js';
import type { Hint, SessionSetStatement } from '../ast/statement.js';
import type { Span } from '../ast/span.js';
import { referencesVariables } from './ast-walk.js';
import type { BoundExpression } from './bound-expression.js';
import type { BoundHints, BoundSessionSet, VectorConsistency } from './bound-statement.js';
import { bindError } from './context.js';
import type { ExpressionBinder } from './bind-expression.js';
import { Scope } from './scope.js';
import { describeType, isKnown, isTemporal } from './static-type.js';

/** vector_build_wait is carried as a uint32 of milliseconds (SPEC 4.1). */
export const vector_build_wait_ms_max = 2 ** 32 - 1;

/** The HNSW beam a `vector_ef(n)` hint may ask for, in elements: as wide as `vector.hnsw.ef_construction` allows. */
export const vector_ef_max = 4096;

const consistencies: readonly VectorConsistency[] = ['current', 'snapshot', 'exact'];

function consistency(value: LiteralValue, span: Span): VectorConsistency {
  const v = typeof value === 'string' ? value.toLowerCase() : undefined;
  const found = consistencies.find((c) => c === v);
  if (found === undefined) {
    throw bindError('InvalidArgumentValue', `vector_consistency is one of ${consistencies.map((c) => `'${c}'`).join(', ')}`, span);
  }
  return found;
}

function waitMs(value: LiteralValue, span: Span): number {
  if (typeof value !== 'bigint' || value < 0n || value > BigInt(vector_build_wait_ms_max)) {
    throw bindError('InvalidArgumentValue', `vector_build_wait takes milliseconds, an integer from 0 to ${vector_build_wait_ms_max}`, span);
  }
  return Number(value);
}

function beam(value: LiteralValue, span: Span): number {
  if (typeof value !== 'bigint' || value < 1n || value > BigInt(vector_ef_max)) {
    throw bindError('InvalidArgumentValue', `vector_ef takes the HNSW search beam, an integer from 1 to ${vector_ef_max}`, span);
  }
  return Number(value);
}

function literalArg(h: Hint): LiteralValue {
  const arg = h.args[0];
  if (h.args.length !== 1 || arg === undefined) {
    throw bindError('InvalidNumberOfArguments', `hint ${h.name} takes exactly one argument`, h.span);
  }
  if (arg.kind !== 'literal') throw bindError('InvalidArgumentValue', `hint ${h.name} takes a literal`, arg.span);
  return arg.value;
}

/** The hints of a statement; a later hint of the same name overrides an earlier one. */
export function bindHints(hints: readonly Hint[], expressions: ExpressionBinder): BoundHints {
  let out: { vector_consistency?: VectorConsistency; vector_build_wait_ms?: number; valid_at?: BoundExpression; vector_ef?: number } = {};
  for (const h of hints) {
    switch (h.name.toLowerCase()) {
      case 'vector_consistency':
        out = { ...out, vector_consistency: consistency(literalArg(h), h.span) };
        break;
      case 'vector_build_wait':
      case 'vector_build_wait_ms':
        out = { ...out, vector_build_wait_ms: waitMs(literalArg(h), h.span) };
        break;
      case 'valid_at':
        out = { ...out, valid_at: bindValidAt(h, expressions) };
        break;
      case 'vector_ef':
        out = { ...out, vector_ef: beam(literalArg(h), h.span) };
        break;
      default:
        throw bindError('UnknownHint', `unknown hint ${h.name} (known: vector_consistency, vector_build_wait, vector_ef, valid_at)`, h.span);
    }
  }
  return out;
}

/** AS OF TIMESTAMP: a constant commit_ts, an integer literal or a parameter. */
export function bindAsOf(e: Expression, expressions: ExpressionBinder): BoundExpression {
  if (referencesVariables(e)) throw bindError('NonConstantExpression', 'AS OF TIMESTAMP must not depend on variables', e.span);
  const bound = expressions.bind(e, { scope: new Scope(), aggregation: 'forbidden', predicate: false });
  if (isKnown(bound.type) && bound.type.kind !== 'integer') {
    throw bindError('InvalidArgumentType', `AS OF TIMESTAMP takes a commit_ts (an integer), not a ${describeType(bound.type)}`, e.span);
  }
  if (bound.kind === 'literal' && typeof bound.value === 'bigint' && bound.value < 0n) {
    throw bindError('NegativeIntegerArgument', 'AS OF TIMESTAMP cannot be negative', e.span);
  }
  return bound;
}

/**
 * `valid_at(<datetime>)`: one constant argument (a literal, a parameter or a function of them, such as
 * `datetime('2024-03-01T00:00Z')`), evaluated when the statement runs; it must give a DATETIME.
 */
function bindValidAt(h: Hint, expressions: ExpressionBinder): BoundExpression {
  const arg = h.args[0];
  if (h.args.length !== 1 || arg === undefined) {
    throw bindError('InvalidNumberOfArguments', 'hint valid_at takes exactly one argument, a datetime', h.span);
  }
  if (referencesVariables(arg)) throw bindError('NonConstantExpression', 'valid_at must not depend on variables', arg.span);
  const bound = expressions.bind(arg, { scope: new Scope(), aggregation: 'forbidden', predicate: false });
  // A temporal value is checked when the statement runs (a DATE or LOCAL DATETIME is refused there).
  if (isKnown(bound.type) && !isTemporal(bound.type)) {
    throw bindError('InvalidArgumentType', `valid_at takes a datetime, not a ${describeType(bound.type)}`, arg.span);
  }
  return bound;
}

/**
 * `SET name = value`. A name that is no session setting is read the way the same text reads as a
 * query: a SET of an undefined variable.
 */
export function bindSessionSet(s: SessionSetStatement): BoundSessionSet {
  switch (s.name.toLowerCase()) {
    case 'vector_consistency':
      return { kind: 'session_set', setting: { name: 'vector_consistency', value: consistency(s.value, s.span) }, span: s.span };
    case 'vector_build_wait':
    case 'vector_build_wait_ms':
      return { kind: 'session_set', setting: { name: 'vector_build_wait_ms', value: waitMs(s.value, s.span) }, span: s.span };
    default:
      throw bindError('UndefinedVariable', `variable \`${s.name}\` is not defined (and is not a session setting)`, s.span);
  }
}
