import { isNode } from '../../common/values/value.js';
import type { TextIndexHandle } from '../../projections/search/search-lookup.js';
import type { BoundExpression } from '../bind/bound-expression.js';
import { CypherError } from '../errors.js';
import type { Evaluator, ExecContext } from './context.js';
import type { GraphAccess } from './graph-access.js';

/**
 * `text_match(n.key, query)` and `text_score(n.key, query)`: evaluated against the version of `n`
 * the reader sees, with the analyzer and statistics of the text index of one of `n`'s labels that
 * covers `key`. text_match is true when every clause of the query matches; text_score is the BM25
 * score of the text (0 when nothing matches). A null text or query gives null. Without a text index
 * covering the property, both fail (SPEC 1: text_match needs a text index).
 *
 * The first argument must be a property of a node variable: that is how the index is found.
 */
export function compileTextFunction(
  name: 'text_match' | 'text_score',
  args: readonly BoundExpression[],
  compile: (e: BoundExpression) => Evaluator,
  cx: ExecContext,
  access: GraphAccess,
): Evaluator {
  const [target, queryArg] = args;
  if (target === undefined || queryArg === undefined || target.kind !== 'property' || target.object.kind !== 'variable') {
    throw new CypherError('SyntaxError', 'compile time', 'InvalidArgumentType', `${name}() takes a node property and a query text: ${name}(n.prop, 'query')`);
  }
  const subject = compile(target.object);
  const query = compile(queryArg);
  const key = target.key;
  return (row) => {
    const s = subject(row);
    const q = query(row);
    if (s === null || q === null) return null;
    if (typeof q !== 'string') throw new CypherError('TypeError', 'runtime', 'InvalidArgumentType', `${name}() takes the query as a STRING`);
    const node = isNode(s) ? access.node(s.id) : undefined;
    if (node === undefined) return null;
    const handle = textIndexOf(cx, node.labels, key);
    if (handle === undefined) throw textIndexRequired(name, key);
    const text = node.props.get(key);
    if (typeof text !== 'string') return name === 'text_match' ? false : 0;
    return name === 'text_match' ? handle.matches(node.id, text, q) : handle.score(node.id, text, q);
  };
}

function textIndexOf(cx: ExecContext, labels: readonly string[], key: string): TextIndexHandle | undefined {
  for (const l of labels) {
    const h = cx.indexes.textIndex?.(l, key);
    if (h !== undefined) return h;
  }
  return undefined;
}

function textIndexRequired(name: string, key: string): CypherError {
  return new CypherError(
    'SemanticError',
    'runtime',
    'TextIndexRequired',
    `${name}() needs a text index covering ${key} on a label of the node; create one with CREATE FULLTEXT INDEX`,
    'FAILED_PRECONDITION',
  );
}
