import type { Expression } from '../ast/expression.js';
import type { PatternPath } from '../ast/pattern.js';
import { assertNever } from '../../common/assert.js';

/** The expressions directly inside an AST expression (pattern properties included, subquery bodies not). */
export function astChildren(e: Expression): Expression[] {
  switch (e.kind) {
    case 'literal':
    case 'parameter':
    case 'variable':
    case 'count_star':
      return [];
    case 'list':
      return [...e.items];
    case 'map':
      return e.entries.map((x) => x.value);
    case 'property':
      return [e.object];
    case 'index':
      return [e.object, e.index];
    case 'slice':
      return [e.object, ...(e.from ? [e.from] : []), ...(e.to ? [e.to] : [])];
    case 'has_labels':
      return [e.subject];
    case 'unary':
      return [e.operand];
    case 'binary':
      return [e.left, e.right];
    case 'is_null':
      return [e.operand];
    case 'function':
      return [...e.args];
    case 'case':
      return [
        ...(e.subject ? [e.subject] : []),
        ...e.alternatives.flatMap((a) => [a.when, a.then]),
        ...(e.otherwise ? [e.otherwise] : []),
      ];
    case 'list_comprehension':
      return [e.source, ...(e.where ? [e.where] : []), ...(e.projection ? [e.projection] : [])];
    case 'pattern_comprehension':
      return [...pathExpressions(e.path), ...(e.where ? [e.where] : []), e.projection];
    case 'quantifier':
      return [e.source, ...(e.where ? [e.where] : [])];
    case 'reduce':
      return [e.initial, e.source, e.step];
    case 'pattern_predicate':
      return pathExpressions(e.path);
    case 'exists_subquery':
      return e.body.kind === 'pattern' ? [...e.body.pattern.flatMap(pathExpressions), ...(e.body.where ? [e.body.where] : [])] : [];
    case 'map_projection':
      return e.items.flatMap((i) => (i.kind === 'entry' ? [i.value] : []));
    default:
      return assertNever(e, 'expression');
  }
}

function pathExpressions(path: PatternPath): Expression[] {
  const out: Expression[] = [];
  for (const n of path.nodes) if (n.properties) out.push(n.properties);
  for (const r of path.relationships) if (r.properties) out.push(r.properties);
  return out;
}

/**
 * A structural key of an expression, equal for equal expressions whatever their spacing or keyword
 * case: `count( n.x )` and `COUNT(n.x)` share one. Used to match ORDER BY items against projected
 * expressions and to find implicit grouping keys.
 */
export function astKey(e: Expression): string {
  return JSON.stringify(e, function (this: unknown, key: string, value: unknown) {
    if (key === 'span' || key === 'variable_span') return undefined;
    if (typeof value === 'bigint') return `${value}n`;
    if (key === 'name' && (this as { kind?: string }).kind === 'function' && typeof value === 'string') return value.toLowerCase();
    return value;
  });
}

/** True when the expression refers to any variable (or to a pattern, which needs variables in scope). */
export function referencesVariables(e: Expression): boolean {
  switch (e.kind) {
    case 'variable':
    case 'map_projection':
    case 'pattern_predicate':
    case 'pattern_comprehension':
    case 'exists_subquery':
      return true;
    case 'list_comprehension':
    case 'quantifier':
    case 'reduce':
      // Their own variables are local; anything else inside counts.
      return astChildren(e).some((c) => referencesVariablesExcept(c, localNames(e)));
    default:
      return astChildren(e).some(referencesVariables);
  }
}

function localNames(e: Expression): Set<string> {
  if (e.kind === 'list_comprehension' || e.kind === 'quantifier') return new Set([e.variable]);
  if (e.kind === 'reduce') return new Set([e.variable, e.accumulator]);
  return new Set();
}

function referencesVariablesExcept(e: Expression, local: ReadonlySet<string>): boolean {
  if (e.kind === 'variable') return !local.has(e.name);
  if (e.kind === 'list_comprehension' || e.kind === 'quantifier' || e.kind === 'reduce') {
    const inner = new Set([...local, ...localNames(e)]);
    return astChildren(e).some((c) => referencesVariablesExcept(c, inner));
  }
  if (e.kind === 'map_projection' || e.kind === 'pattern_predicate' || e.kind === 'pattern_comprehension' || e.kind === 'exists_subquery') {
    return true;
  }
  return astChildren(e).some((c) => referencesVariablesExcept(c, local));
}

/** True when the expression calls an aggregate outside any nested scope. */
export function containsAggregate(e: Expression, isAggregate: (name: string) => boolean): boolean {
  if (e.kind === 'count_star') return true;
  if (e.kind === 'function' && isAggregate(e.name)) return true;
  return astChildren(e).some((c) => containsAggregate(c, isAggregate));
}

/**
 * The implicit grouping expressions of an aggregating item: the variables and property lookups
 * outside its aggregates that are not grouping keys (and whose variable is not one). openCypher
 * refuses such an item as ambiguous, even when a larger expression around them is projected.
 */
export function implicitGroupingLeaves(
  e: Expression,
  keys: ReadonlySet<string>,
  isAggregate: (name: string) => boolean,
  local: ReadonlySet<string> = new Set(),
): Expression[] {
  if (e.kind === 'count_star') return [];
  if (e.kind === 'function' && isAggregate(e.name)) return [];
  if (e.kind === 'variable') return keys.has(astKey(e)) || local.has(e.name) ? [] : [e];
  if (e.kind === 'property') {
    if (keys.has(astKey(e))) return [];
    const inner = implicitGroupingLeaves(e.object, keys, isAggregate, local);
    return inner.length > 0 && e.object.kind === 'variable' ? [e] : inner;
  }
  const inner = new Set([...local, ...localNames(e)]);
  return astChildren(e).flatMap((c) => implicitGroupingLeaves(c, keys, isAggregate, inner));
}

/** Every name an expression mentions: variables, pattern variables, map projection subjects (locals included). */
export function mentionedNames(e: Expression, out: Set<string> = new Set()): Set<string> {
  const path = (p: PatternPath): void => {
    if (p.variable !== undefined) out.add(p.variable);
    for (const name of p.also ?? []) out.add(name);
    for (const n of p.nodes) if (n.variable !== undefined) out.add(n.variable);
    for (const r of p.relationships) if (r.variable !== undefined) out.add(r.variable);
  };
  if (e.kind === 'variable') out.add(e.name);
  else if (e.kind === 'map_projection') {
    out.add(e.variable);
    for (const i of e.items) if (i.kind === 'variable') out.add(i.name);
  } else if (e.kind === 'pattern_predicate' || e.kind === 'pattern_comprehension') path(e.path);
  else if (e.kind === 'exists_subquery' && e.body.kind === 'pattern') e.body.pattern.forEach(path);
  for (const c of astChildren(e)) mentionedNames(c, out);
  return out;
}
