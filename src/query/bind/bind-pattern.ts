import type { DynamicNames, NodePattern, PatternPath, QuantifiedPath, RelationshipPattern } from '../ast/pattern.js';
import type { Span } from '../ast/span.js';
import type { BoundNodePattern, BoundPath, BoundQuantifiedPath, BoundRelationshipPattern } from './bound-clause.js';
import type { BoundExpression, BoundVariable, VariableKind } from './bound-expression.js';
import { bindError, type BindContext, type PatternMode } from './context.js';
import { mentionedNames } from './ast-walk.js';
import { Scope } from './scope.js';
import { any_type, describeType, listOf, node_type, path_type, relationship_type, type StaticType } from './static-type.js';

interface Declared {
  readonly variable: BoundVariable;
  readonly bound: boolean;
}

/**
 * Binds the paths of one clause (or one pattern expression). Variables are declared left to right,
 * so a name reused with another kind is a VariableTypeConflict wherever it first appeared; property
 * maps are bound afterwards and may refer to any variable of the pattern.
 */
export class PatternBinder {
  constructor(private readonly c: BindContext) {}

  paths(written: readonly PatternPath[], scope: Scope, mode: PatternMode): { paths: BoundPath[]; introduced: BoundVariable[] } {
    const paths = written.map((p) => (p.shortest === undefined ? p : shortestPart(p, mode)));
    requireSelectorAlone(paths, mode);
    const introduced: BoundVariable[] = [];
    const relationshipsHere = new Set<number>();
    // A quantified path pattern's WHERE sees the variables bound before this pattern, not its siblings.
    const before = scope.flatten();
    const quantified = new Map<RelationshipPattern, QuantifiedDeclared>();
    const declared = paths.map((path) => {
      if (path.shortest !== undefined) this.requireUnbound(path, scope);
      const nodes = path.nodes.map((n) => this.node(n, path, scope, mode, introduced));
      const rels = path.relationships.map((r) => {
        if (r.quantified === undefined) return this.relationship(r, scope, mode, introduced, relationshipsHere);
        quantified.set(r, this.quantifiedVariables(r.quantified, scope, before, mode, introduced));
        return this.anonymous('rel', 'relationships', listOf(relationship_type), mode, introduced);
      });
      const names = path.variable === undefined ? [] : [path.variable, ...(path.also ?? [])];
      const [variable, ...also] = names.map((name) => {
        if (scope.lookup(name) !== undefined) {
          throw bindError('VariableAlreadyBound', `variable \`${name}\` is already bound`, path.span);
        }
        if (mode === 'predicate') {
          throw bindError('UndefinedVariable', `a pattern predicate cannot introduce \`${name}\``, path.span);
        }
        const v = this.c.variables.make(name, 'path', path_type);
        scope.declare(v);
        introduced.push(v);
        return v;
      });
      return { path, nodes, rels, variable, also };
    });
    const bound = declared.map(({ path, nodes, rels, variable, also }): BoundPath => ({
      ...(variable && { variable }),
      ...(also.length > 0 && { also }),
      ...(path.shortest && { shortest: path.shortest }),
      ...(path.selector && { selector: path.selector }),
      ...(path.selector?.count_parameter && { selector_count: this.c.expression(path.selector.count_parameter, { scope, aggregation: 'forbidden', predicate: false }) }),
      ...(path.where && { where: this.c.expression(path.where, { scope, aggregation: 'forbidden', predicate: true }) }),
      nodes: path.nodes.map((n, i): BoundNodePattern => {
        const properties = this.properties(n.properties, scope, mode);
        const dynamic_labels = n.dynamic_labels?.map((d) => this.dynamicNames(d, scope, mode));
        return {
          variable: nodes[i]!.variable,
          bound: nodes[i]!.bound,
          labels: n.labels,
          ...(dynamic_labels && { dynamic_labels }),
          ...(properties && { properties }),
          span: n.span,
        };
      }),
      relationships: path.relationships.map((r, i): BoundRelationshipPattern => {
        const properties = this.properties(r.properties, scope, mode);
        const dynamic_type = r.dynamic_type && this.dynamicNames(r.dynamic_type, scope, mode);
        return {
          variable: rels[i]!.variable,
          bound: rels[i]!.bound,
          types: r.types,
          ...(dynamic_type && { dynamic_type }),
          direction: r.direction,
          ...(r.range && { range: r.range }),
          ...(properties && { properties }),
          ...(r.quantified && { quantified: this.quantifiedPath(r.quantified, quantified.get(r)!, scope, mode) }),
          ...(r.range && r.quantified === undefined && (path.selector !== undefined || path.shortest !== undefined) && { searched_as: this.oneHop(r, properties) }),
          span: r.span,
        };
      }),
      span: path.span,
    }));
    return { paths: bound, introduced };
  }

