import type { Span } from '../ast/span.js';
import type { BoundExpression } from './bound-expression.js';
import { bindError } from './context.js';
import {
  any_type,
  boolean_type,
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

/**
 * Argument kinds the built-in graph functions accept. The function library checks every call at run
 * time; the binder refuses only what can never succeed, as openCypher does at compile time
 * (`labels(p)` on a path, `length(n)` on a node, `properties(1)`).
 */
const accepted_argument: Readonly<Record<string, readonly (ScalarTypeName | 'list')[]>> = {
  labels: ['node'],
  'names of': ['node', 'relationship'],
  type: ['relationship'],
  nodes: ['path'],
  relationships: ['path'],
  startnode: ['relationship'],
  endnode: ['relationship'],
  properties: ['node', 'relationship', 'map'],
  keys: ['node', 'relationship', 'map'],
  length: ['path', 'string', 'list'],
  size: ['list', 'string'],
  id: ['node', 'relationship'],
};

export function checkFunctionArguments(name: string, args: readonly BoundExpression[], span: Span): void {
  const accepted = accepted_argument[name];
  const first = args[0];
  if (accepted === undefined || first === undefined) return;
  if (!mayBe(first.type, ...accepted)) {
    throw bindError(
      'InvalidArgumentType',
      `${name === 'names of' ? 'a label expression' : `${name}()`} does not accept an argument of type ${describeType(first.type)} (expected ${accepted.join(' or ')})`,
      span,
    );
  }
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
    case 'coalesce':
      return args.reduce<StaticType>((t, a) => join(t, a.type), { kind: 'null' });
    default:
      return any_type;
  }
}
