import type { Expression } from '../ast/expression.js';
import type { CreateConstraintStatement, CreateIndexStatement, PropertyRef, TypeRef } from '../ast/statement.js';
import type { Span } from '../ast/span.js';
import { assertNever } from '../../common/assert.js';
import type { BoundConstraintScope, BoundCreateConstraint, BoundCreateIndex, BoundPropertyType } from './bound-statement.js';
import { bindSearchIndex } from './bind-search-index.js';
import { bindError } from './context.js';

/** The largest vector width a property type may declare (SPEC 2.4: 1 to 65536; 0 means any). */
export const vector_dimensions_max = 65536;

const scalar_names: Readonly<Record<string, Extract<BoundPropertyType, { kind: 'scalar' }>['scalar']>> = {
  STRING: 'STRING',
  INTEGER: 'INT64',
  INT: 'INT64',
  INT64: 'INT64',
  FLOAT: 'FLOAT64',
  FLOAT64: 'FLOAT64',
  BOOLEAN: 'BOOL',
  BOOL: 'BOOL',
  TIMESTAMP: 'TIMESTAMP',
  BLOB: 'BLOB',
  BINARY: 'BINARY',
  BYTES: 'BINARY',
  MAP: 'MAP',
  GEO: 'GEO',
  POINT: 'GEO',
  DOCUMENT: 'DOCUMENT',
};

function propertyType(t: TypeRef): BoundPropertyType {
  const name = t.name.toUpperCase();
  if (name === 'LIST' || name === 'ARRAY') {
    if (t.element === undefined) throw bindError('InvalidPropertyType', `${t.name} needs an element type: ${t.name}<TYPE>`, t.span);
    return { kind: 'array', element: propertyType(t.element) };
  }
  if (name === 'VECTOR') {
    const dimensions = t.size ?? 0;
    if (dimensions > vector_dimensions_max) {
      throw bindError('InvalidPropertyType', `a vector has at most ${vector_dimensions_max} dimensions, not ${dimensions}`, t.span);
    }
    return { kind: 'vector', dimensions };
  }
  const scalar = scalar_names[name];
  if (scalar === undefined || t.element !== undefined || t.size !== undefined) {
    throw bindError('InvalidPropertyType', `unknown property type ${t.name}`, t.span);
  }
  return { kind: 'scalar', scalar };
}

function checkProperties(refs: readonly PropertyRef[], variable: string | undefined, span: Span): string[] {
  const out: string[] = [];
  for (const r of refs) {
    if (variable !== undefined && r.variable !== variable) {
      throw bindError('UndefinedVariable', `variable \`${r.variable}\` is not defined; the pattern names \`${variable}\``, r.span);
    }
    if (out.includes(r.key)) throw bindError('InvalidArgumentValue', `property \`${r.key}\` is named twice`, r.span);
    out.push(r.key);
  }
  if (out.length === 0) throw bindError('InvalidArgumentValue', 'at least one property is needed', span);
  return out;
}

/**
 * A uniqueness scope (SPEC 2.4 ConstraintScope) written as a predicate on one property:
 * `n.p = 'x'` (or an integer or boolean), `'x' = n.p`, or `n.p IS NOT NULL`. Without a pattern
 * variable (`ON Label(prop)`) the property is written bare (`status = 'active'`) or as `Label.status`.
 */
function scope(where: Expression, variable: string | undefined, label: string): BoundConstraintScope {
  const property = (e: Expression): string | undefined => {
    if (variable === undefined && e.kind === 'variable') return e.name;
    if (e.kind === 'property' && e.object.kind === 'variable') {
      const owner = e.object.name;
      if (owner === variable || (variable === undefined && owner === label)) return e.key;
      throw bindError('UndefinedVariable', `variable \`${owner}\` is not defined in this statement`, e.object.span);
    }
    return undefined;
  };
  const refuse = (): never => {
    throw bindError(
      'InvalidArgumentValue',
      'a uniqueness scope is one test of one property: `p = <string, integer or boolean>` or `p IS NOT NULL`',
      where.span,
    );
  };
  if (where.kind === 'is_null' && where.negated) {
    const p = property(where.operand);
    return p !== undefined ? { property: p, kind: 'present' } : refuse();
  }
  if (where.kind === 'binary' && where.op === 'eq') {
    const [prop, lit] = property(where.left) !== undefined ? [where.left, where.right] : [where.right, where.left];
    const p = property(prop);
    if (p === undefined || lit.kind !== 'literal') return refuse();
    const v = lit.value;
    if (typeof v === 'string' || typeof v === 'bigint' || typeof v === 'boolean') return { property: p, kind: 'equals', value: v };
  }
  return refuse();
}

export function bindCreateConstraint(s: CreateConstraintStatement): BoundCreateConstraint {
  const properties = checkProperties(s.property_refs, s.variable, s.span);
  const common = {
    kind: 'create_constraint' as const,
    ...(s.name !== undefined && { name: s.name }),
    if_not_exists: s.if_not_exists,
    label: s.label,
    properties,
    span: s.span,
  };
  if (s.where !== undefined && s.requirement.kind !== 'unique') {
    throw bindError('InvalidArgumentValue', 'only a UNIQUE constraint can have a scope (WHERE)', s.where.span);
  }
  const r = s.requirement;
  switch (r.kind) {
    case 'unique':
      return { ...common, constraint: 'UNIQUE', ...(s.where && { scope: scope(s.where, s.variable, s.label) }) };
    case 'node_key':
      return { ...common, constraint: 'NODE_KEY' };
    case 'not_null':
      return { ...common, constraint: 'NOT_NULL' };
    case 'property_type':
      return { ...common, constraint: 'PROPERTY_TYPE', property_type: propertyType(r.type) };
    default:
      return assertNever(r, 'constraint requirement');
  }
}

export function bindCreateIndex(s: CreateIndexStatement): BoundCreateIndex {
  const properties =
    s.variable !== undefined
      ? checkProperties(s.property_refs, s.variable, s.span)
      : checkProperties(
          s.properties.map((key) => ({ variable: '', key, span: s.span })),
          undefined,
          s.span,
        );
  if (s.where !== undefined && !s.unique) {
    throw bindError('InvalidArgumentValue', 'only a UNIQUE index can have a scope (WHERE)', s.where.span);
  }
  const search = s.search === undefined ? undefined : bindSearchIndex(s.search, properties);
  return {
    ...(search !== undefined && { search }),
    kind: 'create_index',
    ...(s.name !== undefined && { name: s.name }),
    unique: s.unique,
    if_not_exists: s.if_not_exists,
    label: s.label,
    properties,
    ...(s.where && { scope: scope(s.where, s.variable, s.label) }),
    span: s.span,
  };
}