  /**
   * The variables of a quantified path pattern: each name inside is a singleton in the pattern's own
   * scope (over the variables bound before this pattern) and a group variable, the list of its
   * values, in the clause's. A name is one or the other: a group variable cannot be bound before,
   * declared outside the pattern, or come from two quantified path patterns.
   */
  private quantifiedVariables(q: QuantifiedPath, scope: Scope, before: Scope, mode: PatternMode, introduced: BoundVariable[]): QuantifiedDeclared {
    const inner = new Scope(before);
    const groups: { inner: BoundVariable; group: BoundVariable }[] = [];
    const declare = (name: string | undefined, kind: 'node' | 'relationship', span: Span): BoundVariable => {
      const type = kind === 'node' ? node_type : relationship_type;
      if (name === undefined) return this.c.variables.hidden(kind === 'node' ? 'node' : 'rel', kind, type);
      if (inner.hasOwn(name)) {
        const own = inner.lookup(name)!;
        requireKind(own, kind, type, name, span);
        return own;
      }
      if (scope.lookup(name) !== undefined) {
        throw bindError(
          'VariableAlreadyBound',
          `variable \`${name}\` is declared inside a quantified path pattern and is already bound outside it; a group variable must be new and belong to one quantified path pattern`,
          span,
        );
      }
      const one = this.c.variables.make(name, kind, type);
      inner.declare(one);
      const group = this.c.variables.make(name, kind === 'node' ? 'value' : 'relationships', listOf(type));
      if (mode !== 'predicate') {
        scope.declare(group);
        introduced.push(group);
      }
      groups.push({ inner: one, group });
      return one;
    };
    const nodes = q.path.nodes.map((n) => declare(n.variable, 'node', n.span));
    const rels = q.path.relationships.map((r) => declare(r.variable, 'relationship', r.span));
    return { scope: inner, nodes, rels, groups };
  }

  /** `()-[:T {props}]->()` over hidden singletons: one hop of a variable-length relationship (see `searched_as`). */
  private oneHop(r: RelationshipPattern, properties: BoundExpression | undefined): BoundQuantifiedPath {
    const node = (): BoundNodePattern => ({ variable: this.c.variables.hidden('node', 'node', node_type), bound: false, labels: [], span: r.span });
    const hop: BoundRelationshipPattern = {
      variable: this.c.variables.hidden('rel', 'relationship', relationship_type),
      bound: false,
      types: r.types,
      direction: r.direction,
      ...(properties && { properties }),
      span: r.span,
    };
    return { path: { nodes: [node(), node()], relationships: [hop], span: r.span }, groups: [] };
  }

  private quantifiedPath(q: QuantifiedPath, d: QuantifiedDeclared, scope: Scope, mode: PatternMode): BoundQuantifiedPath {
    // A name of this MATCH outside the quantified path pattern is not bound while it is matched.
    const written = [q.where, ...q.path.nodes.map((n) => n.properties), ...q.path.relationships.map((r) => r.properties)];
    for (const e of written) {
      if (e === undefined) continue;
      for (const name of mentionedNames(e)) {
        if (d.scope.lookup(name) !== undefined || scope.lookup(name) === undefined) continue;
        throw bindError(
          'UndefinedVariable',
          `\`${name}\` is declared in the same MATCH outside the quantified path pattern; inside one, only its own variables and those bound by earlier clauses can be referenced`,
          e.span,
        );
      }
    }
    const path: BoundPath = {
      nodes: q.path.nodes.map((n, i): BoundNodePattern => {
        const properties = this.properties(n.properties, d.scope, mode);
        return { variable: d.nodes[i]!, bound: false, labels: n.labels, ...(properties && { properties }), span: n.span };
      }),
      relationships: q.path.relationships.map((r, i): BoundRelationshipPattern => {
        const properties = this.properties(r.properties, d.scope, mode);
        return { variable: d.rels[i]!, bound: false, types: r.types, direction: r.direction, ...(properties && { properties }), span: r.span };
      }),
      span: q.span,
    };
    const where = q.where && this.c.expression(q.where, { scope: d.scope, aggregation: 'forbidden', predicate: true });
    return { path, ...(where && { where }), groups: d.groups };
  }

