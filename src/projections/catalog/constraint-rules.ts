import type { ConstraintKindName, ConstraintScopeSpec, PropertyTypeSpec, SchemaEvent } from '../../log/events.js';
import type { GraphStore, Refusal } from '../graph/graph-store.js';
import { visibleNode } from '../graph/records.js';
import type { Catalog } from './catalog.js';
import { checkConstraintOnNode } from './enforce.js';
import type { ConstraintRecord } from './types.js';
import { sameType } from './value-types.js';
import { checkName, checkType, exists, invalid } from './validate.js';

/** The rules of SPEC 4.3 rule 5 for a constraint, as pure checks shared by admission and apply. */
export interface ConstraintShape {
  readonly label: string;
  readonly constraint: ConstraintKindName;
  readonly properties: readonly string[];
  readonly property_type?: PropertyTypeSpec;
  readonly scope?: ConstraintScopeSpec;
}

export function checkConstraintShape(s: ConstraintShape, rename: string): Refusal | undefined {
  const bad = checkName(s.label, 'label');
  if (bad !== undefined) return bad;
  const single = s.constraint === 'NOT_NULL' || s.constraint === 'PROPERTY_TYPE';
  if (single && s.properties.length !== 1) return invalid(`a ${s.constraint} constraint takes exactly one property, not ${s.properties.length}`);
  if (!single && s.properties.length === 0) return invalid(`a ${s.constraint} constraint takes one or more properties`);
  const seen = new Set<string>();
  for (const p of s.properties) {
    const badName = checkName(p, 'a property name');
    if (badName !== undefined) return badName;
    if (seen.has(p)) return invalid(`property ${p} is named twice`, 'DUPLICATE_PROPERTY', { property: p });
    seen.add(p);
  }
  if (s.constraint === 'PROPERTY_TYPE') {
    if (s.property_type === undefined) return invalid('a PROPERTY_TYPE constraint needs property_type');
    const badType = checkType(s.property_type, 'property_type');
    if (badType !== undefined) return badType;
  } else if (s.property_type !== undefined) {
    return invalid(`property_type must be unset for a ${s.constraint} constraint`);
  }
  if (s.scope !== undefined) {
    if (s.constraint !== 'UNIQUE') return invalid('only a UNIQUE constraint takes a scope');
    if (s.scope.property === '') return invalid('scope.property is required');
  }
  if (rename !== '') {
    if (s.constraint !== 'UNIQUE' && s.constraint !== 'NODE_KEY') return invalid('on_duplicate_rename is for UNIQUE and NODE_KEY constraints only');
    if (!s.properties.includes(rename)) return invalid(`on_duplicate_rename names ${rename}, which is not among the constrained properties`);
  }
  return undefined;
}

/** Whether two constraints require the same of the same properties of the same label (SPEC 4.3 rule 5). */
export function sameRequirement(a: ConstraintShape, b: ConstraintShape): boolean {
  return (
    a.label === b.label &&
    a.constraint === b.constraint &&
    a.properties.length === b.properties.length &&
    a.properties.every((p, i) => p === b.properties[i]) &&
    sameType(a.property_type, b.property_type) &&
    sameScope(a.scope, b.scope)
  );
}

function sameScope(a: ConstraintScopeSpec | undefined, b: ConstraintScopeSpec | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (a.property !== b.property || a.test !== b.test) return false;
  return a.test === 'present' || (b.test === 'equals' && a.value === b.value);
}

export function equivalentConstraint(catalog: Catalog, s: ConstraintShape): ConstraintRecord | undefined {
  for (const c of catalog.constraints.values()) if (sameRequirement(c, s)) return c;
  return undefined;
}

/** A name derived from what the constraint requires, free in the catalog: `Person_email_unique`. */
export function deriveConstraintName(catalog: Catalog, s: ConstraintShape): string {
  const base = `${s.label}_${s.properties.join('_')}_${s.constraint.toLowerCase()}`;
  let name = base;
  for (let n = 2; catalog.constraints.has(name) || catalog.indexByName(name) !== undefined; n++) name = `${base}_${n}`;
  return name;
}

export function freeIndexName(catalog: Catalog, base: string): string {
  let name = base;
  for (let n = 2; catalog.indexByName(name) !== undefined; n++) name = `${base}_${n}`;
  return name;
}

export function checkConstraintCreated(event: Extract<SchemaEvent, { kind: 'constraint_created' }>, catalog: Catalog, graph: GraphStore): Refusal | undefined {
  const bad = checkName(event.name, 'the constraint name') ?? checkConstraintShape(event, event.index?.rename_property ?? '');
  if (bad !== undefined) return bad;
  if (catalog.constraints.has(event.name)) return exists(`constraint ${event.name} already exists`, 'CONSTRAINT_EXISTS', { constraint: event.name });
  const same = equivalentConstraint(catalog, event);
  if (same !== undefined) {
    return exists(`constraint ${same.name} already requires this of ${event.label}`, 'CONSTRAINT_EXISTS', { constraint: same.name });
  }
  const needsIndex = event.constraint === 'UNIQUE' || event.constraint === 'NODE_KEY';
  if (needsIndex !== (event.index !== undefined)) return invalid(`a ${event.constraint} constraint ${needsIndex ? 'needs' : 'has no'} backing index`);
  if (event.index !== undefined) {
    const badIndex = checkIndexAdmission(event.index, catalog);
    if (badIndex !== undefined) return badIndex;
    return undefined;
  }
  // Kinds checked per node are ACTIVE at once, so the stored nodes must already satisfy them.
  const record: ConstraintRecord = { ...event, state: 'ACTIVE' };
  for (const r of graph.recordsWithLabel(event.label)) {
    const v = visibleNode(r, Number.POSITIVE_INFINITY);
    if (v === undefined || !v.labels.includes(event.label)) continue;
    const refusal = checkConstraintOnNode(record, v.id, v);
    if (refusal !== undefined) {
      return {
        code: 'FAILED_PRECONDITION',
        reason: 'CONSTRAINT_VALIDATION_FAILED',
        message: `stored data breaks constraint ${event.name}: ${refusal.message}`,
        metadata: { ...refusal.metadata },
      };
    }
  }
  return undefined;
}

export function checkIndexAdmission(index: { index_id: number; name: string; operation: number }, catalog: Catalog): Refusal | undefined {
  const bad = checkName(index.name, 'the index name');
  if (bad !== undefined) return bad;
  if (catalog.indexByName(index.name) !== undefined || catalog.constraints.has(index.name)) {
    return exists(`an index or constraint named ${index.name} already exists`, 'INDEX_EXISTS', { index: index.name });
  }
  if (index.index_id < catalog.nextIndexId || index.operation < catalog.nextOperation) {
    return { code: 'ABORTED', reason: 'STALE_ADMISSION', message: 'the index id or operation was already used; retry', metadata: {} };
  }
  return undefined;
}
