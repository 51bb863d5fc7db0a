import type { ComputedPropertySpec, PropertyDefinitionSpec, PropertyTypeSpec, SchemaEvent, SearchIndexSpec } from '../../log/events.js';
import type { Refusal } from '../graph/graph-store.js';
import type { Catalog } from './catalog.js';
import { typeText, valueHasType } from './value-types.js';
import { checkValidTimeDeclarations } from '../temporal/valid-time-checks.js';

/**
 * The rules of SPEC 4.3 for definitions, as pure checks against the catalog. Admission runs them
 * before proposing and apply runs them again, so every member refuses alike.
 */
export const vector_dimensions_max = 65536;
export const schema_name_length_max = 1024;

const DISCRIMINATOR_TYPES = new Set(['INT64', 'FLOAT64', 'BOOL', 'TIMESTAMP', 'STRING', 'BLOB']);

export function invalid(message: string, reason = 'INVALID_SCHEMA', metadata: Record<string, string> = {}): Refusal {
  return { code: 'INVALID_ARGUMENT', reason, message, metadata };
}

export function exists(message: string, reason: string, metadata: Record<string, string>): Refusal {
  return { code: 'ALREADY_EXISTS', reason, message, metadata };
}

export function checkName(name: string, what: string): Refusal | undefined {
  if (name === '') return invalid(`${what} must not be empty`);
  if (name.length > schema_name_length_max) return invalid(`${what} is longer than ${schema_name_length_max} characters`);
  return undefined;
}

export function checkType(t: PropertyTypeSpec, where: string): Refusal | undefined {
  switch (t.kind) {
    case 'scalar':
      return undefined;
    case 'vector':
      if (!Number.isInteger(t.dimensions) || t.dimensions < 0 || t.dimensions > vector_dimensions_max) {
        return invalid(`${where}: vector dimensions must be 1 to ${vector_dimensions_max}, or 0 for any length`);
      }
      return undefined;
    case 'array':
      return checkType(t.element, `${where} element`);
  }
}

function checkProperties(props: readonly PropertyDefinitionSpec[], owner: string): Refusal | undefined {
  const seen = new Set<string>();
  for (const p of props) {
    const bad = checkName(p.name, `${owner}: a property name`) ?? checkType(p.type, `${owner}.${p.name}`);
    if (bad !== undefined) return bad;
    if (seen.has(p.name)) return invalid(`${owner}: property ${p.name} is declared twice`, 'DUPLICATE_PROPERTY', { property: p.name });
    seen.add(p.name);
    if (p.default_value !== undefined && !valueHasType(p.default_value, p.type)) {
      return invalid(`${owner}.${p.name}: the default value is not of type ${typeText(p.type)}`, 'INVALID_DEFAULT', { property: p.name });
    }
  }
  return undefined;
}

function checkComputed(c: ComputedPropertySpec, props: readonly PropertyDefinitionSpec[], owner: string): Refusal | undefined {
  const where = `${owner}.${c.name}`;
  const anchor = props.find((p) => p.name === c.anchor_field);
  if (c.anchor_field === '') return invalid(`${where}: anchor_field is required`, 'INVALID_COMPUTED_PROPERTY');
  if (anchor === undefined || anchor.type.kind !== 'scalar' || anchor.type.scalar !== 'TIMESTAMP') {
    return invalid(`${where}: anchor_field ${c.anchor_field} must be a stored TIMESTAMP property of ${owner}`, 'INVALID_COMPUTED_PROPERTY');
  }
  if (!(c.duration_secs > 0)) return invalid(`${where}: duration_secs must be greater than 0`, 'INVALID_COMPUTED_PROPERTY');
  if (c.computed_type !== 'TTL') {
    if (c.formula_type === 'EXPONENTIAL' && !(c.lambda > 0)) return invalid(`${where}: EXPONENTIAL needs lambda > 0`, 'INVALID_COMPUTED_PROPERTY');
    if (c.formula_type === 'POWER_LAW' && !(c.tau > 0 && c.alpha > 0)) {
      return invalid(`${where}: POWER_LAW needs tau > 0 and alpha > 0`, 'INVALID_COMPUTED_PROPERTY');
    }
  }
  if (c.computed_type === 'TTL' && c.scope === 'SUBTREE') {
    const target = props.find((p) => p.name === c.target_field);
    if (target === undefined || target.type.kind !== 'scalar' || target.type.scalar !== 'DOCUMENT') {
      return invalid(`${where}: a SUBTREE TTL names a DOCUMENT property of ${owner} in target_field`, 'INVALID_COMPUTED_PROPERTY');
    }
  } else if (c.target_field !== '') {
    return invalid(`${where}: target_field is only for a TTL with scope SUBTREE`, 'INVALID_COMPUTED_PROPERTY');
  }
  return undefined;
}