  /** The only relationship of a shortest path part: matched by the search, never bound before it. */
  private requireUnbound(path: PatternPath, scope: Scope): void {
    const r = path.relationships[0]!;
    if (r.variable !== undefined && scope.lookup(r.variable) !== undefined) {
      throw bindError('InvalidShortestPath', `the relationship \`${r.variable}\` of a shortest path cannot be bound before it`, r.span);
    }
  }

  private node(n: NodePattern, path: PatternPath, scope: Scope, mode: PatternMode, introduced: BoundVariable[]): Declared {
    if (n.variable === undefined) return this.anonymous('node', 'node', node_type, mode, introduced);
    const existing = scope.lookup(n.variable);
    if (existing !== undefined) {
      requireKind(existing, 'node', node_type, n.variable, n.span);
      if (mode === 'create' || mode === 'merge') {
        const decorated = n.labels.length > 0 || n.dynamic_labels !== undefined || n.properties !== undefined;
        if (decorated || path.relationships.length === 0) {
          throw bindError(
            'VariableAlreadyBound',
            `variable \`${n.variable}\` is already bound; ${decorated ? 'it cannot be given new labels or properties' : 'it cannot be created again'}`,
            n.span,
          );
        }
      }
      return { variable: existing, bound: !introduced.includes(existing) };
    }
    if (mode === 'predicate') {
      throw bindError('UndefinedVariable', `variable \`${n.variable}\` is not defined (a pattern predicate cannot introduce variables)`, n.span);
    }
    const v = this.c.variables.make(n.variable, 'node', node_type);
    scope.declare(v);
    introduced.push(v);
    return { variable: v, bound: false };
  }

  private relationship(
    r: RelationshipPattern,
    scope: Scope,
    mode: PatternMode,
    introduced: BoundVariable[],
    here: Set<number>,
  ): Declared {
    const kind: VariableKind = r.range !== undefined ? 'relationships' : 'relationship';
    const type = r.range !== undefined ? listOf(relationship_type) : relationship_type;
    const existing = r.variable !== undefined ? scope.lookup(r.variable) : undefined;
    if (existing !== undefined && r.variable !== undefined) {
      requireKind(existing, kind, type, r.variable, r.span);
      if (mode === 'create' || mode === 'merge') {
        throw bindError('VariableAlreadyBound', `variable \`${r.variable}\` is already bound; a relationship cannot be created again`, r.span);
      }
      if (here.has(existing.id)) {
        throw bindError(
          'RelationshipUniquenessViolation',
          `relationship \`${r.variable}\` appears twice in one pattern and can never match`,
          r.span,
        );
      }
      here.add(existing.id);
      return { variable: existing, bound: !introduced.includes(existing) };
    }
    if (mode === 'create' || mode === 'merge') {
      if (r.types.length + (r.dynamic_type !== undefined ? 1 : 0) !== 1) {
        throw bindError(
          'NoSingleRelationshipType',
          `a relationship to ${mode === 'create' ? 'create' : 'merge'} needs exactly one type, found ${r.types.length}`,
          r.span,
        );
      }
      if (r.range !== undefined) {
        throw bindError('CreatingVarLength', `a variable-length relationship cannot be ${mode === 'create' ? 'created' : 'merged'}`, r.span);
      }
      if (mode === 'create' && r.direction === 'both') {
        throw bindError('RequiresDirectedRelationship', 'a relationship to create needs a direction', r.span);
      }
    }
    if (r.variable === undefined) return this.anonymous('rel', kind, type, mode, introduced);
    if (mode === 'predicate') {
      throw bindError('UndefinedVariable', `variable \`${r.variable}\` is not defined (a pattern predicate cannot introduce variables)`, r.span);
    }
    const v = this.c.variables.make(r.variable, kind, type);
    scope.declare(v);
    introduced.push(v);
    here.add(v.id);
    return { variable: v, bound: false };
  }

