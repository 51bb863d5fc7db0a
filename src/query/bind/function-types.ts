import type { Span } from '../ast/span.js';
import type { BoundExpression } from './bound-expression.js';
import { bindError } from './context.js';
import {
  any_type,
  boolean_type,
  duration_type,
  instant_kinds,
  scalar,
  temporal_kinds,
  describeType,
  elementOf,
  float_type,
  integer_type,
  join,
  listOf,
  map_type,
  mayBe,
  node_type,
  relationship_type,
  string_type,
  type ScalarTypeName,
  type StaticType,
} from './static-type.js';

type Accepted = readonly (ScalarTypeName | 'list')[];

const string_arg: Accepted = ['string'];
const number_arg: Accepted = ['number'];
const integer_arg: Accepted = ['integer'];
const list_arg: Accepted = ['list'];
const instant_arg: Accepted = instant_kinds;
const temporal_arg: Accepted = temporal_kinds;
/** A constructor takes text, a map of components, or an instant to take them from. */
const instant_source_arg: Accepted = ['string', 'map', ...instant_kinds];

/** The argument kinds of the temporal functions of one instant type: the constructor and its clocks and truncate. */
function instantFunctions(type: string): Record<string, readonly Accepted[]> {
  return {
    [type]: [instant_source_arg],
    [`${type}.statement`]: [string_arg],
    [`${type}.transaction`]: [string_arg],
    [`${type}.realtime`]: [string_arg],
    [`${type}.truncate`]: [string_arg, instant_arg, ['map']],
  };
}

/**
 * Argument kinds the built-in functions accept, by position (a position not listed takes anything).
 * The function library checks every call at run time; the binder refuses only what can never
 * succeed, as openCypher and Neo4j do at compile time when an argument's type is known (`labels(p)`
 * on a path, `length(n)` on a node, `properties(1)`, `toUpper(1)`, `sqrt('x')`, `size(length(p))`).
 * A value of unknown type (a property, a parameter, an element of a mixed list) is checked when it
 * arrives. A temporal value's type is known where a temporal function made it (`toFloat(date())`).
 */
const accepted_arguments: Readonly<Record<string, readonly Accepted[]>> = {
  labels: [['node']],
  'names of': [['node', 'relationship']],
  type: [['relationship']],
  nodes: [['path']],
  relationships: [['path']],
  startnode: [['relationship']],
  endnode: [['relationship']],
  properties: [['node', 'relationship', 'map']],
  keys: [['node', 'relationship', 'map']],
  length: [['path']],
  size: [['list', 'string']],
  id: [['node', 'relationship']],
  elementid: [['node', 'relationship']],
  isempty: [['string', 'list', 'map']],
  reverse: [['string', 'list']],
  head: [list_arg],
  last: [list_arg],
  tail: [list_arg],
  tobooleanlist: [list_arg],
  tointegerlist: [list_arg],
  tofloatlist: [list_arg],
  tostringlist: [list_arg],
  toboolean: [['string', 'boolean', 'integer']],
  tointeger: [['string', 'number', 'boolean']],
  tofloat: [['string', 'number']],
  tostring: [['string', 'number', 'boolean', ...temporal_kinds]],
  toupper: [string_arg],
  tolower: [string_arg],
  upper: [string_arg],
  lower: [string_arg],
  trim: [string_arg],
  ltrim: [string_arg, string_arg],
  rtrim: [string_arg, string_arg],
  btrim: [string_arg, string_arg],
  replace: [string_arg, string_arg, string_arg],
  split: [string_arg, ['string', 'list']],
  substring: [string_arg, integer_arg, integer_arg],
  left: [string_arg, integer_arg],
  right: [string_arg, integer_arg],
  normalize: [string_arg],
  char_length: [string_arg],
  character_length: [string_arg],
  abs: [number_arg],
  sign: [number_arg],
  ceil: [number_arg],
  floor: [number_arg],
  round: [number_arg, integer_arg, string_arg],
  sqrt: [number_arg],
  exp: [number_arg],
  log: [number_arg],
  log10: [number_arg],
  sin: [number_arg],
  cos: [number_arg],
  tan: [number_arg],
  cot: [number_arg],
  asin: [number_arg],
  acos: [number_arg],
  atan: [number_arg],
  atan2: [number_arg, number_arg],
  degrees: [number_arg],
  radians: [number_arg],
  haversin: [number_arg],
  cosh: [number_arg],
  sinh: [number_arg],
  tanh: [number_arg],
  coth: [number_arg],
  isnan: [number_arg],
  point: [['map']],
  'vector.similarity.cosine': [list_arg, list_arg],
  'vector.similarity.euclidean': [list_arg, list_arg],
  sum: [['number', 'duration']],
  avg: [['number', 'duration']],
  stdev: [number_arg],
  stdevp: [number_arg],
  percentilecont: [number_arg, number_arg],
  percentiledisc: [number_arg, number_arg],
  ...instantFunctions('date'),
  ...instantFunctions('localtime'),
  ...instantFunctions('time'),
  ...instantFunctions('localdatetime'),
  ...instantFunctions('datetime'),
  'datetime.fromepoch': [number_arg, number_arg],
  'datetime.fromepochmillis': [number_arg],
  duration: [['string', 'map', 'duration']],
  'duration.between': [instant_arg, instant_arg],
  'duration.inmonths': [instant_arg, instant_arg],
  'duration.indays': [instant_arg, instant_arg],
  'duration.inseconds': [instant_arg, instant_arg],
};

