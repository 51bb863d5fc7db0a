import { assertNever } from '../../common/assert.js';
import type { BoundPath } from './bound-clause.js';
import type { BoundExpression } from './bound-expression.js';

type Rewrite = (e: BoundExpression) => BoundExpression;

function mapPath(path: BoundPath, f: Rewrite): BoundPath {
  return {
    ...path,
    nodes: path.nodes.map((n) => (n.properties ? { ...n, properties: f(n.properties) } : n)),
    relationships: path.relationships.map((r) => (r.properties ? { ...r, properties: f(r.properties) } : r)),
  };
}

/** A copy of `e` with `f` applied to each direct child expression (subquery bodies are left alone). */
export function mapChildren(e: BoundExpression, f: Rewrite): BoundExpression {
  switch (e.kind) {
    case 'literal':
    case 'parameter':
    case 'variable':
      return e;
    case 'list':
      return { ...e, items: e.items.map(f) };
    case 'map':
      return { ...e, entries: e.entries.map((x) => ({ key: x.key, value: f(x.value) })) };
    case 'property':
      return { ...e, object: f(e.object) };
    case 'index':
      return { ...e, object: f(e.object), index: f(e.index) };
    case 'slice':
      return { ...e, object: f(e.object), ...(e.from && { from: f(e.from) }), ...(e.to && { to: f(e.to) }) };
    case 'has_labels':
      return { ...e, subject: f(e.subject) };
    case 'unary':
      return { ...e, operand: f(e.operand) };
    case 'binary':
      return { ...e, left: f(e.left), right: f(e.right) };
    case 'is_null':
      return { ...e, operand: f(e.operand) };
    case 'function':
      return { ...e, args: e.args.map(f) };
    case 'aggregate':
      return { ...e, args: e.args.map(f) };
    case 'case':
      return {
        ...e,
        ...(e.subject && { subject: f(e.subject) }),
        alternatives: e.alternatives.map((a) => ({ when: f(a.when), then: f(a.then) })),
        ...(e.otherwise && { otherwise: f(e.otherwise) }),
      };
    case 'list_comprehension':
      return {
        ...e,
        source: f(e.source),
        ...(e.where && { where: f(e.where) }),
        ...(e.projection && { projection: f(e.projection) }),
      };
    case 'pattern_comprehension':
      return { ...e, path: mapPath(e.path, f), ...(e.where && { where: f(e.where) }), projection: f(e.projection) };
    case 'quantifier':
      return { ...e, source: f(e.source), ...(e.where && { where: f(e.where) }) };
    case 'reduce':
      return { ...e, initial: f(e.initial), source: f(e.source), step: f(e.step) };
    case 'pattern_predicate':
      return { ...e, path: mapPath(e.path, f) };
    case 'exists_subquery':
      if (e.body.kind === 'query') return e;
      return {
        ...e,
        body: { kind: 'pattern', pattern: e.body.pattern.map((p) => mapPath(p, f)), ...(e.body.where && { where: f(e.body.where) }) },
      };
    case 'map_projection':
      return { ...e, items: e.items.map((i) => (i.kind === 'entry' ? { ...i, value: f(i.value) } : i)) };
    default:
      return assertNever(e, 'bound expression');
  }
}

/** A structural key: equal for expressions that compute the same thing from the same slots. */
export function boundKey(e: BoundExpression): string {
  return JSON.stringify(e, (key: string, value: unknown) => {
    if (key === 'span' || key === 'type' || key === 'signature') return undefined;
    if (typeof value === 'bigint') return `${value}n`;
    if (key === 'variable' && typeof value === 'object' && value !== null && 'id' in value) return `#${(value as { id: number }).id}`;
    return value;
  });
}

/** Rewrites top-down: `f` sees each node first and may replace it; otherwise its children are rewritten. */
export function rewrite(e: BoundExpression, f: (e: BoundExpression) => BoundExpression | undefined): BoundExpression {
  const replaced = f(e);
  if (replaced !== undefined) return replaced;
  return mapChildren(e, (c) => rewrite(c, f));
}

/**
 * Whether `e` calls a function whose answer changes from one evaluation to the next within a statement:
 * rand(), randomUUID() and the real-time clocks. timestamp() and the statement clocks are
 * non-deterministic across statements but fixed within one, so they do not count.
 */
export function callsNonDeterministic(e: BoundExpression): boolean {
  let found = false;
  rewrite(e, (x) => {
    if (x.kind === 'function' && !x.signature.deterministic && (x.name === 'rand' || x.name === 'randomuuid' || x.name.endsWith('.realtime'))) found = true;
    return found ? x : undefined;
  });
  return found;
}
