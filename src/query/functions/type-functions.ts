import { arg, stringArg } from './args.js';
import { scalar, type ScalarFunction } from './definition.js';
import { isOfType, typeFromText, typeText, valueTypeOf } from './value-types.js';

/**
 * valueType(), and the type predicate `x IS [NOT] :: T`, which the parser writes as the call
 * ('is type', x, canonical text of T) so that it needs nothing of the evaluator beyond a function.
 */
export const typeFunctions: readonly ScalarFunction[] = [
  scalar('valuetype', 1, 1, ([v = null]) => typeText(valueTypeOf(v))),
  scalar('is type', 2, 2, (args) => isOfType(arg(args, 0), typeFromText(stringArg('IS ::', arg(args, 1))))),
];