/** CreateLabel and CreateEdgeType (SPEC 4.3 rules 2 and 3). */
export function checkDefinition(event: Extract<SchemaEvent, { kind: 'label_defined' | 'edge_type_defined' }>, catalog: Catalog): Refusal | undefined {
  if (event.kind === 'label_defined') {
    const bad = checkName(event.name, 'the label name') ?? checkProperties(event.properties, event.name);
    if (bad !== undefined) return bad;
    if (catalog.labels.has(event.name)) {
      return exists(`label ${event.name} already has a definition`, 'LABEL_EXISTS', { label: event.name });
    }
    const seen = new Set(event.properties.map((p) => p.name));
    for (const c of event.computed) {
      const badName = checkName(c.name, `${event.name}: a computed property name`);
      if (badName !== undefined) return badName;
      if (seen.has(c.name)) {
        return invalid(`${event.name}: computed property ${c.name} repeats a property name`, 'DUPLICATE_PROPERTY', { property: c.name });
      }
      seen.add(c.name);
      const badComputed = checkComputed(c, event.properties, event.name);
      if (badComputed !== undefined) return badComputed;
    }
    return temporalDeclarations(event.temporal, event.name, event.properties);
  }
  const bad = checkName(event.name, 'the edge type name') ?? checkProperties(event.properties, event.name);
  if (bad !== undefined) return bad;
  if (catalog.edgeTypes.has(event.name)) {
    return exists(`edge type ${event.name} already has a definition`, 'EDGE_TYPE_EXISTS', { edge_type: event.name });
  }
  if (event.discriminator !== '') {
    const d = event.properties.find((p) => p.name === event.discriminator);
    if (d === undefined) return invalid(`discriminator ${event.discriminator} is not a declared property of ${event.name}`, 'INVALID_DISCRIMINATOR');
    if (!d.required) return invalid(`discriminator ${event.discriminator} must be required (NOT NULL)`, 'INVALID_DISCRIMINATOR');
    if (d.type.kind !== 'scalar' || !DISCRIMINATOR_TYPES.has(d.type.scalar)) {
      return invalid(
        `discriminator ${event.discriminator} has type ${typeText(d.type)}; it must be INT64, FLOAT64, BOOL, TIMESTAMP, STRING or BLOB`,
        'INVALID_DISCRIMINATOR',
      );
    }
  }
  return temporalDeclarations(event.temporal, event.name, event.properties);
}

function temporalDeclarations(temporal: boolean, owner: string, props: readonly PropertyDefinitionSpec[]): Refusal | undefined {
  const bad = temporal ? checkValidTimeDeclarations(owner, props) : undefined;
  return bad === undefined ? undefined : invalid(bad, 'INVALID_VALID_TIME');
}

/** HNSW degree bounds: below 2 the graph does not connect; above 100 it only costs memory. */
export const vector_index_m_min = 2;
export const vector_index_m_max = 100;
export const vector_index_ef_construction_max = 4096;
/** What an index gets when its definition names no HNSW settings (Cypher DDL and the SchemaService alike). */
export const vector_index_m_default = 16;
export const vector_index_ef_construction_default = 100;

/** A vector index covers one property with a fixed width; a text index one or more properties. */
export function checkSearchSpec(spec: SearchIndexSpec, properties: readonly string[]): Refusal | undefined {
  switch (spec.kind) {
    case 'vector':
      if (properties.length !== 1) return invalid('a vector index covers exactly one property', 'INVALID_INDEX');
      if (!Number.isInteger(spec.dimensions) || spec.dimensions < 1 || spec.dimensions > vector_dimensions_max) {
        return invalid(`a vector index needs vector.dimensions from 1 to ${vector_dimensions_max}, not ${spec.dimensions}`, 'INVALID_INDEX', {
          dimensions: String(spec.dimensions),
        });
      }
      if (!Number.isInteger(spec.m) || spec.m < vector_index_m_min || spec.m > vector_index_m_max) {
        return invalid(`vector.hnsw.m must be ${vector_index_m_min} to ${vector_index_m_max}`, 'INVALID_INDEX');
      }
      if (!Number.isInteger(spec.ef_construction) || spec.ef_construction < 1 || spec.ef_construction > vector_index_ef_construction_max) {
        return invalid(`vector.hnsw.ef_construction must be 1 to ${vector_index_ef_construction_max}`, 'INVALID_INDEX');
      }
      return undefined;
    case 'text':
      return undefined;
  }
}