/** The kinds argument `position` (from 0) of `name` may have; undefined when it takes anything. */
export function acceptedArgumentKinds(name: string, position: number): Accepted | undefined {
  return accepted_arguments[name]?.[position];
}

/** Refuses an argument of a type `name` can never take; the message names the function as `written`. */
export function checkFunctionArguments(name: string, args: readonly BoundExpression[], span: Span, written = name): void {
  const accepted = accepted_arguments[name];
  if (accepted === undefined) return;
  args.forEach((a, i) => {
    const kinds = accepted[i];
    if (kinds === undefined || mayBe(a.type, ...kinds)) return;
    const which = args.length > 1 ? `argument ${i + 1} of type` : 'an argument of type';
    throw bindError(
      'InvalidArgumentType',
      `${name === 'names of' ? 'a label expression' : `${written}()`} does not accept ${which} ${describeType(a.type)} (expected ${kinds.join(' or ')})`,
      span,
    );
  });
}

/** What a built-in function returns, where that is known and useful for later checks; else Any. */
export function functionResultType(name: string, args: readonly BoundExpression[]): StaticType {
  const a0 = args[0]?.type ?? any_type;
  switch (name) {
    case 'count':
    case 'size':
    case 'length':
    case 'id':
    case 'tointeger':
    case 'sign':
    case 'char_length':
    case 'character_length':
      return integer_type;
    case 'tofloat':
    case 'sqrt':
    case 'rand':
    case 'vector_distance':
    case 'text_score':
    case 'percentilecont':
    case 'percentiledisc':
    case 'stdev':
    case 'stdevp':
    case 'vector.similarity.cosine':
    case 'vector.similarity.euclidean':
      return float_type;
    case 'toboolean':
    case 'is type':
    case 'is normalized':
    case 'has names':
    case 'exists':
    case 'text_match':
      return boolean_type;
    case 'tostring':
    case 'tolower':
    case 'toupper':
    case 'trim':
    case 'ltrim':
    case 'rtrim':
    case 'btrim':
    case 'trim from':
    case 'normalize':
    case 'valuetype':
    case 'randomuuid':
    case 'substring':
    case 'replace':
    case 'left':
    case 'right':
    case 'type':
      return string_type;
    case 'labels':
    case 'names of':
    case 'keys':
    case 'split':
      return listOf(string_type);
    case 'range':
      return listOf(integer_type);
    case 'nodes':
      return listOf(node_type);
    case 'relationships':
      return listOf(relationship_type);
    case 'startnode':
    case 'endnode':
      return node_type;
    case 'properties':
      return map_type;
    case 'collect':
      return listOf(a0);
    case 'head':
    case 'last':
      return elementOf(a0);
    case 'tail':
      return a0.kind === 'list' ? a0 : any_type;
    case 'abs':
    case 'min':
    case 'max':
      return a0;
    case 'timestamp':
      return integer_type;
    case 'date':
    case 'localtime':
    case 'time':
    case 'localdatetime':
    case 'datetime':
      return scalar(name);
    case 'datetime.fromepoch':
    case 'datetime.fromepochmillis':
      return scalar('datetime');
    case 'duration':
    case 'duration.between':
    case 'duration.inmonths':
    case 'duration.indays':
    case 'duration.inseconds':
      return duration_type;
    case 'coalesce':
      return args.reduce<StaticType>((t, a) => join(t, a.type), { kind: 'null' });
    default: {
      // The clocks and truncate of an instant type give that type (`date.statement()`, `datetime.truncate(...)`).
      const [type, verb] = name.split('.');
      const instant = instant_kinds.find((k) => k === type);
      return instant !== undefined && (verb === 'statement' || verb === 'transaction' || verb === 'realtime' || verb === 'truncate') ? scalar(instant) : any_type;
    }
  }
}
