import { isNode, isRelationship, typeName, type Value } from '../../common/values/value.js';
import { argumentError, runtimeTypeError } from '../errors.js';
import { arg } from './args.js';
import { scalar, type ScalarFunction } from './definition.js';

/**
 * Labels and relationship types named by a value, `:$(expr)` (Neo4j 5.26): a STRING names one, a
 * LIST<STRING> several. Anything else, null included, and an empty name are refused: a label must be
 * named to be matched or written.
 */
export function dynamicNames(v: Value, what: string): readonly string[] {
  const one = (x: Value): string => {
    if (typeof x !== 'string') throw runtimeTypeError('InvalidArgumentType', `${what} must be a STRING or a LIST<STRING>, not ${typeName(x)}`);
    if (x === '') throw argumentError('InvalidArgumentValue', `${what} must not be the empty string`);
    return x;
  };
  if (Array.isArray(v)) return (v as readonly Value[]).map(one);
  return [one(v)];
}

export const dynamicNameFunctions: readonly ScalarFunction[] = [
  /**
   * The names an element carries, as label expressions test them: a node's labels, a relationship's
   * one type (Neo4j 5 lets `r:T|U`, `r:%` and `r:$(x)` test a relationship). The parser writes it for
   * `%` and `:$(...)`; it is not callable by that name from Cypher text.
   */
  scalar('names of', 1, 1, ([v = null], ctx) => {
    if (v === null) return null;
    if (isNode(v)) return [...ctx.labelsOf(v)];
    if (isRelationship(v)) return [ctx.typeOf(v)];
    throw runtimeTypeError('InvalidArgumentType', `labels are checked on a NODE or RELATIONSHIP, not ${typeName(v)}`);
  }),
  /**
   * `x:$(names)` as the parser writes it: ('has names', the names x has, names, 'all' | 'any'), true when
   * x has every (or, for 'any', some) name the value gives.
   */
  scalar('has names', 3, 3, (args) => {
    const have = arg(args, 0);
    const wanted = dynamicNames(arg(args, 1), 'a dynamic label or type');
    if (!Array.isArray(have)) return null;
    // A node has a few labels and a value names a few: a linear search beats building a set per row.
    const names = have as readonly Value[];
    return arg(args, 2) === 'any' ? wanted.some((n) => names.includes(n)) : wanted.every((n) => names.includes(n));
  }),
];