  /**
   * Labels or a type named by a value, in CREATE and MERGE: evaluated per row (a MATCH made them
   * predicates; MERGE checks the elements its search found against them). Patterns inside expressions
   * refuse them: they are not supported there yet.
   */
  private dynamicNames(d: DynamicNames, scope: Scope, mode: PatternMode): BoundExpression {
    if (mode !== 'create' && mode !== 'merge') {
      throw bindError('UnexpectedSyntax', `dynamic labels and types (\`$(...)\`) are supported in MATCH, CREATE, MERGE, SET and REMOVE, not here`, d.span);
    }
    if (d.mode === 'any') throw bindError('UnexpectedSyntax', 'CREATE and MERGE give every label they name: use $(...), not $any(...)', d.span);
    return this.c.expression(d.expression, { scope, aggregation: 'forbidden', predicate: false });
  }

  /** An unnamed element gets a hidden slot; a pattern predicate's are not introduced into the clause. */
  private anonymous(what: string, kind: VariableKind, type: StaticType, mode: PatternMode, introduced: BoundVariable[]): Declared {
    const variable = this.c.variables.hidden(what, kind, type);
    if (mode !== 'predicate') introduced.push(variable);
    return { variable, bound: false };
  }

  private properties(e: PatternPath['nodes'][number]['properties'], scope: Scope, mode: PatternMode): BoundExpression | undefined {
    if (e === undefined) return undefined;
    if (e.kind === 'parameter' && mode !== 'create') {
      throw bindError(
        'InvalidParameterUse',
        'a parameter cannot stand for the properties of a pattern to match; write {key: $param.key}',
        e.span,
      );
    }
    return this.c.expression(e, { scope, aggregation: 'forbidden', predicate: false });
  }
}

/** A quantified path pattern's variables, declared before its expressions are bound. */
interface QuantifiedDeclared {
  readonly scope: Scope;
  readonly nodes: readonly BoundVariable[];
  readonly rels: readonly BoundVariable[];
  readonly groups: readonly { readonly inner: BoundVariable; readonly group: BoundVariable }[];
}

/** A selective path selector needs MATCH, and its path pattern must be the only one of the clause. */
function requireSelectorAlone(paths: readonly PatternPath[], mode: PatternMode): void {
  const selective = paths.find((p) => p.selector !== undefined);
  if (selective === undefined) return;
  if (mode !== 'match') throw bindError('InvalidPathSelector', 'a path selector is only allowed in MATCH and OPTIONAL MATCH', selective.span);
  if (paths.length > 1) {
    throw bindError('InvalidPathSelector', 'a path pattern with a selective path selector must be the only path pattern of its MATCH', selective.span);
  }
}

/** A variable reused in a pattern must hold what the pattern expects (a value of unknown type may). */
function requireKind(existing: BoundVariable, kind: VariableKind, type: StaticType, name: string, span: NodePattern['span']): void {
  if (existing.kind === kind) return;
  if (existing.kind === 'value' && (existing.type.kind === 'any' || existing.type.kind === 'null' || (existing.type === any_type))) return;
  if (kind === 'relationships' && existing.kind === 'value' && existing.type.kind === 'list' && existing.type.element.kind === 'any') return;
  throw bindError(
    'VariableTypeConflict',
    `variable \`${name}\` is a ${describeType(existing.type)} and cannot be used as a ${describeType(type)}`,
    span,
  );
}

/**
 * A `shortestPath(...)` or `allShortestPaths(...)` part, checked: MATCH only, one relationship, a
 * search from length 0 or 1. A fixed-length relationship is searched as `*1..1`, so its variable,
 * like any variable-length one, holds a list.
 */
function shortestPart(path: PatternPath, mode: PatternMode): PatternPath {
  const name = path.shortest === 'all' ? 'allShortestPaths' : 'shortestPath';
  if (mode !== 'match') throw bindError('InvalidShortestPath', `${name}(...) is only allowed in MATCH and OPTIONAL MATCH`, path.span);
  if (path.relationships.some((r) => r.quantified !== undefined)) {
    throw bindError('InvalidShortestPath', `${name}(...) takes a variable-length relationship, not a quantified path pattern`, path.span);
  }
  if (path.relationships.length !== 1) {
    throw bindError('InvalidShortestPath', `${name}(...) needs a pattern of exactly one relationship between two nodes`, path.span);
  }
  const r = path.relationships[0]!;
  const min = r.range?.min ?? 1;
  if (min > 1) throw bindError('InvalidShortestPath', `${name}(...) searches from length 0 or 1, not ${min}`, r.span);
  return r.range === undefined ? { ...path, relationships: [{ ...r, range: { min: 1, max: 1 } }] } : path;
}
