import type { BoundPath } from '../bind/bound-clause.js';
import type { BoundExpression, BoundVariable } from '../bind/bound-expression.js';
import { mapChildren } from '../bind/bound-walk.js';
import { any_type, boolean_type } from '../bind/static-type.js';
import type { Span } from '../ast/span.js';

/** Expression helpers of the planner and the rewrite passes. */

/** A slot that stands for "cannot be placed anywhere but where it was written" (a nested query). */
export const UNMOVABLE = -1;

/** The slots an expression reads from its row (its free variables). */
export function freeSlots(e: BoundExpression, out: Set<number> = new Set()): Set<number> {
  collect(e, out, new Set());
  return out;
}

function collect(e: BoundExpression, out: Set<number>, local: ReadonlySet<number>): void {
  switch (e.kind) {
    case 'variable':
      if (!local.has(e.variable.id)) out.add(e.variable.id);
      return;
    case 'list_comprehension':
    case 'quantifier': {
      collect(e.source, out, local);
      const inner = new Set(local).add(e.variable.id);
      if (e.where) collect(e.where, out, inner);
      if (e.kind === 'list_comprehension' && e.projection) collect(e.projection, out, inner);
      return;
    }
    case 'reduce': {
      collect(e.initial, out, local);
      collect(e.source, out, local);
      collect(e.step, out, new Set(local).add(e.variable.id).add(e.accumulator.id));
      return;
    }
    case 'pattern_comprehension': {
      const inner = pathLocals(e.path, out, local);
      if (e.where) collect(e.where, out, inner);
      collect(e.projection, out, inner);
      return;
    }
    case 'pattern_predicate':
      pathLocals(e.path, out, local);
      return;
    case 'exists_subquery':
      if (e.body.kind === 'query') {
        out.add(UNMOVABLE);
        return;
      } else {
        let inner = new Set(local);
        for (const p of e.body.pattern) inner = pathLocals(p, out, inner);
        if (e.body.where) collect(e.body.where, out, inner);
        return;
      }
    case 'map_projection':
      if (!local.has(e.subject.id)) out.add(e.subject.id);
      for (const i of e.items) {
        if (i.kind === 'entry') collect(i.value, out, local);
        else if (i.kind === 'variable' && !local.has(i.variable.id)) out.add(i.variable.id);
      }
      return;
    default:
      mapChildren(e, (c) => {
        collect(c, out, local);
        return c;
      });
  }
}

/** Adds a path's outer references to `out` and returns the locals it introduces (with `local`). */
function pathLocals(path: BoundPath, out: Set<number>, local: ReadonlySet<number>): Set<number> {
  const inner = new Set(local);
  const visit = (v: BoundVariable, bound: boolean): void => {
    if (bound && !local.has(v.id)) out.add(v.id);
    else inner.add(v.id);
  };
  for (const n of path.nodes) visit(n.variable, n.bound);
  for (const r of path.relationships) visit(r.variable, r.bound);
  if (path.variable) inner.add(path.variable.id);
  for (const v of path.also ?? []) inner.add(v.id);
  for (const n of path.nodes) if (n.properties) collect(n.properties, out, inner);
  for (const r of path.relationships) if (r.properties) collect(r.properties, out, inner);
  return inner;
}

/** The conjuncts of a predicate (`a AND b AND c` gives three). */
export function conjuncts(e: BoundExpression): BoundExpression[] {
  if (e.kind === 'binary' && e.op === 'and') return [...conjuncts(e.left), ...conjuncts(e.right)];
  return [e];
}

export function conjunction(list: readonly BoundExpression[]): BoundExpression | undefined {
  let out: BoundExpression | undefined;
  for (const e of list) out = out === undefined ? e : { kind: 'binary', op: 'and', left: out, right: e, type: boolean_type, span: e.span };
  return out;
}

export function variableExpr(v: BoundVariable, span: Span): BoundExpression {
  return { kind: 'variable', variable: v, type: v.type, span };
}

export function propertyEquals(v: BoundVariable, key: string, value: BoundExpression, span: Span): BoundExpression {
  const object = variableExpr(v, span);
  const left: BoundExpression = { kind: 'property', object, key, type: any_type, span };
  return { kind: 'binary', op: 'eq', left, right: value, type: boolean_type, span };
}

export function hasLabels(v: BoundVariable, labels: readonly string[], span: Span): BoundExpression {
  return { kind: 'has_labels', subject: variableExpr(v, span), labels, type: boolean_type, span };
}

/** `{k: v, ...}` as separate `n.k = v` conjuncts; a parameter map (or other expression) stays whole. */
export function propertyConjuncts(v: BoundVariable, props: BoundExpression, span: Span): BoundExpression[] {
  if (props.kind === 'map') return props.entries.map((x) => propertyEquals(v, x.key, x.value, span));
  return [{ kind: 'function', name: ' props_match', signature: PROPS_MATCH, args: [variableExpr(v, span), props], type: boolean_type, span }];
}

/** An internal function: true when the entity's properties include every entry of the map. */
export const PROPS_MATCH = { name: ' props_match', min_args: 2, max_args: 2, kind: 'scalar', deterministic: true } as const;

/** True when `e` is a variable reference to slot `id`. */
export function isSlot(e: BoundExpression, id: number): boolean {
  return e.kind === 'variable' && e.variable.id === id;
}
